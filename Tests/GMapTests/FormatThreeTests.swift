import Foundation
import XCTest
import GMap
import GMapBuilder
import GMapTestSupport

/// Format 3: shared edges with slot masks, directory nodes, and the query point kept below a unit.
final class FormatThreeTests: XCTestCase {
    private let fixturePath = TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson").path

    /// The exact rule at a point with fractions equals the spec's integer rule with every coordinate
    /// scaled by 2^24 (small coordinates, so that the scaled products fit in 64 bits), and the
    /// whole-unit form equals the integer rule itself.
    func testFractionalPointFollowsTheScaledIntegerRule() {
        var random = SplitMix64(state: 7)
        let scale = GridPoint.fractionScale
        var flips = 0
        for step in 0..<400_000 {
            let r: ClosedRange<Int64> = -6...6
            let px = Int64.random(in: r, using: &random), py = Int64.random(in: r, using: &random)
            var point = GridPoint(x: px, y: py)
            point.fractionX = step % 3 == 0 ? 0 : Int64.random(in: 0..<scale, using: &random)
            point.fractionY = step % 5 == 0 ? 0 : Int64.random(in: 0..<scale, using: &random)
            let east = px + Int64.random(in: 1...4, using: &random), south = py - Int64.random(in: 0...4, using: &random)
            let (ax, ay) = (Int64.random(in: r, using: &random), Int64.random(in: r, using: &random))
            let (bx, by) = (Int64.random(in: r, using: &random), Int64.random(in: r, using: &random))
            let scaled = Self.referenceFlips(px: px * scale + point.fractionX, py: py * scale + point.fractionY,
                                             east: east * scale, south: south * scale,
                                             ax: ax * scale, ay: ay * scale, bx: bx * scale, by: by * scale)
            XCTAssertEqual(EvenOddRule.flipsParity(pointX: px, pointY: py, east: east, south: south, ax: ax, ay: ay, bx: bx, by: by),
                           Self.referenceFlips(px: px, py: py, east: east, south: south, ax: ax, ay: ay, bx: bx, by: by))
            let exact = EvenOddRule.flipsParity(point: point, east: east, south: south, ax: ax, ay: ay, bx: bx, by: by)
            XCTAssertEqual(exact, scaled, "point \(point), tile corner (\(east), \(south)), edge (\(ax), \(ay))→(\(bx), \(by))")
            if exact != scaled { return }
            if exact { flips += 1 }
        }
        XCTAssertGreaterThan(flips, 10_000, "the cases exercise crossings")
    }

    /// `flips` of Spec/FORMAT.md section 11 for a whole-unit point, written out as the spec gives it
    /// (the format 2 rule), independently of the library's exact form.
    static func referenceFlips(px: Int64, py: Int64, east: Int64, south: Int64, ax: Int64, ay: Int64, bx: Int64, by: Int64) -> Bool {
        var flips = false
        if (ay > py) != (by > py) {
            let (lx, ly, hx, hy) = ay < by ? (ax, ay, bx, by) : (bx, by, ax, ay)
            let rise = hy - ly, offset = (py - ly) * (hx - lx)
            if (px - lx) * rise < offset && offset <= (east - lx) * rise { flips = true }
        }
        if (ax > east) != (bx > east), py > south {
            let (lx, ly, rx, ry) = ax < bx ? (ax, ay, bx, by) : (bx, by, ax, ay)
            let run = rx - lx, rise = ry - ly
            let lift = (east - lx) * rise, atPoint = (py - ly) * run, atCorner = (south - ly) * run
            let belowPoint = lift < atPoint || (lift == atPoint && rise <= 0)
            let belowCorner = lift < atCorner || (lift == atCorner && rise <= 0)
            if belowPoint && !belowCorner { flips.toggle() }
        }
        return flips
    }

