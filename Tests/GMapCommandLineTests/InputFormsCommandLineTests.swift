import Foundation
import XCTest
import GMapTestSupport

/// Input forms (issue 23, part 7): CR and CR LF line ends, decimal commas with a hint, text in UTF-16
/// or UTF-32, a UTF-8 byte order mark, and corrupt gzip members.
final class InputFormsCommandLineTests: CommandLineTestCase {
    /// Batch and replay input with CR LF or lone CR line ends reads line by line, as with LF.
    func testLineEndsOfEveryKind() throws {
        for (name, end) in [("LF", "\n"), ("CR LF", "\r\n"), ("CR", "\r")] {
            let input = ["36.14 -5.35", "52.52 13.405", "0 -30", "48.8566 2.3522"].joined(separator: end) + end
            let result = try run(["query", "-"], input: input)
            XCTAssertEqual(result.status, 0, "\(name): \(result.stderr)")
            XCTAssertEqual(result.stdout, "GI\nDE\n\nFR\n", name)
        }
        // Mixed, and a CR LF split across the reader's blocks: one line each, no empty line between.
        let long = String(repeating: "36.14 -5.35\r\n", count: 10_000)
        let result = try run(["query", "-"], input: long + "52.52 13.405\r")
        XCTAssertEqual(result.stdout, String(repeating: "GI\n", count: 10_000) + "DE\n")
    }

    func testDecimalCommasGetAHint() throws {
        let hint = "gmap: '36,14 -5,35' has decimal commas: use a decimal point (36.14 -5.35); a comma may only separate the latitude from the longitude\n"
        try assertFails(["query", "36,14 -5,35"], stderr: hint)
        try assertFails(["query", "36,14", "-5,35"], stderr: hint)
        try assertFails(["place", "36,14", "-5,35"], stderr: hint)
        try assertFails(["query", "-"], input: "36,14 -5,35\n36.14,-5.35\n", stderr: "gmap: line 1: " + String(hint.dropFirst(6)) + "gmap: 1 of 2 lines could not be read\n")
        // One comma between two numbers is still latitude,longitude.
        let plain = try run(["query", "36.14,-5.35"])
        XCTAssertEqual(plain.stdout, "GI\n")
    }

    /// Runs gmap with standard input read from a file of `bytes` (text that is not UTF-8).
    private func run(_ arguments: [String], inputBytes bytes: [UInt8]) throws -> LimitedRun {
        try Self.requireExecutable()
        let input = path("stdin.bin")
        try Data(bytes).write(to: URL(fileURLWithPath: input))
        return try LimitedRun.run(try XCTUnwrap(Self.executable), arguments, mebibytes: nil, standardInput: input, directory: temporary)
    }

    /// GeoJSON, NDJSON and batch lines in UTF-16 or UTF-32 are refused, naming the encoding.
    func testUTF16AndUTF32InputIsNamed() throws {
        let collection = #"{"type":"FeatureCollection","features":[]}"#
        let utf16LE: [UInt8] = [0xFF, 0xFE] + Array(collection.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let utf32BE: [UInt8] = Array(collection.unicodeScalars).flatMap { [0, 0, 0, UInt8($0.value & 0xFF)] }
        let cases: [(String, [UInt8], String)] = [
            ("a.geojson", utf16LE, "UTF-16 (little-endian); gmap reads UTF-8 (convert it first, for example with iconv -f UTF-16 -t UTF-8)"),
            ("b.ndjson", utf32BE, "UTF-32 (big-endian); gmap reads UTF-8 (convert it first, for example with iconv -f UTF-32BE -t UTF-8)"),
        ]
        for (name, bytes, message) in cases {
            let file = path(name)
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            try assertFails(["build", file, "-o", path("m.gmap")], stderr: "gmap: \(file): line 1, byte 0: the file is \(message)\n")
        }
        let lines = "36.14 -5.35\n52.52 13.405\n"
        let batch = try run(["query", "-"], inputBytes: Array(lines.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        XCTAssertEqual(batch.status, 2)
        XCTAssertEqual(batch.stdout, "")
        XCTAssertEqual(batch.stderr, "gmap: standard input is UTF-16 (little-endian); gmap reads UTF-8 (convert it first, for example with iconv -f UTF-16LE -t UTF-8)\n")
        let marked = try run(["query", "-"], inputBytes: [0xFE, 0xFF] + Array(lines.utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
        XCTAssertEqual(marked.stderr, "gmap: standard input is UTF-16 (big-endian); gmap reads UTF-8 (convert it first, for example with iconv -f UTF-16 -t UTF-8)\n")
    }

    /// A UTF-8 byte order mark before the first batch line is skipped.
    func testAByteOrderMarkIsSkipped() throws {
        let result = try run(["query", "-"], inputBytes: [0xEF, 0xBB, 0xBF] + Array("36.14 -5.35\n52.52 13.405\n".utf8))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "GI\nDE\n")
    }

    /// A damaged gzip member is reported as gzip damage at its compressed byte, even where the damaged
    /// block decodes to text the GeoJSON parser rejects first (once "expected '[' to start a position").
    func testCorruptGzipMembersAreNamedAtTheirCompressedByte() throws {
        let good = Array(try Data(contentsOf: TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson.gz")))
        XCTAssertEqual(good.count, 708, "the fixture these messages were taken from")
        func damaged(_ name: String, _ change: (inout [UInt8]) -> Void) throws -> String {
            var bytes = good
            change(&bytes)
            let file = path(name)
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            return file
        }
        let garbage = try damaged("garbage.geojson.gz") { $0[391] ^= 0x55 }
        try assertFails(["build", garbage, "-o", path("m.gmap")],
                        stderr: "gmap: \(garbage): gzip member 1, compressed byte 708: CRC-32 of the decompressed data is 925fada2, the trailer says 3d27ffab (corrupt file)\n")
        let invalid = try damaged("invalid.geojson.gz") { $0[354] ^= 0x55 }
        try assertFails(["build", invalid, "-o", path("m.gmap")],
                        stderr: "gmap: \(invalid): gzip member 1, compressed byte 357: a match 2961 bytes back, but only 1986 bytes precede it\n")
        let checksum = try damaged("crc.geojson.gz") { $0[700] ^= 0xFF }
        try assertFails(["build", checksum, "-o", path("m.gmap")],
                        stderr: "gmap: \(checksum): gzip member 1, compressed byte 708: CRC-32 of the decompressed data is 3d27ffab, the trailer says 3d27ff54 (corrupt file)\n")
        let truncated = try damaged("truncated.geojson.gz") { $0.removeLast(354) }
        try assertFails(["build", truncated, "-o", path("m.gmap")],
                        stderr: "gmap: \(truncated): gzip member 1, compressed byte 354: the data ends in the middle of the stream (truncated file?)\n")
        // Standard input too.
        let piped = try run(["build", "-", "-o", path("m.gmap")], inputBytes: Array(try Data(contentsOf: URL(fileURLWithPath: garbage))))
        XCTAssertEqual(piped.stderr, "gmap: -: gzip member 1, compressed byte 708: CRC-32 of the decompressed data is 925fada2, the trailer says 3d27ffab (corrupt file)\n")
    }
}
