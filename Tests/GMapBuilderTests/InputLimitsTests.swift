import XCTest
import GMap
import GMapBuilder
import GMapCodecs
import GMapTestSupport

/// Messages that quote at most a short window of input, limits on strings, numbers and properties,
/// and input in UTF-16 or UTF-32 (issue 23, parts 3, 4 and 7), in the GeoJSON reader itself.
final class InputLimitsTests: XCTestCase {
    /// The error reading `bytes` (chunk by chunk) with `limits`, as its description.
    private func error(_ bytes: [UInt8], limits: InputLimits = InputLimits(), chunkSize: Int = 1 << 20,
                       file: StaticString = #filePath, line: UInt = #line) -> String {
        var reader = GeoJSONReader(bytes: bytes, chunkSize: chunkSize)
        reader.limits = limits
        do {
            _ = try reader.forEachFeature { _ in }
            XCTFail("expected an error", file: file, line: line)
        } catch {
            return "\(error)"
        }
        return ""
    }

    private func error(_ text: String, limits: InputLimits = InputLimits(), chunkSize: Int = 1 << 20,
                       file: StaticString = #filePath, line: UInt = #line) -> String {
        error(Array(text.utf8), limits: limits, chunkSize: chunkSize, file: file, line: line)
    }

    private static let head = #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":"#

    // MARK: - Quoting

    func testExcerptsAreShortEscapedAndCutAtACharacter() {
        XCTAssertEqual(InputExcerpt.text("abc"), "abc")
        XCTAssertEqual(InputExcerpt.text(String(repeating: "a", count: 41)), String(repeating: "a", count: 40) + "…")
        XCTAssertEqual(InputExcerpt.text(String(repeating: "a", count: 40)), String(repeating: "a", count: 40))
        XCTAssertEqual(InputExcerpt.text("tab\there\nCR\r\\ \u{1B}[2J \u{7F}"), "tab\\there\\nCR\\r\\\\ \\x1b[2J \\x7f")
        XCTAssertEqual(InputExcerpt.text([0x61, 0xFF, 0xC3, 0x28, 0xE2, 0x82]), "a\\xff\\xc3(\\xe2\\x82")
        XCTAssertEqual(InputExcerpt.text("Zürich 東京 🗺"), "Zürich 東京 🗺")
        XCTAssertEqual(InputExcerpt.text([0xC2, 0x85, 0xC2, 0xA0]), "\\xc2\\x85\u{A0}", "C1 controls are escaped")
        // A character is not cut: 39 ASCII bytes and a 2-byte one make 41 bytes, so it is left out.
        XCTAssertEqual(InputExcerpt.text(String(repeating: "a", count: 39) + "é"), String(repeating: "a", count: 39) + "…")
        XCTAssertEqual(InputExcerpt.quoted("x"), "'x'")
    }

