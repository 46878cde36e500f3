import XCTest
import GMapTestSupport
@_spi(Testing) import GMap

/// Lengths are checked before they become `Int`, and maps larger than the platform can address are
/// refused with `tooLarge`: exercised here with a lowered limit, as a 32-bit target would have it.
final class AddressLimitTests: XCTestCase {
    private static let world = TestSupport.repositoryRoot.appendingPathComponent("Sources/GMapWorld/Resources/world.gmap")
    /// `Int32.max`: the limit on a 32-bit target.
    private let limit32 = UInt64(Int32.max)

    private func worldBytes() throws -> [UInt8] { Array(try Data(contentsOf: Self.world)) }

    /// The bytes with the header's `file_length` replaced.
    private func withFileLength(_ bytes: [UInt8], _ length: UInt64) -> [UInt8] {
        var copy = bytes
        for index in 0..<8 { copy[FormatLayout.Header.fileLength + index] = UInt8(truncatingIfNeeded: length >> (8 * UInt64(index))) }
        return copy
    }

    private func open(_ bytes: [UInt8], maximumLength: UInt64) throws -> GMap {
        try bytes.withUnsafeBytes { buffer in try GMap(unsafeBuffer: buffer, maximumLength: maximumLength) }
    }

    func testTheLimitIsTheAddressSpace() throws {
        XCTAssertEqual(AddressLimit.maximumMapLength, UInt64(Int.max))
        XCTAssertEqual(try AddressLimit.checkedLength(4096), 4096)
        XCTAssertEqual(try AddressLimit.checkedLength(limit32, limit: limit32), Int(Int32.max))
        XCTAssertThrowsError(try AddressLimit.checkedLength(limit32 + 1, limit: limit32)) {
            XCTAssertEqual($0 as? GMapError, .tooLarge(length: limit32 + 1))
        }
        XCTAssertThrowsError(try AddressLimit.checkedLength(UInt64.max)) { XCTAssertEqual($0 as? GMapError, .tooLarge(length: UInt64.max)) }
    }

    func testA32BitReaderRefusesAMapOf2GiBOrMore() throws {
        let bytes = try worldBytes()
        // A header that claims more than the bytes at hand says so in those words, on any platform
        // (a damaged length or a cut file); a file of 2 GiB or more is refused as too large below.
        for claimed in [UInt64(1) << 31, 3 << 30, UInt64(1) << 32, UInt64.max] {
            XCTAssertThrowsError(try open(withFileLength(bytes, claimed), maximumLength: limit32)) {
                XCTAssertEqual($0 as? GMapError, .truncated(expected: claimed, actual: UInt64(bytes.count)))
            }
            XCTAssertThrowsError(try GMap(bytes: withFileLength(bytes, claimed))) {
                XCTAssertEqual($0 as? GMapError, .truncated(expected: claimed, actual: UInt64(bytes.count)))
            }
        }
        XCTAssertEqual(GMapError.truncated(expected: UInt64.max, actual: 3_455_442).description,
                       "truncated gmap file: the header says 18446744073709551615 bytes, 3455442 are present")
        XCTAssertEqual(GMapError.tooLarge(length: 3 << 30).description, "gmap file of 3221225472 bytes is too large for this platform")
    }

    func testAMapUpToTheLimitOpensAndAnswers() throws {
        let bytes = try worldBytes()
        let length = UInt64(bytes.count)
        XCTAssertEqual(try open(bytes, maximumLength: length).lookup(latitude: 36.14, longitude: -5.35)?.id, "GI")
        XCTAssertEqual(try open(bytes, maximumLength: limit32).lookup(latitude: 36.14, longitude: -5.35)?.id, "GI")
        XCTAssertThrowsError(try open(bytes, maximumLength: length - 1)) { XCTAssertEqual($0 as? GMapError, .tooLarge(length: length)) }
    }

    func testHugeHeaderFieldsAreRefusedNotConverted() throws {
        let bytes = try worldBytes()
        for (field, reason) in [(FormatLayout.Header.headerLength, "header length"), (FormatLayout.Header.sectionCount, "sections")] {
            var copy = bytes
            for index in 0..<4 { copy[field + index] = 0xFF }
            XCTAssertThrowsError(try GMap(bytes: copy)) { error in
                guard case let .malformed(_, _, text)? = error as? GMapError else { return XCTFail("\(error)") }
                XCTAssertTrue(text.contains(reason), text)
            }
        }
    }
}