    /// A query point is not moved to the nearest unit: a point a third of a unit west of a border
    /// is answered by the feature to the west, which rounding would have moved onto the border.
    func testQueryPointKeepsItsFraction() throws {
        let quantizer = try XCTUnwrap(Quantizer(unitsPerDegree: 100))
        let west = SourceFeature(id: "WEST", polygons: [[[(0, 0), (1, 0), (1, 1), (0, 1), (0, 0)]]])
        let east = SourceFeature(id: "EAST", polygons: [[[(1, 0), (2, 0), (2, 1), (1, 1), (1, 0)]]])
        let map = try TestSupport.build([west, east]) { $0.quantizer = quantizer }.map
        // 0.9967° rounds to 1.00° (the border, answered by EAST); its exact position is west of it.
        XCTAssertEqual(map.lookup(latitude: 0.5, longitude: 0.9967)?.id, "WEST")
        XCTAssertEqual(map.lookup(latitude: 0.5, longitude: 1.0033)?.id, "EAST")
        XCTAssertEqual(map.lookup(latitude: 0.5, longitude: 1.0)?.id, "EAST", "a point on the border is in the feature to its east")
        let point = try XCTUnwrap(quantizer.queryPoint(latitude: 0.5, longitude: 0.9967))
        XCTAssertEqual(point.x, 99)
        XCTAssertGreaterThan(point.fractionX, 0)
        XCTAssertEqual(quantizer.roundedQueryPoint(latitude: 0.5, longitude: 0.9967), GridPoint(x: 100, y: 50))
    }

    /// Format 2 and format 3 builds of the same features answer every point alike, and both agree
    /// with the brute-force oracle.
    func testFormatsTwoAndThreeAnswerAlike() throws {
        let features = try TestSupport.features(at: fixturePath, idProperty: "id")
        try Self.checkFormatsAgree(features, quantizer: .standard, points: 40_000, label: "fixtures")
        let coarse = try XCTUnwrap(Quantizer(unitsPerDegree: 100))
        try Self.checkFormatsAgree(features, quantizer: coarse, points: 40_000, label: "fixtures at 0.01°")
    }

    /// A format 3 map stores a border shared by two features once: fewer edges than format 2.
    func testSharedBordersAreStoredOnce() throws {
        let a = SourceFeature(id: "A", polygons: [[[(0, 0), (1, 0), (1.5, 0.5), (1, 1), (0, 1), (0, 0)]]])
        let b = SourceFeature(id: "B", polygons: [[[(1, 0), (2, 0), (2, 1), (1, 1), (1.5, 0.5), (1, 0)]]])
        let three = try TestSupport.build([a, b]) { $0.tileSize = 40_000_000 }.map
        let two = try TestSupport.build([a, b]) { $0.tileSize = 40_000_000; $0.formatMajorVersion = 2 }.map
        XCTAssertEqual(three.formatVersion.major, 3)
        XCTAssertEqual(two.formatVersion.major, 2)
        let edges3 = TileSurvey(of: three).edgesPerTile.reduce(0, +), edges2 = TileSurvey(of: two).edgesPerTile.reduce(0, +)
        XCTAssertEqual(edges2, 10, "format 2: five edges each")
        XCTAssertEqual(edges3, 8, "format 3: the two edges of the shared border once")
        // Both features still get every edge of their own ring.
        var perFeature = [0, 0]
        three.forEachLeafTile { tile in three.forEachEdge(in: tile) { perFeature[$0.featureIndex] += 1 } }
        XCTAssertEqual(perFeature, [5, 5])
        for (latitude, longitude, expected) in [(0.5, 0.5, "A"), (0.5, 1.2, "A"), (0.5, 1.7, "B"), (0.9, 1.05, "A"), (0.9, 1.15, "B"), (0.5, 1.5, "B")] {
            XCTAssertEqual(three.lookup(latitude: latitude, longitude: longitude)?.id, expected, "(\(latitude), \(longitude))")
            XCTAssertEqual(two.lookup(latitude: latitude, longitude: longitude)?.id, expected, "(\(latitude), \(longitude))")
        }
    }

    /// More than 64 features over one spot cannot fit a record's 64-bit masks: the build says so.
    func testTooManyOverlapsAreRefusedWithAMessage() throws {
        let square: [[[(Double, Double)]]] = [[[(0, 0), (1, 0), (1, 1), (0, 1), (0, 0)]]]
        let features = (0..<70).map { SourceFeature(id: "F\($0)", polygons: square) }
        XCTAssertThrowsError(try TestSupport.build(features)) { error in
            XCTAssertTrue("\(error)".contains("more than the 64 a format 3 record holds; build this map with --format 2.1 --max-depth 0"), "\(error)")
        }
        // The remedy the message gives works, and cheaply: format 2 has no such limit, and without splits
        // 70 identical rings (which split no better at any depth) make few tiles. (With format 2.1's default
        // depth, 65 such squares took 104 s, 2.77 GB and a 981 MB map; issue 37.)
        let built = try TestSupport.build(features) { options in
            options.formatMajorVersion = 2
            options.maximumDepth = 0
        }
        XCTAssertEqual(built.map.lookupAll(latitude: 0.5, longitude: 0.5).count, 70)
        XCTAssertLessThan(built.bytes.count, 2_000_000)
    }