    /// A FeatureCollection cut inside a number (the read buffer refilled at the end) says so in a short
    /// line; the message once held the rest of the buffer (451 KB for a 1.5 MB file).
    func testInputEndingInsideANumberGivesAShortMessage() {
        var text = Self.head + #"{},"geometry":{"type":"Polygon","coordinates":[[[0.12345,0.12345],[1.5,0"#
        let padding = String(repeating: " ", count: 3000)
        text = Self.head + "{\"pad\":\"\(padding)\"}" + String(text.dropFirst(Self.head.count + 2))
        for chunk in [7, 64, 1000, 1 << 20] {
            XCTAssertEqual(error(text, chunkSize: chunk), "feature 0, line 1, byte \(text.utf8.count): unexpected end of input: expected ',' or ']' in position", "chunk \(chunk)")
            XCTAssertEqual(error(text + "e", chunkSize: chunk), "feature 0, line 1, byte \(text.utf8.count - 1): unexpected end of input in number '0e'", "chunk \(chunk)")
            XCTAssertEqual(error(text + "ex]]]}}]}", chunkSize: chunk), "feature 0, line 1, byte \(text.utf8.count - 1): coordinate is not a number: 0ex", "chunk \(chunk)")
        }
        // A long word is quoted up to 40 bytes; an invalid number in properties too.
        let word = "1e" + String(repeating: "z", count: 100)
        XCTAssertEqual(error(Self.head + #"{},"geometry":{"type":"Point","coordinates":[1,"# + word + "]}}]}"),
                       "feature 0, line 1, byte 118: coordinate is not a number: \(String(word.prefix(40)))…")
        XCTAssertEqual(error(Self.head + #"{"a":1e"# + String(repeating: "+", count: 500) + "}}]}"),
                       "feature 0, line 1, byte 76: invalid number '1e\(String(repeating: "+", count: 38))…'")
        XCTAssertEqual(error(Self.head + #"{},"geometry":{"type":"Blob\u001b[2J"}}]}"#),
                       #"feature 0, line 1, byte 108: unknown geometry type "Blob\x1b[2J""#)
    }

    // MARK: - Limits

    func testAStringLongerThanTheLimitIsAnErrorAtItsStart() {
        let limits = InputLimits(stringBytes: 100, numberBytes: 1024, propertyBytes: 1 << 20)
        let long = String(repeating: "é", count: 60)  // 120 bytes
        for chunk in [5, 1 << 20] {
            XCTAssertEqual(error(Self.head + #"{"name":""# + long + #""},"geometry":null}]}"#, limits: limits, chunkSize: chunk),
                           "feature 0, line 1, byte 79: a string longer than 100 bytes, the limit of --max-string (raise it with --max-string SIZE)")
            // Skipped strings (a foreign member) and member names count too; escapes count what they decode to.
            XCTAssertEqual(error(#"{"type":"FeatureCollection","x":""# + long + #"","features":[]}"#, limits: limits, chunkSize: chunk),
                           "line 1, byte 32: a string longer than 100 bytes, the limit of --max-string (raise it with --max-string SIZE)")
            XCTAssertEqual(error(Self.head + "{\"" + String(repeating: "\\u00e9", count: 51) + #"":1},"geometry":null}]}"#, limits: limits, chunkSize: chunk),
                           "feature 0, line 1, byte 72: a string longer than 100 bytes, the limit of --max-string (raise it with --max-string SIZE)")
        }
        // At the limit it is read.
        var reader = GeoJSONReader(bytes: Array((Self.head + #"{"name":""# + String(repeating: "é", count: 50) + #""},"geometry":null}]}"#).utf8))
        reader.limits = limits
        XCTAssertEqual(try reader.forEachFeature { _ in }, 1)
    }

    func testANumberLongerThanTheLimitIsAnError() {
        let limits = InputLimits(stringBytes: 100, numberBytes: 16, propertyBytes: 1 << 20)
        let number = String(repeating: "1", count: 17)
        for chunk in [3, 1 << 20] {
            XCTAssertEqual(error(Self.head + #"{"n":"# + number + #"},"geometry":null}]}"#, limits: limits, chunkSize: chunk),
                           "feature 0, line 1, byte 76: number '\(number)' is longer than 16 bytes, the limit of --max-number (raise it with --max-number SIZE)")
            XCTAssertEqual(error(Self.head + #"{},"geometry":{"type":"Point","coordinates":[1,"# + number + "]}}]}", limits: limits, chunkSize: chunk),
                           "feature 0, line 1, byte 118: number '\(number)' is longer than 16 bytes, the limit of --max-number (raise it with --max-number SIZE)")
        }
    }

    func testPropertiesLargerThanTheLimitAreAnError() {
        let limits = InputLimits(stringBytes: 1000, numberBytes: 100, propertyBytes: 200)
        // Four members of 1 + 20 + 32 = 53 bytes fit (212 > 200: the fourth goes over).
        let member = #""a":"# + "\"\(String(repeating: "x", count: 20))\""
        let text = Self.head + "{" + Array(repeating: member, count: 4).joined(separator: ",") + #"},"geometry":null}]}"#
        XCTAssertEqual(error(text, limits: limits),
                       "feature 0, line 1, byte \(Self.head.utf8.count + 1 + 3 * (member.utf8.count + 1)): the feature's properties are larger than 200 bytes, the limit of --max-properties (raise it with --max-properties SIZE)")
        // A nested value counts as its compact JSON, and stops as it grows.
        XCTAssertEqual(error(Self.head + #"{"a":["# + String(repeating: "1,", count: 1000) + #"1]},"geometry":null}]}"#, limits: limits),
                       "feature 0, line 1, byte 72: the feature's properties are larger than 200 bytes, the limit of --max-properties (raise it with --max-properties SIZE)")
    }

    func testSizesAreReadAndSaid() {
        XCTAssertEqual(InputLimits.parseSize("1048576"), 1 << 20)
        XCTAssertEqual(InputLimits.parseSize("64M"), 64 << 20)
        XCTAssertEqual(InputLimits.parseSize("2GiB"), 2 << 30)
        XCTAssertEqual(InputLimits.parseSize("1k"), 1024)
        XCTAssertEqual(InputLimits.parseSize("512KB"), 512 << 10)
        for bad in ["", "0", "M", "1.5M", "-1", "1T", "99999999999999999999"] { XCTAssertNil(InputLimits.parseSize(bad), bad) }
        XCTAssertEqual(InputLimits.size(64 << 20), "64 MiB")
        XCTAssertEqual(InputLimits.size(1 << 10), "1 KiB")
        XCTAssertEqual(InputLimits.size(3 << 29), "1.5 GiB")
        XCTAssertEqual(InputLimits.size(100), "100 bytes")
        XCTAssertEqual(InputLimits(), InputLimits(stringBytes: 64 << 20, numberBytes: 1 << 10, propertyBytes: 256 << 20))
    }

    // MARK: - Encodings

    /// UTF-16 and UTF-32, by byte order mark or by zero bytes, are named; a UTF-8 byte order mark is skipped.
    func testUTF16AndUTF32AreNamed() throws {
        let text = #"{"type":"FeatureCollection","features":[]}"#
        let utf16LE = Array(text.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let utf16BE = Array(text.utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let utf32LE = Array(text.unicodeScalars).flatMap { [UInt8($0.value & 0xFF), 0, 0, 0] }
        let utf32BE = Array(text.unicodeScalars).flatMap { [0, 0, 0, UInt8($0.value & 0xFF)] }
        let cases: [([UInt8], String)] = [
            ([0xFF, 0xFE] + utf16LE, "UTF-16 (little-endian); gmap reads UTF-8 (convert it first, for example with iconv -f UTF-16 -t UTF-8)"),
            ([0xFE, 0xFF] + utf16BE, "UTF-16 (big-endian); gmap reads UTF-8 (convert it first, for example with iconv -f UTF-16 -t UTF-8)"),
            (utf16LE, "UTF-16 (little-endian); gmap reads UTF-8 (convert it first, for example with iconv -f UTF-16LE -t UTF-8)"),
            (utf16BE, "UTF-16 (big-endian); gmap reads UTF-8 (convert it first, for example with iconv -f UTF-16BE -t UTF-8)"),
            ([0xFF, 0xFE, 0, 0] + utf32LE, "UTF-32 (little-endian); gmap reads UTF-8 (convert it first, for example with iconv -f UTF-32 -t UTF-8)"),
            ([0, 0, 0xFE, 0xFF] + utf32BE, "UTF-32 (big-endian); gmap reads UTF-8 (convert it first, for example with iconv -f UTF-32 -t UTF-8)"),
            (utf32LE, "UTF-32 (little-endian); gmap reads UTF-8 (convert it first, for example with iconv -f UTF-32LE -t UTF-8)"),
            (utf32BE, "UTF-32 (big-endian); gmap reads UTF-8 (convert it first, for example with iconv -f UTF-32BE -t UTF-8)"),
        ]
        for (bytes, message) in cases {
            for chunk in [1, 3, 1 << 20] {
                XCTAssertEqual(error(bytes, chunkSize: chunk), "line 1, byte 0: the file is " + message)
            }
        }
        var reader = GeoJSONReader(bytes: [0xEF, 0xBB, 0xBF] + Array(text.utf8), chunkSize: 2)
        XCTAssertEqual(try reader.forEachFeature { _ in }, 0)
        XCTAssertNil(TextEncodingSniffer.wideEncoding(of: Array("{}".utf8)))
        XCTAssertNil(TextEncodingSniffer.wideEncoding(of: [0x7B]))
    }

    // MARK: - ZIP entries

    /// A ZIP entry read as a stream is checked against the directory's size and CRC-32.
    func testAZipEntrySourceChecksSizeAndChecksum() throws {
        let data = Array(String(repeating: "gmap ", count: 1000).utf8)
        let deflated = DeflateEncoder.compress(data)
        func read(_ declared: (Int, UInt32)) throws -> [UInt8] {
            let archive = try ZipArchive(bytes: InputFixtures.zip([.init(name: "a.json", data: [], method: 8, deflated: deflated, declared: declared)]), name: "a.zip")
            return try InputFixtures.drain(try archive.source(of: archive.entries[0]), chunk: 100)
        }
        XCTAssertEqual(try read((data.count, CRC32.checksum(data))), data)
        XCTAssertThrowsError(try read((data.count, 1))) { error in
            XCTAssertEqual((error as? ZipError)?.reason, .checksumMismatch(stored: 1, computed: CRC32.checksum(data)))
        }
        XCTAssertThrowsError(try read((100, CRC32.checksum(data)))) { error in
            XCTAssertEqual("\(error)", "a.zip, entry a.json, byte 36: the entry decompresses to more than the 100 bytes the directory says")
        }
        XCTAssertThrowsError(try read((data.count + 1, CRC32.checksum(data)))) { error in
            XCTAssertEqual((error as? ZipError)?.reason, .sizeMismatch(stored: data.count + 1, computed: data.count))
        }
    }
}
