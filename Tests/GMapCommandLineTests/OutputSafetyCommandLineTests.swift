import Foundation
import XCTest
import GMap
import GMapTestSupport

/// Nothing lost (issue 23, parts 1 and 2): an output path never destroys an input or a device, and
/// answers that cannot be written make the command fail instead of exiting 0.
final class OutputSafetyCommandLineTests: CommandLineTestCase {
    /// A small GeoJSON input in the test's folder, and its bytes.
    private func input() throws -> (path: String, bytes: Data) {
        let path = self.path("in.geojson")
        try FileManager.default.copyItem(atPath: TestSupport.fixtures.appendingPathComponent("spec-example.geojson").path, toPath: path)
        return (path, try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    func testAnOutputThatIsAnInputIsRefusedBeforeAnythingIsRead() throws {
        let (source, bytes) = try input()
        let link = path("link.geojson")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: source)
        for output in [source, temporary.path + "/./in.geojson", link] {
            try assertFails(["build", source, "-o", output],
                            stderr: "gmap: cannot write \(output): it is the input \(source) (the same file); writing it would destroy the input\n")
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: source)), bytes, "the input is intact")
        }
        // A layered build, export and render name the input they would destroy too.
        try assertFails(["build", "--layer", "a=\(source)", "-o", link],
                        stderr: "gmap: cannot write \(link): it is the input \(source) (the same file); writing it would destroy the input\n")
        let map = path("map.gmap")
        XCTAssertEqual(try run(["build", source, "-o", map, "-q"]).status, 0)
        let mapBytes = try Data(contentsOf: URL(fileURLWithPath: map))
        try assertFails(["export", map, "-o", map], stderr: "gmap: cannot write \(map): it is the input \(map) (the same file); writing it would destroy the input\n")
        try assertFails(["render", map, "-o", map], stderr: "gmap: cannot write \(map): it is the input \(map) (the same file); writing it would destroy the input\n")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: map)), mapBytes)
        let pbf = path("x.osm.pbf")
        try Data([0, 0, 0, 1]).write(to: URL(fileURLWithPath: pbf))
        try assertFails(["build", "--osm", pbf, "-o", pbf], stderr: "gmap: cannot write \(pbf): it is the input \(pbf) (the same file); writing it would destroy the input\n")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: pbf)), Data([0, 0, 0, 1]))
    }

    func testAnOutputThatIsNotARegularFileIsRefusedAndLeftAsItWas() throws {
        let (source, _) = try input()
        let fifo = path("fifo")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let directory = path("folder")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let devices = Self.characterDevices(["/dev/null", "/dev/zero", "/dev/full"])
        for (output, kind) in [(fifo, "a FIFO"), (directory, "a directory")] + devices.map({ ($0, "a character device") }) {
            try assertFails(["build", source, "-o", output], stderr: "gmap: cannot write \(output): it is \(kind), not a regular file; give the path of a file\n")
            try assertFails(["build", source, "-o", output, "--format", "2.1"], stderr: "gmap: cannot write \(output): it is \(kind), not a regular file; give the path of a file\n")
        }
        var info = stat()
        XCTAssertEqual(lstat(fifo, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "the FIFO is still a FIFO")
        XCTAssertEqual(Self.characterDevices(devices), devices, "the devices are still devices")
        if devices.isEmpty { throw XCTSkip("no character device among /dev/null, /dev/zero, /dev/full on this machine (a sandbox); the FIFO and directory cases ran") }
    }

    /// The paths among `paths` that are character devices here. Some sandboxes make /dev/null a
    /// regular file; a test must neither expect a device there nor write to it.
    private static func characterDevices(_ paths: [String]) -> [String] {
        paths.filter { path in
            var info = stat()
            return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFCHR
        }
    }

    /// `gmap bench --answers` and `--save-points` are checked like the other outputs, before anything is
    /// measured: not an input (the map, the points file), not a directory or a FIFO; a good path is written.
    func testBenchOutputsAreCheckedLikeTheOthers() throws {
        let (source, _) = try input()
        let map = path("map.gmap"), points = path("points.txt")
        XCTAssertEqual(try run(["build", source, "-o", map, "-q"]).status, 0)
        try Data("1 1\n".utf8).write(to: URL(fileURLWithPath: points))
        let fifo = path("fifo")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        for option in ["--answers", "--save-points"] {
            for input in [points, map] {
                try assertFails(["bench", map, "--points-file", points, option, input],
                                stderr: "gmap: cannot write \(input): it is the input \(input) (the same file); writing it would destroy the input\n")
            }
            for (output, kind) in [(temporary.path, "a directory"), (fifo, "a FIFO")] {
                try assertFails(["bench", map, "--points-file", points, option, output],
                                stderr: "gmap: cannot write \(output): it is \(kind), not a regular file; give the path of a file\n")
            }
            try assertFails(["bench", map, "--points-file", points, option, path("missing/out.txt")],
                            stderr: "gmap: cannot write \(path("missing/out.txt")): directory \(path("missing")) does not exist\n")
        }
        XCTAssertEqual(try String(contentsOfFile: points, encoding: .utf8), "1 1\n", "the points file is intact")
        let answers = path("answers.txt"), saved = path("saved.txt")
        let result = try run(["bench", map, "--points-file", points, "--answers", answers, "--save-points", saved, "--runs", "1", "--walks", "1"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try String(contentsOfFile: answers, encoding: .utf8).filter { $0 == "\n" }.count, 1)
        XCTAssertEqual(try String(contentsOfFile: saved, encoding: .utf8), "# file: 1 points\n1.0,1.0\n")
    }

    /// A symbolic link as the output is written through: the link stays a link, its target gets the map.
    func testASymbolicLinkIsWrittenThrough() throws {
        let (source, _) = try input()
        let target = path("real.gmap"), link = path("link.gmap")
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.gmap")
        let result = try run(["build", source, "-o", link, "-q"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), "real.gmap", "still a link")
        let written = try Data(contentsOf: URL(fileURLWithPath: target))
        XCTAssertEqual(written.prefix(5), Data([0x89] + Array("GMAP".utf8)), "the target holds the map")
        XCTAssertNotEqual(try run(["query", link, "1", "1"]).status, 2, "the map answers through the link")
    }

    /// A map path that is not a file is named by its kind, at once: a FIFO without a writer does
    /// not block, a device is not read; a header whose length disagrees with the file says both.
    func testAMapThatIsNotAFileIsNamedByItsKind() throws {
        let fifo = path("fifo.gmap")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let devices = Self.characterDevices(["/dev/zero", "/dev/null"]).map { ($0, "a character device") }
        for (map, kind) in devices + [(temporary.path, "a directory"), (fifo, "a FIFO (a pipe)")] {
            try assertFails(["query", map, "1", "1"], stderr: "gmap: \(map) is \(kind), not a map file\n")
            try assertFails(["info", map], stderr: "gmap: \(map) is \(kind), not a map file\n")
        }
        // A damaged file_length (the header's u64 at FormatLayout.Header.fileLength): its claim against the file's size.
        let world = try Data(contentsOf: URL(fileURLWithPath: TestSupport.shippedMap))
        var damaged = world
        let at = FormatLayout.Header.fileLength
        damaged.replaceSubrange(at..<(at + 8), with: [UInt8](repeating: 0xFF, count: 8))
        let map = path("damaged.gmap")
        try damaged.write(to: URL(fileURLWithPath: map))
        try assertFails(["query", map, "1", "1"], stderr: "gmap: truncated gmap file: the header says 18446744073709551615 bytes, \(world.count) are present\n")
    }

    /// Answers that cannot be written (a full disk, a closed standard output) are an error, exit 2;
    /// a reader that goes away (`| head`) still ends the process by SIGPIPE.
    func testWriteErrorsOnStandardOutputFail() throws {
        guard let gmap = Self.executable?.path else { throw XCTSkip("the gmap executable is not built") }
        func shell(_ command: String) throws -> (status: Int32, stderr: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", command]
            let error = Pipe()
            process.standardError = error
            try process.run()
            let stderr = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, stderr)
        }
        let quoted = "'" + gmap + "'"
        var result = try shell("\(quoted) query 36.14 -5.35 >&-")
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr, "gmap: cannot write standard output: Bad file descriptor\n")
        guard Self.characterDevices(["/dev/full"]) == ["/dev/full"] else {
            throw XCTSkip("/dev/full is not a device on this machine (a sandbox); the full-disk cases did not run")
        }
        result = try shell("\(quoted) query 36.14 -5.35 > /dev/full")
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr, "gmap: cannot write standard output: No space left on device\n")
        result = try shell("printf '36.14 -5.35\\n0 -30\\n' | \(quoted) query - > /dev/full")
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr, "gmap: cannot write standard output: No space left on device\n")
        result = try shell("\(quoted) info > /dev/full")
        XCTAssertEqual(result.status, 2)
        result = try shell("\(quoted) query 36.14 -5.35 > /dev/null")
        XCTAssertEqual(result.status, 0, "a working output is no error")
        XCTAssertEqual(result.stderr, "")
    }
}