    /// Damage that lookups cannot see as such (a zero mask, node pointers that do not point
    /// strictly backwards) is reported by the verifier with the tile and byte, even when the CRCs
    /// were recomputed to match; lookups give no answer there instead of a wrong one or a crash.
    func testVerifierReportsDamagedMasksAndNodes() throws {
        // Two squares sharing a border, in one 20° tile: one record, at TILE offset 0.
        let a = SourceFeature(id: "A", polygons: [[[(0, 0), (1, 0), (1, 1), (0, 1), (0, 0)]]])
        let b = SourceFeature(id: "B", polygons: [[[(1, 0), (2, 0), (2, 1), (1, 1), (1, 0)]]])
        // Without bands (3.5), so that the mask follows the vertex count (RunBandTests damages bands).
        let sound = try TestSupport.build([a, b]) { $0.tileSize = 200_000_000; $0.writesRunBands = false }.bytes
        let map = try GMap(bytes: sound)
        XCTAssertEqual(MapVerifier(map: map).problems, [])
        XCTAssertEqual(map.lookup(latitude: 0.5, longitude: 0.5)?.id, "A")
        let tiles = Int(try XCTUnwrap(map.sections.first { $0.tag == "TILE" }).offset)
        // Record: slots 02, features 00 01, corners, runs, wfx, wfy; run 0: vertex count, then its mask (2 bits).
        XCTAssertEqual(Array(sound[tiles..<tiles + 3]), [2, 0, 1])
        var zeroMask = sound
        zeroMask[tiles + 8] &= ~0b11
        let damaged = try GMap(bytes: Self.resealed(zeroMask))
        let problems = MapVerifier(map: damaged).problems
        XCTAssertTrue(problems.contains { $0.reason.contains("mask is zero") && $0.offset == tiles + 7 }, "\(problems)")
        XCTAssertNil(damaged.lookup(latitude: 0.5, longitude: 0.5), "a damaged record gives no answer")

        // A map with directory nodes: zero every node's payload width, so that no child points backwards.
        let nodes = try TestSupport.build(geoJSON: fixturePath) {
            $0.idProperty = "id"
            $0.maximumEdgesPerTile = 2
            $0.tileSize = 50_000_000 // 5°: a small grid, so that each damaged copy is quick to verify
        }
        XCTAssertGreaterThan(nodes.map.grid.subdirectoryCount, 0)
        XCTAssertEqual(MapVerifier(map: nodes.map).problems, [])
        var probes: [(Double, Double)] = []
        for latitude in stride(from: -89.5, through: 89.5, by: 2.5) {
            for longitude in stride(from: -179.5, through: 179.5, by: 2.5) { probes.append((latitude, longitude)) }
        }
        // Byte by byte through TILE, CRCs resealed: never a crash; a flip that changes an answer
        // while the verifier stays silent can only be a vertex moved to another valid place.
        let section = try XCTUnwrap(nodes.map.sections.first { $0.tag == "TILE" })
        var reported = 0
        let step = max(1, Int(section.length) / 300) // about 300 damaged copies
        for offset in stride(from: Int(section.offset), to: Int(section.offset + section.length), by: step) {
            var bytes = nodes.bytes
            bytes[offset] ^= 0xA5
            guard let copy = try? GMap(bytes: Self.resealed(bytes)) else { continue }
            for (latitude, longitude) in probes { _ = copy.lookupAll(latitude: latitude, longitude: longitude) }
            _ = copy.lookup(latitude: 4.5, longitude: 41.5, within: 50_000)
            _ = TileSurvey(of: copy)
            if !MapVerifier(map: copy).problems.isEmpty { reported += 1 }
        }
        XCTAssertGreaterThan(reported, 0)
    }

    /// The bytes with every section CRC and the header CRC recomputed, so that only structural
    /// checks can find the damage.
    static func resealed(_ original: [UInt8]) -> [UInt8] { Resealing.resealed(original) }

