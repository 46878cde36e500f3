import Foundation
import GMap
import GMapBuilder
import XCTest

/// The shipped map's marine layer against its source: the even-odd rule over the source rings of
/// every marine polygon, brute force, on random points. The source is the GeoJSON that
/// Scripts/world-map/build-world-map.sh writes to .build/world-map (or `$GMAP_WORLD_INPUTS`); the
/// test skips without it. `GMAP_ORACLE_POINTS` sets the number of points (default 20,000).
final class WorldMapDatasetTests: XCTestCase {
    static let inputs: URL = {
        if let path = ProcessInfo.processInfo.environment["GMAP_WORLD_INPUTS"] { return URL(fileURLWithPath: path) }
        return TestSupport.repositoryRoot.appendingPathComponent(".build/world-map")
    }()

    func testMarineLayerAgainstTheSourceRings() throws {
        let path = Self.inputs.appendingPathComponent("marine.geojson").path
        guard FileManager.default.fileExists(atPath: path) else {
            throw XCTSkip("\(path) is absent: run Scripts/world-map/build-world-map.sh (or set GMAP_WORLD_INPUTS)")
        }
        let features = try TestSupport.features(at: path, idProperty: "name")
        XCTAssertEqual(features.count, 295)
        struct Ring { var points: [(longitude: Double, latitude: Double)]; var west, south, east, north: Double }
        let rings: [[Ring]] = features.map { feature in
            feature.polygons.flatMap { $0 }.map { ring in
                Ring(points: ring, west: ring.map(\.longitude).min() ?? 0, south: ring.map(\.latitude).min() ?? 0,
                     east: ring.map(\.longitude).max() ?? 0, north: ring.map(\.latitude).max() ?? 0)
            }
        }
        func inside(_ ring: Ring, _ x: Double, _ y: Double) -> Bool {
            guard x >= ring.west, x <= ring.east, y >= ring.south, y <= ring.north else { return false }
            var odd = false
            var j = ring.points.count - 1
            for i in 0..<ring.points.count {
                let (a, b) = (ring.points[i], ring.points[j])
                if (a.latitude > y) != (b.latitude > y),
                   x < (b.longitude - a.longitude) * (y - a.latitude) / (b.latitude - a.latitude) + a.longitude { odd.toggle() }
                j = i
            }
            return odd
        }
        /// The smallest distance in degrees from the point to an edge of the feature's rings.
        func edgeDistance(_ feature: Int, _ x: Double, _ y: Double) -> Double {
            var best = Double.infinity
            for ring in rings[feature] {
                for i in 1..<ring.points.count {
                    let (a, b) = (ring.points[i - 1], ring.points[i])
                    let dx = b.longitude - a.longitude, dy = b.latitude - a.latitude
                    let t = max(0, min(1, ((x - a.longitude) * dx + (y - a.latitude) * dy) / max(dx * dx + dy * dy, 1e-30)))
                    best = min(best, hypot(a.longitude + t * dx - x, a.latitude + t * dy - y))
                }
            }
            return best
        }
        let map = try GMap(contentsOf: WorldPlacemarkTests.world)
        guard let marine = map.layer(named: "marine") else { return XCTFail("no marine layer") }
        let count = Int(ProcessInfo.processInfo.environment["GMAP_ORACLE_POINTS"] ?? "") ?? 20_000
        var random = SystemRandomNumberGenerator()
        var differences = 0, atSea = 0
        for _ in 0..<count {
            let y = asin(Double.random(in: -1...1, using: &random)) * 180 / .pi, x = Double.random(in: -180..<180, using: &random)
            let expected = Set((0..<features.count).filter { feature in rings[feature].reduce(false) { $0 != inside($1, x, y) } }.map { features[$0].id })
            let answered = Set(marine.lookupAll(latitude: y, longitude: x).map(\.id))
            if !expected.isEmpty { atSea += 1 }
            guard expected != answered else { continue }
            differences += 1
            // Only the quantization (1e-7°) may move a border: the point must be that close to one.
            let involved = expected.symmetricDifference(answered)
            for (index, feature) in features.enumerated() where involved.contains(feature.id) {
                XCTAssertLessThan(edgeDistance(index, x, y), 2e-7, "(\(y), \(x)): \(feature.id) differs from the source rings")
            }
        }
        XCTAssertGreaterThan(atSea, count / 3)
        XCTAssertLessThanOrEqual(differences, max(1, count / 100_000))
    }
}
