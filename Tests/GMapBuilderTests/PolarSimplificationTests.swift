import XCTest
import GMap
import GMapBuilder

/// `--simplify` near the poles: the map's edges are straight in longitude and latitude, so a vertex on
/// the pole line (latitude ±90°, where every longitude is the same point on the sphere) must not be
/// dropped as if it lay on the segment that replaces it: that would swap the triangle between them.
final class PolarSimplificationTests: XCTestCase {
    /// A coast from `west` to `east`: `count` vertices on the straight line between them, their latitudes
    /// jittered by up to ±`jitter`° (the ends exact).
    private func coast(from west: (longitude: Double, latitude: Double), to east: (longitude: Double, latitude: Double),
                       count: Int, jitter: Double, seed: UInt64) -> [(longitude: Double, latitude: Double)] {
        var random = SplitMix64(state: seed)
        return (0..<count).map { index in
            let t = Double(index) / Double(count - 1)
            let offset = index == 0 || index == count - 1 ? 0 : Double.random(in: -jitter...jitter, using: &random)
            return (west.longitude + t * (east.longitude - west.longitude), west.latitude + t * (east.latitude - west.latitude) + offset)
        }
    }

    /// A wedge reaching the north pole, as Etc/GMT-12 does: a coast from (172.5, 70) to (180, 71.75),
    /// then north along 180° to the pole line and west along it to 172.5°.
    private func northWedge() -> SourceFeature {
        let ring = coast(from: (172.5, 70), to: (180, 71.75), count: 200, jitter: 0.005, seed: 1) + [(180, 90), (172.5, 90)]
        return SourceFeature(id: "N", polygons: [[ring]])
    }

    /// A cap around the south pole, as Antarctica/McMurdo's: a coast from (−180, −75) to (180, −70), south
    /// along 180° to the pole line, along it back to −180°, and north to the start.
    private func southCap() -> SourceFeature {
        let ring = coast(from: (-180, -75), to: (180, -70), count: 400, jitter: 0.005, seed: 2) + [(180, -86), (180, -90), (-180, -90)]
        return SourceFeature(id: "S", polygons: [[ring]])
    }

    private func build(_ features: [SourceFeature], simplify metres: Double?) throws -> (GMap, BuildReport) {
        var options = BuildOptions()
        options.simplification = metres.map { Simplification(toleranceMetres: $0) }
        var builder = try MapBuilder(options: options)
        for feature in features { try builder.add(feature) }
        let (bytes, report) = try builder.finish()
        return (try GMap(bytes: bytes), report)
    }

    /// How many of `count` random points in the box answer differently in `simple` than in `full`.
    private func disagreements(_ full: GMap, _ simple: GMap, latitudes: ClosedRange<Double>, longitudes: ClosedRange<Double>,
                               count: Int, seed: UInt64) -> Int {
        var random = SplitMix64(state: seed)
        var different = 0
        for _ in 0..<count {
            let latitude = Double.random(in: latitudes, using: &random), longitude = Double.random(in: longitudes, using: &random)
            if simple.lookupAll(latitude: latitude, longitude: longitude).map(\.id) != full.lookupAll(latitude: latitude, longitude: longitude).map(\.id) {
                different += 1
            }
        }
        return different
    }

    func testPoleLineVerticesStay() throws {
        let features = [northWedge(), southCap()]
        let (full, _) = try build(features, simplify: nil)
        let (simple, report) = try build(features, simplify: 1000)
        let simplification = try XCTUnwrap(report.simplification)
        XCTAssertLessThanOrEqual(simplification.maximumErrorMetres, 1000)
        XCTAssertLessThan(simplification.verticesAfter, simplification.verticesBefore / 4, "a ±0.5 km wiggle simplifies at 1 km")
        // Away from the coasts (more than 5 km), nothing may change owner: the edges along 180° and the
        // pole line are straight and must stay where they are.
        XCTAssertEqual(full.lookupAll(latitude: 75, longitude: 179).map(\.id), ["N"])
        XCTAssertEqual(simple.lookupAll(latitude: 75, longitude: 179).map(\.id), ["N"])
        XCTAssertEqual(simple.lookupAll(latitude: -89, longitude: 0).map(\.id), ["S"])
        XCTAssertEqual(disagreements(full, simple, latitudes: 71.8...89.9999, longitudes: 172.5001...179.9999, count: 20_000, seed: 3), 0,
                       "the wedge keeps its corner at (180, 90)")
        XCTAssertEqual(disagreements(full, simple, latitudes: -89.9999 ... -75.1, longitudes: -179.9999...179.9999, count: 20_000, seed: 4), 0,
                       "the cap keeps its pole line from 180° to −180°")
    }

    func testPoleLineSimplifiedTheSameTwice() throws {
        // Determinism: the same input gives the same bytes.
        var options = BuildOptions()
        options.simplification = Simplification(toleranceMetres: 1000)
        var bytes: [[UInt8]] = []
        for _ in 0..<2 {
            var builder = try MapBuilder(options: options)
            for feature in [northWedge(), southCap()] { try builder.add(feature) }
            bytes.append(Array(try builder.finish().0))
        }
        XCTAssertEqual(bytes[0], bytes[1])
    }
}
