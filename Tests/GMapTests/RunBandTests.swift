import Foundation
import XCTest
import GMap
import GMapBuilder
import GMapTestSupport

/// Banded polygons (format 3.5, Spec/FORMAT.md 8.5.1): each run's band byte, the lookups that skip
/// runs by it, and the verifier that checks it.
final class RunBandTests: XCTestCase {
    private let fixturePath = TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson").path

    /// The bands of Spec/FORMAT.md 8.5.1's example, rows and columns clamped outside the tile, and
    /// a run across the east side, whose highest row is 7.
    func testBandsOfTheSpecExample() {
        let bounds = TileBounds(west: 1000, south: 2000, east: 1032, north: 2032)
        var first = RunExtent(x: 1012, y: 2007)
        first.add(1012, 2007, 1017, 2004, east: bounds.east)
        first.add(1017, 2004, 1013, 2006, east: bounds.east)
        XCTAssertEqual(first.band(in: bounds).byte, 0x89)
        var second = RunExtent(x: 1013, y: 2006)
        second.add(1013, 2006, 1013, 2007, east: bounds.east)
        XCTAssertEqual(second.band(in: bounds).byte, 0x49)
        XCTAssertEqual([1990, 2000, 2003, 2004, 2031, 2032, 2100].map { RunBand.row(of: $0, in: bounds) }, [0, 0, 0, 1, 7, 7, 7])
        XCTAssertEqual([900, 1007, 1008, 1031, 1032, 1100].map { RunBand.column(of: $0, in: bounds) }, [0, 0, 1, 3, 3, 3])
        var crossing = RunExtent(x: 1010, y: 2001)
        crossing.add(1010, 2001, 1040, 2002, east: bounds.east)
        let band = crossing.band(in: bounds)
        XCTAssertEqual([band.low, band.high, band.reach], [0, 7, 3], "an edge across x = E makes the highest row 7")
        var back = RunExtent(x: 1040, y: 2001)
        back.add(1040, 2001, 1050, 2002, east: bounds.east)
        XCTAssertEqual(back.band(in: bounds).high, 0, "a run wholly east of the tile does not cross its east side")
    }

    /// The default build writes banded polygons (3.5); `writesRunBands = false` writes the same
    /// map as 3.0, and both answer every point alike: points at whole units on a coarse grid (on
    /// every row and column boundary of small tiles), points with fractions, and the brute-force
    /// even-odd test over the original rings.
    func testBandedAndUnbandedMapsAnswerAlike() throws {
        // The fixtures' edges are long; wiggly stars add short edges everywhere in their tiles, so
        // that runs end inside tiles, cross their east sides low down and lie in every row.
        let features = try TestSupport.features(at: fixturePath, idProperty: "id") + Self.stars()
        let quantizer = try XCTUnwrap(Quantizer(unitsPerDegree: 100))
        let oracle = BruteForceOracle(features: features, quantizer: quantizer)
        for maximumEdges in [2, 8, 64] {
            let banded = try TestSupport.build(features) { $0.quantizer = quantizer; $0.maximumEdgesPerTile = maximumEdges }.map
            let plain = try TestSupport.build(features) {
                $0.quantizer = quantizer
                $0.maximumEdgesPerTile = maximumEdges
                $0.writesRunBands = false
            }.map
            XCTAssertEqual(banded.formatVersion.minor, 5)
            XCTAssertEqual(plain.formatVersion.minor, 0)
            XCTAssertEqual(MapVerifier(map: banded).problems, [])
            var random = SplitMix64(state: UInt64(maximumEdges))
            var points = OracleCheck.points(near: features, uniform: 10_000, nearEdges: 20_000, seed: UInt64(maximumEdges))
            for _ in 0..<40_000 {
                // Whole units near the features: on the rows' and columns' boundaries of small tiles.
                let feature = features[Int.random(in: 0..<features.count, using: &random)]
                guard let ring = feature.polygons.first?.first, let vertex = ring.randomElement(using: &random) else { continue }
                let latitude = (vertex.1 * 100).rounded() / 100 + Double(Int.random(in: -30...30, using: &random)) / 100
                let longitude = (vertex.0 * 100).rounded() / 100 + Double(Int.random(in: -30...30, using: &random)) / 100
                points.append((min(90, max(-90, latitude)), min(180, max(-180, longitude))))
            }
            var differences = 0
            for (latitude, longitude) in points {
                let answer = banded.lookupAll(latitude: latitude, longitude: longitude).map(\.id)
                if answer != plain.lookupAll(latitude: latitude, longitude: longitude).map(\.id) { differences += 1 }
                if banded.lookup(latitude: latitude, longitude: longitude)?.id != answer.first { differences += 1 }
            }
            XCTAssertEqual(differences, 0, "banded and plain maps differ at \(differences) of \(points.count) points (max edges \(maximumEdges))")
            XCTAssertEqual(OracleCheck.disagreements(map: banded, oracle: oracle, points: points), [])
        }
    }

