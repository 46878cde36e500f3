import Foundation
import XCTest
import GMap
import GMapBuilder
import GMapCodecs
import GMapTestSupport

/// `GeoJSONExport`: a map written back as GeoJSON builds into a map that answers every point the
/// same, and exporting that map gives the same bytes again.
final class ExportTests: CommandLineTestCase {
    override class var needsExecutable: Bool { false }

    // MARK: Helpers

    /// The export of `map` as bytes, with its report.
    static func export(_ map: GMap, allowsDamage: Bool = false) throws -> (bytes: [UInt8], report: ExportReport) {
        var bytes: [UInt8] = []
        let report = try GeoJSONExport(allowsDamage: allowsDamage).write(map) { bytes.append(contentsOf: $0) }
        XCTAssertEqual(report.byteCount, bytes.count)
        return (bytes, report)
    }

    /// Builds a map from features, returning the map, its bytes and the build report.
    static func build(_ features: [SourceFeature], configure: (inout BuildOptions) -> Void = { _ in }) throws -> (map: GMap, report: BuildReport) {
        var options = BuildOptions()
        configure(&options)
        var builder = try MapBuilder(options: options)
        for feature in features { try builder.add(feature) }
        let (bytes, report) = try builder.finish()
        return (try GMap(bytes: bytes), report)
    }

    /// Builds a map from GeoJSON bytes the way `gmap build FILE --keep all` does, with `quantizer`.
    func rebuild(_ geoJSON: [UInt8], quantizer: Quantizer = .standard, configure: (inout BuildOptions) -> Void = { _ in }) throws -> (map: GMap, report: BuildReport) {
        let file = temporary.appendingPathComponent("export-\(UUID().uuidString).geojson")
        try Data(geoJSON).write(to: file)
        var options = BuildOptions()
        options.keptProperties = nil
        options.quantizer = quantizer
        configure(&options)
        var builder = try MapBuilder(options: options)
        try GeoJSONImport.read(path: file.path, into: &builder)
        let (bytes, report) = try builder.finish()
        return (try GMap(bytes: bytes), report)
    }

    /// The points where two maps' `lookupAll` ids differ (at most `limit` of them), and how many
    /// points had an answer.
    static func disagreements(_ first: GMap, _ second: GMap, points: [(Double, Double)], limit: Int = 10) -> (problems: [String], answered: Int) {
        var problems: [String] = [], answered = 0
        for (latitude, longitude) in points {
            let a = first.lookupAll(latitude: latitude, longitude: longitude).map(\.id)
            let b = second.lookupAll(latitude: latitude, longitude: longitude).map(\.id)
            if !a.isEmpty { answered += 1 }
            if a != b, problems.count < limit { problems.append("(\(latitude), \(longitude)): \(a) before, \(b) after") }
        }
        return (problems, answered)
    }

