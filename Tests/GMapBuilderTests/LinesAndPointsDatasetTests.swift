import Foundation
import XCTest
import GMap
import GMapBuilder
import GMapCodecs
import GMapTestSupport

/// The tools on the Helsinki location map (format 3.1; skipped when ../shared/data/osm is absent):
/// its streets export as the lines they were built from, and info, verify, export and render
/// read every layer.
final class LinesAndPointsDatasetTests: XCTestCase {
    /// A directed segment in grid units.
    private struct Segment: Hashable {
        let ax: Int64, ay: Int64, bx: Int64, by: Int64
    }

    func testStreetsExportAsBuiltAndPlacesAtTheirPoints() throws {
        let built = try LocationMapDatasetTests.helsinki()
        let map = try GMap(bytes: built.bytes)
        let roads = try XCTUnwrap(map.layer(named: "roads")), places = try XCTUnwrap(map.layer(named: "places"))
        let q = roads.quantizer
        // The streets as the builder keeps them: quantized, repeated positions dropped, lines of one position left out.
        var expected: [Set<Segment>] = []
        for street in built.network.streets {
            var segments = Set<Segment>()
            for line in street.lines {
                var vertices: [(Int64, Int64)] = []
                for node in line {
                    let vertex = (q.units(node.longitude), q.units(node.latitude))
                    if let last = vertices.last, last == vertex { continue }
                    vertices.append(vertex)
                }
                for (a, b) in zip(vertices, vertices.dropFirst()) { segments.insert(Segment(ax: a.0, ay: a.1, bx: b.0, by: b.1)) }
            }
            if !segments.isEmpty { expected.append(segments) }
        }
        var bytes: [UInt8] = []
        let report = try GeoJSONExport().write(roads) { bytes += $0 }
        XCTAssertEqual(report.problems, [])
        var reader = GeoJSONReader(bytes: bytes)
        var exported: [GeoJSONFeature] = []
        _ = try reader.forEachFeature { exported.append($0) }
        XCTAssertEqual(exported.count, expected.count)
        var mismatches = 0
        for (feature, want) in zip(exported, expected) {
            guard case .lines(let lines) = feature.geometry else { mismatches += 1; continue }
            var got = Set<Segment>()
            for line in lines {
                let vertices = line.map { (q.units($0.longitude), q.units($0.latitude)) }
                for (a, b) in zip(vertices, vertices.dropFirst()) { got.insert(Segment(ax: a.0, ay: a.1, bx: b.0, by: b.1)) }
            }
            if got != want { mismatches += 1 }
        }
        XCTAssertEqual(mismatches, 0, "streets whose exported segments differ from the built ones")
        print("Helsinki roads export: \(report.featureCount) features, \(report.lineCount) lines, \(report.vertexCount) vertices, \(report.byteCount) bytes")

        bytes.removeAll()
        let placeReport = try GeoJSONExport().write(places) { bytes += $0 }
        XCTAssertEqual(placeReport.problems, [])
        XCTAssertEqual(placeReport.pointCount, built.places.places.count)
        var placeReader = GeoJSONReader(bytes: bytes)
        var index = 0
        _ = try placeReader.forEachFeature { feature in
            defer { index += 1 }
            let place = built.places.places[index]
            XCTAssertEqual(feature.geometry, .points([GeoJSONPosition(longitude: q.degrees(q.units(place.longitude)), latitude: q.degrees(q.units(place.latitude)))]))
        }
        XCTAssertEqual(MapVerifier(map: map).problems.map(\.description), [])
    }

    func testTheCommandLineReadsEveryLayer() throws {
        let built = try LocationMapDatasetTests.helsinki()
        try CommandLineTestCase.requireExecutable()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gmap-helsinki-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("helsinki.gmap").path
        try Data(built.bytes).write(to: URL(fileURLWithPath: file))
        let verify = try CommandLineTestCase.runGMap(["verify", file])
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
        let info = try CommandLineTestCase.runGMap(["info", file])
        XCTAssertEqual(info.status, 0, info.stderr)
        for expected in ["  roads: lines, ", "  places: points, ", "  intersections: points, "] {
            XCTAssertTrue(info.stdout.contains(expected), "info lacks \(expected):\n\(info.stdout)")
        }
        XCTAssertFalse(info.stdout.contains("WARNING"), info.stdout)
        let export = try CommandLineTestCase.runGMap(["export", file, "--layer", "intersections", "-o", directory.appendingPathComponent("x.geojson").path])
        XCTAssertEqual(export.status, 0, export.stderr)
        XCTAssertTrue(export.stderr.contains("points \(built.summary.intersections)"), export.stderr)
        let picture = directory.appendingPathComponent("helsinki.png").path
        let render = try CommandLineTestCase.runGMap(["render", file, "-o", picture, "--width", "800"])
        XCTAssertEqual(render.status, 0, render.stderr)
        XCTAssertTrue(render.stderr.contains(" segments, "), render.stderr)
        print("Helsinki render: \(render.stderr)")
    }
}
