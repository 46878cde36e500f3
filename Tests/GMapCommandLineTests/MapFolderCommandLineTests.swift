import Foundation
import XCTest
import GMapTestSupport

/// Region maps as one (issue 38): `--map DIR` and a `$GMAP_MAP` folder give every `.gmap` in the
/// folder, a damaged or foreign file in it is named; `gmap where` and `gmap nearby` take `--map`.
final class MapFolderCommandLineTests: CommandLineTestCase {
    /// Runs the tool with `GMAP_MAP` empty unless the test sets it.
    @discardableResult
    override func run(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws -> Outcome {
        try super.run(arguments, input: input, environment: ["GMAP_MAP": ""].merging(environment) { $1 })
    }

    /// A folder `regions` with two maps of one `state` square each, west and east of 25° E at 60° N.
    private func folder() throws -> String {
        let folder = path("regions")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (name, code, west) in [("a-west", "XX-W", 24.5), ("b-east", "XX-E", 25.0)] {
            let geojson = path("\(name).geojson")
            try """
            {"type":"FeatureCollection","features":[{"type":"Feature","properties":{"iso_3166_2":"\(code)","name":"\(name)"},\
            "geometry":{"type":"Polygon","coordinates":[[[\(west),59.9],[\(west + 0.5),59.9],[\(west + 0.5),60.5],[\(west),60.5],[\(west),59.9]]]}}]}
            """.write(toFile: geojson, atomically: true, encoding: .utf8)
            let built = try run(["build", "--layer", "state=\(geojson):iso_3166_2", "-o", folder + "/\(name).gmap", "-q"])
            XCTAssertEqual(built.status, 0, built.stderr)
        }
        try "not a map".write(toFile: folder + "/notes.txt", atomically: true, encoding: .utf8)
        return folder
    }

    func testAFolderIsEveryMapInItByName() throws {
        let folder = try folder()
        for point in [["60.2", "24.7"], ["60.2", "25.2"]] {
            let listed = try run(["place", "--map", folder + "/a-west.gmap", "--map", folder + "/b-east.gmap"] + point)
            XCTAssertEqual(listed.status, 0, listed.stderr)
            let fromFolder = try run(["place", "--map", folder] + point)
            XCTAssertEqual(fromFolder.stdout, listed.stdout, "--map DIR at \(point)")
            XCTAssertEqual(fromFolder.status, 0)
            let fromEnvironment = try run(["place"] + point, environment: ["GMAP_MAP": folder])
            XCTAssertEqual(fromEnvironment.stdout, listed.stdout, "$GMAP_MAP=DIR at \(point)")
        }
        XCTAssertTrue(try run(["place", "--map", folder, "60.2", "24.7"]).stdout.contains("XX-W"))
        XCTAssertTrue(try run(["place", "--map", folder, "60.2", "25.2"]).stdout.contains("XX-E"))
        // A command that reads one map refuses a folder in $GMAP_MAP, saying so.
        let one = try run(["query", "60.2", "24.7"], environment: ["GMAP_MAP": folder])
        XCTAssertEqual(one.status, 2)
        XCTAssertTrue(one.stderr.contains("$GMAP_MAP names a folder of maps ('\(folder)'), but gmap query reads one map"), one.stderr)
    }

    func testADamagedOrForeignFileInAFolderIsNamed() throws {
        let folder = try folder()
        try Data("{\"type\":\"FeatureCollection\",\"features\":[]}".utf8).write(to: URL(fileURLWithPath: folder + "/c-foreign.gmap"))
        let foreign = try run(["place", "--map", folder, "60.2", "24.7"])
        XCTAssertEqual(foreign.status, 2)
        XCTAssertTrue(foreign.stderr.hasPrefix("gmap: \(folder)/c-foreign.gmap"), foreign.stderr)
        try FileManager.default.removeItem(atPath: folder + "/c-foreign.gmap")
        // A map cut short: its header names more bytes than there are.
        let whole = try Data(contentsOf: URL(fileURLWithPath: folder + "/b-east.gmap"))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: folder + "/b-east.gmap"))
        let damaged = try run(["place", "--map", folder, "60.2", "24.7"])
        XCTAssertEqual(damaged.status, 2)
        XCTAssertTrue(damaged.stderr.hasPrefix("gmap: \(folder)/b-east.gmap: "), damaged.stderr)
        let empty = path("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let none = try run(["place", "--map", empty, "60.2", "24.7"])
        XCTAssertEqual(none.status, 2)
        XCTAssertEqual(none.stderr, "gmap: the folder \(empty) holds no .gmap file\n")
    }

    func testWhereAndNearbyTakeSeveralMaps() throws {
        let folder = try folder()
        let roadless = try run(["where", "--map", folder, "60.2", "24.7"])
        XCTAssertEqual(roadless.status, 2)
        XCTAssertEqual(roadless.stderr, "gmap where: none of \(folder)/a-west.gmap and \(folder)/b-east.gmap has a road layer (build it with --osm)\n")
        let noPlaces = try run(["nearby", "--map", folder, "60.2", "24.7"])
        XCTAssertEqual(noPlaces.status, 2)
        XCTAssertTrue(noPlaces.stderr.contains("none of \(folder)/a-west.gmap and \(folder)/b-east.gmap has a places layer"), noPlaces.stderr)
        let both = try run(["where", "--map", folder, "--replay", "-"], input: "")
        XCTAssertEqual(both.status, 2, "a map and --map")
        // With a location map among them, the answers are that map's.
        let pbf = try TestSupport.osmExtract("Helsinki.osm.pbf")
        let city = folder + "/helsinki.gmap"
        XCTAssertEqual(try run(["build", "--osm", pbf.path, "-o", city, "-q"]).status, 0)
        let point = ["60.1690", "24.9396", "--course", "330"]
        let alone = try run(["where", city] + point), stacked = try run(["where", "--map", folder] + point)
        XCTAssertEqual(alone.status, 0, alone.stderr)
        XCTAssertEqual(stacked.stdout, alone.stdout)
        XCTAssertEqual(try run(["nearby", "--map", folder, "60.1690", "24.9396"]).stdout, try run(["nearby", city, "60.1690", "24.9396"]).stdout)
        let track = "0,60.1690,24.9385,0\n20,60.1700,24.9385,0\n"
        XCTAssertEqual(try run(["where", "--map", folder, "--replay", "-"], input: track).stdout, try run(["where", city, "--replay", "-"], input: track).stdout)
        let twice = try run(["where", city, "--map", folder] + point)
        XCTAssertEqual(twice.status, 2, "MAP and --map")
    }
}