    /// A first layer of an unknown geometry kind is refused with a typed error; since format 3.1 a
    /// first layer of lines opens (and answers no containment query).
    func testUnknownGeometryIsRefused() throws {
        var bytes = try TestSupport.build(geoJSON: fixturePath) { $0.idProperty = "id" }.bytes
        let map = try GMap(bytes: bytes)
        let grid = try XCTUnwrap(map.sections.first { $0.tag == "GRID" })
        bytes[Int(grid.offset) + FormatLayout.Grid.geometry] = GeometryKind.lines.rawValue
        let lines = try GMap(bytes: bytes)
        XCTAssertEqual(lines.geometryKind, .lines)
        XCTAssertEqual(lines.lookupAll(latitude: 0.5, longitude: 0.5), [])
        XCTAssertFalse(MapVerifier(map: lines).isSound, "polygon records read as lines break the lines rules")
        bytes[Int(grid.offset) + FormatLayout.Grid.geometry] = 6 // the first kind after named compact points (3.6)
        XCTAssertThrowsError(try GMap(bytes: bytes)) { error in
            XCTAssertEqual(error as? GMapError, .unsupportedGeometry(layer: "default", kind: 6))
            XCTAssertTrue("\(error)".contains("geometry kind 6"), "\(error)")
            XCTAssertTrue("\(error)".contains("named compact points"), "\(error)")
        }
        bytes[Int(grid.offset) + FormatLayout.Grid.geometry] = 9
        XCTAssertThrowsError(try GMap(bytes: bytes)) { error in
            XCTAssertEqual(error as? GMapError, .unsupportedGeometry(layer: "default", kind: 9))
        }
    }

    /// A later layer of lines (format 3.1) opens, but no query reads its records as polygons:
    /// lookups, nearby searches and the lookup cost answer nothing (found by the reader fuzzer,
    /// whose nearby searches on such a layer measured distances to its edges).
    func testALayerOfLinesAnswersNothing() throws {
        let layered = try SampleMaps.layered()
        var bytes = layered.withUnsafeBytes { Array($0) }
        let state = try XCTUnwrap(layered.sections.first { $0.tag == "G001" }, "the second layer's GRID")
        bytes[Int(state.offset) + FormatLayout.Grid.geometry] = GeometryKind.lines.rawValue
        let map = try GMap(bytes: Self.resealed(bytes))
        let lines = try XCTUnwrap(map.layer(named: "state"))
        XCTAssertEqual(map.layer(named: "country")?.lookup(latitude: 31, longitude: -99)?.id, "US", "the polygon layers still answer")
        XCTAssertNil(lines.lookup(latitude: 31, longitude: -99))
        XCTAssertEqual(lines.lookupAll(latitude: 31, longitude: -99), [])
        XCTAssertNil(lines.lookup(latitude: 31, longitude: -99, within: 50_000))
        XCTAssertNil(lines.lookup(latitude: 31, longitude: -94.99, within: 50_000), "a point 1 km from the layer's edge")
        XCTAssertEqual(lines.lookupAll(latitude: 31, longitude: -94.99, within: 50_000), [])
        XCTAssertNil(lines.nearbyCost(latitude: 31, longitude: -94.99, within: 50_000))
        XCTAssertNil(lines.lookupCost(latitude: 31, longitude: -99))
        var edges = 0, refused = 0
        lines.forEachLeafTile { tile in
            if !lines.forEachEdge(in: tile, { _ in edges += 1 }) { refused += 1 }
        }
        XCTAssertEqual(edges, 0, "export and render read no edges from a layer of lines")
        XCTAssertGreaterThan(refused, 0)
        let survey = TileSurvey(of: lines)
        XCTAssertEqual(survey.geometry, .lines, "the survey reads the records as lines (polygon records read so are damage, never a crash)")
        XCTAssertNotNil(survey.openRecords)
        XCTAssertGreaterThan(survey.recordTiles, 0)
        // The same layer as polygons finds the edge 1 km away: the test above can fail.
        XCTAssertEqual(layered.layer(named: "state")?.lookup(latitude: 31, longitude: -94.99, within: 50_000)?.feature.id, "US-TX")
    }