    /// Three overlapping stars of 600 vertices at random radii (one crossing itself), a few degrees wide.
    static func stars() -> [SourceFeature] {
        var random = SplitMix64(state: 11)
        return [(10.0, 20.0, "STAR1"), (11.5, 21.0, "STAR2"), (-40.3, 150.7, "STAR3")].map { latitude, longitude, id in
            var ring: [(longitude: Double, latitude: Double)] = []
            for step in 0..<600 {
                let angle = Double(step) / 600 * 2 * Double.pi * (id == "STAR3" ? 2 : 1)
                let radius = Double.random(in: 1.0...3.0, using: &random)
                ring.append((longitude + radius * cos(angle), latitude + radius * sin(angle)))
            }
            ring.append(ring[0])
            return SourceFeature(id: id, polygons: [[ring]])
        }
    }

    /// A wrong band is damage no checksum sees: a band that leaves the point's row makes the
    /// lookup skip a run it must count (a wrong answer), and the verifier reports every band that
    /// is not the one the run's vertices give, too narrow or too wide.
    func testVerifierReportsAWrongBand() throws {
        // One square in one 20° tile: one record at TILE offset 0 with one run.
        let square = SourceFeature(id: "A", polygons: [[[(0, 0), (1, 0), (1, 1), (0, 1), (0, 0)]]])
        let sound = try TestSupport.build([square]) { $0.tileSize = 200_000_000 }.bytes
        let map = try GMap(bytes: sound)
        XCTAssertEqual(map.formatVersion.minor, 5)
        XCTAssertEqual(MapVerifier(map: map).problems, [])
        XCTAssertEqual(map.lookup(latitude: 0.5, longitude: 0.5)?.id, "A")
        let tiles = Int(try XCTUnwrap(map.sections.first { $0.tag == "TILE" }).offset)
        // Record: 1 slot, feature 0, corners 0, 1 run, wfx, wfy; the run: 5 vertices, then its band.
        // The tile spans 10° S to 10° N and 0° to 20° E, so the square (0° to 1°) lies in row 4 of
        // 8 (2.5° each) and column 0 of 4 (5° each): 4 + 8·4 + 64·0 = 36.
        XCTAssertEqual(Array(sound[tiles..<tiles + 4]), [1, 0, 0, 1])
        XCTAssertEqual(sound[tiles + 6], 5)
        XCTAssertEqual(sound[tiles + 7], 36, "band: rows 4–4, column 0")

        var narrow = sound
        narrow[tiles + 7] = 5 + 8 * 5 // rows 5–5: the run is skipped in row 4, where the point is
        let skipped = try GMap(bytes: FormatThreeTests.resealed(narrow))
        XCTAssertNil(skipped.lookup(latitude: 0.5, longitude: 0.5), "a lookup skips the run by its band")
        let problems = MapVerifier(map: skipped).problems
        XCTAssertTrue(problems.contains { $0.reason.contains("band") && $0.offset == tiles + 6 }, "\(problems)")

        var wide = sound
        wide[tiles + 7] = 0xF8 // rows 0–7, column 3: never skipped, still not the band the vertices give
        let unskipped = try GMap(bytes: FormatThreeTests.resealed(wide))
        XCTAssertEqual(unskipped.lookup(latitude: 0.5, longitude: 0.5)?.id, "A")
        XCTAssertTrue(MapVerifier(map: unskipped).problems.contains { $0.reason.contains("rows 0–7, column 3") })
    }
}
