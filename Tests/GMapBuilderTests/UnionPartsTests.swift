import Foundation
import XCTest
import GMap
import GMapBuilder
import GMapTestSupport

/// Overlapping polygons of one feature (Spec/FORMAT.md 8.8, 10.2): format 3 answers the union of a
/// feature's polygons, even-odd within each polygon; format 2 keeps the even-odd rule over all rings.
final class UnionPartsTests: XCTestCase {
    static var fixture: String { TestSupport.fixtures.appendingPathComponent("overlapping-parts.geojson").path }

    /// (latitude, longitude, expected feature or nil): inside overlaps, on shared and outer edges.
    static let expectations: [(Double, Double, String?)] = [
        (1.5, 1.5, "TWO"),   // in both squares of TWO (their overlap)
        (1.5, 1, "TWO"),     // on the west edge of the second square, inside the first
        (1.5, 2, "TWO"),     // on the east edge of the first square, inside the second
        (2, 1.5, "TWO"),     // on the north edge of the first square, inside the second
        (1, 1, "TWO"),       // the second square's south-west corner, inside the first
        (2, 2, "TWO"),       // the first square's north-east corner, inside the second
        (0, 0, "TWO"),       // the south-west corner: inside
        (3, 3, nil),         // the north-east corner of the second square: outside
        (2.5, 3, nil),       // on the east edge of the second square
        (0.5, 2, nil),       // on the east edge of the first square, below the second
        (2.5, 0.5, nil),     // outside both
        (2.5, 12.5, "HOLE"), // in the first polygon's hole, inside the second polygon
        (1.5, 11.5, nil),    // in the hole, outside the second polygon
        (3.5, 13.5, "HOLE"), // in the first polygon's ring and the second polygon
        (2, 12.5, "HOLE"),   // on the second polygon's south edge, in the hole
        (1.5, 13, "HOLE"),   // on the hole's east edge: the first polygon's ring lies east of it
        (1.5, 11, nil),      // on the hole's west edge, below the second polygon: the hole lies east of it
        (1, 22, "TOUCH"),    // on the edge the two squares of TOUCH share: the one to the east
        (1, 24, nil),        // on TOUCH's east edge
        (2, 22, nil),        // on the north edge at the shared corner
        (0, 22, "TOUCH"),    // on the south edge at the shared corner
        (3, 33, "NEST"),     // inside the nested part
        (2, 32, "NEST"),     // the nested part's south-west corner
        (4, 34, "NEST"),     // the nested part's north-east corner, inside the outer part
        (1, 31, "NEST"),     // inside the outer part only
        (1, 41, "SAME"),     // the same square twice
        (2, 41, nil),        // on its north edge
        (1, 51, "ONE"),
    ]

    func testFixtureAnswersTheUnion() throws {
        let features = try TestSupport.features(at: Self.fixture, idProperty: "id")
        XCTAssertEqual(features.map(\.id), ["TWO", "HOLE", "TOUCH", "NEST", "SAME", "ONE"])
        for maximumEdges in [1, 4, 64] {
            let plain = try TestSupport.build(features) { $0.maximumEdgesPerTile = maximumEdges; $0.writesRunBands = false }.map
            XCTAssertEqual(plain.formatVersion.minor, 2, "repeated slots make a file without bands 3.2")
            let (map, _) = try TestSupport.build(features) { $0.maximumEdgesPerTile = maximumEdges }
            XCTAssertEqual(map.formatVersion.major, 3)
            XCTAssertEqual(map.formatVersion.minor, 5, "banded polygons (3.5)")
            for (latitude, longitude, expected) in Self.expectations {
                XCTAssertEqual(map.lookup(latitude: latitude, longitude: longitude)?.id, expected, "(\(latitude), \(longitude)), max edges \(maximumEdges)")
                // Each feature once, however many of its slots contain the point.
                XCTAssertEqual(map.lookupAll(latitude: latitude, longitude: longitude).map(\.id), expected.map { [$0] } ?? [],
                               "(\(latitude), \(longitude)), max edges \(maximumEdges)")
            }
            XCTAssertEqual(MapVerifier(map: map).problems, [], "max edges \(maximumEdges)")
        }
    }

    /// Format 2 keeps the even-odd rule over all rings: the overlaps are outside.
    func testFormatTwoKeepsEvenOdd() throws {
        let features = try TestSupport.features(at: Self.fixture, idProperty: "id")
        let (map, _) = try TestSupport.build(features) { $0.formatMajorVersion = 2 }
        XCTAssertEqual(map.formatVersion.major, 2)
        XCTAssertNil(map.lookup(latitude: 1.5, longitude: 1.5))
        XCTAssertNil(map.lookup(latitude: 3, longitude: 33))
        XCTAssertNil(map.lookup(latitude: 1, longitude: 41))
        XCTAssertEqual(map.lookup(latitude: 0.5, longitude: 0.5)?.id, "TWO")
        XCTAssertEqual(map.lookup(latitude: 1, longitude: 22)?.id, "TOUCH")
    }

