import Foundation
import XCTest
import GMap
import GMapBuilder
import GMapCodecs
import GMapTestSupport

/// `--simplify`: shared borders are simplified once, so neighbours still meet exactly;
/// `--coast-buffer` moves one-sided borders outward only.
final class SimplificationTests: XCTestCase {
    /// A wiggly line from (x, 0) to (x, 1): `count` vertices whose longitude jitters by ±`jitter`°.
    private func wigglyMeridian(x: Double, count: Int, jitter: Double, seed: UInt64) -> [(longitude: Double, latitude: Double)] {
        var random = SplitMix64(state: seed)
        return (0..<count).map { index in
            let offset = index == 0 || index == count - 1 ? 0 : Double.random(in: -jitter...jitter, using: &random)
            return (x + offset, Double(index) / Double(count - 1))
        }
    }

    /// Two neighbours west and east of a shared wiggly border, with wiggly coasts to the west and east.
    private func neighbours() -> [SourceFeature] {
        let border = wigglyMeridian(x: 1, count: 400, jitter: 0.02, seed: 1)
        let westCoast = wigglyMeridian(x: 0, count: 300, jitter: 0.02, seed: 2)
        let eastCoast = wigglyMeridian(x: 2, count: 300, jitter: 0.02, seed: 3)
        let west = border + westCoast.reversed()          // north along the border, south along the coast
        let east = eastCoast + border.reversed()
        return [SourceFeature(id: "W", polygons: [[west]]), SourceFeature(id: "E", polygons: [[east]])]
    }

    private func build(_ features: [SourceFeature], simplify metres: Double?, buffer: Bool = false) throws -> (GMap, BuildReport) {
        var options = BuildOptions()
        options.simplification = metres.map { Simplification(toleranceMetres: $0, buffersCoasts: buffer) }
        var builder = try MapBuilder(options: options)
        for feature in features { try builder.add(feature) }
        let (bytes, report) = try builder.finish()
        return (try GMap(bytes: bytes), report)
    }

    func testSharedBorderStaysWatertight() throws {
        let (full, _) = try build(neighbours(), simplify: nil)
        let (simple, report) = try build(neighbours(), simplify: 5000)
        let simplification = try XCTUnwrap(report.simplification)
        XCTAssertLessThan(simplification.verticesAfter, simplification.verticesBefore / 10, "5 km should drop most of a ±2 km wiggle")
        XCTAssertEqual(simplification.sharedArcCount, 1)
        XCTAssertLessThanOrEqual(simplification.maximumErrorMetres, 5000)
        XCTAssertGreaterThan(simplification.maximumErrorMetres, 1000)
        // Every point away from the coasts (kept 0.05° ≈ 5.6 km from them: coasts may move by 5 km)
        // has exactly one answer, however near the shared border.
        var random = SplitMix64(state: 7)
        var changedOwner = 0
        for _ in 0..<200_000 {
            let latitude = Double.random(in: 0.05...0.95, using: &random), longitude = Double.random(in: 0.07...1.93, using: &random)
            let answers = simple.lookupAll(latitude: latitude, longitude: longitude).map(\.id)
            XCTAssertEqual(answers.count, 1, "\(answers) at \(latitude), \(longitude)")
            if answers != full.lookupAll(latitude: latitude, longitude: longitude).map(\.id) { changedOwner += 1 }
            if answers.count != 1 { break }
        }
        XCTAssertGreaterThan(changedOwner, 100, "the border moved, so some points changed owner")
    }

    func testEachFeatureSimplifiedAloneWouldLeaveGapsAndOverlaps() throws {
        // The same border simplified separately in each feature (one feature per map) does not match:
        // this is what the shared arcs prevent, and shows the test above can fail.
        let features = neighbours()
        let (west, _) = try build([features[0]], simplify: 5000)
        let (east, _) = try build([features[1]], simplify: 5000)
        var random = SplitMix64(state: 7)
        var wrong = 0
        for _ in 0..<50_000 {
            let latitude = Double.random(in: 0.0001...0.9999, using: &random), longitude = Double.random(in: 0.9...1.1, using: &random)
            let count = west.lookupAll(latitude: latitude, longitude: longitude).count + east.lookupAll(latitude: latitude, longitude: longitude).count
            if count != 1 { wrong += 1 }
        }
        XCTAssertGreaterThan(wrong, 0)
    }

