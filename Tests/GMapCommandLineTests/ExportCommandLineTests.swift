import Foundation
import XCTest
import GMap
import GMapTestSupport

/// `gmap export` as users run it.
final class ExportCommandLineTests: CommandLineTestCase {
    func testExportBuildExportGivesTheSameFile() throws {
        let map = temporary.appendingPathComponent("fixtures.gmap").path
        let fixtures = TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson").path
        XCTAssertEqual(try run(["build", fixtures, "-o", map, "--id", "id", "-q"]).status, 0)
        let out = temporary.appendingPathComponent("out.geojson").path
        let exported = try run(["export", map, "-o", out])
        XCTAssertEqual(exported.status, 0, exported.stderr)
        XCTAssertTrue(exported.stderr.contains("features 12, polygons 14, rings 16"), exported.stderr)
        XCTAssertTrue(exported.stderr.contains("gmap build \(out) -o MAP.gmap --keep all --precision 1e-7"), exported.stderr)
        let again = temporary.appendingPathComponent("again.gmap").path
        XCTAssertEqual(try run(["build", out, "-o", again, "--keep", "all", "--precision", "1e-7", "-q"]).status, 0)
        let standardOutput = try run(["export", again, "-o", "-", "-q"])
        XCTAssertEqual(standardOutput.status, 0, standardOutput.stderr)
        XCTAssertEqual(standardOutput.stderr, "")
        XCTAssertEqual(standardOutput.stdout, try String(contentsOfFile: out, encoding: .utf8))
        XCTAssertEqual(try run(["query", again, "1", "1"]).stdout, "HOLE\n")
        XCTAssertEqual(try run(["query", again, "9", "89", "--all"]).stdout, "SMALL CROSS BIG\n")
        XCTAssertTrue(try run(["help", "export"]).stdout.contains("gmap export MAP -o OUT.geojson"))
    }

    func testLayersAndErrors() throws {
        let map = temporary.appendingPathComponent("layers.gmap").path
        let fixtures = TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson").path
        let square = temporary.appendingPathComponent("square.geojson").path
        try #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"id":"SQ"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}}]}"#
            .write(toFile: square, atomically: true, encoding: .utf8)
        let built = try run(["build", "-o", map, "--layer", "fixtures=\(fixtures):id", "--layer", "square=\(square)", "-q"])
        XCTAssertEqual(built.status, 0, built.stderr)
        let second = try run(["export", map, "-o", "-", "--layer", "square"])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(second.stdout.contains("\"id\":\"SQ\""))
        XCTAssertEqual(second.stdout.split(separator: "\n").count, 3)
        XCTAssertTrue(second.stderr.contains("layer square (2 of 2"), second.stderr)
        let missing = try run(["export", map, "-o", "-", "--layer", "nope"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("has no layer 'nope'; its layers are 'fixtures', 'square'"), missing.stderr)
        XCTAssertEqual(try run(["export", map]).status, 2, "an output is required")

        // A damaged map: exit 2 naming the section, and an existing output is left as it was.
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: map)))
        let tiles = try XCTUnwrap(try GMap(bytes: bytes).sections.first { $0.tag == "TILE" })
        bytes[Int(tiles.offset) + 3] ^= 0xFF
        let damaged = temporary.appendingPathComponent("damaged.gmap").path
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))
        let out = temporary.appendingPathComponent("kept.geojson").path
        try "old".write(toFile: out, atomically: true, encoding: .utf8)
        let failed = try run(["export", damaged, "-o", out])
        XCTAssertEqual(failed.status, 2)
        XCTAssertTrue(failed.stderr.contains("section TILE"), failed.stderr)
        XCTAssertEqual(try String(contentsOfFile: out, encoding: .utf8), "old")
        let forced = try run(["export", damaged, "-o", out, "--force"])
        XCTAssertEqual(forced.status, 0, forced.stderr)
        XCTAssertTrue(forced.stderr.contains("warning: damaged map"), forced.stderr)
    }
}
