import Foundation
import XCTest
import GMap
import GMapCodecs
import GMapTestSupport

/// The DEFLATE decoder and the gzip framing: vectors made with Python's zlib, streams made with the system's
/// gzip when it is there, and damaged data, which must give typed errors and never crash.
final class InflateTests: XCTestCase {
    // Vectors made with Python's zlib (raw DEFLATE, wbits -15) from the texts below.
    static let hello = Array("Hello, hello, hello! gmap inflates this.".utf8)
    static let storedVector = "012800d7ff48656c6c6f2c2068656c6c6f2c2068656c6c6f2120676d617020696e666c6174657320746869732e"
    static let fixedVector = "f348cdc9c9d751c840a21415d273130b1432f3d272124b528b154a32328bf500"
    /// 60 NDJSON lines, 4233 bytes, CRC-32 565750187; compressed at level 9 to one dynamic-Huffman block.
    static let dynamicText = Array((0..<60).map { "{\"type\":\"Feature\",\"properties\":{\"name\":\"F\($0)\",\"n\":\($0 * $0 % 977)},\"geometry\":null}\n" }.joined().utf8)
    static let dynamicVector = """
        a5973b6e03310c44fb1c43b50b7d4869b507c83d5c084100ffb0591786e1bb2788c82e4580572f30a0388f43ee33ec8fdb086b781fc7fdbe8d\
        7008b7ed7a1bdbfe39bec2fa0c97e3f9f773fcf972096b7c1dc2c7b89ec7be3dc27ab99f4eafb7e77f35d2d44844234f0d211a656a74a221f6\
        964a44748a642522758a145449b3b6a29e2c53a42273fa14591025c9704d9101ebc466568d419b04752615670eb9941cdd8e88490e2fa33755\
        9f01568d019c17d61b43b864e654f799645967140ba3381bc522ac1a8fde05f5261bc59a9153d928d686b8c94671651467a3b8c26a8ce2067b\
        631437e8944731e3a618c59d515c8ce2ce66aa38c50da97814a78c643c8a1bf2bb7814cb8264fc9248ac1a83b874d61b83582a73ca2056b67b\
        257a4e14246310b7c8aac93ee0a83762142f0d392546715776511bc50dcdb7543f92d89bfc9e50b417c4ef0945d927dd3738f25ba3cf02fb6b\
        497ee7b36a1c62d61b75889953ea10336ed420ee68bed58fe2c8dee4499cd05e504fe282b24f3d89fff4fb1b
        """

    static func bytes(hex: String) -> [UInt8] {
        var result: [UInt8] = []
        var digits = hex.makeIterator()
        while let high = digits.next(), let low = digits.next() {
            result.append(UInt8(String([high, low]), radix: 16) ?? 0)
        }
        return result
    }

