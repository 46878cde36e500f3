import Foundation
import XCTest
import GMapTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Input that fails is not an answer (issue 37): a read error on standard input (a directory, a
/// closed descriptor, a socket reset mid-line) ends every reader of it with exit 2 and a message
/// naming the line it stopped after, and a cut last line is never answered; `verify` refuses a FIFO
/// and a directory at once (exit 2); a bus error ends the tool at once; `export -o -` to a full
/// disk says nothing was written; and a long search text is not echoed whole.
final class InputFailureCommandLineTests: CommandLineTestCase {
    /// The forms that read lines or rows from standard input, each with the map it needs.
    private func standardInputForms() throws -> [[String]] {
        let world = TestSupport.shippedMap
        let location = path("small.gmap")
        try Data(PBFFixture.file(compression: .zlib)).write(to: URL(fileURLWithPath: path("small.osm.pbf")))
        XCTAssertEqual(try run(["build", "--osm", path("small.osm.pbf"), "-o", location]).status, 0)
        return [["query", world, "-"], ["query", world, "--all", "-"], ["place", world, "-"], ["query", world, "--csv", "-"],
                ["where", location, "--replay", "-"]]
    }

    /// Runs `gmap` through `sh -c` so that its standard input can be redirected as `redirect` says.
    private func runShell(_ arguments: [String], redirect: String) throws -> (status: Int32, stdout: String, stderr: String) {
        let executable = try XCTUnwrap(Self.executable).path
        let command = ([executable] + arguments).map { "'" + $0 + "'" }.joined(separator: " ") + " " + redirect
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile(), err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    /// A directory as standard input, and a closed standard input: exit 2 and the read error, for
    /// every form (before issue 37: exit 0 and no message).
    func testAReadErrorOnStandardInputIsAnError() throws {
        for form in try standardInputForms() {
            // A closed descriptor 0 may be taken by a sanitizer runtime's own files before main: only the directory then.
            let cases = [("< '\(temporary.path)'", "Is a directory")] + (TestSupport.underSanitizer ? [] : [("<&-", "Bad file descriptor")])
            for (redirect, reason) in cases {
                let result = try runShell(form, redirect: redirect)
                XCTAssertEqual(result.status, 2, "\(form) \(redirect): \(result.stderr)")
                XCTAssertTrue(result.stderr.contains("cannot read standard input after line 0: \(reason)"), "\(form) \(redirect): \(result.stderr)")
            }
        }
    }

    /// A connection reset after a whole line and half of the next: the whole line may be answered,
    /// the cut one never is, and the run ends with exit 2 (before issue 37 the cut line "40.4" was
    /// answered as if it were the whole line).
    func testAResetConnectionAnswersNoCutLine() throws {
        let (reader, writer) = try Self.connectedTCPPair()
        // Gibraltar whole, then the start of "40.41 -3.70" (Madrid): "40.4 -3" alone is a point in Spain too.
        let sent = "36.14 -5.35\n40.4 -3"
        _ = sent.withCString { send(writer, $0, strlen($0), 0) }
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(writer, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        usleep(100_000)
        close(writer)  // with linger 0: a reset, not an end of input
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = ["query", TestSupport.shippedMap, "-"]
        process.standardInput = FileHandle(fileDescriptor: reader, closeOnDealloc: true)
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let err = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 2, err)
        XCTAssertTrue(err.contains("cannot read standard input after line"), err)
        XCTAssertTrue(err.contains("Connection reset"), err)
        XCTAssertFalse(out.contains("ES"), "the cut line is answered: \(out)")
    }

    /// `verify` on a FIFO refuses at once (it blocked in a second open), and on a directory with
    /// exit 2, as its help promises for a file that cannot be read (it said NOT SOUND, exit 1).
    func testVerifyRefusesAFIFOAndADirectory() throws {
        let fifo = path("pipe")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let started = Date()
        try assertFails(["verify", fifo], stderr: "gmap: \(fifo) is a FIFO (a pipe), not a map file\n")
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "verify on a FIFO must not block")
        try assertFails(["verify", temporary.path], stderr: "gmap: \(temporary.path) is a directory, not a map file\n")
    }

    /// A map truncated while `query -` reads it: the tool ends at once with exit 2 and says why (it
    /// could hang in the crash reporter for a minute).
    func testATruncatedMapEndsTheToolAtOnce() throws {
        let map = path("copy.gmap")
        try FileManager.default.copyItem(atPath: TestSupport.shippedMap, toPath: map)
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = ["query", map, "-"]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data("36.14 -5.35\n".utf8))
        usleep(300_000)
        XCTAssertEqual(truncate(map, 4096), 0)
        // Points all over the world: their tiles lie past the cut.
        var lines = ""
        for latitude in stride(from: -60, through: 70, by: 10) {
            for longitude in stride(from: -170, through: 170, by: 10) { lines += "\(latitude) \(longitude)\n" }
        }
        let started = Date()
        input.fileHandleForWriting.write(Data(lines.utf8))
        try? input.fileHandleForWriting.close()
        let err = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        _ = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "the tool must end promptly")
        XCTAssertEqual(process.terminationStatus, 2, err)
        XCTAssertTrue(err.contains("the map changed or was truncated while it was read"), err)
    }

    /// `export -o -` to a full disk: the write error (exit 2), and no "wrote standard output" line.
    func testExportToAFullDiskSaysNothingWasWritten() throws {
        guard FileManager.default.fileExists(atPath: "/dev/full") else { throw XCTSkip("no /dev/full on this system") }
        let map = TestSupport.fixtures.appendingPathComponent("spec-example.gmap").path
        let result = try runShell(["export", map, "-o", "-"], redirect: "> /dev/full")
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertFalse(result.stderr.contains("wrote standard output"), result.stderr)
        XCTAssertTrue(result.stderr.contains("cannot write standard output: No space left on device"), result.stderr)
    }

    /// A 130 KB search text is quoted in part (at most 120 bytes and "…"), not echoed whole.
    func testALongSearchTextIsCutInMessages() throws {
        let text = String(repeating: "q", count: 130_000)
        for command in ["find", "geocode"] {
            // Standard error to a file: a message of 130 KB must fail the test, not fill a pipe nobody reads yet.
            let errors = path("\(command).err")
            let result = try runShell([command, TestSupport.shippedMap, text], redirect: "2> '\(errors)'")
            let message = try String(contentsOfFile: errors, encoding: .utf8)
            XCTAssertEqual(result.status, 1, String(message.prefix(200)))
            XCTAssertLessThan(message.utf8.count, 400, "\(command): \(message.prefix(200))")
            XCTAssertTrue(message.contains("…'"), String(message.prefix(200)))
        }
    }

    /// Two ends of a TCP connection on the loopback interface: the reading end, and the writing end.
    private static func connectedTCPPair() throws -> (Int32, Int32) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                guard bind(listener, generic, length) == 0, listen(listener, 1) == 0, getsockname(listener, generic, &length) == 0 else {
                    throw XCTSkip("no loopback TCP here")
                }
            }
        }
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, length) }
        }
        guard connected == 0 else { throw XCTSkip("cannot connect on loopback") }
        let server = accept(listener, nil, nil)
        guard server >= 0 else { throw XCTSkip("cannot accept on loopback") }
        return (client, server)
    }
}