    /// Random points, on edges and vertices too, against the brute-force union, under several tilings.
    func testFixtureAgreesWithTheUnionOracle() throws {
        let features = try TestSupport.features(at: Self.fixture, idProperty: "id")
        let oracle = BruteForceOracle(features: features)
        let evenOdd = BruteForceOracle(features: features, union: false)
        let points = OracleCheck.points(near: features, uniform: 20_000, nearEdges: 20_000, seed: 14)
        var differ = 0
        for point in points {
            guard let grid = Quantizer.standard.queryPoint(latitude: point.latitude, longitude: point.longitude) else { continue }
            if oracle.containing(grid) != evenOdd.containing(grid) { differ += 1 }
        }
        XCTAssertGreaterThan(differ, 1000, "the points tell the union from the even-odd rule")
        try OracleCheck.assertAgreement(of: features, with: oracle, at: points, maximumEdges: [1, 4, 64])
        let two = try TestSupport.build(features) { $0.formatMajorVersion = 2 }.map
        XCTAssertEqual(OracleCheck.disagreements(map: two, oracle: evenOdd, points: points), [])
    }

    /// The build report names the features whose polygons truly overlap (not TOUCH, whose parts
    /// only share an edge, nor SAME, whose parts coincide without a crossing or a vertex inside).
    func testBuildReport() throws {
        let features = try TestSupport.features(at: Self.fixture, idProperty: "id")
        var builder = try MapBuilder(options: BuildOptions())
        for feature in features { try builder.add(feature) }
        let report = try builder.finish().report
        XCTAssertEqual(report.overlappingParts.map { "\($0.id) \($0.overlapping)/\($0.polygons)" }, ["TWO 2/2", "HOLE 2/2", "NEST 2/2"])
        XCTAssertTrue(report.repeatsSlots)
    }

    /// Parts that only touch at points, side by side or one inside the other, share a group (the
    /// file stays 3.0, byte for byte as before); a nested part touching at a vertex does not.
    func testTouchingPartsKeepOneGroup() throws {
        let square: (Double, Double, Double, Double) -> [[(longitude: Double, latitude: Double)]] = { w, s, e, n in
            [[(w, s), (e, s), (e, n), (w, n), (w, s)]]
        }
        // Two squares meeting at a corner, and a triangle whose vertex lies on a square's edge.
        let apart = SourceFeature(id: "APART", polygons: [square(0, 0, 1, 1), square(1, 1, 2, 2),
                                                          [[(2, 1.5), (3, 1), (3, 2), (2, 1.5)]]])
        // Without bands (3.5), the minor version says whether slots repeat: 0 without, 2 with.
        let unbanded = { (options: inout BuildOptions) in options.writesRunBands = false }
        let (map, bytes) = try TestSupport.build([apart], configure: unbanded)
        XCTAssertEqual(map.formatVersion.minor, 0)
        XCTAssertEqual(bytes[10], 0)
        // A triangle inside a square, touching its edge at one vertex: they overlap.
        let nested = SourceFeature(id: "NESTED", polygons: [square(0, 0, 4, 4), [[(0, 2), (2, 1), (2, 3), (0, 2)]]])
        let inner = try TestSupport.build([nested], configure: unbanded).map
        XCTAssertEqual(inner.formatVersion.minor, 2)
        XCTAssertEqual(inner.lookup(latitude: 2, longitude: 1)?.id, "NESTED")
        // A triangle inscribed in a square, all its vertices on the square's boundary: its edges are chords inside.
        let inscribed = SourceFeature(id: "INSCRIBED", polygons: [square(0, 0, 4, 4), [[(0, 2), (2, 0), (4, 4), (0, 2)]]])
        let chord = try TestSupport.build([inscribed], configure: unbanded).map
        XCTAssertEqual(chord.formatVersion.minor, 2)
        XCTAssertEqual(chord.lookup(latitude: 2.5, longitude: 2.5)?.id, "INSCRIBED")
        var builder = try MapBuilder(options: BuildOptions())
        try builder.add(inscribed)
        XCTAssertEqual(try builder.finishReport().overlappingParts.map(\.overlapping), [2])
    }