    func testCoastBufferKeepsEveryInlandPointInside() throws {
        let features = neighbours()
        let oracle = BruteForceOracle(features: features)
        let (buffered, report) = try build(features, simplify: 5000, buffer: true)
        let (plain, _) = try build(features, simplify: 5000)
        XCTAssertEqual(report.simplification?.oneSidedArcCount, 2, "each feature's coast is one arc from one end of the border to the other")
        var random = SplitMix64(state: 11)
        var lostWithoutBuffer = 0, checked = 0
        for _ in 0..<200_000 {
            let latitude = Double.random(in: 0.0001...0.9999, using: &random), longitude = Double.random(in: -0.05...2.05, using: &random)
            let grid = try XCTUnwrap(Quantizer.standard.queryPoint(latitude: latitude, longitude: longitude))
            let original = oracle.containing(grid).map { oracle.shapes[$0].id }
            guard original.count == 1, abs(longitude - 1) > 0.07 else { continue }  // away from the shared border
            checked += 1
            XCTAssertTrue(buffered.lookupAll(latitude: latitude, longitude: longitude).map(\.id).contains(original[0]),
                          "\(original[0]) lost \(latitude), \(longitude) with --coast-buffer")
            if !plain.lookupAll(latitude: latitude, longitude: longitude).map(\.id).contains(original[0]) { lostWithoutBuffer += 1 }
        }
        XCTAssertGreaterThan(checked, 100_000)
        XCTAssertGreaterThan(lostWithoutBuffer, 100, "without the buffer, plain simplification cuts into the coast")
    }

    func testSmallIslandsKeepAnArea() throws {
        // A 200 m island simplified at 5 km keeps three vertices and still answers at its label point.
        var ring: [(longitude: Double, latitude: Double)] = []
        for step in 0..<24 {
            let angle = Double(step) / 24 * 2 * .pi
            ring.append((10 + 0.001 * cos(angle), 20 + 0.001 * sin(angle)))
        }
        let (map, report) = try build([SourceFeature(id: "I", polygons: [[ring]])], simplify: 5000)
        XCTAssertEqual(report.ringCount, 1)
        XCTAssertEqual(report.vertexCount, 4, "three distinct vertices and the closing one")
        XCTAssertEqual(report.simplification?.ringsDropped, 0)
        let label = try XCTUnwrap(map.feature(at: 0)?.labelPoint)
        XCTAssertEqual(map.lookup(latitude: label.latitude, longitude: label.longitude)?.id, "I")
        XCTAssertEqual(label.latitude, 20, accuracy: 0.001)
        XCTAssertEqual(label.longitude, 10, accuracy: 0.001)
    }

    func testEnclaveAndHoleShareOneArc() throws {
        // An enclave (its own feature) and the hole it leaves in its surrounding country are one arc:
        // after simplification they still fit exactly.
        var enclave: [(longitude: Double, latitude: Double)] = []
        var random = SplitMix64(state: 5)
        for step in 0..<500 {
            let angle = Double(step) / 500 * 2 * .pi, radius = 0.3 + Double.random(in: -0.01...0.01, using: &random)
            enclave.append((radius * cos(angle), radius * sin(angle)))
        }
        let outer: [(longitude: Double, latitude: Double)] = [(-1, -1), (1, -1), (1, 1), (-1, 1)]
        let features = [SourceFeature(id: "C", polygons: [[outer, enclave.reversed()]]), SourceFeature(id: "E", polygons: [[enclave]])]
        let (map, report) = try build(features, simplify: 3000)
        XCTAssertEqual(report.simplification?.sharedArcCount, 1)
        XCTAssertLessThan(report.vertexCount, 100)
        var random2 = SplitMix64(state: 9)
        for _ in 0..<100_000 {
            let latitude = Double.random(in: -0.9...0.9, using: &random2), longitude = Double.random(in: -0.9...0.9, using: &random2)
            let answers = map.lookupAll(latitude: latitude, longitude: longitude)
            XCTAssertEqual(answers.count, 1, "\(answers.map(\.id)) at \(latitude), \(longitude)")
            if answers.count != 1 { break }
        }
    }

    func testDistancesParse() {
        XCTAssertEqual(Simplification.metres(from: "100m"), 100)
        XCTAssertEqual(Simplification.metres(from: "1km"), 1000)
        XCTAssertEqual(Simplification.metres(from: "2.5 km"), 2500)
        XCTAssertEqual(Simplification.metres(from: "250"), 250)
        XCTAssertEqual(Simplification.metres(from: "5KM"), 5000)
        for bad in ["", "km", "-1m", "0", "nanm", "1001km", "1 mile", "inf"] {
            XCTAssertNil(Simplification.metres(from: bad), bad)
        }
    }
}
