import XCTest
@_spi(Testing) import GMap
import GMapTestSupport

/// `String.replaceWithUTF8(_:)`, which a refilled placemark writes a town's name with into the
/// storage of the name before it: whatever the bytes (well-formed or not, short or long) and
/// whatever the string held, the result is what `String(decoding:as:)` makes of the bytes.
final class ReusedStringTests: XCTestCase {
    func testReplacingGivesWhatDecodingGives() {
        var random = SplitMix64(seed: 2026_11_26)
        // Pieces that make up the bytes: ASCII, two-, three- and four-byte characters, and the
        // ill-formed: a lone continuation byte, a truncated sequence, an overlong form, a surrogate.
        let pieces: [[UInt8]] = [
            Array("a".utf8), Array("Kehl".utf8), Array("é".utf8), Array("Ŋ".utf8), Array("中".utf8), Array("😀".utf8),
            [0x80], [0xBF, 0x80, 0x80], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xFF],
            Array(repeating: 0x80, count: 20),
        ]
        var previous = ["", "short", "a name longer than fifteen bytes", String(repeating: "ü", count: 40)]
        var checked = 0
        for _ in 0..<5_000 {
            var bytes: [UInt8] = []
            let count = random.below(12)
            for _ in 0..<count { bytes += pieces[random.below(pieces.count)] }
            let expected = String(decoding: bytes, as: UTF8.self)
            let slot = random.below(previous.count)
            // Sometimes the string's storage is shared with another string, which must not change.
            let shared = random.below(3) == 0 ? previous[slot] : nil, before = shared.map { Array($0.utf8) }
            bytes.withUnsafeBytes { previous[slot].replaceWithUTF8($0) }
            XCTAssertEqual(previous[slot], expected, "bytes \(bytes)")
            XCTAssertEqual(Array(previous[slot].utf8), Array(expected.utf8), "bytes \(bytes)")
            if let shared, let before { XCTAssertEqual(Array(shared.utf8), before) }
            checked += 1
        }
        XCTAssertEqual(checked, 5_000)
    }

    func testAStringSharedWithAnotherIsLeftAlone() {
        var first = "a name longer than fifteen bytes"
        let second = first
        Array("Bad Homburg vor der Höhe".utf8).withUnsafeBytes { first.replaceWithUTF8($0) }
        XCTAssertEqual(first, "Bad Homburg vor der Höhe")
        XCTAssertEqual(second, "a name longer than fifteen bytes")
    }

    func testSplitsFallOnlyBeforeACharacter() {
        // Fourteen ASCII bytes and a two-byte character across the fifteenth byte, many times.
        let text = String(repeating: "abcdefghijklmné", count: 9) + String(repeating: "😀", count: 9)
        var result = "x"
        Array(text.utf8).withUnsafeBytes { result.replaceWithUTF8($0) }
        XCTAssertEqual(result, text)
        XCTAssertEqual(result.count, text.count)
    }
}
