import Foundation
import XCTest
import GMapTestSupport

/// `gmap build` with each input format, as users run it.
extension CommandLineTests {
    private func scratchDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("gmap-cli-input-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    func testBuildReadsGzipNDJSONAndStandardInput() throws {
        let scratch = try scratchDirectory()
        let gzipped = TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson.gz").path
        let fromGzip = scratch.appendingPathComponent("gz.gmap").path
        let result = try run(["build", gzipped, "-o", fromGzip, "--id", "id"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try run(["query", fromGzip, "9", "89"]).stdout, "SMALL\n")

        let ndjson = scratch.appendingPathComponent("fixtures.ndjson")
        try Data((try InputFixtures.fixtureFeatureLines().joined(separator: "\n") + "\n").utf8).write(to: ndjson)
        let fromLines = scratch.appendingPathComponent("lines.gmap").path
        XCTAssertEqual(try run(["build", ndjson.path, "-o", fromLines, "--id", "id", "-q"]).status, 0)
        XCTAssertEqual(try run(["query", fromLines, "9", "89", "--all"]).stdout, "SMALL CROSS BIG\n")

        let fromStandardInput = scratch.appendingPathComponent("stdin.gmap").path
        let piped = try run(["build", "-", "-o", fromStandardInput, "--id", "id", "-q"], input: try String(contentsOf: ndjson, encoding: .utf8))
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertEqual(try run(["query", fromStandardInput, "1", "1"]).stdout, "HOLE\n")
    }

    func testBuildReadsAZippedShapefile() throws {
        typealias F = InputFixtures
        let scratch = try scratchDirectory()
        let shp = F.shp([F.Shape(rings: [F.square(0, 0, 4, 4, clockwise: true), F.square(1, 1, 2, 2, clockwise: false)]), F.Shape(rings: nil)])
        let columns = [F.Column(name: "ISO_A2", type: "C", width: 2), F.Column(name: "NAME", type: "C", width: 20), F.Column(name: "POP", type: "N", width: 8)]
        let dbf = F.dbf(columns, rows: [[F.text("AQ"), F.text("Squareland"), F.text("    12")], [F.text("ZZ"), F.text("Nowhere"), []]])
        let archive = scratch.appendingPathComponent("places.zip")
        try Data(F.zip([.init(name: "places/places.shp", data: shp, method: 8), .init(name: "places/places.dbf", data: dbf, method: 8),
                        .init(name: "places/places.prj", data: F.text("GEOGCS[\"GCS_WGS_1984\"]"))])).write(to: archive)
        let map = scratch.appendingPathComponent("places.gmap").path
        let result = try run(["build", archive.path, "-o", map, "--keep", "NAME,POP"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("skipped (not Polygon/MultiPolygon): 1 null"), result.stderr)
        XCTAssertEqual(try run(["query", map, "3", "3", "--json"]).stdout, "{\"id\":\"AQ\",\"properties\":{\"NAME\":\"Squareland\",\"POP\":12}}\n")
        XCTAssertEqual(try run(["query", map, "1.5", "1.5"]).status, 1, "inside the hole")

        let broken = scratch.appendingPathComponent("broken.zip")
        let badDBF = F.dbf(columns, rows: [[F.text("AQ"), F.text("Squareland"), F.text("1x")], [F.text("ZZ"), [], []]])
        try Data(F.zip([.init(name: "b.shp", data: shp), .init(name: "b.dbf", data: badDBF)])).write(to: broken)
        let failure = try run(["build", broken.path, "-o", map])
        XCTAssertEqual(failure.status, 2)
        XCTAssertTrue(failure.stderr.contains("broken.zip/b.dbf: record 1, field POP, byte "), failure.stderr)
        XCTAssertTrue(failure.stderr.contains("'1x' is not a valid number value"), failure.stderr)

        let projected = scratch.appendingPathComponent("projected.zip")
        try Data(F.zip([.init(name: "p.shp", data: shp), .init(name: "p.dbf", data: dbf),
                        .init(name: "p.prj", data: F.text("PROJCS[\"WGS_1984_UTM_Zone_33N\",GEOGCS[\"GCS_WGS_1984\"]]"))])).write(to: projected)
        let notGeographic = try run(["build", projected.path, "-o", map])
        XCTAssertEqual(notGeographic.status, 2)
        XCTAssertTrue(notGeographic.stderr.contains("projected.zip/p.prj: the coordinates are projected (PROJCS \"WGS_1984_UTM_Zone_33N\")"), notGeographic.stderr)
    }

    func testBuildReportsDamagedGzipAndHelpListsTheFormats() throws {
        let scratch = try scratchDirectory()
        var bytes = Array(try Data(contentsOf: TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson.gz")))
        bytes.removeLast(4)
        let truncated = scratch.appendingPathComponent("truncated.geojson.gz")
        try Data(bytes).write(to: truncated)
        let result = try run(["build", truncated.path, "-o", scratch.appendingPathComponent("t.gmap").path])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("truncated.geojson.gz: "), result.stderr)
        XCTAssertTrue(result.stderr.contains("gzip member 1"), result.stderr)
        let help = try run(["build", "--help"]).stdout
        for format in [".geojson.gz", ".ndjson", ".shp", ".zip", "RFC 8142"] {
            XCTAssertTrue(help.contains(format), "build --help mentions \(format)")
        }
    }
}