    /// Builds `features` in formats 2 and 3 and checks both against the oracle on `count` points.
    static func checkFormatsAgree(_ features: [SourceFeature], quantizer: Quantizer, points count: Int, label: String) throws {
        let three = try TestSupport.build(features) { $0.quantizer = quantizer }.map
        let two = try TestSupport.build(features) { options in
            options.quantizer = quantizer
            options.formatMajorVersion = 2
            (options.maximumEdgesPerTile, options.splitFactor, options.maximumDepth) = (48, 4, 6)
        }.map
        XCTAssertEqual(three.formatVersion.major, 3)
        XCTAssertEqual(two.formatVersion.major, 2)
        // Format 3 answers the union of a feature's polygons, format 2 the even-odd rule over all its rings.
        let oracle = BruteForceOracle(features: features, quantizer: quantizer, edgesPerBand: 8)
        let evenOdd = BruteForceOracle(features: features, quantizer: quantizer, edgesPerBand: 8, union: false)
        let points = OracleCheck.points(near: features, uniform: count / 2, nearEdges: count / 2, seed: 3)
        XCTAssertEqual(OracleCheck.disagreements(map: three, oracle: oracle, points: points), [], "\(label): format 3")
        XCTAssertEqual(OracleCheck.disagreements(map: two, oracle: evenOdd, points: points), [], "\(label): format 2")
        XCTAssertEqual(MapVerifier(map: three).problems, [], label)
        XCTAssertEqual(MapVerifier(map: two).problems, [], "\(label): format 2")
    }
}

/// Format 3 on the shared datasets (skipped when ../shared/data is absent, and in the sanitizer runs).
final class FormatThreeDatasetTests: XCTestCase {
    func testFormatsTwoAndThreeAnswerAlikeOnDatasets() throws {
        for (name, id) in [("countries-110m.geojson", "iso_a2"), ("countries-osm.geojson", "iso_a2"), ("regions-josm.geojson", "id")] {
            let url: URL
            url = try TestSupport.sharedFile(name)  // its own skip names the path and how to set it
            let features = try TestSupport.features(at: url.path, idProperty: id)
            try FormatThreeTests.checkFormatsAgree(features, quantizer: .standard, points: 100_000, label: name)
        }
    }

    /// regions-josm's vertices all lie on the 1/65,535° grid (written rounded to 7 decimals), so a
    /// map at that precision is lossless: every answer must equal the even-odd rule over the
    /// grid's rings, near borders too. Rounding the query point to whole units (what format 2
    /// readers did) gets some of them wrong.
    func testLosslessPrecisionAnswersExactlyAsTheSource() throws {
        let url: URL
        url = try TestSupport.sharedFile("regions-josm.geojson")  // its own skip names the path and how to set it
        let features = try TestSupport.features(at: url.path, idProperty: "id")
        let quantizer = try XCTUnwrap(Quantizer(unitsPerDegree: 65_535))
        for feature in features.prefix(50) {
            for ring in feature.polygons.flatMap({ $0 }) {
                for position in ring {
                    XCTAssertEqual(Double(quantizer.units(position.longitude)) / 65_535, position.longitude, accuracy: 5.0001e-8)
                    XCTAssertEqual(Double(quantizer.units(position.latitude)) / 65_535, position.latitude, accuracy: 5.0001e-8)
                }
            }
        }
        let map = try TestSupport.build(features) { $0.quantizer = quantizer }.map
        let oracle = BruteForceOracle(features: features, quantizer: quantizer, edgesPerBand: 8)
        let points = OracleCheck.points(near: features, uniform: 100_000, nearEdges: 200_000, seed: 65_535)
        XCTAssertEqual(OracleCheck.disagreements(map: map, oracle: oracle, points: points), [])
        var movedByRounding = 0
        for point in points {
            guard let exact = quantizer.queryPoint(latitude: point.latitude, longitude: point.longitude),
                  let rounded = quantizer.roundedQueryPoint(latitude: point.latitude, longitude: point.longitude) else { continue }
            if oracle.containing(exact) != oracle.containing(rounded) { movedByRounding += 1 }
        }
        print("regions-josm at 1/65,535°: \(points.count) points agree with the source; rounding the point would change \(movedByRounding) answers")
        XCTAssertGreaterThan(movedByRounding, 0, "the near-border points are near enough to tell the two rules apart")
    }
}
