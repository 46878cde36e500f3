import XCTest
import GMap
import GMapBuilder
import GMapCodecs
import GMapRender

/// Checks lookups against the brute-force oracle.
enum OracleCheck {
    /// Compares `map` with `oracle` at every point; returns the disagreements (up to `limit`) and the count checked.
    static func disagreements(map: GMap, oracle: BruteForceOracle, points: [(latitude: Double, longitude: Double)], limit: Int = 10) -> [String] {
        var problems: [String] = []
        var count = 0
        for point in points {
            guard let grid = map.quantizer.queryPoint(latitude: point.latitude, longitude: point.longitude) else { continue }
            let expected = oracle.containing(grid).map { oracle.shapes[$0].id }
            var actual: [String] = []
            map.visitFeatures(containing: grid) { index in
                actual.append(map.feature(at: index)?.id ?? "?")
                return true
            }
            if Set(expected) != Set(actual) || expected.count != actual.count {
                count += 1
                if problems.count < limit {
                    problems.append("(\(point.latitude), \(point.longitude)) grid (\(grid.x), \(grid.y)): expected \(expected.sorted()), got \(actual)")
                }
            }
        }
        if count > problems.count { problems.append("… \(count) disagreements in all") }
        return problems
    }

    /// Points spread over the features: uniform in the bounding box, on and within metres of vertices and edges.
    static func points(near features: [SourceFeature], uniform: Int, nearEdges: Int, seed: UInt64) -> [(latitude: Double, longitude: Double)] {
        var random = SplitMix64(state: seed)
        var west = 180.0, south = 90.0, east = -180.0, north = -90.0
        var vertices: [(longitude: Double, latitude: Double)] = []
        var edges: [((longitude: Double, latitude: Double), (longitude: Double, latitude: Double))] = []
        for feature in features {
            for polygon in feature.polygons {
                for ring in polygon {
                    for (index, position) in ring.enumerated() {
                        west = min(west, position.longitude); east = max(east, position.longitude)
                        south = min(south, position.latitude); north = max(north, position.latitude)
                        vertices.append(position)
                        edges.append((position, ring[(index + 1) % ring.count]))
                    }
                }
            }
        }
        var result: [(latitude: Double, longitude: Double)] = []
        let marginX = max(0.5, (east - west) * 0.02), marginY = max(0.5, (north - south) * 0.02)
        for _ in 0..<uniform {
            result.append((min(90, max(-90, Double.random(in: south - marginY...north + marginY, using: &random))),
                           min(180, max(-180, Double.random(in: west - marginX...east + marginX, using: &random)))))
        }
        guard !edges.isEmpty else { return result }
        for step in 0..<nearEdges {
            let (a, b) = edges[Int.random(in: 0..<edges.count, using: &random)]
            var latitude: Double, longitude: Double
            switch step % 4 {
            case 0: // exactly a vertex
                (latitude, longitude) = (a.latitude, a.longitude)
            case 1: // exactly on the edge (as near as doubles get)
                let t = Double.random(in: 0...1, using: &random)
                (latitude, longitude) = (a.latitude + t * (b.latitude - a.latitude), a.longitude + t * (b.longitude - a.longitude))
            default: // within a few metres of the edge
                let t = Double.random(in: 0...1, using: &random)
                let metres = Double.random(in: -5...5, using: &random) / 111_000
                (latitude, longitude) = (a.latitude + t * (b.latitude - a.latitude) + metres,
                                         a.longitude + t * (b.longitude - a.longitude) + Double.random(in: -5...5, using: &random) / 111_000)
            }
            result.append((min(90, max(-90, latitude)), min(180, max(-180, longitude))))
        }
        return result
    }
}

final class FixtureOracleTests: XCTestCase {
    func testFixturesAgreeWithOracleUnderEveryTiling() throws {
        let features = try TestSupport.features(at: TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson").path, idProperty: "id")
        XCTAssertEqual(features.count, 12)
        let oracle = BruteForceOracle(features: features)
        let points = OracleCheck.points(near: features, uniform: 20_000, nearEdges: 20_000, seed: 1)
        for maximumEdges in [1, 4, 48] {
            for tileDegrees in [nil, 0.7, 3.0] as [Double?] {
                let map = try TestSupport.build(features) { options in
                    options.maximumEdgesPerTile = maximumEdges
                    options.tileSize = tileDegrees.map { Int64($0 * 1e7) }
                }.map
                XCTAssertEqual(OracleCheck.disagreements(map: map, oracle: oracle, points: points), [],
                               "max edges \(maximumEdges), tile \(String(describing: tileDegrees))")
            }
        }
    }

    func testCoarsePrecisionAgreesWithOracle() throws {
        let features = try TestSupport.features(at: TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson").path, idProperty: "id")
        let quantizer = try XCTUnwrap(Quantizer(unitsPerDegree: 100))
        let oracle = BruteForceOracle(features: features, quantizer: quantizer)
        let map = try TestSupport.build(features) { $0.quantizer = quantizer; $0.maximumEdgesPerTile = 2 }.map
        let points = OracleCheck.points(near: features, uniform: 20_000, nearEdges: 20_000, seed: 2)
        XCTAssertEqual(OracleCheck.disagreements(map: map, oracle: oracle, points: points), [])
    }
}
