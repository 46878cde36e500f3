import XCTest
import GMap
import GMapCodecs
import GMapTestSupport

/// The DEFLATE and zlib encoders that write PNG image data: everything they write must inflate back
/// exactly through the project's own decoder, and compress what a rendered map looks like.
final class DeflateRenderTests: XCTestCase {
    /// The tests' deterministic generator (SplitMix64), so failures can be replayed.
    typealias Random = SplitMix64

    /// Inputs of every kind the encoder meets: empty, tiny, random, runs, text, rows of a flat
    /// image, sizes around the stored-block limit and the window, and more than 64 KiB.
    static func inputs() -> [(name: String, bytes: [UInt8])] {
        var random = Random(state: 7)
        var cases: [(String, [UInt8])] = [
            ("empty", []),
            ("one byte", [42]),
            ("two bytes", [1, 2]),
            ("three equal", [9, 9, 9]),
            ("four equal", [9, 9, 9, 9]),
            ("text", Array("Hello, hello, hello! gmap deflates this, and this, and this.".utf8)),
            ("random 1000", random.bytes(1000)),
            ("random 65535", random.bytes(65_535)),
            ("random 65536", random.bytes(65_536)),
            ("random 200000", random.bytes(200_000)),
            ("zeros 1", [0]),
            ("zeros 258", [UInt8](repeating: 0, count: 258)),
            ("zeros 259", [UInt8](repeating: 0, count: 259)),
            ("zeros 100000", [UInt8](repeating: 0, count: 100_000)),
            ("ones 300000", [UInt8](repeating: 0xFF, count: 300_000)),
        ]
        // Rows of a flat image: runs of a few values, each row like the one above with a change.
        var rows: [UInt8] = []
        var row = [UInt8](repeating: 3, count: 3_001)
        for line in 0..<120 {
            let start = random.below(row.count - 50)
            for index in start..<(start + random.below(50)) { row[index] = UInt8(line % 7) }
            rows += [UInt8(line % 5)] + row
        }
        cases.append(("image rows", rows))
        // Matches at the farthest distance the window allows, and just beyond it.
        let block = random.bytes(40_000)
        cases.append(("repeat at 32767", Array(block.prefix(32_767)) + Array(block.prefix(1_000))))
        cases.append(("repeat at 32768", Array(block.prefix(32_768)) + Array(block.prefix(1_000))))
        cases.append(("repeat at 40000", block + block))
        // Few distinct bytes at random: literals only, skewed frequencies.
        cases.append(("two symbols", (0..<50_000).map { _ in random.below(8) == 0 ? 1 : 0 }))
        cases.append(("short matches", (0..<80_000).map { _ in UInt8(random.below(4)) }))
        return cases
    }

    func testEveryInputInflatesBackExactly() throws {
        for (name, bytes) in Self.inputs() {
            for (settingsName, settings) in [("best", DeflateEncoder.Settings.best), ("fast", .fast), ("stored", .stored),
                                             ("small blocks", .init(maximumChainLength: 16, niceLength: 100, lazyMatching: true, tokensPerBlock: 97)),
                                             ("row distances", .init(maximumChainLength: 4, niceLength: 258, goodLength: 8, lazyMatching: true,
                                                                     candidateDistances: [1, 3_002, 0, 32_767, 40_000]))] {
                let compressed = DeflateEncoder.compress(bytes, settings: settings)
                let inflated = try Deflate.inflate(compressed)
                XCTAssertEqual(inflated.count, bytes.count, "\(name), \(settingsName)")
                XCTAssert(inflated == bytes, "\(name), \(settingsName): the inflated bytes differ")
            }
        }
    }

    func testRandomInputsOfRandomShapes() throws {
        var random = Random(state: 2026)
        for round in 0..<60 {
            let alphabet = 1 + random.below(255)
            let count = random.below(round < 50 ? 3_000 : 120_000)
            var bytes = (0..<count).map { _ in UInt8(random.below(alphabet)) }
            // Copy earlier stretches forward so that matches of every length and distance occur.
            for _ in 0..<random.below(40) where count > 600 {
                let length = 1 + random.below(300), from = random.below(count - length), to = random.below(count - length)
                for offset in 0..<length { bytes[to + offset] = bytes[from + offset] }
            }
            let compressed = DeflateEncoder.compress(bytes)
            XCTAssert(try Deflate.inflate(compressed) == bytes, "round \(round): \(count) bytes over \(alphabet) values")
        }
    }

    func testCompressesRepetitiveDataAndNeverGrowsMuch() {
        let zeros = [UInt8](repeating: 0, count: 1 << 20)
        XCTAssertLessThan(DeflateEncoder.compress(zeros).count, 1_200, "1 MiB of zeros")
        var random = Random(state: 1)
        let noise = random.bytes(100_000)
        // Random bytes go into stored blocks: 5 bytes of header per block of 32,768 tokens (here bytes).
        XCTAssertLessThanOrEqual(DeflateEncoder.compress(noise).count, noise.count + 5 * 4)
        XCTAssertEqual(DeflateEncoder.compress(noise, settings: .stored).count, noise.count + 5 * 2)
        // The empty stream is one fixed block holding only the end-of-block code.
        XCTAssertEqual(DeflateEncoder.compress([]), [0x03, 0x00])
        let text = Array(String(repeating: "the quick brown fox jumps over the lazy dog. ", count: 200).utf8)
        XCTAssertLessThan(DeflateEncoder.compress(text).count, 120)
    }

    func testAdler32MatchesKnownValues() {
        // RFC 1950's definition, computed by hand for "Wikipedia" and by zlib for the others.
        XCTAssertEqual(Adler32.checksum([]), 1)
        XCTAssertEqual(Adler32.checksum(Array("Wikipedia".utf8)), 0x11E6_0398)
        XCTAssertEqual(Adler32.checksum([UInt8](repeating: 0xFF, count: 100_000)), ReferenceChecksums.adler32([UInt8](repeating: 0xFF, count: 100_000)))
        var random = Random(state: 3)
        let bytes = random.bytes(70_001)
        var pieces = Adler32()
        pieces.update(Array(bytes[..<5_000]))
        pieces.update(Array(bytes[5_000...]))
        XCTAssertEqual(pieces.value, ReferenceChecksums.adler32(bytes))
    }

    func testZlibStreamFraming() throws {
        var random = Random(state: 11)
        for bytes in [[], Array("zlib".utf8), random.bytes(90_000), [UInt8](repeating: 7, count: 70_000)] {
            for settings in [DeflateEncoder.Settings.best, .stored] {
                let stream = ZlibStream.compress(bytes, settings: settings)
                XCTAssertEqual(stream[0] & 0x0F, 8, "compression method 8")
                XCTAssertEqual(stream[0] >> 4, 7, "32 KiB window")
                XCTAssertEqual((UInt16(stream[0]) << 8 | UInt16(stream[1])) % 31, 0, "header check bits")
                XCTAssertEqual(stream[1] & 0x20, 0, "no preset dictionary")
                let trailer = stream.suffix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                XCTAssertEqual(trailer, ReferenceChecksums.adler32(bytes))
                XCTAssert(try Deflate.inflate(Array(stream.dropFirst(2).dropLast(4))) == bytes)
            }
        }
    }
}
