import Foundation
import XCTest
import GMapBuilder
import GMapTestSupport

/// Bounded memory on any input (issue 23, part 4): bombs made at test time (a few MB of gzip or ZIP
/// holding gigabytes), a 100 MB batch line. `gmap` runs as a child process under an address-space
/// limit (`ulimit -v`, see ``LimitedRun``); each run must stop at the limit with a message naming it
/// and the option that raises it, quickly, without running out of that memory.
final class InputLimitsCommandLineTests: CommandLineTestCase {
    /// The start of a FeatureCollection whose first feature's properties come next.
    private static let collectionHead = Array(#"{"type":"FeatureCollection","features":[{"type":"Feature","properties":"#.utf8)

    /// Runs gmap under an address-space limit of `mebibytes` MiB; the test fails when it takes more than `seconds`.
    private func measured(_ arguments: [String], standardInput: String? = nil, seconds: Double, mebibytes: Int,
                          file: StaticString = #filePath, line: UInt = #line) throws -> LimitedRun {
        try Self.requireExecutable()
        if TestSupport.underSanitizer {
            throw XCTSkip("the bombs are measured in the release suite: a sanitizer build reserves more address space than ulimit -v allows, and is too slow to time")
        }
        let executable = try XCTUnwrap(Self.executable)
        let result = try LimitedRun.run(executable, arguments, mebibytes: mebibytes, standardInput: standardInput, directory: temporary)
        XCTAssertLessThan(result.seconds, seconds, "\(arguments): time", file: file, line: line)
        return result
    }

    /// 2 MB of gzip holding a 2 GiB string property stops at the string limit (64 MiB), in well under a
    /// second and 300 MiB of address space (it took 34 s and 4.2 GB of memory before the limit).
    func testAGzipBombStopsAtTheStringLimit() throws {
        let head = Self.collectionHead + Array(#"{"name":""#.utf8)
        let bomb = path("bomb.geojson.gz")
        try Data(InputFixtures.gzipMembers(head: head, unit: [UInt8](repeating: 0x61, count: 1 << 20), repeats: 2048,
                                           tail: Array(#""},"geometry":null}]}"#.utf8))).write(to: URL(fileURLWithPath: bomb))
        let result = try measured(["build", bomb, "-o", path("bomb.gmap")], seconds: 20, mebibytes: 300)
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr, "gmap: \(bomb): feature 0, line 1, byte \(head.count - 1): a string longer than 64 MiB, the limit of --max-string (raise it with --max-string SIZE)\n")
        // A lower limit stops it sooner, and says so.
        let lower = try measured(["build", bomb, "-o", path("bomb.gmap"), "--max-string", "1M"], seconds: 10, mebibytes: 100)
        XCTAssertEqual(lower.stderr, "gmap: \(bomb): feature 0, line 1, byte \(head.count - 1): a string longer than 1 MiB, the limit of --max-string (raise it with --max-string SIZE)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("bomb.gmap")))
    }

    /// A ZIP archive whose GeoJSON entry is 2 GiB of one string (declared honestly) is decompressed as
    /// it is read, so it stops at the string limit too, instead of being inflated whole into memory.
    func testAZipBombStopsAtTheStringLimit() throws {
        let head = Self.collectionHead + Array(#"{"name":"a"#.utf8)
        let repeats = (2 << 30) / 258
        let deflated = InputFixtures.repeatingDeflate(prefix: head, repeats: repeats, suffix: Array(#""},"geometry":null}]}"#.utf8))
        let size = head.count + 258 * repeats + 21
        let bomb = path("bomb.zip")
        try Data(InputFixtures.zip([.init(name: "bomb.geojson", data: [], method: 8, deflated: deflated, declared: (size, 0))]))
            .write(to: URL(fileURLWithPath: bomb))
        let result = try measured(["build", bomb, "-o", path("bomb.gmap")], seconds: 20, mebibytes: 300)
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr, "gmap: \(bomb): feature 0, line 1, byte \(head.count - 2): a string longer than 64 MiB, the limit of --max-string (raise it with --max-string SIZE)\n")
        // An entry that yields more than the directory says stops there, whatever the limits.
        let liar = path("liar.zip")
        try Data(InputFixtures.zip([.init(name: "liar.geojson", data: [], method: 8, deflated: deflated, declared: (1000, 0))]))
            .write(to: URL(fileURLWithPath: liar))
        let lie = try measured(["build", liar, "-o", path("bomb.gmap"), "--max-string", "2G"], seconds: 10, mebibytes: 200)
        XCTAssertEqual(lie.status, 2)
        XCTAssertEqual(lie.stderr, "gmap: \(liar): entry liar.geojson, byte 42: the entry decompresses to more than the 1000 bytes the directory says\n")
    }

    /// Millions of small properties stop at the properties limit (256 MiB, each member counted with 32
    /// bytes more for itself); a nested value growing without end likewise.
    func testAPropertiesBombStopsAtThePropertiesLimit() throws {
        let bomb = path("members.geojson.gz")
        try Data(InputFixtures.gzipMembers(head: Self.collectionHead + [0x7B], unit: Array(String(repeating: "\"a\":1,", count: 1 << 17).utf8), repeats: 2048,
                                           tail: Array(#""z":1},"geometry":null}]}"#.utf8))).write(to: URL(fileURLWithPath: bomb))
        let result = try measured(["build", bomb, "-o", path("bomb.gmap")], seconds: 30, mebibytes: 1024)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.hasPrefix("gmap: \(bomb): feature 0, line 1, byte "), result.stderr)
        XCTAssertTrue(result.stderr.hasSuffix(": the feature's properties are larger than 256 MiB, the limit of --max-properties (raise it with --max-properties SIZE)\n"), result.stderr)
        let nested = path("nested.geojson.gz")
        try Data(InputFixtures.gzipMembers(head: Self.collectionHead + Array(#"{"a":["#.utf8), unit: Array(String(repeating: "1,", count: 1 << 19).utf8), repeats: 2048,
                                           tail: Array(#"1]},"geometry":null}]}"#.utf8))).write(to: URL(fileURLWithPath: nested))
        let deep = try measured(["build", nested, "-o", path("bomb.gmap"), "--max-properties", "16M"], seconds: 20, mebibytes: 150)
        XCTAssertEqual(deep.stderr, "gmap: \(nested): feature 0, line 1, byte \(Self.collectionHead.count + 1): the feature's properties are larger than 16 MiB, the limit of --max-properties (raise it with --max-properties SIZE)\n")
    }

    /// A number of two billion digits stops at the number limit (1 KiB), quoting its first 40 bytes.
    func testANumberBombStopsAtTheNumberLimit() throws {
        let bomb = path("number.geojson.gz")
        try Data(InputFixtures.gzipMembers(head: Self.collectionHead + Array(#"{"a":1"#.utf8), unit: [UInt8](repeating: 0x31, count: 1 << 20), repeats: 2048,
                                           tail: Array(#"},"geometry":null}]}"#.utf8))).write(to: URL(fileURLWithPath: bomb))
        let result = try measured(["build", bomb, "-o", path("bomb.gmap")], seconds: 10, mebibytes: 100)
        XCTAssertEqual(result.stderr, "gmap: \(bomb): feature 0, line 1, byte \(Self.collectionHead.count + 5): number '\(String(repeating: "1", count: 40))…' is longer than 1 KiB, the limit of --max-number (raise it with --max-number SIZE)\n")
        XCTAssertEqual(result.status, 2)
    }

    /// A 100 MB line on `gmap query -` is refused at once, named by its number, without being held in
    /// memory; the lines around it are answered (it took more than 40 s before).
    func testAHundredMegabyteBatchLineIsSkippedQuickly() throws {
        let input = path("points.txt")
        XCTAssertTrue(FileManager.default.createFile(atPath: input, contents: Data("36.14 -5.35\n".utf8)), input)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: input))
        try handle.seekToEnd()
        let megabyte = Data(repeating: 0x31, count: 1 << 20)
        for _ in 0..<100 { try handle.write(contentsOf: megabyte) }
        try handle.write(contentsOf: Data("\r\n52.52 13.405\n".utf8))
        try handle.close()
        let result = try measured(["query", "-"], standardInput: input, seconds: 10, mebibytes: 100)
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stdout, "GI\n\nDE\n")
        XCTAssertEqual(result.stderr, "gmap: line 2: longer than 1 MiB, the limit of --max-line (raise it with --max-line SIZE)\ngmap: 1 of 3 lines could not be read\n")
        // --max-line sets the limit; a line of exactly the limit is read.
        let short = try run(["query", "-", "--max-line", "11"], input: "36.14 -5.35\n52.52 13.405\n")
        XCTAssertEqual(short.stdout, "GI\n\n")
        XCTAssertEqual(short.stderr, "gmap: line 2: longer than 11 bytes, the limit of --max-line (raise it with --max-line SIZE)\ngmap: 1 of 2 lines could not be read\n")
    }

    /// A bad line's message quotes at most 40 bytes of it, escaped.
    func testBadLinesAreQuotedShortAndSafe() throws {
        let long = String(repeating: "x", count: 5000)
        try assertFails(["query", "-"], input: "\(long)\n", stderr: "gmap: line 1: expected 'latitude longitude' or 'latitude,longitude', got '\(String(repeating: "x", count: 40))…'\ngmap: 1 of 1 lines could not be read\n")
        try assertFails(["query", "-"], input: "36.14 \u{1B}[31mred\n", stderr: "gmap: line 1: longitude '\\x1b[31mred' is not a number\ngmap: 1 of 1 lines could not be read\n")
        try assertFails(["query", "-"], input: "36.14 \(long)\n", stderr: "gmap: line 1: longitude '\(String(repeating: "x", count: 40))…' is not a number\ngmap: 1 of 1 lines could not be read\n")
    }

    /// The size options take bytes or K, M, G, and say how when they cannot read one.
    func testSizeOptionsAreChecked() throws {
        let input = path("in.geojson")
        try FileManager.default.copyItem(atPath: TestSupport.fixtures.appendingPathComponent("spec-example.geojson").path, toPath: input)
        try assertFails(["build", input, "-o", path("m.gmap"), "--max-string", "12X"],
                        stderr: "gmap: --max-string '12X' must be a size above 0 in bytes, or with K, M or G (KiB, MiB, GiB), such as 64M (default 64 MiB)\n")
        try assertFails(["build", input, "-o", path("m.gmap"), "--max-number", "0"],
                        stderr: "gmap: --max-number '0' must be a size above 0 in bytes, or with K, M or G (KiB, MiB, GiB), such as 64M (default 1 KiB)\n")
        try assertFails(["query", "36.14", "-5.35", "--max-line", "1M"], stderr: "gmap: --max-line only applies with - (lines read from standard input)\n")
        XCTAssertEqual(try run(["build", input, "-o", path("m.gmap"), "-q", "--max-string", "1k", "--max-number", "64", "--max-properties", "1MiB"]).status, 0)
        let help = try run(["build", "--help"]).stdout
        for option in ["--max-string SIZE", "--max-number SIZE", "--max-properties"] { XCTAssertTrue(help.contains(option), option) }
        XCTAssertTrue(try run(["query", "--help"]).stdout.contains("--max-line SIZE"))
    }
}
