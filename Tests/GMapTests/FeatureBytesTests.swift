import XCTest
import GMap
import GMapTestSupport

/// The byte-level accessors agree with the `String` ones on every feature of the shipped map.
final class FeatureBytesTests: XCTestCase {
    private func text(_ bytes: UnsafeRawBufferPointer?) -> String? { bytes.map { String(decoding: $0, as: UTF8.self) } }

    func testBytesMatchStrings() throws {
        let map = try GMap(contentsOf: TestSupport.repositoryRoot.appendingPathComponent("Sources/GMapWorld/Resources/world.gmap").path)
        XCTAssertEqual(map.featureCount, 250)
        for feature in map.features {
            XCTAssertEqual(text(feature.idBytes), feature.id)
            let properties = feature.properties
            XCTAssertEqual(feature.propertyCount, properties.count)
            for (position, property) in properties.enumerated() {
                let bytes = try XCTUnwrap(feature.propertyBytes(at: position))
                XCTAssertEqual(text(bytes.key), property.key)
                XCTAssertEqual(text(bytes.value), property.value)
                XCTAssertEqual(bytes.kind, property.kind)
                let key = Array(property.key.utf8)
                XCTAssertEqual(key.withUnsafeBytes { text(feature.propertyValueBytes(forKey: $0)) }, feature.property(property.key))
            }
            XCTAssertNil(feature.propertyBytes(at: -1))
            XCTAssertNil(feature.propertyBytes(at: properties.count))
            XCTAssertNil(feature.propertyValueBytes(forKey: "no such key"))
            XCTAssertNil(feature.propertyValueBytes(forKey: "nam"))
        }
        let gibraltar = try XCTUnwrap(map.lookup(latitude: 36.14, longitude: -5.35))
        XCTAssertEqual(text(gibraltar.propertyValueBytes(forKey: "name")), "Gibraltar")
    }
}