    /// `gmap export` writes each parity group's polygons on their own: rebuilt, the export answers
    /// as the map does (a part nested in another stays a part, not a hole).
    func testExportKeepsTheUnion() throws {
        let features = try TestSupport.features(at: Self.fixture, idProperty: "id")
        for maximumEdges in [1, 64] {
            let (map, _) = try TestSupport.build(features) { $0.maximumEdgesPerTile = maximumEdges }
            let exported = try ExportTests.export(map).bytes
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("gmap-union-export-\(getpid())-\(maximumEdges).geojson")
            defer { try? FileManager.default.removeItem(at: file) }
            try Data(exported).write(to: file)
            let rebuilt = try TestSupport.build(geoJSON: file.path).map
            let points = OracleCheck.points(near: features, uniform: 5_000, nearEdges: 5_000, seed: 15)
            XCTAssertEqual(ExportTests.disagreements(map, rebuilt, points: points.map { ($0.latitude, $0.longitude) }).problems, [], "max edges \(maximumEdges)")
            XCTAssertEqual(rebuilt.lookup(latitude: 3, longitude: 33)?.id, "NEST")
            XCTAssertEqual(rebuilt.lookup(latitude: 1, longitude: 41)?.id, "SAME")
        }
    }

    /// Random features of rectangles and triangles on a coarse lattice, so that their parts touch at
    /// vertices, along edges, cross, nest and coincide often: every map answers the union oracle,
    /// at random points and at lattice points (on edges and vertices).
    func testRandomLatticePartsAgreeWithTheUnionOracle() throws {
        var random = SplitMix64(state: 2026_11_25)
        var differ = 0
        for round in 0..<25 {
            var features: [SourceFeature] = []
            for index in 0..<3 {
                var polygons: [[[(longitude: Double, latitude: Double)]]] = []
                for _ in 0..<Int.random(in: 2...5, using: &random) {
                    let x = Double(Int.random(in: 0...5, using: &random)), y = Double(Int.random(in: 0...5, using: &random))
                    let w = Double(Int.random(in: 1...3, using: &random)), h = Double(Int.random(in: 1...3, using: &random))
                    switch Int.random(in: 0...2, using: &random) {
                    case 0: polygons.append([[(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)]])
                    case 1: polygons.append([[(x, y), (x + w, y), (x, y + h), (x, y)]])
                    default:
                        // A rectangle with a hole of half its size.
                        polygons.append([[(x, y), (x + 2 * w, y), (x + 2 * w, y + 2 * h), (x, y + 2 * h), (x, y)],
                                         [(x + w / 2, y + h / 2), (x + w / 2, y + 1.5 * h), (x + 1.5 * w, y + 1.5 * h), (x + 1.5 * w, y + h / 2), (x + w / 2, y + h / 2)]])
                    }
                }
                features.append(SourceFeature(id: "R\(round)-\(index)", polygons: polygons))
            }
            let oracle = BruteForceOracle(features: features)
            let evenOdd = BruteForceOracle(features: features, union: false)
            var points: [(latitude: Double, longitude: Double)] = []
            for y in stride(from: -0.5, through: 12, by: 0.5) {
                for x in stride(from: -0.5, through: 12, by: 0.5) { points.append((y, x)) }
            }
            for _ in 0..<1000 { points.append((Double.random(in: -0.5...12, using: &random), Double.random(in: -0.5...12, using: &random))) }
            for point in points {
                guard let grid = Quantizer.standard.queryPoint(latitude: point.latitude, longitude: point.longitude) else { continue }
                if oracle.containing(grid) != evenOdd.containing(grid) { differ += 1 }
            }
            for maximumEdges in [2, 64] {
                let map = try TestSupport.build(features) { options in
                    options.maximumEdgesPerTile = maximumEdges
                    options.tileSize = 20_000_000
                    options.maximumDepth = 6
                }.map
                XCTAssertEqual(OracleCheck.disagreements(map: map, oracle: oracle, points: points), [], "round \(round), max edges \(maximumEdges)")
                if maximumEdges == 64 { XCTAssertEqual(MapVerifier(map: map).problems, [], "round \(round)") }
            }
        }
        XCTAssertGreaterThan(differ, 1000, "the parts overlap often enough to tell the union from the even-odd rule")
    }

    /// A 3.0 or 3.1 file must not repeat a feature: `verify` reports it; a 3.2 file may.
    func testVerifierAcceptsRepeatedSlotsOnlyIn32() throws {
        let features = try TestSupport.features(at: Self.fixture, idProperty: "id")
        var bytes = try TestSupport.build(features).bytes
        XCTAssertEqual(MapVerifier(map: try GMap(bytes: bytes)).problems, [])
        for minor: UInt8 in [0, 1] {
            bytes[10] = minor
            let problems = MapVerifier(map: try GMap(bytes: bytes)).problems.map(\.description).joined(separator: "\n")
            XCTAssertTrue(problems.contains("repeats feature"), "3.\(minor): \(problems)")
        }
    }
}