    private func assertDeflateError(_ compressed: [UInt8], _ expected: DeflateError.Reason, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try Deflate.inflate(compressed), file: file, line: line) { error in
            XCTAssertEqual((error as? DeflateError)?.reason, expected, "\(error)", file: file, line: line)
        }
    }

    private func gunzip(_ bytes: [UInt8], chunk: Int = 1 << 16) throws -> [UInt8] {
        try InputFixtures.drain(GzipByteSource(compressed: MemoryByteSource(bytes)), chunk: chunk)
    }

    private func assertGzipError(_ bytes: [UInt8], _ expected: GzipError.Reason, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try gunzip(bytes), file: file, line: line) { error in
            XCTAssertEqual((error as? GzipError)?.reason, expected, "\(error)", file: file, line: line)
        }
    }

    // MARK: - Blocks

    func testStoredBlock() throws {
        XCTAssertEqual(try Deflate.inflate(Self.bytes(hex: Self.storedVector)), Self.hello)
    }

    func testFixedHuffmanBlock() throws {
        let vector = Self.bytes(hex: Self.fixedVector)
        XCTAssertEqual((vector[0] >> 1) & 3, 1, "the vector is a fixed-Huffman block")
        XCTAssertEqual(try Deflate.inflate(vector), Self.hello)
    }

    func testDynamicHuffmanBlock() throws {
        let vector = Self.bytes(hex: Self.dynamicVector)
        XCTAssertEqual((vector[0] >> 1) & 3, 2, "the vector is a dynamic-Huffman block")
        XCTAssertEqual(Self.dynamicText.count, 4233)
        XCTAssertEqual(CRC32.checksum(Self.dynamicText), 565_750_187)
        XCTAssertEqual(try Deflate.inflate(vector), Self.dynamicText)
    }

    func testEmptyStreamAndShortMatches() throws {
        XCTAssertEqual(try Deflate.inflate([0x03, 0x00]), [])
        // A literal 'A' then a match of length 3 at distance 1 (an overlapping copy).
        XCTAssertEqual(try Deflate.inflate(Self.bytes(hex: "73040200")), Array("AAAA".utf8))
    }

    func testManyStoredBlocksAcrossTheWindow() throws {
        let data = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        XCTAssertEqual(try Deflate.inflate(InputFixtures.storedDeflate(data, blockSize: 1_000)), data)
        XCTAssertEqual(try Deflate.inflate(InputFixtures.storedDeflate(data)), data)
    }

    // MARK: - Damaged DEFLATE data

    func testDamagedStreamsGiveTypedErrors() {
        assertDeflateError([0x07], .invalidBlockType)
        assertDeflateError([0x01, 0x05, 0x00, 0x00, 0x00], .storedLengthMismatch(length: 5, complement: 0))
        assertDeflateError(Self.bytes(hex: "030200"), .distanceTooFarBack(distance: 1, available: 0))
        assertDeflateError(Self.bytes(hex: "1b0300"), .invalidCode)  // reserved length symbol 286
        assertDeflateError(Self.bytes(hex: "05009204"), .invalidCodeLengths("over-subscribed code-length code"))
        assertDeflateError([], .truncated)
        assertDeflateError(Array(Self.bytes(hex: Self.dynamicVector).dropLast(5)), .truncated)
        assertDeflateError(Array(Self.bytes(hex: Self.storedVector).dropLast(1)), .truncated)
    }

    func testEveryTruncationAndManyMutationsFailCleanly() {
        let vector = Self.bytes(hex: Self.dynamicVector)
        for length in 0..<vector.count {
            XCTAssertThrowsError(try Deflate.inflate(Array(vector[0..<length])), "prefix of \(length) bytes") { error in
                XCTAssertEqual((error as? DeflateError)?.reason, .truncated, "prefix of \(length) bytes: \(error)")
            }
        }
        var random = SystemRandomNumberGenerator()
        for _ in 0..<3_000 {
            var damaged = vector
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                damaged[Int.random(in: 0..<damaged.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
            }
            do {
                _ = try Deflate.inflate(damaged)
            } catch {
                XCTAssertFalse(error.description.isEmpty)  // a typed DeflateError, not a trap
            }
        }
    }

    // MARK: - gzip

    func testGzipFrameAndHeaderFields() throws {
        let deflate = Self.bytes(hex: Self.dynamicVector)
        XCTAssertEqual(try gunzip(InputFixtures.gzip(deflate: deflate, original: Self.dynamicText)), Self.dynamicText)
        let full = InputFixtures.gzip(deflate: deflate, original: Self.dynamicText, name: "features.ndjson", comment: "a comment",
                                      extra: [1, 2, 3, 4], headerChecksum: true)
        XCTAssertEqual(try gunzip(full, chunk: 7), Self.dynamicText)
        var badHeader = full
        badHeader[12] ^= 0xFF  // inside FEXTRA, covered by the header CRC
        XCTAssertThrowsError(try gunzip(badHeader)) { error in
            guard case .headerChecksumMismatch? = (error as? GzipError)?.reason else { return XCTFail("\(error)") }
        }
    }

    func testMultipleMembersAndZeroPadding() throws {
        let first = InputFixtures.gzip(deflate: Self.bytes(hex: Self.fixedVector), original: Self.hello)
        let second = InputFixtures.gzip(deflate: Self.bytes(hex: Self.dynamicVector), original: Self.dynamicText)
        XCTAssertEqual(try gunzip(first + second + first), Self.hello + Self.dynamicText + Self.hello)
        XCTAssertEqual(try gunzip(first + [0, 0, 0, 0]), Self.hello)
        assertGzipError(first + [0, 0, 7], .trailingData)
        assertGzipError(first + [0x1F, 0x00], .trailingData)
    }

    func testDamagedGzipGivesTypedErrors() {
        let good = InputFixtures.gzip(deflate: Self.bytes(hex: Self.dynamicVector), original: Self.dynamicText)
        var badChecksum = good
        badChecksum[good.count - 8] ^= 0x01
        let storedChecksum = UInt32(badChecksum[good.count - 8]) | UInt32(badChecksum[good.count - 7]) << 8
            | UInt32(badChecksum[good.count - 6]) << 16 | UInt32(badChecksum[good.count - 5]) << 24
        assertGzipError(badChecksum, .checksumMismatch(stored: storedChecksum, computed: 565_750_187))
        var badSize = good
        badSize[good.count - 4] ^= 0x01
        assertGzipError(badSize, .sizeMismatch(stored: UInt32(4233 ^ 1), computed: 4233))
        assertGzipError(Array(good.dropLast(3)), .truncatedTrailer)
        assertGzipError(Array(good.prefix(good.count - 20)), .deflate(.truncated))
        assertGzipError(Array(good.prefix(5)), .truncatedHeader)
        var badBlock = InputFixtures.gzip(deflate: [0x07], original: [])
        assertGzipError(badBlock, .deflate(.invalidBlockType))
        badBlock[2] = 7
        assertGzipError(badBlock, .unsupportedMethod(7))
        badBlock[2] = 8
        badBlock[3] = 0x20
        assertGzipError(badBlock, .reservedFlags(0x20))
        assertGzipError(Array("{\"type\":\"FeatureCollection\"}".utf8), .notGzip)
        assertGzipError([], .notGzip)
        for length in 0..<good.count {
            XCTAssertThrowsError(try gunzip(Array(good[0..<length])), "prefix of \(length) bytes") { error in
                XCTAssertTrue(error is GzipError, "\(error)")
            }
        }
    }

    /// Long streams from the real gzip (every block type it makes, matches across the 32 KiB window, several
    /// output chunks), single and concatenated.
    func testSystemGzipStreams() throws {
        var random = SplitMix64(state: 42)
        var text: [UInt8] = []
        let words = ["Polygon", "MultiPolygon", "coordinates", "Europe/Berlin", "America/Argentina/Buenos_Aires", "-73.98", "40.75"]
        while text.count < 3_000_000 {
            if Int.random(in: 0..<50, using: &random) == 0 {
                text += (0..<Int.random(in: 1...3_000, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            } else {
                text += Array((words.randomElement(using: &random) ?? "").utf8) + [0x2C]
            }
        }
        for level in [1, 6, 9] {
            guard let compressed = InputFixtures.systemGzip(text, level: level) else {
                throw XCTSkip("no gzip command to make test streams with")
            }
            XCTAssertEqual(try gunzip(compressed), text, "gzip -\(level)")
            let short = Array(text.prefix(10_000))
            guard let second = InputFixtures.systemGzip(short, level: level) else { continue }
            XCTAssertEqual(try gunzip(compressed + second, chunk: 100_003), text + short, "two members, gzip -\(level)")
        }
    }

    func testCommittedGzipFixtureMatchesItsSource() throws {
        let plain = try Data(contentsOf: TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson"))
        let compressed = try Data(contentsOf: TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson.gz"))
        XCTAssertEqual(try gunzip(Array(compressed)), Array(plain))
    }
}
