import Foundation
import XCTest
import GMap
import GMapBuilder
import GMapCodecs
import GMapRender
import GMapTestSupport

/// Layers of lines and points (format 3.1) in the tools: GeoJSON input, the reader's segment and
/// point walks, export, info, verify and render.
final class LinesAndPointsToolsTests: CommandLineTestCase {
    override class var needsExecutable: Bool { false }


    private func write(_ text: String, _ name: String) throws -> String {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path(name)))
        return path(name)
    }

    /// Streets: a main road crossing many tiles, a closed loop, a feature of two lines meeting end
    /// to start, a zig-zag (every segment in its own tiles), and a minor street.
    static let lines = """
    {"type":"FeatureCollection","features":[
    {"type":"Feature","properties":{"name":"Main Road","class":"primary"},"geometry":{"type":"LineString","coordinates":[[0.05,0.495],[1.05,0.495],[2.95,0.515]]}},
    {"type":"Feature","properties":{"name":"Loop","class":"residential"},"geometry":{"type":"LineString","coordinates":[[0.2,0.2],[0.4,0.2],[0.4,0.35],[0.2,0.2]]}},
    {"type":"Feature","properties":{"name":"Two Parts","class":"residential"},"geometry":{"type":"MultiLineString","coordinates":[[[1.5,0.1],[1.6,0.3]],[[1.6,0.3],[1.9,0.3],[1.9,0.9]]]}},
    {"type":"Feature","properties":{"name":"Zig Zag"},"geometry":{"type":"LineString","coordinates":[[2.1,0.1],[2.3,0.9],[2.5,0.1],[2.7,0.9]]}},
    {"type":"Feature","properties":{"name":"Lane","class":"service"},"geometry":{"type":"LineString","coordinates":[[0.605,0.9],[0.605,0.1]]}}
    ]}
    """

    /// Places: points and a feature of several points.
    static let points = """
    {"type":"FeatureCollection","features":[
    {"type":"Feature","properties":{"name":"Town","population":1200},"geometry":{"type":"Point","coordinates":[0.755,0.745]}},
    {"type":"Feature","properties":{"name":"Kiosks"},"geometry":{"type":"MultiPoint","coordinates":[[2.25,0.25],[0.1,0.9],[1.5,0.5]]}},
    {"type":"Feature","properties":{"name":"Edge"},"geometry":{"type":"Point","coordinates":[1,0.25]}}
    ]}
    """

    /// Builds `text` as one layer with small tiles and few items per tile, so that lines cross
    /// tiles and tiles split.
    private func build(_ text: String, choice: GeometryChoice = .automatic) throws -> (map: GMap, bytes: [UInt8], report: BuildReport) {
        var options = BuildOptions()
        options.quantizer = try XCTUnwrap(Quantizer(unitsPerDegree: 100_000))
        options.tileSize = 25_000
        options.maximumEdgesPerTile = 2
        options.keptProperties = nil
        var builder = try InputLayerBuilder(options: options, choice: choice)
        var reader = GeoJSONReader(bytes: Array(text.utf8))
        try GeoJSONImport.read(&reader, into: &builder)
        var layered = LayeredMapBuilder()
        try layered.addLayer(named: "default", builder)
        let (bytes, reports) = try layered.finish()
        return (try GMap(bytes: bytes), bytes, reports[0])
    }

    /// The features of GeoJSON text, read back.
    private func features(_ bytes: [UInt8]) throws -> [GeoJSONFeature] {
        var reader = GeoJSONReader(bytes: bytes)
        var features: [GeoJSONFeature] = []
        _ = try reader.forEachFeature { features.append($0) }
        return features
    }

    private func exported(_ map: GMap) throws -> (features: [GeoJSONFeature], report: ExportReport) {
        var bytes: [UInt8] = []
        let report = try GeoJSONExport().write(map) { bytes += $0 }
        return (try features(bytes), report)
    }

    /// Positions in whole units of `quantizer`.
    private func units(_ positions: [GeoJSONPosition], _ quantizer: Quantizer) -> [[Int64]] {
        positions.map { [quantizer.units($0.longitude), quantizer.units($0.latitude)] }
    }

    func testLinesExportAsBuiltAtTheMapsPrecision() throws {
        let (map, _, report) = try build(Self.lines)
        XCTAssertEqual(map.geometryKind, .lines)
        XCTAssertEqual(report.geometry, .lines)
        XCTAssertEqual(report.lineCount, 6)
        XCTAssertGreaterThan(report.splitTiles, 0, "the tiles split, so lines cross leaf tiles")
        let (back, exportReport) = try exported(map)
        XCTAssertEqual(exportReport.problems, [])
        XCTAssertEqual(exportReport.lineCount, 6)
        let source = try features(Array(Self.lines.utf8))
        XCTAssertEqual(back.map(\.id), source.map { feature in feature.properties.first { $0.key == "name" }?.value })
        let q = map.quantizer
        for (original, copy) in zip(source, back) {
            guard case .lines(let want) = original.geometry, case .lines(let got) = copy.geometry else {
                XCTFail("\(copy.geometry) is not lines")
                continue
            }
            XCTAssertEqual(got.map { units($0, q) }, want.map { units($0, q) }, "\(String(describing: copy.id))")
            XCTAssertEqual(copy.properties.first { $0.key == "class" }?.value, original.properties.first { $0.key == "class" }?.value)
        }
        // A LineString stays one, a MultiLineString of two lines stays two.
        let text = String(decoding: try GeoJSONExportText.of(map), as: UTF8.self)
        XCTAssertTrue(text.contains("\"type\":\"MultiLineString\""), text)
        XCTAssertTrue(text.contains("\"type\":\"LineString\""), text)
    }

    func testPointsExportAsBuilt() throws {
        let (map, _, report) = try build(Self.points)
        XCTAssertEqual(map.geometryKind, .points)
        XCTAssertEqual(report.geometry, .points)
        let (back, exportReport) = try exported(map)
        XCTAssertEqual(exportReport.problems, [])
        XCTAssertEqual(exportReport.pointCount, 5)
        let source = try features(Array(Self.points.utf8))
        let q = map.quantizer
        for (original, copy) in zip(source, back) {
            guard case .points(let want) = original.geometry, case .points(let got) = copy.geometry else {
                XCTFail("\(copy.geometry) is not points")
                continue
            }
            XCTAssertEqual(Set(units(got, q)), Set(units(want, q)))
        }
        XCTAssertEqual(back[0].properties.first { $0.key == "population" }?.value, .number("1200"))
        let text = String(decoding: try GeoJSONExportText.of(map), as: UTF8.self)
        XCTAssertTrue(text.contains("\"geometry\":{\"type\":\"Point\",\"coordinates\":[0.755,0.745]}"), text)
        XCTAssertTrue(text.contains("\"type\":\"MultiPoint\""), text)
    }

    func testTheReaderWalksSegmentsAndPointsTileByTile() throws {
        let lines = try build(Self.lines).map, points = try build(Self.points).map
        var segments: [TileSegment] = [], polygonEdges = 0
        var refused = 0
        lines.forEachLeafTile { tile in
            if !lines.forEachSegment(in: tile, { segments.append($0) }) { refused += 1 }
            if !lines.forEachPoint(in: tile, { _ in }) && tile.kind == .record { polygonEdges += 1 }
        }
        XCTAssertEqual(refused, 0)
        XCTAssertGreaterThan(polygonEdges, 0, "a layer of lines has no points")
        XCTAssertTrue(segments.first?.startsRun == true)
        XCTAssertEqual(Set(segments.map(\.featureIndex)), Set(0..<5))
        // Within a run each segment starts where the one before it ends.
        for (previous, segment) in zip(segments, segments.dropFirst()) where !segment.startsRun {
            XCTAssertEqual([segment.startX, segment.startY], [previous.endX, previous.endY])
        }
        var found: [TilePoint] = []
        points.forEachLeafTile { tile in
            XCTAssertTrue(points.forEachPoint(in: tile) { found.append($0) })
            XCTAssertTrue(tile.kind != .record || !points.forEachSegment(in: tile) { _ in })
        }
        XCTAssertEqual(found.count, 5, "each point in exactly one leaf tile")
        let survey = TileSurvey(of: lines)
        XCTAssertEqual(survey.geometry, .lines)
        XCTAssertEqual(survey.unreadableRecords, 0)
        XCTAssertEqual(survey.edgesPerTile.reduce(0, +), segments.count)
        XCTAssertGreaterThan(survey.openRecords?.bytes ?? 0, 0)
    }

    func testAMixedInputBuildsItsPolygonsUnlessAskedOtherwise() throws {
        let mixed = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{"name":"Square"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]]]}},
        {"type":"Feature","properties":{"name":"Road"},"geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}},
        {"type":"Feature","properties":{"name":"Spot"},"geometry":{"type":"Point","coordinates":[0.5,0.5]}}
        ]}
        """
        XCTAssertEqual(try build(mixed).map.geometryKind, .polygons)
        XCTAssertEqual(try build(mixed).report.skippedGeometries, ["LineString": 1, "Point": 1])
        let lines = try build(mixed, choice: .lines)
        XCTAssertEqual(lines.map.geometryKind, .lines)
        XCTAssertEqual(lines.report.skippedGeometries, ["Polygon": 1, "Point": 1])
        XCTAssertEqual(try build(mixed, choice: .points).map.features.map(\.id), ["Spot"])
        XCTAssertThrowsError(try build(Self.lines, choice: .points)) { error in
            XCTAssertEqual("\(error)", "--geometry points: no Point or MultiPoint features to build a map from (it holds 0 polygon, 5 line and 0 point features)")
        }
        let both = Self.lines.replacingOccurrences(of: "\n]}", with: ",\n" + Self.points.split(separator: "\n").dropFirst().joined(separator: "\n"))
        XCTAssertThrowsError(try build(both)) { error in
            XCTAssertTrue("\(error)".contains("5 line and 3 point features and no polygons; choose which to build with --geometry lines or --geometry points"), "\(error)")
        }
    }

    // MARK: - The command line

    func testBuildInfoExportAndVerifyALinesMap() throws {
        let input = try write(Self.lines, "streets.geojson")
        let map = path("streets.gmap")
        let build = try run(["build", input, "-o", map, "--precision", "1e-5", "--keep", "all"])
        XCTAssertEqual(build.status, 0, build.stderr)
        XCTAssertTrue(build.stderr.contains("  lines: features 5, lines 6, vertices 18"), build.stderr)
        XCTAssertTrue(build.stderr.contains("segments per tile: median"), build.stderr)
        let info = try run(["info", map])
        XCTAssertEqual(info.status, 0, info.stderr)
        XCTAssertTrue(info.stdout.contains("format        3.1"), info.stdout)
        XCTAssertTrue(info.stdout.contains("geometry      lines: "), info.stdout)
        XCTAssertTrue(info.stdout.contains("segments/tile p50"), info.stdout)
        XCTAssertFalse(info.stdout.contains("WARNING"), info.stdout)
        let verify = try run(["verify", map])
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
        let exportPath = path("back.geojson")
        let export = try run(["export", map, "-o", exportPath])
        XCTAssertEqual(export.status, 0, export.stderr)
        XCTAssertTrue(export.stderr.contains("features 5, lines 6, vertices 18"), export.stderr)
        // Built again from its export, the map is the same.
        let again = path("again.gmap")
        XCTAssertEqual(try run(["build", exportPath, "-o", again, "--precision", "1e-5", "--keep", "all", "-q"]).status, 0)
        XCTAssertEqual(try run(["export", again, "-o", path("again.geojson"), "-q"]).status, 0)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path("again.geojson"))), try Data(contentsOf: URL(fileURLWithPath: exportPath)))
    }

    func testVerifyFindsACorruptLinesRecord() throws {
        let input = try write(Self.lines, "streets.geojson")
        let map = path("streets.gmap")
        XCTAssertEqual(try run(["build", input, "-o", map, "--tile-size", "20", "-q"]).status, 0)
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: map)))
        let opened = try GMap(bytes: bytes)
        let tiles = try XCTUnwrap(opened.sections.first { $0.tag == "TILE" })
        // One top-level tile of 20°: its record is the first byte of TILE, its slot count.
        XCTAssertEqual(bytes[Int(tiles.offset)], 5)
        bytes[Int(tiles.offset)] = 0
        let broken = path("broken.gmap")
        try Data(bytes).write(to: URL(fileURLWithPath: broken))
        let verify = try run(["verify", broken])
        XCTAssertEqual(verify.status, 1, verify.stdout + verify.stderr)
        XCTAssertTrue(verify.stdout.contains("at byte \(tiles.offset): the record's slot count is missing or outside 1…64"), verify.stdout)
        let info = try run(["info", broken])
        XCTAssertTrue(info.stdout.contains("WARNING       1 tile records could not be read"), info.stdout)
        let export = try run(["export", broken, "-o", path("broken.geojson")])
        XCTAssertEqual(export.status, 2)
        XCTAssertTrue(export.stderr.contains("1 tile records end in damage"), export.stderr)
    }

    func testBuildChoosesTheGeometryAndExplainsTheRest() throws {
        let mixed = try write("""
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{"name":"Square"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]]]}},
        {"type":"Feature","properties":{"name":"Road"},"geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}}
        ]}
        """, "mixed.geojson")
        let polygons = try run(["build", mixed, "-o", path("mixed.gmap")])
        XCTAssertEqual(polygons.status, 0, polygons.stderr)
        XCTAssertTrue(polygons.stderr.contains("skipped (not Polygon/MultiPolygon): 1 LineString\n  build the lines with --geometry lines"), polygons.stderr)
        let lines = try run(["build", mixed, "-o", path("roads.gmap"), "--geometry", "lines"])
        XCTAssertEqual(lines.status, 0, lines.stderr)
        XCTAssertTrue(lines.stderr.contains("skipped (not LineString/MultiLineString): 1 Polygon\n  build the polygons with --geometry polygons"), lines.stderr)
        let none = try run(["build", mixed, "-o", path("x.gmap"), "--geometry", "points"])
        XCTAssertEqual(none.status, 2)
        XCTAssertTrue(none.stderr.contains("\(mixed): --geometry points: no Point or MultiPoint features to build a map from (it holds 1 polygon, 1 line and 0 point features)"), none.stderr)
        let bad = try run(["build", mixed, "-o", path("x.gmap"), "--geometry", "curves"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("--geometry 'curves' must be polygons, lines, points or auto"), bad.stderr)
        // Layers of each kind from their own files.
        let places = try write(Self.points, "places.geojson"), streets = try write(Self.lines, "streets.geojson")
        let layered = try run(["build", "--layer", "area=\(mixed)", "--layer", "roads=\(streets)", "--layer", "places=\(places)", "-o", path("layered.gmap")])
        XCTAssertEqual(layered.status, 0, layered.stderr)
        let map = try GMap(contentsOf: path("layered.gmap"))
        XCTAssertEqual(map.layers.map(\.geometryKind), [.polygons, .lines, .points])
        let info = try run(["info", path("layered.gmap")])
        XCTAssertTrue(info.stdout.contains("  roads: lines, 5 features, "), info.stdout)
        XCTAssertTrue(info.stdout.contains("  places: points, 3 features, 5 points in "), info.stdout)
    }

    func testRenderDrawsStreetsAndPlaces() throws {
        let streets = try write(Self.lines, "streets.geojson"), places = try write(Self.points, "places.geojson")
        let map = path("town.gmap")
        XCTAssertEqual(try run(["build", "--layer", "roads=\(streets)", "--layer", "places=\(places)", "-o", map, "--keep", "all", "-q"]).status, 0)
        let output = path("town.png")
        // 300 × 100 pixels over 0…3° × 0…1°: pixel (x, y) has its centre at longitude x/100 + 0.005, latitude 0.995 − y/100.
        let result = try run(["render", map, "-o", output, "--bbox", "0,0,3,1", "--width", "300"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains(" segments, 5 map points"), result.stderr)
        let picture = try PNGTestDecoder.decode(Array(try Data(contentsOf: URL(fileURLWithPath: output))))
        let style = MapStyle.standard
        // The main road at latitude 0.495 (row 50), 3 pixels wide, in the main-road colour.
        XCTAssertEqual(picture.pixel(40, 50), style.mainLine)
        XCTAssertEqual(picture.pixel(40, 49), style.mainLine)
        XCTAssertEqual(picture.pixel(40, 51), style.mainLine)
        XCTAssertEqual(picture.pixel(40, 53), style.background)
        // The lane at longitude 0.605 (column 60), one pixel wide.
        XCTAssertEqual(picture.pixel(60, 70), style.minorLine)
        XCTAssertEqual(picture.pixel(62, 70), style.background)
        // The town's dot at (0.755, 0.745): column 75, row 25.
        XCTAssertEqual(picture.pixel(75, 25), style.pointInk)
        XCTAssertEqual(picture.pixel(76, 26), style.pointInk)
        // No names without --labels; with it, the town's name beside it, in ink.
        func nameInk(_ image: PNGTestDecoder.Image) -> Int {
            (79..<110).flatMap { x in (18..<30).map { y in image.pixel(x, y) } }.filter { $0 == style.ink }.count
        }
        XCTAssertEqual(picture.pixels.filter { $0 == style.ink }.count, 0, "no names")
        let labelled = try run(["render", map, "-o", path("labelled.png"), "--bbox", "0,0,3,1", "--width", "300", "--labels", "-q"])
        XCTAssertEqual(labelled.status, 0, labelled.stderr)
        let named = try PNGTestDecoder.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path("labelled.png")))))
        XCTAssertGreaterThan(nameInk(named), 10, "the name Town")
        XCTAssertEqual(named.pixel(75, 25), style.pointInk)
        // --layer picks the layers drawn: the places alone have no road.
        let only = try run(["render", map, "-o", path("places.png"), "--bbox", "0,0,3,1", "--width", "300", "--layer", "places", "-q"])
        XCTAssertEqual(only.status, 0, only.stderr)
        let placesOnly = try PNGTestDecoder.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path("places.png")))))
        XCTAssertEqual(placesOnly.pixel(40, 50), style.background)
        XCTAssertEqual(placesOnly.pixel(75, 25), style.pointInk)
    }
}

/// A map's GeoJSON export as one byte array.
enum GeoJSONExportText {
    static func of(_ map: GMap) throws -> [UInt8] {
        var bytes: [UInt8] = []
        _ = try GeoJSONExport().write(map) { bytes += $0 }
        return bytes
    }
}
