import XCTest
import GMap
import GMapBuilder
import GMapTestSupport

final class FixtureTests: XCTestCase {
    private func fixtureMap(_ configure: (inout BuildOptions) -> Void = { _ in }) throws -> GMap {
        try TestSupport.build(geoJSON: TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson").path) { options in
            options.idProperty = "id"
            options.keptProperties = ["name"]
            configure(&options)
        }.map
    }

    func testKnownFixtureLocations() throws {
        let known = try TestSupport.knownLocations(TestSupport.fixtures.appendingPathComponent("known-fixtures.csv"))
        XCTAssertGreaterThan(known.count, 25)
        for maximumEdges in [1, 48] {
            let map = try fixtureMap { $0.maximumEdgesPerTile = maximumEdges }
            for point in known {
                XCTAssertEqual(map.lookup(latitude: point.latitude, longitude: point.longitude)?.id, point.expected,
                               "(\(point.latitude), \(point.longitude)) with max edges \(maximumEdges)")
            }
        }
    }

    /// Fixtures/format-1.0-fixtures.gmap was written by gmap 1.0.0 (format 1.0, varint runs) from
    /// all-fixtures.geojson with `--id id --keep name --tile-size 2`. This reader must still open it,
    /// find it sound, and answer every point exactly as a map built now (format 2) does.
    func testFormatOneMapsStillAnswerTheSame() throws {
        let old = try GMap(contentsOf: TestSupport.fixtures.appendingPathComponent("format-1.0-fixtures.gmap").path)
        XCTAssertEqual(old.formatVersion.major, 1)
        XCTAssertTrue(MapVerifier(map: old).isSound, "\(MapVerifier(map: old).problems.prefix(3))")
        let current = try fixtureMap()
        XCTAssertEqual(current.formatVersion.major, Int(FormatLayout.majorVersion))
        var random = SplitMix64(state: 7)
        var points = try TestSupport.knownLocations(TestSupport.fixtures.appendingPathComponent("known-fixtures.csv")).map { ($0.latitude, $0.longitude) }
        for _ in 0..<100_000 {
            points.append((Double(random.next() % 1_800_000) / 10_000 - 90, Double(random.next() % 3_600_000) / 10_000 - 180))
        }
        var compared = 0
        for (latitude, longitude) in points {
            let before = old.lookupAll(latitude: latitude, longitude: longitude).map(\.id)
            XCTAssertEqual(before, current.lookupAll(latitude: latitude, longitude: longitude).map(\.id), "(\(latitude), \(longitude))")
            if !before.isEmpty { compared += 1 }
        }
        XCTAssertGreaterThan(compared, 1_000, "enough points fall inside fixtures")
    }

    func testOverlapsComeSmallestFirst() throws {
        let map = try fixtureMap()
        XCTAssertEqual(map.lookupAll(latitude: 9, longitude: 89).map(\.id), ["SMALL", "CROSS", "BIG"])
        XCTAssertEqual(map.lookupAll(latitude: 10, longitude: 95).map(\.id), ["CROSS", "BIG"])
        XCTAssertEqual(map.lookupAll(latitude: 15, longitude: 81).map(\.id), ["BIG"])
        XCTAssertEqual(map.lookupAll(latitude: 50, longitude: 50).map(\.id), [])
        let areas = map.features.map(\.area)
        XCTAssertEqual(areas, areas.sorted(), "features are stored smallest area first")
    }

    /// Points exactly on a shared border, on the quantized grid, are in exactly one of the two features.
    func testSharedBorderHasNoGapAndNoOverlap() throws {
        let map = try fixtureMap { $0.maximumEdgesPerTile = 2 }
        // The border of WEST and EAST runs (5,40) → (5.5,42) → (5,45); A and B share (45,0) → (46,3) → (44.5,6) → (45.5,10).
        let borders: [[(Double, Double)]] = [[(5, 40), (5.5, 42), (5, 45)], [(45, 0), (46, 3), (44.5, 6), (45.5, 10)]]
        for border in borders {
            for leg in 0..<(border.count - 1) {
                let (x0, y0) = border[leg], (x1, y1) = border[leg + 1]
                // The last point of the last leg is the features' northernmost point: on their north edge, so in neither.
                for step in 0...(leg == border.count - 2 ? 399 : 400) {
                    let t = Double(step) / 400
                    let latitude = y0 + t * (y1 - y0), longitude = x0 + t * (x1 - x0)
                    let answers = map.lookupAll(latitude: latitude, longitude: longitude).map(\.id)
                    XCTAssertEqual(answers.count, 1, "(\(latitude), \(longitude)): \(answers)")
                }
            }
        }
    }

    func testPropertiesAndBoundingBox() throws {
        let map = try fixtureMap()
        let hole = try XCTUnwrap(map.lookup(latitude: 1, longitude: 1))
        XCTAssertEqual(hole.id, "HOLE")
        XCTAssertEqual(hole.property("name"), "Square with a hole")
        XCTAssertEqual(hole.properties, [Property(key: "name", value: "Square with a hole", kind: .string)])
        XCTAssertNil(hole.property("id"), "only kept properties are stored")
        XCTAssertEqual(hole.boundingBox.west, 0)
        XCTAssertEqual(hole.boundingBox.north, 10)
        // 84 square degrees near the equator: about 84 × 111.2² km², a little less away from it.
        XCTAssertEqual(hole.area, 84 * 111.195 * 111.195 * 0.99, accuracy: 84 * 111.195 * 111.195 * 0.02)
    }

    func testEveryTileKindIsBuiltAndAnswered() throws {
        let map = try fixtureMap { $0.maximumEdgesPerTile = 3; $0.tileSize = 20_000_000 }
        let survey = TileSurvey(of: map)
        XCTAssertGreaterThan(survey.emptyTiles, 0)
        XCTAssertGreaterThan(survey.coveredTiles, 0)
        XCTAssertGreaterThan(survey.recordTiles, 0)
        XCTAssertGreaterThan(survey.splitTiles, 0)
        XCTAssertEqual(survey.unreadableRecords, 0)
        XCTAssertLessThanOrEqual(survey.edgesPerTile.last ?? 0, 12)
    }

    func testBuildsAreDeterministic() throws {
        let path = TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson").path
        let first = try TestSupport.build(geoJSON: path).bytes
        let second = try TestSupport.build(geoJSON: path).bytes
        XCTAssertEqual(first, second)
    }

    func testOpensFromABorrowedBufferWithoutCopying() throws {
        let bytes = try TestSupport.build(geoJSON: TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson").path) {
            $0.idProperty = "id"
        }.bytes
        try bytes.withUnsafeBytes { buffer in
            let map = try GMap(unsafeBuffer: buffer)
            XCTAssertEqual(map.lookup(latitude: 7, longitude: 85.5)?.id, "SMALL")
        }
    }
}