extension MapBuilder {
    fileprivate func finishReport() throws -> BuildReport { try finish().report }
}

/// countries-osm, whose `PS` has 43 polygons, some overlapping near Jerusalem: the map answers the
/// union of each feature's polygons, checked against the brute force on points biased to the
/// features with overlapping parts. Skipped when ../shared/data is absent.
final class UnionPartsDatasetTests: XCTestCase {
    static let pointCount = max(200_000, Int(ProcessInfo.processInfo.environment["GMAP_UNION_POINTS"] ?? "") ?? 200_000)

    func testCountriesOSMAgreesWithTheUnionOracle() throws {
        let url: URL
        url = try TestSupport.sharedFile("countries-osm.geojson")  // its own skip names the path and how to set it
        let features = try TestSupport.features(at: url.path, idProperty: "iso_a2")
        var builder = try MapBuilder(options: BuildOptions())
        for feature in features { try builder.add(feature) }
        let (bytes, report) = try builder.finish()
        let map = try GMap(bytes: bytes)
        XCTAssertEqual(map.formatVersion.minor, 5, "banded polygons (3.5), with parity groups")
        XCTAssertEqual(report.overlappingParts.map { "\($0.id): \($0.overlapping) of \($0.polygons)" }, ["PS: 5 of 43"])
        let overlapping = features.filter { feature in report.overlappingParts.contains { $0.id == feature.id } }
        XCTAssertFalse(overlapping.isEmpty)

        // Points: 60 % uniform in the boxes of the features with overlapping parts, 30 % on and
        // within metres of their edges and vertices, 10 % over the whole dataset.
        var points = OracleCheck.points(near: overlapping, uniform: Self.pointCount * 6 / 10, nearEdges: Self.pointCount * 3 / 10, seed: 1414)
        points += OracleCheck.points(features, count: Self.pointCount - points.count, seed: 4141)
        XCTAssertGreaterThanOrEqual(points.count, 200_000)
        let oracle = BruteForceOracle(features: features, edgesPerBand: 8)
        let evenOdd = BruteForceOracle(features: features, edgesPerBand: 8, union: false)
        var inOverlap = 0
        for point in points {
            guard let grid = map.quantizer.queryPoint(latitude: point.latitude, longitude: point.longitude) else { continue }
            if oracle.containing(grid) != evenOdd.containing(grid) { inOverlap += 1 }
        }
        XCTAssertGreaterThan(inOverlap, 100, "some points lie where two polygons of PS overlap")
        let started = Date()
        XCTAssertEqual(OracleCheck.disagreements(map: map, oracle: oracle, points: points), [])
        print("countries-osm: \(points.count) points agree with the union of each feature's polygons (\(inOverlap) of them where the even-odd rule over all rings differs), \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        XCTAssertEqual(MapVerifier(map: map).problems, [])

        // A 3.2 record repeats PS in consecutive slots; lookupAll still gives each feature once.
        for point in points.prefix(20_000) {
            let ids = map.lookupAll(latitude: point.latitude, longitude: point.longitude).map(\.id)
            XCTAssertEqual(ids.count, Set(ids).count, "(\(point.latitude), \(point.longitude))")
        }
    }

    /// `gmap build` names PS in its summary; with `--format 2.1` it warns instead.
    func testBuildSummaryNamesPS() throws {
        guard CommandLineTestCase.executable != nil else { throw XCTSkip("the gmap executable is not built beside the test bundle") }
        let url: URL
        url = try TestSupport.sharedFile("countries-osm.geojson")  // its own skip names the path and how to set it
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("gmap-union-\(getpid()).gmap").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let three = try CommandLineTestCase.runGMap(["build", url.path, "-o", output, "--id", "iso_a2"])
        XCTAssertEqual(three.status, 0, three.stderr)
        XCTAssertTrue(three.stderr.contains("  overlapping parts (answered as their union): 1 features\n    PS: 5 of 43 polygons overlap another part of the feature\n"), three.stderr)
        let two = try CommandLineTestCase.runGMap(["build", url.path, "-o", output, "--id", "iso_a2", "--format", "2.1", "-q"])
        XCTAssertEqual(two.status, 0, two.stderr)
        XCTAssertTrue(two.stderr.contains("gmap: warning: 1 features have overlapping polygons, which format 2 answers by the even-odd rule"), two.stderr)
        XCTAssertTrue(two.stderr.contains("PS: 5 of 43 polygons overlap another part of the feature"), two.stderr)
    }
}
