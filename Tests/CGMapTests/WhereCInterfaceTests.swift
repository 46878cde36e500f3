import Foundation
import XCTest
import GMap
import GMapBuilder
import CGMap
import GMapTestSupport

/// `gmap_where` (gmap.h) on the shipped world map (no road layer) and on the location map of the
/// one-street PBF file made by ``PBFFixture``: statuses, text, buffers.
final class WhereCInterfaceTests: XCTestCase {
    private let ok: Int32 = 0, notFound: Int32 = 1, argument: Int32 = -1, bufferTooSmall: Int32 = -9, noRoadLayer: Int32 = -10

    /// The NUL-terminated text in a buffer.
    private func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func testWorldMapHasNoRoadLayer() throws {
        var handle: OpaquePointer?
        let world = TestSupport.repositoryRoot.appendingPathComponent("Sources/GMapWorld/Resources/world.gmap").path
        XCTAssertEqual(gmap_open_path(world, &handle), ok)
        defer { gmap_close(handle) }
        var buffer = [CChar](repeating: 0, count: 64)
        var length = -1
        XCTAssertEqual(gmap_where(handle, 60.17, 24.94, .nan, &buffer, buffer.count, &length), noRoadLayer)
        XCTAssertEqual(String(cString: gmap_status_message(noRoadLayer)), "the map has no road layer (build it with gmap build --osm)")
        // Bad arguments come first.
        XCTAssertEqual(gmap_where(nil, 60.17, 24.94, 0, &buffer, buffer.count, &length), argument)
        XCTAssertEqual(gmap_where(handle, 91, 24.94, 0, &buffer, buffer.count, &length), argument)
        XCTAssertEqual(gmap_where(handle, .nan, 24.94, 0, &buffer, buffer.count, &length), argument)
        XCTAssertEqual(gmap_where(handle, 60.17, 180.5, 0, &buffer, buffer.count, &length), argument)
        XCTAssertEqual(gmap_where(handle, 60.17, 24.94, 0, nil, 10, &length), argument)
    }

    func testCalloutsStatusesAndBuffers() throws {
        let data = try OSMPBFReader.read(PBFFixture.file(), file: "small.osm.pbf")
        let bytes = try LocationMapBuilder.build(data).bytes
        bytes.withUnsafeBytes { map in
            var handle: OpaquePointer?
            XCTAssertEqual(gmap_open_buffer(map.baseAddress, map.count, &handle), ok)
            defer { gmap_close(handle) }
            var buffer = [CChar](repeating: 0x7F, count: 256)
            var length = -1
            XCTAssertEqual(gmap_where(handle, 60.17005, 24.94005, 45 + 720, &buffer, buffer.count, &length), ok)
            let said = text(buffer)
            XCTAssertTrue(said.hasPrefix("You are facing northeast along Keskuskatu."), said)
            XCTAssertEqual(length, said.utf8.count)
            XCTAssertFalse(said.hasSuffix("\n"))
            XCTAssertEqual(gmap_where(handle, 60.17005, 24.94005, .nan, &buffer, buffer.count, &length), ok)
            XCTAssertTrue(text(buffer).hasPrefix("You are along Keskuskatu."), text(buffer))
            // The length alone, then a buffer too small for it: a NUL-terminated prefix.
            var needed = -1
            XCTAssertEqual(gmap_where(handle, 60.17005, 24.94005, .nan, nil, 0, &needed), bufferTooSmall)
            XCTAssertEqual(needed, length)
            var small = [CChar](repeating: 0x7F, count: 8)
            XCTAssertEqual(gmap_where(handle, 60.17005, 24.94005, .nan, &small, small.count, nil), bufferTooSmall)
            XCTAssertEqual(text(small), "You are")
            // Far from everything: not found, and the text says so.
            XCTAssertEqual(gmap_where(handle, 0, 0, .nan, &buffer, buffer.count, &length), notFound)
            XCTAssertEqual(text(buffer), "Nothing known nearby.")
        }
    }
}
