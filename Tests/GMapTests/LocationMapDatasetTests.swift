import XCTest
import GMap
import GMapBuilder

/// The location map (format 3.1) built from the Helsinki extract, checked against brute force over
/// the extract's own streets, areas and intersections (issue 13; skipped when ../shared/data/osm is absent).
final class LocationMapDatasetTests: XCTestCase {
    struct Built {
        var data: OSMData
        var network: StreetNetwork
        var places: OSMPlaces
        var bytes: [UInt8]
        var summary: LocationMapSummary
        var seconds: Double
    }

    static func helsinki() throws -> Built {
        let data = try OSMPBFReader.read(path: try OSMPBFDatasetTests.extract("Helsinki.osm.pbf").path)
        let start = Date()
        let (bytes, summary) = try LocationMapBuilder.build(data)
        let seconds = Date().timeIntervalSince(start)
        return Built(data: data, network: StreetNetwork(data), places: OSMPlaces(data), bytes: bytes, summary: summary, seconds: seconds)
    }

    func testTheMapHoldsEveryStreetPlaceAddressAndIntersection() throws {
        let built = try Self.helsinki()
        let map = try GMap(bytes: built.bytes)
        print("Helsinki location map: \(built.bytes.count) bytes, built in \(String(format: "%.3f", built.seconds)) s; layers \(built.summary.layerBytes.map { "\($0.layer) \($0.bytes)" }.joined(separator: ", "))")
        XCTAssertEqual(map.formatVersion.major, 3)
        XCTAssertEqual(map.formatVersion.minor, 1)
        XCTAssertEqual(map.layerNames, ["areas", "roads", "places", "addresses", "intersections"])
        XCTAssertEqual(map.layer(named: "roads")?.geometryKind, .lines)
        XCTAssertEqual(map.layer(named: "places")?.geometryKind, .points)
        XCTAssertEqual(map.layer(named: "areas")?.geometryKind, .polygons)
        // A street of which the extract holds single nodes only (its ways cut at the edge) has no line to store.
        let drawable = built.network.streets.filter { street in street.lines.contains { Set($0.map(\.id)).count >= 2 } }
        XCTAssertEqual(map.layer(named: "roads")?.featureCount, drawable.count)
        XCTAssertEqual(built.network.streets.count - drawable.count, 4)
        XCTAssertEqual(map.layer(named: "intersections")?.featureCount, built.network.intersections.count)
        XCTAssertEqual(map.layer(named: "places")?.featureCount, built.places.places.count)
        XCTAssertEqual(map.layer(named: "addresses")?.featureCount, built.places.addresses.count)
        XCTAssertEqual(map.layer(named: "areas")?.featureCount, built.places.areas.count)
        print("  sections: " + map.sections.map { "\($0.tag) \($0.length)" }.joined(separator: ", "))
        XCTAssertEqual(built.summary.waysWithAbsentNodes, 421)
        XCTAssertEqual(built.summary.absentNodeReferences, 4_525)
        XCTAssertLessThanOrEqual(built.bytes.count, 400_000, "issue 13's file target")
        let verifier = MapVerifier(map: map)
        XCTAssertTrue(verifier.isSound, "\(verifier.problems.prefix(5))")
    }
}