    /// `count` points: a third uniform over the world, a third uniform in `region`, and a third on a
    /// lattice of `step` degrees in `region` (on edges and vertices of the fixtures).
    static func points(count: Int, region: (west: Double, south: Double, east: Double, north: Double), step: Double, seed: UInt64) -> [(Double, Double)] {
        var random = SplitMix64(state: seed)
        func unit() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
        var result: [(Double, Double)] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            switch index % 3 {
            case 0: result.append((unit() * 180 - 90, unit() * 360 - 180))
            case 1: result.append((region.south + unit() * (region.north - region.south), region.west + unit() * (region.east - region.west)))
            default:
                let latitude = region.south + (unit() * (region.north - region.south) / step).rounded(.down) * step
                let longitude = region.west + (unit() * (region.east - region.west) / step).rounded(.down) * step
                result.append((latitude, longitude))
            }
        }
        return result
    }

    /// Every `stride`-th vertex of a GeoJSON text, as (latitude, longitude), and points a little
    /// north-east and south-west of it: the places where answers are decided by the boundary rule.
    static func boundaryPoints(of geoJSON: [UInt8], stride: Int, in directory: URL) throws -> [(Double, Double)] {
        let file = directory.appendingPathComponent("points-\(UUID().uuidString).geojson")
        try Data(geoJSON).write(to: file)
        var reader = try GeoJSONReader(path: file.path)
        var result: [(Double, Double)] = []
        var counter = 0
        _ = try reader.forEachFeature { feature in
            guard case .polygons(let polygons) = feature.geometry else { return }
            for ring in polygons.joined() {
                for position in ring {
                    counter += 1
                    guard counter % stride == 0 else { continue }
                    result.append((position.latitude, position.longitude))
                    result.append((position.latitude + 3e-7, position.longitude + 3e-7))
                    result.append((position.latitude - 3e-7, position.longitude - 3e-7))
                }
            }
        }
        return result
    }

    /// Fails with the first differing line (shortened) when two exports differ.
    static func assertSameText(_ actual: [UInt8], _ expected: [UInt8], _ message: String = "", file: StaticString = #filePath, line: UInt = #line) {
        guard actual != expected else { return }
        let actualLines = actual.split(separator: 10, omittingEmptySubsequences: false)
        let expectedLines = expected.split(separator: 10, omittingEmptySubsequences: false)
        let index = (0..<min(actualLines.count, expectedLines.count)).first { actualLines[$0] != expectedLines[$0] } ?? min(actualLines.count, expectedLines.count)
        func shown(_ lines: [ArraySlice<UInt8>]) -> String {
            index < lines.count ? String(String(decoding: lines[index], as: UTF8.self).prefix(300)) : "(no line)"
        }
        XCTFail("\(message): the exports differ at line \(index + 1): \(shown(actualLines)) instead of \(shown(expectedLines))", file: file, line: line)
    }

    private var fixturePath: String { TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson").path }

    // MARK: Fixtures

    /// Holes, enclaves, a bow-tie, the antimeridian, overlaps and the pole, with edges in few and in
    /// very many tiles: the rebuilt map answers 200,000 points the same, and exports to the same bytes.
    func testFixturesRoundTrip() throws {
        let known = try TestSupport.knownLocations(TestSupport.fixtures.appendingPathComponent("known-fixtures.csv")).map { ($0.latitude, $0.longitude) }
        let points = known + Self.points(count: 200_000, region: (-5, -5, 115, 50), step: 0.5, seed: 11)
        for maximumEdges in [48, 1] {
            var options = BuildOptions()
            options.idProperty = "id"
            options.keptProperties = ["name"]
            options.maximumEdgesPerTile = maximumEdges
            var builder = try MapBuilder(options: options)
            try GeoJSONImport.read(path: fixturePath, into: &builder)
            let (bytes, built) = try builder.finish()
            let original = try GMap(bytes: bytes)

            let (geoJSON, report) = try Self.export(original)
            XCTAssertEqual(report.problems, [])
            XCTAssertEqual(report.featureCount, built.featureCount)
            XCTAssertEqual(report.ringCount, built.ringCount, "every ring comes back once (max edges \(maximumEdges))")
            XCTAssertEqual(report.vertexCount, built.vertexCount, "every edge comes back once (max edges \(maximumEdges))")
            XCTAssertEqual(report.edgeCount, built.vertexCount - built.ringCount)

            let rebuilt = try rebuild(geoJSON) { $0.maximumEdgesPerTile = maximumEdges }.map
            XCTAssertEqual(rebuilt.features.map(\.id), original.features.map(\.id), "same features in the same order")
            let (problems, answered) = Self.disagreements(original, rebuilt, points: points)
            XCTAssertEqual(problems, [], "max edges \(maximumEdges)")
            XCTAssertGreaterThan(answered, 20_000)
            for point in try TestSupport.knownLocations(TestSupport.fixtures.appendingPathComponent("known-fixtures.csv")) {
                XCTAssertEqual(rebuilt.lookup(latitude: point.latitude, longitude: point.longitude)?.id, point.expected)
            }
            Self.assertSameText(try Self.export(rebuilt).bytes, geoJSON, "exporting the rebuilt map gives the same bytes")
        }
    }

    /// The fixture export, line by line: holes clockwise and outer rings counter-clockwise, the
    /// bow-tie's crossing ring, FJ's two parts, exact coordinates and the added id property.
    func testFixtureExportText() throws {
        let map = try TestSupport.build(geoJSON: fixturePath) { $0.idProperty = "id"; $0.keptProperties = ["name"] }.map
        let text = String(decoding: try Self.export(map).bytes, as: UTF8.self)
        let lines = text.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "{\"type\":\"FeatureCollection\",\"features\":[")
        XCTAssertEqual(lines.last, "]}")
        XCTAssertEqual(lines.count, map.featureCount + 2, "one feature per line")
        XCTAssertTrue(lines.contains("{\"type\":\"Feature\",\"id\":\"HOLE\",\"properties\":{\"id\":\"HOLE\",\"name\":\"Square with a hole\"},"
            + "\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[10,0],[10,10],[0,10],[0,0]],[[3,3],[3,7],[7,7],[7,3],[3,3]]]}},"), text)
        XCTAssertTrue(text.contains("\"id\":\"FJ\",\"properties\":{\"id\":\"FJ\",\"name\":\"Split at 180\"},\"geometry\":{\"type\":\"MultiPolygon\",\"coordinates\":"
            + "[[[[-180,-18],[-178,-18],[-178,-16],[-180,-16],[-180,-18]]],[[[178,-18],[180,-18],[180,-16],[178,-16],[178,-18]]]]"), text)
        // The bow-tie's lobes balance, so its ring has no area and no orientation to follow, and the
        // map need not store its edges in the source's direction (format 3 stores a shared edge in
        // one feature's direction): the export writes such a ring in the one of its two directions
        // that comes first vertex by vertex, (60,10) before (70,10), not in the stored direction.
        XCTAssertTrue(text.contains("[[[60,0],[60,10],[70,0],[70,10],[60,0]]]"), "the bow-tie keeps its crossing ring")
        XCTAssertTrue(text.contains("[[[40,0],[45,0],[46,3],[44.5,6],[45.5,10],[40,10],[40,0]],[[41,4],[41,5],[42,5],[42,4],[41,4]]]"),
                      "A with B's enclave as its hole")
        XCTAssertTrue(text.contains("[0,-70.5]"))
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        XCTAssertEqual((parsed?["features"] as? [Any])?.count, map.featureCount, "the output is valid JSON")
    }

    /// Edges that occur more than once: a square three times, a square twice with a third ring,
    /// a ring that runs around twice, and two squares sharing an edge. Format 2 stores every
    /// occurrence: counting an edge once per tile it touches, or once per map instead of once per
    /// occurrence, changes the ring counts and the answers. Format 3 stores each edge of a tile
    /// once for all features and keeps, of a segment a slot uses several times, only the parity of
    /// its uses, which is all the even-odd rule sees; and since 3.2 it answers the union of a
    /// feature's polygons, each polygon that shares a stretch of edge with another in its own
    /// parity group (slot): TRIPLE keeps its three squares, DOUBLE its square with the small hole
    /// and its square (the hole covered), TWICE nothing (one polygon whose ring runs around twice),
    /// SHARED its two squares, and every answer is the same.
    ///
    /// The builder orders features by the areas of their polygons as grouped in the source; in
    /// format 2 the export groups these overlapping rings by the even-odd rule instead (DOUBLE's
    /// area falls from 127 to 1 square degree), so the rebuilt map may list them in another order:
    /// the answers agree, and from the first rebuild on the export is a fixed point.
    func testRepeatedEdgesKeepTheirMultiplicity() throws {
        let square: [(longitude: Double, latitude: Double)] = [(0, 0), (8, 0), (8, 8), (0, 8), (0, 0)]
        let small: [(longitude: Double, latitude: Double)] = [(2, 2), (3, 2), (3, 3), (2, 3), (2, 2)]
        let features = [
            SourceFeature(id: "TRIPLE", polygons: [[square], [square], [square]]),
            SourceFeature(id: "DOUBLE", polygons: [[square, small], [square]]),
            SourceFeature(id: "TWICE", polygons: [[[(10, 0), (18, 0), (18, 8), (10, 8), (10, 0), (18, 0), (18, 8), (10, 8), (10, 0)]]]),
            SourceFeature(id: "SHARED", polygons: [[[(20, 0), (24, 0), (24, 4), (20, 4)]], [[(24, 0), (28, 0), (28, 4), (24, 4)]]]),
        ]
        for major in [UInt16(2), 3] {
            for maximumEdges in [48, 1] {
                let configure = { (options: inout BuildOptions) in
                    options.formatMajorVersion = major
                    options.maximumEdgesPerTile = maximumEdges
                    options.maximumDepth = 3
                    options.tileSize = 10_000_000
                }
                let (original, built) = try Self.build(features, configure: configure)
                XCTAssertEqual(original.formatVersion.major, Int(major))
                let (geoJSON, report) = try Self.export(original)
                let text = String(decoding: geoJSON, as: UTF8.self)
                if major == 2 {
                    XCTAssertEqual(report.ringCount, built.ringCount)
                    XCTAssertEqual(report.vertexCount, built.vertexCount)
                    // The square given twice is an outer ring with itself as its hole: the even-odd region is the small square.
                    XCTAssertTrue(text.contains("\"id\":\"DOUBLE\",\"properties\":{},\"geometry\":{\"type\":\"MultiPolygon\",\"coordinates\":"
                        + "[[[[0,0],[8,0],[8,8],[0,8],[0,0]],[[0,0],[0,8],[8,8],[8,0],[0,0]]],[[[2,2],[3,2],[3,3],[2,3],[2,2]]]]"), text)
                } else {
                    // Parity groups (3.2): TRIPLE's three squares, DOUBLE's square with its hole and
                    // its square, nothing of TWICE, SHARED's two squares: 8 rings of 5 positions.
                    XCTAssertEqual(original.formatVersion.minor, 5, "parity groups (3.2) in banded polygons (3.5)")
                    XCTAssertEqual(report.ringCount, 8)
                    XCTAssertEqual(report.vertexCount, 40)
                    XCTAssertTrue(text.contains("\"id\":\"DOUBLE\",\"properties\":{},\"geometry\":{\"type\":\"MultiPolygon\",\"coordinates\":"
                        + "[[[[0,0],[8,0],[8,8],[0,8],[0,0]],[[2,2],[2,3],[3,3],[3,2],[2,2]]],[[[0,0],[8,0],[8,8],[0,8],[0,0]]]]}"), text)
                    XCTAssertTrue(text.contains("\"id\":\"TWICE\",\"properties\":{},\"geometry\":{\"type\":\"MultiPolygon\",\"coordinates\":[]}"), text)
                    XCTAssertTrue(text.contains("\"id\":\"SHARED\",\"properties\":{},\"geometry\":{\"type\":\"MultiPolygon\",\"coordinates\":"), text)
                }
                let rebuilt = try rebuild(geoJSON, configure: configure).map
                XCTAssertEqual(rebuilt.features.map(\.id).sorted(), original.features.map(\.id).sorted())
                // Format 2: the even-odd rule over all of a feature's rings; format 3: the union of its polygons.
                XCTAssertEqual(original.lookupAll(latitude: 5, longitude: 5).map(\.id), major == 2 ? ["TRIPLE"] : ["DOUBLE", "TRIPLE"])
                XCTAssertEqual(original.lookupAll(latitude: 2.5, longitude: 2.5).map(\.id), ["DOUBLE", "TRIPLE"])
                XCTAssertEqual(original.lookupAll(latitude: 5, longitude: 15).map(\.id), [])
                let points = Self.points(count: 30_000, region: (-1, -1, 29, 9), step: 0.25, seed: 5)
                XCTAssertEqual(Self.disagreements(original, rebuilt, points: points).problems, [], "format \(major), max edges \(maximumEdges)")
                let again = try Self.export(rebuilt).bytes
                let rebuiltTwice = try rebuild(again, configure: configure).map
                XCTAssertEqual(rebuiltTwice.features.map(\.id), rebuilt.features.map(\.id))
                Self.assertSameText(try Self.export(rebuiltTwice).bytes, again)
            }
        }
    }

    // MARK: Chaining edges whatever their direction

    /// A ring in grid units, open: its first vertex is not repeated at the end.
    typealias GridRing = [(x: Int32, y: Int32)]

    /// A map that stores an edge once for all the features using it stores it in one feature's
    /// direction, so the export gets some edges backwards (in the format 3 fixture map, the
    /// border A shares with B comes backwards to one of them, and so does WEST and EAST's). Here
    /// the fixture maps' edges, with a random half reversed (their hints swapped with them) and
    /// shuffled, give every feature its source rings back, up to direction and first vertex (the
    /// square with a hole, the C-shape, A with B's enclave, B's two parts, the bow-tie, the
    /// antimeridian and the pole), and the very same rings as chained as read: same order, same
    /// first vertices, counter-clockwise. Even-odd answers are the source's at random points and
    /// at every crossing of vertex coordinates. With 30 % of the hints dropped as well, the rings
    /// still come back up to first vertex.
    func testChainingIgnoresEdgeDirection() throws {
        let source = try fixtureRings()
        var random = SplitMix64(state: 2026)
        for (major, maximumEdges) in [(UInt16(2), 48), (2, 1), (3, 64), (3, 1)] {
            let map = try TestSupport.build(geoJSON: fixturePath) {
                $0.idProperty = "id"
                $0.maximumEdgesPerTile = maximumEdges
                $0.formatMajorVersion = major
            }.map
            var recovered = RecoveredEdges(map: map)
            XCTAssertEqual(recovered.corruptRecords, 0)
            for index in 0..<map.featureCount {
                let id = try XCTUnwrap(map.feature(at: index)).id
                let rings = try XCTUnwrap(source[id], id)
                let (edges, unpaired) = recovered.takeEdges(ofFeature: index)
                XCTAssertEqual(unpaired, 0, id)
                let stored = RingChainer(edges: edges)
                XCTAssertEqual(Self.cycles(stored.rings.map(Self.open)), Self.cycles(rings), "\(id) as stored (format \(major), max edges \(maximumEdges))")
                let points = Self.probePoints(rings, count: 3_000, random: &random)
                for trial in 0..<10 {
                    let dropping = trial < 5 ? 0 : 0.3
                    let chained = RingChainer(edges: Self.scrambled(edges, dropping: dropping, random: &random))
                    XCTAssertEqual(chained.openChains, 0, id)
                    let back = chained.rings.map(Self.open)
                    XCTAssertEqual(Self.cycles(back), Self.cycles(rings), "\(id), trial \(trial) (format \(major), max edges \(maximumEdges))")
                    if dropping == 0 { XCTAssertEqual(chained.rings, stored.rings, "\(id): the same rings, from the same vertices, the same way round") }
                    XCTAssertEqual(Self.parityDisagreements(back, rings, at: points), [], id)
                    for ring in back where id != "BOW" { XCTAssertGreaterThan(Self.doubledArea(ring), 0, "\(id): counter-clockwise") }
                }
            }
        }
    }

    /// Rings that meet at a vertex, or share or repeat a segment, come back as they were with
    /// their edges in any direction and order: the hints, read either way, say which edge goes on
    /// from which. A square visited twice is one ring; three copies of a square are three.
    func testChainingFollowsHintsThroughSharedVertices() {
        let square: GridRing = [(0, 0), (10, 0), (10, 10), (0, 10)]
        let cases: [(name: String, rings: [GridRing])] = [
            ("three rings at one vertex", [square, [(10, 10), (20, 10), (20, 20), (10, 20)], [(20, 0), (10, 10), (15, 0)]]),
            ("figure eight", [[(0, 0), (10, 0), (10, 10), (20, 10), (20, 20), (10, 20), (10, 10), (0, 10)]]),
            ("square twice round", [square + square]),
            ("shared edge", [square, [(10, 0), (20, 0), (20, 10), (10, 10)]]),
            ("three copies", [square, square, square]),
        ]
        var random = SplitMix64(state: 7)
        for (name, rings) in cases {
            let points = Self.probePoints(rings, count: 500, random: &random)
            for trial in 0..<20 {
                let chained = RingChainer(edges: Self.scrambled(Self.edges(of: rings), dropping: 0, random: &random))
                XCTAssertEqual(chained.openChains, 0, name)
                XCTAssertEqual(Self.cycles(chained.rings.map(Self.open)), Self.cycles(rings), "\(name), trial \(trial)")
                XCTAssertEqual(Self.parityDisagreements(chained.rings.map(Self.open), rings, at: points), [], name)
            }
        }
    }

    /// A map that stores each edge once for all features keeps, of a segment a feature uses
    /// several times, only the parity of its uses, which is all the even-odd rule sees. What is
    /// left still chains into closed rings in any direction, with the source's answers: two
    /// squares sharing an edge become their outline, and random sets of grid cells, each cell a
    /// ring of its own (cells touching at a corner leave four edges meeting there), become the
    /// outlines of the sets, with 30 % of the hints dropped in every other trial.
    func testChainingAfterRepeatedEdgesCancel() {
        let pair: [GridRing] = [[(20, 0), (24, 0), (24, 4), (20, 4)], [(24, 0), (28, 0), (28, 4), (24, 4)]]
        let outline = RingChainer(edges: Self.xored(pair))
        XCTAssertEqual(Self.cycles(outline.rings.map(Self.open)), Self.cycles([[(20, 0), (24, 0), (28, 0), (28, 4), (24, 4), (20, 4)]]))
        let doubled: [GridRing] = [[(0, 0), (8, 0), (8, 8), (0, 8)], [(2, 2), (3, 2), (3, 3), (2, 3)], [(0, 0), (8, 0), (8, 8), (0, 8)]]
        XCTAssertEqual(Self.cycles(RingChainer(edges: Self.xored(doubled)).rings.map(Self.open)), Self.cycles([[(2, 2), (3, 2), (3, 3), (2, 3)]]),
                       "a square given twice cancels")

        var random = SplitMix64(state: 3)
        for trial in 0..<60 {
            var cells: [GridRing] = [], chosen = Set<Int>()
            for cell in 0..<25 where random.next() % 2 == 0 {
                chosen.insert(cell)
                let west = Int32(cell % 5) * 10, south = Int32(cell / 5) * 10
                var ring: GridRing = [(west, south), (west + 10, south), (west + 10, south + 10), (west, south + 10)]
                if random.next() % 2 == 0 { ring.reverse() }
                let shift = Int(random.next() % 4)
                cells.append(Array(ring[shift...] + ring[..<shift]))
            }
            let kept = Self.xored(cells)
            let chained = RingChainer(edges: Self.scrambled(kept, dropping: trial % 2 == 0 ? 0 : 0.3, random: &random))
            XCTAssertEqual(chained.openChains, 0)
            XCTAssertEqual(chained.droppedRings, 0)
            let back = chained.rings.map(Self.open)
            XCTAssertEqual(Self.segments(Self.edges(of: back)), Self.segments(kept), "every edge left is used once (trial \(trial))")
            XCTAssertEqual(Self.parityDisagreements(back, cells, at: Self.probePoints(cells, count: 500, random: &random)), [], "trial \(trial)")
            for cell in 0..<25 {
                let x = Int64(cell % 5) * 10 + 5, y = Int64(cell / 5) * 10 + 5
                XCTAssertEqual(Self.isInside(back, x: x, y: y), chosen.contains(cell), "cell \(cell), trial \(trial)")
            }
        }
    }

    /// Each fixture feature's rings as the GeoJSON gives them, quantized, by id.
    private func fixtureRings() throws -> [String: [GridRing]] {
        var result: [String: [GridRing]] = [:]
        var reader = try GeoJSONReader(path: fixturePath)
        _ = try reader.forEachFeature { feature in
            guard case .polygons(let polygons) = feature.geometry,
                  case .string(let id)? = feature.properties.first(where: { $0.key == "id" })?.value else { return }
            result[id] = polygons.joined().map { ring in
                var vertices: GridRing = ring.map {
                    (Int32(truncatingIfNeeded: Quantizer.standard.units($0.longitude)), Int32(truncatingIfNeeded: Quantizer.standard.units($0.latitude)))
                }
                if vertices.count > 1, let first = vertices.first, let last = vertices.last, first == last { vertices.removeLast() }
                return vertices
            }
        }
        return result
    }

    /// The edges of `rings` with the hints a tile gives: each edge knows the far vertices of the
    /// edges before and after it in its ring, except across the ring's start, where a run starts.
    static func edges(of rings: [GridRing]) -> [RecoveredEdge] {
        rings.flatMap { ring in
            ring.indices.map { index in
                RecoveredEdge(start: ring[index], end: ring[(index + 1) % ring.count],
                              previous: index > 0 ? ring[index - 1] : nil,
                              next: index + 1 < ring.count ? ring[(index + 2) % ring.count] : nil)
            }
        }
    }

    /// The edges of `rings` as a map that stores each edge once keeps them: of each segment, one
    /// edge if the rings use it an odd number of times, none if even; an edge next to a dropped
    /// one has no hint there (its run ends).
    static func xored(_ rings: [GridRing]) -> [RecoveredEdge] {
        let byRing = rings.map { edges(of: [$0]) }
        var uses: [[Int64]: Int] = [:]
        for edge in byRing.joined() { uses[segment(edge), default: 0] += 1 }
        var taken = Set<[Int64]>()
        let kept = byRing.map { ring in ring.map { edge in uses[segment(edge), default: 0] % 2 == 1 && taken.insert(segment(edge)).inserted } }
        var result: [RecoveredEdge] = []
        for (ring, keep) in zip(byRing, kept) {
            for index in ring.indices where keep[index] {
                var edge = ring[index]
                if index == 0 || !keep[index - 1] { (edge.previousX, edge.previousY) = (edge.startX, edge.startY) }
                if index + 1 == ring.count || !keep[index + 1] { (edge.nextX, edge.nextY) = (edge.endX, edge.endY) }
                result.append(edge)
            }
        }
        return result
    }

    /// The edges with about half of them reversed (hints and all), `dropping` of the hints at each
    /// end removed, in a random order.
    static func scrambled(_ edges: [RecoveredEdge], dropping: Double, random: inout SplitMix64) -> [RecoveredEdge] {
        func drops() -> Bool { Double(random.next() >> 11) / Double(1 << 53) < dropping }
        return edges.map { original in
            var edge = random.next() % 2 == 0 ? original.reversed() : original
            if drops() { (edge.previousX, edge.previousY) = (edge.startX, edge.startY) }
            if drops() { (edge.nextX, edge.nextY) = (edge.endX, edge.endY) }
            return edge
        }.shuffled(using: &random)
    }

    /// An exported ring without its closing vertex.
    static func open(_ ring: ExportRing) -> GridRing {
        Array(zip(ring.xs, ring.ys).map { (x: $0, y: $1) }.dropLast())
    }

    /// A vertex as one number.
    private static func packed(_ vertex: (x: Int32, y: Int32)) -> Int64 { Int64(vertex.x) << 32 | Int64(UInt32(bitPattern: vertex.y)) }

    /// An edge's segment, whatever its direction.
    private static func segment(_ edge: RecoveredEdge) -> [Int64] {
        [packed((edge.startX, edge.startY)), packed((edge.endX, edge.endY))].sorted()
    }

    /// The segments of `edges`, sorted: equal for the same edges in any direction and order.
    static func segments(_ edges: [RecoveredEdge]) -> [[Int64]] {
        edges.map(segment).sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// Each ring as the least of its vertex sequences from any vertex, either way round; sorted.
    /// Equal for the same rings up to first vertex and direction.
    static func cycles(_ rings: [GridRing]) -> [[Int64]] {
        rings.map { ring -> [Int64] in
            let vertices = ring.map(packed)
            var least = vertices
            for sequence in [vertices, vertices.reversed()] {
                for shift in sequence.indices {
                    let rotated = Array(sequence[shift...] + sequence[..<shift])
                    if rotated.lexicographicallyPrecedes(least) { least = rotated }
                }
            }
            return least
        }.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// Whether `(x, y)` lies inside `rings` by the even-odd rule (the library's ray test).
    static func isInside(_ rings: [GridRing], x: Int64, y: Int64) -> Bool {
        var inside = false
        for ring in rings {
            for index in ring.indices {
                let a = ring[index], b = ring[(index + 1) % ring.count]
                if EvenOddRule.crossesEastRay(pointX: x, pointY: y, ax: Int64(a.x), ay: Int64(a.y), bx: Int64(b.x), by: Int64(b.y)) { inside.toggle() }
            }
        }
        return inside
    }

    /// The points (at most five) where two sets of rings answer differently.
    static func parityDisagreements(_ rings: [GridRing], _ expected: [GridRing], at points: [(x: Int64, y: Int64)]) -> [String] {
        points.filter { isInside(rings, x: $0.x, y: $0.y) != isInside(expected, x: $0.x, y: $0.y) }.prefix(5).map { "(\($0.x), \($0.y))" }
    }

    /// `count` random points in the rings' bounds and a margin around them, and every point whose
    /// x is one vertex's and y another's (up to 40 of each): vertices, and points on edges.
    static func probePoints(_ rings: [GridRing], count: Int, random: inout SplitMix64) -> [(x: Int64, y: Int64)] {
        let vertices = rings.joined()
        let xs = Set(vertices.map { Int64($0.x) }).sorted(), ys = Set(vertices.map { Int64($0.y) }).sorted()
        guard let west = xs.first, let east = xs.last, let south = ys.first, let north = ys.last else { return [] }
        let marginX = (east - west) / 10 + 1, marginY = (north - south) / 10 + 1
        var points: [(x: Int64, y: Int64)] = (0..<count).map { _ in
            (Int64.random(in: west - marginX...east + marginX, using: &random), Int64.random(in: south - marginY...north + marginY, using: &random))
        }
        for x in xs.prefix(40) { for y in ys.prefix(40) { points.append((x, y)) } }
        return points
    }

    /// Twice the ring's signed area (positive counter-clockwise), in floating point: enough for its sign here.
    static func doubledArea(_ ring: GridRing) -> Double {
        ring.indices.reduce(0.0) { sum, index in
            let a = ring[index], b = ring[(index + 1) % ring.count]
            return sum + Double(a.x) * Double(b.y) - Double(b.x) * Double(a.y)
        }
    }

    // MARK: Coordinates, properties and ids

    func testCoordinatesAreExactAndShortest() throws {
        let feature = SourceFeature(id: "X", polygons: [[[(-5.3583868, 36.1105004), (0.3, 36.11), (0.3000001, 37), (-0.0000001, 36.5)]]])
        let text = String(decoding: try Self.export(try Self.build([feature]).map).bytes, as: UTF8.self)
        for expected in ["[-5.3583868,36.1105004]", "[0.3,36.11]", "[0.3000001,37]", "[-0.0000001,36.5]"] {
            XCTAssertTrue(text.contains(expected), "\(expected) in \(text)")
        }
        // A precision that is not a power of ten: the fewest decimals that quantize back.
        let coarse = try XCTUnwrap(Quantizer(unitsPerDegree: 3600))
        let arcSeconds = SourceFeature(id: "S", polygons: [[[(0, 0), (1.0 / 3600, 0), (1.0 / 3600, 10.5), (-179.99, 10.5)]]])
        let map = try Self.build([arcSeconds]) { $0.quantizer = coarse }.map
        let coarseText = try Self.export(map).bytes
        XCTAssertTrue(String(decoding: coarseText, as: UTF8.self).contains("[0.0003,0]"), String(decoding: coarseText, as: UTF8.self))
        let rebuilt = try rebuild(coarseText, quantizer: coarse).map
        Self.assertSameText(try Self.export(rebuilt).bytes, coarseText)
        let points = Self.points(count: 20_000, region: (-180, -1, 1, 11), step: 1.0 / 3600, seed: 3)
        XCTAssertEqual(Self.disagreements(map, rebuilt, points: points).problems, [])
    }

    /// Every property kind, escapes and non-ASCII text survive a round trip; a value whose text
    /// is not JSON of its kind is written as a string.
    func testPropertiesOfEveryKindSurvive() throws {
        let properties: [SourceFeature.KeptProperty] = [
            .init(key: "name", value: "São \"Tomé\" \\ back\nslash\t\u{1}\u{7F} 🌍", kind: .string),
            .init(key: "pop", value: "-1.5e3", kind: .number),
            .init(key: "zero", value: "0", kind: .number),
            .init(key: "sovereign", value: "true", kind: .boolean),
            .init(key: "disputed", value: "false", kind: .boolean),
            .init(key: "note", value: "", kind: .null),
            .init(key: "codes", value: "{\"a\":[1,2.5,\"x\"],\"b\":null}", kind: .json),
            .init(key: "empty key \"quoted\"", value: "", kind: .string),
        ]
        let feature = SourceFeature(id: "ST", properties: properties, polygons: [[[(6, 0), (7, 0), (7, 1), (6, 1)]]])
        let (geoJSON, report) = try Self.export(try Self.build([feature]) { $0.keptProperties = nil }.map)
        XCTAssertEqual(report.valuesWrittenAsStrings, 0)
        XCTAssertEqual(report.idPropertiesAdded, 1, "name would be taken as the id")
        let rebuilt = try rebuild(geoJSON).map
        let back = try XCTUnwrap(rebuilt.feature(at: 0))
        XCTAssertEqual(back.id, "ST")
        XCTAssertEqual(back.properties, [Property(key: "id", value: "ST", kind: .string)] + properties.map { Property(key: $0.key, value: $0.value, kind: $0.kind) })
        Self.assertSameText(try Self.export(rebuilt).bytes, geoJSON)

        let broken = SourceFeature(id: "B", properties: [.init(key: "n", value: "12 apples", kind: .number), .init(key: "j", value: "{oops", kind: .json),
                                                         .init(key: "b", value: "yes", kind: .boolean)],
                                   polygons: [[[(6, 0), (7, 0), (7, 1), (6, 1)]]])
        let (brokenJSON, brokenReport) = try Self.export(try Self.build([broken]) { $0.keptProperties = nil }.map)
        XCTAssertEqual(brokenReport.valuesWrittenAsStrings, 3)
        XCTAssertTrue(String(decoding: brokenJSON, as: UTF8.self).contains("\"n\":\"12 apples\",\"j\":\"{oops\",\"b\":\"yes\""))
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(brokenJSON)))
    }

    /// An id property is added only when the automatic choice would pick something else; a kept
    /// `id` property with another value is reported.
    func testIdsSurviveAnAutomaticRebuild() throws {
        let shape: [[[(longitude: Double, latitude: Double)]]] = [[[(0, 0), (1, 0), (1, 1), (0, 1)]]]
        let features = [
            SourceFeature(id: "GI", properties: [.init(key: "name", value: "Gibraltar"), .init(key: "iso_a2", value: "GI")], polygons: shape),
            SourceFeature(id: "Europe/Paris", properties: [.init(key: "name", value: "Paris")], polygons: shape),
            SourceFeature(id: "7", properties: [], polygons: shape),
            SourceFeature(id: "X", properties: [.init(key: "id", value: "other")], polygons: shape),
        ]
        let original = try Self.build(features) { $0.keptProperties = nil }.map
        let (geoJSON, report) = try Self.export(original)
        XCTAssertEqual(report.idPropertiesAdded, 1, "only Europe/Paris needs one: GI has iso_a2, 7 has none of the names")
        XCTAssertEqual(report.idsNotReproducible, ["X"])
        let text = String(decoding: geoJSON, as: UTF8.self)
        XCTAssertTrue(text.contains("\"id\":\"Europe/Paris\",\"properties\":{\"id\":\"Europe/Paris\",\"name\":\"Paris\"}"), text)
        XCTAssertTrue(text.contains("\"id\":\"GI\",\"properties\":{\"name\":\"Gibraltar\",\"iso_a2\":\"GI\"}"), text)
        XCTAssertTrue(text.contains("\"id\":\"7\",\"properties\":{}"), text)
        let rebuilt = try rebuild(geoJSON).map
        XCTAssertEqual(rebuilt.features.map(\.id), ["GI", "Europe/Paris", "7", "other"])
    }

    /// A feature whose rings all vanished in quantization is kept, with no polygons.
    func testFeatureWithoutRingsIsKept() throws {
        let features = [
            SourceFeature(id: "TINY", polygons: [[[(0, 0), (0.00000001, 0), (0.00000001, 0.00000001)]]]),
            SourceFeature(id: "SQUARE", polygons: [[[(0, 0), (1, 0), (1, 1), (0, 1)]]]),
        ]
        let original = try Self.build(features).map
        let (geoJSON, _) = try Self.export(original)
        XCTAssertTrue(String(decoding: geoJSON, as: UTF8.self).contains("\"id\":\"TINY\",\"properties\":{},\"geometry\":{\"type\":\"MultiPolygon\",\"coordinates\":[]}"))
        let rebuilt = try rebuild(geoJSON).map
        XCTAssertEqual(rebuilt.features.map(\.id), original.features.map(\.id))
        Self.assertSameText(try Self.export(rebuilt).bytes, geoJSON)
    }

    // MARK: Layers and damage

    func testLayerOfAMapOfSeveralLayers() throws {
        let map = try SampleMaps.layered()
        let state = try XCTUnwrap(map.layer(named: "state"))
        let text = String(decoding: try Self.export(state).bytes, as: UTF8.self)
        XCTAssertTrue(text.contains("\"id\":\"US-TX\""))
        XCTAssertFalse(text.contains("\"id\":\"US\""))
        let first = String(decoding: try Self.export(map).bytes, as: UTF8.self)
        XCTAssertTrue(first.contains("\"id\":\"GI\"") && first.contains("\"id\":\"US\""), "the map itself is its first layer")
        XCTAssertFalse(first.contains("US-TX"))
    }

    /// Flipped bytes in TILE: an error naming the section, or with `allowsDamage` a partial
    /// export with the problems listed; never a crash, wherever the damage is.
    func testDamagedMapGivesAnErrorNotACrash() throws {
        let bytes = try TestSupport.build(geoJSON: fixturePath) { $0.idProperty = "id"; $0.maximumEdgesPerTile = 4 }.bytes
        let sound = try GMap(bytes: bytes)
        let tiles = try XCTUnwrap(sound.sections.first { $0.tag == "TILE" })
        var damaged = bytes
        damaged[Int(tiles.offset + tiles.length / 2)] ^= 0x5A
        let map = try GMap(bytes: damaged)
        XCTAssertThrowsError(try Self.export(map)) { error in
            let failure = error as? ExportError
            XCTAssertTrue(failure?.description.contains("section TILE") ?? false, "\(error)")
        }
        var random = SplitMix64(state: 99)
        for _ in 0..<300 {
            var copy = bytes
            for _ in 0..<3 {
                let position = Int(tiles.offset) + Int(random.next() % tiles.length)
                copy[position] ^= UInt8(truncatingIfNeeded: random.next() | 1)
            }
            guard let opened = try? GMap(bytes: copy) else { continue }
            let (_, report) = try Self.export(opened, allowsDamage: true)
            XCTAssertFalse(report.problems.isEmpty)
        }
    }

    // MARK: Real data

    func testCountries110mRoundTrip() throws { try checkDataset("countries-110m.geojson", id: "iso_a2", seed: 110) }
    func testCountries10mRoundTrip() throws { try checkDataset("countries-10m.geojson", id: "iso_a2", seed: 10) }

    /// Builds a dataset in format 2 and in format 3, exports it, builds the export in the same
    /// format: same answers on 200,000 points and near every 20th vertex, and the same bytes when
    /// exported again. From format 2 every ring and vertex comes back. Format 3 keeps, of a
    /// segment a feature uses several times, only the parity of its uses, and where a feature's
    /// rings touch at a vertex at which its runs break (because the feature next to it changes),
    /// it does not say which ring goes on where: the export may join such rings into one that
    /// touches itself (Canada's two rings at the St. Lawrence in the 10m map), which answers alike.
    private func checkDataset(_ name: String, id: String, seed: UInt64) throws {
        let path = try TestSupport.sharedFile(name).path
        let randomPoints = Self.points(count: 200_000, region: (-180, -90, 180, 90), step: 1, seed: seed)
        for major in [UInt16(2), 3] {
            var options = BuildOptions()
            options.idProperty = id
            options.keptProperties = ["name", "iso_a3"]
            options.formatMajorVersion = major
            var builder = try MapBuilder(options: options)
            try GeoJSONImport.read(path: path, into: &builder)
            let (bytes, built) = try builder.finish()
            let original = try GMap(bytes: bytes)
            let (geoJSON, report) = try Self.export(original)
            XCTAssertEqual(report.problems, [])
            XCTAssertEqual(report.droppedRings, 0)
            XCTAssertEqual(report.vertexCount - report.ringCount, report.edgeCount, "format \(major): every edge read is written once")
            let builtEdges = built.vertexCount - built.ringCount
            if major == 2 {
                XCTAssertEqual(report.ringCount, built.ringCount)
                XCTAssertEqual(report.vertexCount, built.vertexCount)
            } else {
                XCTAssertTrue(report.edgeCount <= builtEdges && (builtEdges - report.edgeCount) % 2 == 0,
                              "format 3 drops a feature's repeated edges in pairs: \(report.edgeCount) of \(builtEdges)")
            }
            let rebuilt = try rebuild(geoJSON) { $0.formatMajorVersion = major }
            XCTAssertEqual(rebuilt.report.ringCount, report.ringCount, "format \(major): the rebuild takes the exported rings")
            XCTAssertEqual(rebuilt.report.vertexCount, report.vertexCount)
            XCTAssertEqual(rebuilt.map.features.map(\.id), original.features.map(\.id))
            let points = randomPoints + (try Self.boundaryPoints(of: geoJSON, stride: 20, in: temporary))
            let (problems, answered) = Self.disagreements(original, rebuilt.map, points: points)
            XCTAssertEqual(problems, [], "format \(major)")
            XCTAssertGreaterThan(answered, 50_000)
            print("\(name), format \(major): \(points.count) points, \(answered) answered, \(problems.count) disagreements; "
                + "\(report.ringCount) rings, \(report.vertexCount) vertices (\(built.ringCount) and \(built.vertexCount) built), \(geoJSON.count) bytes")
            Self.assertSameText(try Self.export(rebuilt.map).bytes, geoJSON, "format \(major): exporting the rebuilt map gives the same bytes")
        }
    }
}
