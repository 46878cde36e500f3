import XCTest
import GMapCodecs
import GMapTestSupport

/// The ZIP reader: stored and deflated entries, checks, and damaged archives.
final class ZipArchiveTests: XCTestCase {
    private func assertZipError(_ body: @autoclosure () throws -> Any, _ expected: ZipError.Reason,
                                file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            XCTAssertEqual((error as? ZipError)?.reason, expected, "\(error)", file: file, line: line)
        }
    }

    func testStoredAndDeflatedEntries() throws {
        let text = InflateTests.dynamicText
        let bytes = InputFixtures.zip([
            .init(name: "readme.txt", data: Array("hello".utf8)),
            .init(name: "dir/", data: []),
            .init(name: "dir/features.ndjson", data: text, method: 8, deflated: InflateTests.bytes(hex: InflateTests.dynamicVector)),
            .init(name: "dir/blocks.bin", data: Array(repeating: 7, count: 100_000), method: 8),
        ], comment: "an archive comment")
        let archive = try ZipArchive(bytes: bytes, name: "test.zip")
        XCTAssertEqual(archive.entries.map(\.name), ["readme.txt", "dir/", "dir/features.ndjson", "dir/blocks.bin"])
        XCTAssertEqual(archive.entries.map(\.isDirectory), [false, true, false, false])
        XCTAssertEqual(try archive.contents(of: archive.entries[0]), Array("hello".utf8))
        XCTAssertEqual(try archive.contents(of: archive.entries[2]), text)
        XCTAssertEqual(try archive.contents(of: archive.entries[3]), Array(repeating: 7, count: 100_000))
        XCTAssertEqual(archive.entry(named: "DIR/Features.NDJSON")?.size, text.count)
    }

    func testDamagedArchivesGiveTypedErrors() throws {
        let member = InputFixtures.ZipMember(name: "a.txt", data: Array("some text".utf8))
        let good = InputFixtures.zip([member])
        assertZipError(try ZipArchive(bytes: Array(good.prefix(good.count - 10)), name: "t.zip"), .notZip)
        assertZipError(try ZipArchive(bytes: [], name: "t.zip"), .notZip)
        assertZipError(try ZipArchive(bytes: Array("PK not really".utf8), name: "t.zip"), .notZip)

        var badData = good
        badData[30 + 5] ^= 0x20  // a byte of the stored data
        let archive = try ZipArchive(bytes: badData, name: "t.zip")
        XCTAssertThrowsError(try archive.contents(of: archive.entries[0])) { error in
            guard case .checksumMismatch? = (error as? ZipError)?.reason else { return XCTFail("\(error)") }
            XCTAssertEqual((error as? ZipError)?.entry, "a.txt")
            XCTAssertTrue("\(error)".hasPrefix("t.zip, entry a.txt, byte 35: CRC-32"), "\(error)")
        }
        let encrypted = try ZipArchive(bytes: InputFixtures.zip([.init(name: "a.txt", data: [1], flags: 1)]), name: "t.zip")
        assertZipError(try encrypted.contents(of: encrypted.entries[0]), .encrypted)
        let bzip = try ZipArchive(bytes: InputFixtures.zip([.init(name: "a.txt", data: [1], method: 12)]), name: "t.zip")
        assertZipError(try bzip.contents(of: bzip.entries[0]), .unsupportedMethod(12))
        let badDeflate = try ZipArchive(bytes: InputFixtures.zip([.init(name: "a.txt", data: [1], method: 8, deflated: [0x07])]), name: "t.zip")
        assertZipError(try badDeflate.contents(of: badDeflate.entries[0]), .deflate(.invalidBlockType))
        let wrongSize = try ZipArchive(bytes: InputFixtures.zip([.init(name: "a.txt", data: [1, 2], method: 8,
                                                                       deflated: InputFixtures.storedDeflate([1, 2, 3]))]), name: "t.zip")
        assertZipError(try wrongSize.contents(of: wrongSize.entries[0]), .sizeMismatch(stored: 2, computed: 3))
    }

    func testEveryTruncationAndManyMutationsFailCleanly() throws {
        let good = InputFixtures.zip([.init(name: "a.txt", data: Array("some text".utf8), method: 8),
                                      .init(name: "b.txt", data: InflateTests.dynamicText, method: 8,
                                            deflated: InflateTests.bytes(hex: InflateTests.dynamicVector))])
        var random = SystemRandomNumberGenerator()
        var damaged: [[UInt8]] = (0..<good.count).map { Array(good[0..<$0]) }
        for _ in 0..<2_000 {
            var bytes = good
            bytes[Int.random(in: 0..<bytes.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
            damaged.append(bytes)
        }
        for bytes in damaged {
            do {
                let archive = try ZipArchive(bytes: bytes, name: "t.zip")
                for entry in archive.entries { _ = try archive.contents(of: entry) }
            } catch {
                XCTAssertFalse(error.description.isEmpty)  // a typed ZipError, not a trap
            }
        }
    }
}
