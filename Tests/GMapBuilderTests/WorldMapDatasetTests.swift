import Foundation
import GMap
import GMapBuilder
import XCTest
import GMapTestSupport

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
        let map = try GMap(contentsOf: TestSupport.shippedMap)
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
        print("marine: \(differences) of \(count) points answer differently from the source rings; \(atSea) in a marine polygon")
        XCTAssertGreaterThan(atSea, count / 3)
        XCTAssertLessThanOrEqual(differences, max(1, count / 100_000))
    }

    /// The shipped map's time zones (simplified to 1 km) against the unsimplified source built with
    /// the same precision, on random points over the whole sphere, poles and 180° included: every
    /// point whose zones differ must lie within the simplification distance (1 km, +2 % for the
    /// local plane, +1 m) of a border of each zone in the difference, measured over the source rings.
    func testTimeZonesAgainstTheSourceWithinTheSimplification() throws {
        let path = Self.inputs.appendingPathComponent("timezones.geojson").path
        guard FileManager.default.fileExists(atPath: path) else {
            throw XCTSkip("\(path) is absent: run Scripts/world-map/build-world-map.sh (or set GMAP_WORLD_INPUTS)")
        }
        let features = try TestSupport.features(at: path, idProperty: "tzid")
        XCTAssertEqual(features.count, 444)
        let full = try TestSupport.build(features).map
        let map = try GMap(contentsOf: TestSupport.shippedMap)
        guard let zones = map.layer(named: "timezones") else { return XCTFail("no timezones layer") }
        var index: [String: Int] = [:]
        for (position, feature) in features.enumerated() { index[feature.id] = position }
        /// Metres from the point to the nearest edge of the zone's source rings (local plane).
        func borderDistance(_ zone: String, latitude: Double, longitude: Double) -> Double {
            guard let position = index[zone] else { return .infinity }
            let north = 111_132.0, east = 111_320.0 * cos(latitude * .pi / 180)
            var best = Double.infinity
            for ring in features[position].polygons.flatMap({ $0 }) where ring.count > 1 {
                for i in 1..<ring.count {
                    func project(_ p: (longitude: Double, latitude: Double)) -> (Double, Double) {
                        var dx = p.longitude - longitude
                        if dx > 180 { dx -= 360 } else if dx < -180 { dx += 360 }
                        return (dx * east, (p.latitude - latitude) * north)
                    }
                    let (ax, ay) = project(ring[i - 1]), (bx, by) = project(ring[i])
                    let dx = bx - ax, dy = by - ay
                    let t = max(0, min(1, -(ax * dx + ay * dy) / max(dx * dx + dy * dy, 1e-12)))
                    best = min(best, hypot(ax + t * dx, ay + t * dy))
                }
            }
            return best
        }
        let count = Int(ProcessInfo.processInfo.environment["GMAP_ORACLE_POINTS"] ?? "") ?? 20_000
        var random = SplitMix64(state: 7_070)
        var checked = 0, differences = 0, polar = 0, polarDifferences = 0
        for _ in 0..<count {
            let latitude = asin(Double.random(in: -1...1, using: &random)) * 180 / .pi
            let longitude = Double.random(in: -180..<180, using: &random)
            let expected = Set(full.lookupAll(latitude: latitude, longitude: longitude).map(\.id))
            let answered = Set(zones.lookupAll(latitude: latitude, longitude: longitude).map(\.id))
            checked += 1
            if abs(latitude) > 70 { polar += 1 }
            guard expected != answered else { continue }
            differences += 1
            if abs(latitude) > 70 { polarDifferences += 1 }
            for zone in expected.symmetricDifference(answered) {
                let distance = borderDistance(zone, latitude: latitude, longitude: longitude)
                XCTAssertLessThanOrEqual(distance, 1_000 * 1.02 + 1, "(\(latitude), \(longitude)): \(zone) differs \(distance) m from its source border")
            }
        }
        print("timezones: \(differences) of \(checked) points differ from the source, each within 1 km of a border; \(polarDifferences) of the \(polar) beyond 70°")
        for (latitude, longitude) in [(-89.0, 0.0), (75.0, 179.0), (75.0, -179.0)] {
            XCTAssertEqual(zones.lookupAll(latitude: latitude, longitude: longitude).map(\.id), full.lookupAll(latitude: latitude, longitude: longitude).map(\.id),
                           "(\(latitude), \(longitude)): the zones at the poles and along 180° keep their edges on the pole line")
        }
        XCTAssertLessThan(Double(differences), Double(checked) * 0.002)
    }
}
