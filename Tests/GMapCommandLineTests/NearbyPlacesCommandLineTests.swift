import Foundation
import XCTest
import GMap
import GMapBuilder
import GMapTestSupport

/// `gmap nearby` (issue 22, part 7: "around me / ahead of me") on a location map made here: one
/// road and places at known metres from 60 N 25 E. Output lines and JSON, the heading's words,
/// `--ahead`, `--category`, `--limit`, `--within`, bad usage and a map without places. Every test
/// runs the built `gmap`. (`NearbyCommandLineTests` is about `gmap query --nearest`.)
final class NearbyPlacesCommandLineTests: CommandLineTestCase {
    /// Asserts the exit code, the exact standard error and, when given, the exact standard output.
    private func assertRun(_ arguments: [String], status: Int32, stdout: String? = nil, stderr: String = "",
                           file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try run(arguments)
        XCTAssertEqual(result.status, status, "\(arguments): \(result.stderr)", file: file, line: line)
        XCTAssertEqual(result.stderr, stderr, "\(arguments)", file: file, line: line)
        if let stdout { XCTAssertEqual(result.stdout, stdout, "\(arguments)", file: file, line: line) }
    }

    /// A location map: the road Akatu 30 m south of 60 N 25 E and, when `withPlaces`, these places
    /// (metres east and north of it), in this order.
    private func locationMap(withPlaces: Bool = true) throws -> String {
        let places: [(name: String, category: String, east: Double, north: Double)] = [
            ("North café", "amenity=cafe", 0, 50), ("East museum", "tourism=museum", 80, 0), ("South stop", "railway=tram_stop", 0, -120),
            ("West shop", "shop=bakery", -30, 0), ("Far north", "tourism=museum", 0, 300), ("Twin A", "amenity=cafe", 70, 50),
            ("Twin B", "amenity=cafe", 70, 50), ("Town hall", "building=yes", 0, 1_500),
        ]
        var options = BuildOptions()
        options.quantizer = .standard
        let plane = LocalPlane(latitude: 60, longitude: 25)
        func degrees(_ east: Double, _ north: Double) -> (longitude: Double, latitude: Double) {
            (25 + east / plane.metresPerDegreeEast, 60 + north / plane.metresPerDegreeNorth)
        }
        var roads = try LineLayerBuilder(options: options)
        try roads.add(SourceLineFeature(id: "Akatu", properties: [.init(key: "name", value: "Akatu"), .init(key: "class", value: "residential")],
                                        lines: [[degrees(-500, -30), degrees(500, -30)]]))
        var layer = try PointLayerBuilder(options: options)
        for place in places {
            try layer.add(SourcePointFeature(id: place.name, properties: [.init(key: "category", value: place.category)], points: [degrees(place.east, place.north)]))
        }
        var builder = LayeredMapBuilder()
        try builder.addLayer(named: MapLocationSource.LayerName.roads, roads)
        if withPlaces { try builder.addLayer(named: MapLocationSource.LayerName.places, layer) }
        let file = path(withPlaces ? "around.gmap" : "roads-only.gmap")
        try Data(try builder.finish().bytes).write(to: URL(fileURLWithPath: file))
        return file
    }

    func testAroundAndAhead() throws {
        let map = try locationMap()
        // Around: nearest first, equal distances in the map's order, whole metres and the compass sector.
        let around = """
            West shop, bakery: 30 m west
            North café, cafe: 50 m north
            East museum, museum: 80 m east
            Twin A, cafe: 86 m northeast
            Twin B, cafe: 86 m northeast
            South stop, tram stop: 120 m south

            """
        try assertRun(["nearby", map, "60", "25"], status: 0, stdout: around)
        try assertRun(["nearby", map, "60,25"], status: 0, stdout: around)
        try assertRun(["nearby", map, "60°N", "25°E"], status: 0, stdout: around)
        // Facing east: where each lies for the user.
        try assertRun(["nearby", map, "60", "25", "--heading", "90"], status: 0, stdout: """
            West shop, bakery: 30 m west, behind
            North café, cafe: 50 m north, to your left
            East museum, museum: 80 m east, ahead
            Twin A, cafe: 86 m northeast, ahead
            Twin B, cafe: 86 m northeast, ahead
            South stop, tram stop: 120 m south, to your right

            """)
        try assertRun(["nearby", map, "60", "25", "--heading", "-270", "--limit", "1"], status: 0, stdout: "West shop, bakery: 30 m west, behind\n")
        try assertRun(["nearby", map, "60", "25", "--heading", "nan", "--limit", "1"], status: 0, stdout: "West shop, bakery: 30 m west\n")
        // Ahead of me, farther: facing north within 2 km.
        try assertRun(["nearby", map, "60", "25", "--heading", "0", "--ahead", "--within", "2km"], status: 0, stdout: """
            North café, cafe: 50 m north, ahead
            Far north, museum: 300 m north, ahead
            Town hall, building: 1500 m north, ahead

            """)
        try assertRun(["nearby", map, "60", "25", "--heading", "0", "--ahead", "--within", "1000"], status: 0,
                      stdout: "North café, cafe: 50 m north, ahead\nFar north, museum: 300 m north, ahead\n")
        // Categories: key=value, key, value or word, in any case.
        for category in ["museum", "tourism", "TOURISM=museum", "Museum"] {
            try assertRun(["nearby", map, "60", "25", "--category", category, "--within", "500m"], status: 0,
                          stdout: "East museum, museum: 80 m east\nFar north, museum: 300 m north\n")
        }
        for category in ["tram stop", "tram_stop", "railway"] {
            try assertRun(["nearby", map, "60", "25", "--category", category], status: 0, stdout: "South stop, tram stop: 120 m south\n")
        }
        try assertRun(["nearby", map, "60", "25", "--category", "cafe", "--limit", "2"], status: 0,
                      stdout: "North café, cafe: 50 m north\nTwin A, cafe: 86 m northeast\n")
        try assertRun(["nearby", map, "60", "25", "--within", "0.031km"], status: 0, stdout: "West shop, bakery: 30 m west\n")
    }

