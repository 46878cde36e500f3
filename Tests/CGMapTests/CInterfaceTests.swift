import Foundation
import XCTest
import GMap
import CGMap
import GMapTestSupport

/// The C interface (gmap.h), called through its Swift @_cdecl functions.
final class CInterfaceTests: XCTestCase {
    private static let worldPath = TestSupport.repositoryRoot.appendingPathComponent("Sources/GMapWorld/Resources/world.gmap").path
    private let ok: Int32 = 0, notFound: Int32 = 1, argument: Int32 = -1, cannotOpen: Int32 = -2, notAGMap: Int32 = -3
    private let truncated: Int32 = -4, malformed: Int32 = -6, tooLarge: Int32 = -7, bufferTooSmall: Int32 = -9

    private func openWorld() throws -> OpaquePointer {
        var handle: OpaquePointer?
        XCTAssertEqual(gmap_open_path(Self.worldPath, &handle), ok)
        return try XCTUnwrap(handle)
    }

    /// Text returned in place: pointer and length.
    private func inPlace(_ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>, UnsafeMutablePointer<Int>) -> Int32) -> (Int32, String?) {
        var pointer: UnsafePointer<CChar>?
        var length = -1
        let status = body(&pointer, &length)
        guard status == ok, let pointer else { return (status, nil) }
        return (status, String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self))
    }

    /// The NUL-terminated text in a buffer.
    private func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func testLookupsAndFeaturesMatchTheSwiftReader() throws {
        let handle = try openWorld()
        defer { gmap_close(handle) }
        let map = try GMap(contentsOf: Self.worldPath)
        XCTAssertEqual(Int(gmap_feature_count(handle)), map.featureCount)
        let known = try TestSupport.knownLocations(TestSupport.fixtures.appendingPathComponent("known-countries.csv"))
        var points = known.map { ($0.latitude, $0.longitude) }
        for latitude in stride(from: -89.5, through: 89.5, by: 7.3) {
            for longitude in stride(from: -179.5, through: 179.5, by: 5.9) { points.append((latitude, longitude)) }
        }
        for (latitude, longitude) in points {
            let expected = map.lookupAll(latitude: latitude, longitude: longitude)
            var first: UInt32 = .max
            XCTAssertEqual(gmap_lookup(handle, latitude, longitude, &first), expected.isEmpty ? notFound : ok)
            var indices = [UInt32](repeating: .max, count: 8)
            var count = -1
            XCTAssertEqual(gmap_lookup_all(handle, latitude, longitude, &indices, indices.count, &count), expected.isEmpty ? notFound : ok)
            XCTAssertEqual(count, expected.count)
            XCTAssertEqual(indices.prefix(count).map(Int.init), expected.map(\.index))
            guard let feature = expected.first else { continue }
            XCTAssertEqual(Int(first), feature.index)
            XCTAssertEqual(inPlace { gmap_feature_id(handle, first, $0, $1) }.1, feature.id)
            XCTAssertEqual(Int(gmap_feature_property_count(handle, first)), feature.properties.count)
            for (position, property) in feature.properties.enumerated() {
                var keyPointer: UnsafePointer<CChar>?, valuePointer: UnsafePointer<CChar>?
                var keyLength = 0, valueLength = 0
                XCTAssertEqual(gmap_feature_property_at(handle, first, UInt32(position), &keyPointer, &keyLength, &valuePointer, &valueLength), ok)
                XCTAssertEqual(keyPointer.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: keyLength), as: UTF8.self) }, property.key)
                XCTAssertEqual(valuePointer.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: valueLength), as: UTF8.self) }, property.value)
                XCTAssertEqual(inPlace { gmap_feature_property(handle, first, property.key, $0, $1) }.1, property.value)
            }
        }
    }

    func testTextInPlaceAndCopied() throws {
        let handle = try openWorld()
        defer { gmap_close(handle) }
        var gibraltar: UInt32 = 0
        XCTAssertEqual(gmap_lookup(handle, 36.14, -5.35, &gibraltar), ok)
        XCTAssertEqual(inPlace { gmap_feature_id(handle, gibraltar, $0, $1) }.1, "GI")
        XCTAssertEqual(inPlace { gmap_feature_property(handle, gibraltar, "name", $0, $1) }.1, "Gibraltar")
        XCTAssertEqual(inPlace { gmap_feature_property(handle, gibraltar, "nam", $0, $1) }.0, notFound)

        var buffer = [CChar](repeating: 0x7F, count: 16)
        var length = -1
        XCTAssertEqual(gmap_feature_property_copy(handle, gibraltar, "name", &buffer, buffer.count, &length), ok)
        XCTAssertEqual(length, 9)
        XCTAssertEqual(text(buffer), "Gibraltar")
        XCTAssertEqual(gmap_feature_property_copy(handle, gibraltar, "name", &buffer, 4, &length), bufferTooSmall)
        XCTAssertEqual(text(buffer), "Gib")
        XCTAssertEqual(gmap_feature_property_copy(handle, gibraltar, "name", nil, 0, &length), bufferTooSmall)
        XCTAssertEqual(length, 9)
        XCTAssertEqual(gmap_feature_property_copy(handle, gibraltar, "name", &buffer, 9, nil), bufferTooSmall)
        XCTAssertEqual(gmap_feature_property_copy(handle, gibraltar, "name", &buffer, 10, nil), ok)
        XCTAssertEqual(gmap_feature_property_copy(handle, gibraltar, "nope", &buffer, 10, nil), notFound)
        XCTAssertEqual(gmap_feature_id_copy(handle, gibraltar, &buffer, buffer.count, &length), ok)
        XCTAssertEqual(text(buffer), "GI")
        XCTAssertEqual(length, 2)
        XCTAssertEqual(gmap_feature_id_copy(handle, gibraltar, &buffer, 2, &length), bufferTooSmall)
        XCTAssertEqual(text(buffer), "G")
    }

    func testBadArguments() throws {
        let handle = try openWorld()
        defer { gmap_close(handle) }
        var feature: UInt32 = 0
        var count = 0
        XCTAssertEqual(gmap_lookup(handle, 0, -30, &feature), notFound)
        XCTAssertEqual(gmap_lookup_all(handle, 0, -30, nil, 0, &count), notFound)
        XCTAssertEqual(count, 0)
        XCTAssertEqual(gmap_lookup_all(handle, 44.95, 34.1, nil, 0, &count), ok)
        XCTAssertEqual(count, 1)
        for (latitude, longitude) in [(Double.nan, 0.0), (91, 0), (0, -181), (0, .infinity)] {
            XCTAssertEqual(gmap_lookup(handle, latitude, longitude, &feature), argument)
            XCTAssertEqual(gmap_lookup_all(handle, latitude, longitude, nil, 0, &count), argument)
        }
        XCTAssertEqual(gmap_lookup(nil, 36.14, -5.35, &feature), argument)
        XCTAssertEqual(gmap_lookup(handle, 36.14, -5.35, nil), argument)
        XCTAssertEqual(gmap_lookup_all(handle, 36.14, -5.35, nil, 4, &count), argument)
        XCTAssertEqual(gmap_lookup_all(handle, 36.14, -5.35, nil, 0, nil), argument)
        XCTAssertEqual(gmap_feature_count(nil), 0)
        XCTAssertEqual(gmap_feature_property_count(handle, 250), 0)
        XCTAssertEqual(inPlace { gmap_feature_id(handle, 250, $0, $1) }.0, argument)
        XCTAssertEqual(inPlace { gmap_feature_id(handle, .max, $0, $1) }.0, argument)
        XCTAssertEqual(inPlace { gmap_feature_id(nil, 0, $0, $1) }.0, argument)
        XCTAssertEqual(inPlace { gmap_feature_property(handle, 0, nil, $0, $1) }.0, argument)
        XCTAssertEqual(gmap_feature_property_at(handle, 0, 99, nil, nil, nil, nil), argument)
        gmap_close(nil)
    }

    func testOpenErrors() throws {
        var handle: OpaquePointer? = OpaquePointer(bitPattern: 1)
        XCTAssertEqual(gmap_open_path("/nonexistent/world.gmap", &handle), cannotOpen)
        XCTAssertEqual(errno, ENOENT)
        XCTAssertNil(handle)
        XCTAssertEqual(gmap_open_path(nil, &handle), argument)
        XCTAssertEqual(gmap_open_path(Self.worldPath, nil), argument)

        let world = Array(try Data(contentsOf: URL(fileURLWithPath: Self.worldPath)))
        func openBuffer(_ bytes: [UInt8]) -> Int32 {
            var handle: OpaquePointer?
            let status = bytes.withUnsafeBytes { gmap_open_buffer($0.baseAddress, $0.count, &handle) }
            if status == ok { XCTAssertNotNil(handle) } else { XCTAssertNil(handle) }
            gmap_close(handle)
            return status
        }
        XCTAssertEqual(openBuffer(world), ok)
        XCTAssertEqual(openBuffer(Array("hello, world".utf8)), notAGMap)
        XCTAssertEqual(openBuffer(Array(world.prefix(1000))), truncated)
        var huge = world
        for index in 0..<8 { huge[FormatLayout.Header.fileLength + index] = 0xFF }
        XCTAssertEqual(openBuffer(huge), truncated, "a header claiming more bytes than the buffer holds: truncated, whatever the platform addresses")
        var damaged = world
        damaged[FormatLayout.Header.unitsPerDegree + 3] = 0xFF
        XCTAssertEqual(openBuffer(damaged), malformed)
        XCTAssertEqual(gmap_open_buffer(nil, 0, &handle), truncated)
        XCTAssertEqual(gmap_open_buffer(world, -1, &handle), tooLarge)
    }

    func testBufferMapsAnswerLikePathMaps() throws {
        let world = Array(try Data(contentsOf: URL(fileURLWithPath: Self.worldPath)))
        try world.withUnsafeBytes { bytes in
            var handle: OpaquePointer?
            XCTAssertEqual(gmap_open_buffer(bytes.baseAddress, bytes.count, &handle), ok)
            defer { gmap_close(handle) }
            var feature: UInt32 = 0
            XCTAssertEqual(gmap_lookup(try XCTUnwrap(handle), 52.52, 13.405, &feature), ok)
            XCTAssertEqual(inPlace { gmap_feature_id(handle, feature, $0, $1) }.1, "DE")
        }
    }

    func testStatusMessages() {
        for status: Int32 in -9...1 {
            let message = String(cString: gmap_status_message(status))
            XCTAssertFalse(message.isEmpty)
            XCTAssertNotEqual(message, "unknown status", "status \(status)")
        }
        XCTAssertEqual(String(cString: gmap_status_message(42)), "unknown status")
        XCTAssertEqual(String(cString: gmap_status_message(0)), "success")
    }
}
