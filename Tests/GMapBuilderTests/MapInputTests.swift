import Foundation
import XCTest
import GMap
import GMapBuilder
import GMapCodecs
import GMapTestSupport

/// Every input format gives the same map as the GeoJSON it holds: the fixtures as a FeatureCollection,
/// newline-delimited, RS-separated, gzipped (by gzip, and as stored blocks), zipped, and on standard input.
final class MapInputTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("gmap-input-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    private func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    private func mapBytes(_ path: String) throws -> (bytes: [UInt8], format: InputFormat) {
        var options = BuildOptions()
        options.idProperty = "id"
        var builder = try MapBuilder(options: options)
        let format = try MapInput.read(path: path, into: &builder)
        return (try builder.finish().bytes, format)
    }

    func testEveryGeoJSONFormGivesTheSameMap() throws {
        let plainPath = TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson").path
        let reference = try mapBytes(plainPath)
        XCTAssertEqual(reference.format, .geoJSON)
        let lines = try InputFixtures.fixtureFeatureLines()
        XCTAssertGreaterThan(lines.count, 5)
        let ndjson = Array((lines.joined(separator: "\n") + "\n").utf8)
        let sequence = Array(lines.map { "\u{1E}\($0)\n" }.joined().utf8)
        let plain = Array(try Data(contentsOf: URL(fileURLWithPath: plainPath)))
        let cases: [(name: String, bytes: [UInt8], format: InputFormat)] = [
            ("features.ndjson", ndjson, .geoJSONSequence),
            ("features.txt", ndjson, .geoJSON),  // detected from the content
            ("features.geojsons", sequence, .geoJSONSequence),
            ("features.json", sequence, .geoJSON),
            ("stored.geojson.gz", InputFixtures.gzip(deflate: InputFixtures.storedDeflate(plain, blockSize: 1_000), original: plain), .gzip),
            ("features.ndjson.gz", InputFixtures.gzip(deflate: InputFixtures.storedDeflate(ndjson), original: ndjson), .gzip),
            ("misnamed.geojson", InputFixtures.gzip(deflate: InputFixtures.storedDeflate(plain), original: plain), .gzip),
            ("fixtures.zip", InputFixtures.zip([.init(name: "x/all.geojson", data: plain, method: 8)]), .zip),
            ("lines.zip", InputFixtures.zip([.init(name: "all.ndjson", data: ndjson)]), .zip),
        ]
        for item in cases {
            let built = try mapBytes(try write(item.bytes, item.name))
            XCTAssertEqual(built.format, item.format, item.name)
            XCTAssertEqual(built.bytes, reference.bytes, item.name)
        }
        let gzipped = try mapBytes(TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson.gz").path)
        XCTAssertEqual(gzipped.bytes, reference.bytes, "the fixture gzipped by gzip -9")
    }

    func testAShapefileOnDiskWithItsCompanions() throws {
        typealias F = InputFixtures
        let rings = [F.square(0, 0, 4, 4, clockwise: true), F.square(1, 1, 2, 2, clockwise: false)]
        _ = try write(F.shp([F.Shape(rings: rings), F.Shape(rings: [F.square(10, 10, 11, 11, clockwise: true)])]), "places.shp")
        _ = try write(F.dbf([F.Column(name: "id", type: "C", width: 4)], rows: [[F.text("A")], [F.text("B")]]), "places.DBF")
        _ = try write(F.text("GEOGCS[\"WGS 84\"]"), "places.prj")
        let built = try mapBytes(directory.appendingPathComponent("places.shp").path)
        XCTAssertEqual(built.format, .shapefile)
        let map = try GMap(bytes: built.bytes)
        XCTAssertEqual(map.lookup(latitude: 3, longitude: 3)?.id, "A")
        XCTAssertNil(map.lookup(latitude: 1.5, longitude: 1.5), "inside the hole")
        XCTAssertEqual(map.lookup(latitude: 10.5, longitude: 10.5)?.id, "B")

        try FileManager.default.removeItem(at: directory.appendingPathComponent("places.DBF"))
        XCTAssertThrowsError(try mapBytes(directory.appendingPathComponent("places.shp").path)) { error in
            XCTAssertEqual((error as? ShapefileError)?.kind, .missingFile, "\(error)")
        }
    }

    func testGzipErrorsReachTheGeoJSONErrorWithTheirPlace() throws {
        let plain = Array(try Data(contentsOf: TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson")))
        var damaged = InputFixtures.gzip(deflate: InputFixtures.storedDeflate(plain), original: plain)
        damaged[damaged.count - 6] ^= 0xFF
        XCTAssertThrowsError(try mapBytes(try write(damaged, "damaged.geojson.gz"))) { error in
            XCTAssertTrue("\(error)".contains("gzip member 1, compressed byte"), "\(error)")
            XCTAssertTrue("\(error)".contains("CRC-32 of the decompressed data is"), "\(error)")
        }
    }
}