    func testJSON() throws {
        let map = try locationMap()
        try assertRun(["nearby", map, "60", "25", "--limit", "2", "--json"], status: 0, stdout: """
            [{"name":"West shop","category":"shop=bakery","kind":"bakery","distance_m":30,"bearing":270},\
            {"name":"North café","category":"amenity=cafe","kind":"cafe","distance_m":50,"bearing":0}]

            """)
        try assertRun(["nearby", map, "60", "25", "--limit", "3", "--heading", "90", "--json"], status: 0, stdout: """
            [{"name":"West shop","category":"shop=bakery","kind":"bakery","distance_m":30,"bearing":270,"relative_bearing":180,"direction":"behind"},\
            {"name":"North café","category":"amenity=cafe","kind":"cafe","distance_m":50,"bearing":0,"relative_bearing":-90,"direction":"to your left"},\
            {"name":"East museum","category":"tourism=museum","kind":"museum","distance_m":80,"bearing":90,"relative_bearing":0,"direction":"ahead"}]

            """)
        let twins = try run(["nearby", map, "60", "25", "--category", "cafe", "--heading", "0", "--json"])
        XCTAssertEqual(twins.status, 0, twins.stderr)
        XCTAssertTrue(twins.stdout.contains(#"{"name":"Twin A","category":"amenity=cafe","kind":"cafe","distance_m":86,"bearing":54.4,"relative_bearing":54.4,"direction":"to your right"}"#), twins.stdout)
        // Nothing found: [] and a message, exit 1.
        try assertRun(["nearby", map, "60", "25", "--category", "museum", "--within", "50", "--json"], status: 1, stdout: "[]\n",
                      stderr: "gmap: no place of category 'museum' within 50 m\n")
    }

    func testNothingFound() throws {
        let map = try locationMap()
        try assertRun(["nearby", map, "10", "10"], status: 1, stdout: "", stderr: "gmap: no named place within 200 m\n")
        try assertRun(["nearby", map, "60", "25", "--within", "20"], status: 1, stdout: "", stderr: "gmap: no named place within 20 m\n")
        try assertRun(["nearby", map, "60", "25", "--heading", "180", "--ahead", "--within", "100"], status: 1, stdout: "",
                      stderr: "gmap: no named place within 100 m ahead\n")
        try assertRun(["nearby", map, "60", "25", "--category", "pub"], status: 1, stdout: "", stderr: "gmap: no place of category 'pub' within 200 m\n")
    }

    func testBadUsage() throws {
        let map = try locationMap()
        let usage = "gmap: usage: gmap nearby MAP LATITUDE LONGITUDE [--heading DEG] [--ahead] [--within DIST] [--category C] [--limit N] [--json], or gmap nearby --map MAP … LATITUDE LONGITUDE … (see 'gmap help nearby')\n"
        try assertRun(["nearby"], status: 2, stdout: "", stderr: usage)
        try assertRun(["nearby", map], status: 2, stdout: "", stderr: usage)
        try assertRun(["nearby", map, "60", "25", "1"], status: 2, stdout: "", stderr: usage)
        try assertRun(["nearby", map, "91", "25"], status: 2, stdout: "", stderr: "gmap: latitude 91 is outside [-90, 90]; latitude comes first: did you mean 25 91?\n")
        try assertRun(["nearby", path("missing.gmap"), "60", "abc"], status: 2, stdout: "", stderr: "gmap: longitude 'abc' is not a number\n")
        // --ahead needs a heading (nan is none).
        let ahead = "gmap: --ahead needs --heading DEG (where the user faces): without a heading nothing is ahead\n"
        try assertRun(["nearby", map, "60", "25", "--ahead"], status: 2, stdout: "", stderr: ahead)
        try assertRun(["nearby", map, "60", "25", "--ahead", "--heading", "nan"], status: 2, stdout: "", stderr: ahead)
        try assertRun(["nearby", map, "60", "25", "--heading", "east"], status: 2, stdout: "",
                      stderr: "gmap: --heading 'east' is not a number of degrees clockwise from north (for example 90 for east; nan for none)\n")
        for limit in ["x", "0", "-1", "1.5", ""] {
            try assertRun(["nearby", map, "60", "25", "--limit", limit], status: 2, stdout: "", stderr: "gmap: --limit '\(limit)' is not a whole number ≥ 1\n")
        }
        try assertRun(["nearby", map, "60", "25", "--within", "3km"], status: 2, stdout: "", stderr: "gmap: --within '3km' is more than the largest radius, 2km\n")
        try assertRun(["nearby", map, "60", "25", "--within", "2001"], status: 2, stdout: "", stderr: "gmap: --within '2001' is more than the largest radius, 2km\n")
        try assertRun(["nearby", map, "60", "25", "--within", "far"], status: 2, stdout: "",
                      stderr: "gmap: --within 'far' is not a distance (for example 500m or 10km; a plain number is metres)\n")
        try assertRun(["nearby", map, "60", "25", "--within", "5mi"], status: 2, stdout: "",
                      stderr: "gmap: --within '5mi': unknown unit 'mi'; use m or km (for example 500m or 10km; a plain number is metres)\n")
        try assertRun(["nearby", map, "60", "25", "--within", "-5"], status: 2, stdout: "", stderr: "gmap: --within '-5' must not be negative\n")
        try assertRun(["nearby", map, "60", "25", "--category", ""], status: 2, stdout: "",
                      stderr: "gmap: --category '' is empty: give a category such as museum, cafe or tourism=museum\n")
        try assertRun(["nearby", map, "60", "25", "--course", "90"], status: 2, stdout: "", stderr: "gmap: unknown option '--course'\n")
        try assertRun(["nearby", map, "60", "25", "--ahead=yes"], status: 2, stdout: "", stderr: "gmap: --ahead takes no value\n")
        // Typing mistakes are named before the map is opened; a missing map after.
        try assertRun(["nearby", path("missing.gmap"), "60", "25", "--limit", "0"], status: 2, stdout: "", stderr: "gmap: --limit '0' is not a whole number ≥ 1\n")
        try assertRun(["nearby", path("missing.gmap"), "60", "25"], status: 2, stdout: "", stderr: "gmap: cannot open \(path("missing.gmap")): No such file or directory\n")
    }

    func testMapWithoutPlaces() throws {
        let roadsOnly = try locationMap(withPlaces: false)
        try assertRun(["nearby", roadsOnly, "60", "25"], status: 2, stdout: "",
                      stderr: "gmap: \(roadsOnly) has no places layer (build a location map with gmap build --osm FILE.osm.pbf -o MAP.gmap)\n")
        let polygons = path("fixtures.gmap")
        let built = try run(["build", TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson").path, "-o", polygons, "--id", "id", "-q"])
        XCTAssertEqual(built.status, 0, built.stderr)
        try assertRun(["nearby", polygons, "9", "89"], status: 2, stdout: "",
                      stderr: "gmap: \(polygons) has no places layer (build a location map with gmap build --osm FILE.osm.pbf -o MAP.gmap)\n")
    }

    func testHelp() throws {
        let help = try run(["help", "nearby"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.hasPrefix("gmap nearby MAP LATITUDE LONGITUDE [--heading DEG] [--ahead] [--within DIST] [--category C]\n"), help.stdout)
        for text in ["--heading DEG", "--ahead", "--within DIST", "default 200m", "at most 2km", "--category C", "--limit N", "default 10",
                     "--json", "\"relative_bearing\"", "-45 ≤ d ≤ 45", "45 < d ≤ 135", "-135 ≤ d < -45", "EXAMPLES", "Exit codes"] {
            XCTAssertTrue(help.stdout.contains(text), text)
        }
        XCTAssertEqual(try run(["nearby", "--help"]).stdout, help.stdout)
        XCTAssertEqual(try run(["nearby", "-h"]).stdout, help.stdout)
        let overview = try run(["help"]).stdout
        XCTAssertTrue(overview.contains("gmap nearby MAP LATITUDE LONGITUDE"), overview)
        try assertRun(["frob"], status: 2, stdout: "",
                      stderr: "gmap: unknown command 'frob'; the commands are query, place, where, nearby, find, geocode, build, export, info, verify, render, bench and help (see 'gmap help')\n")
    }
}
