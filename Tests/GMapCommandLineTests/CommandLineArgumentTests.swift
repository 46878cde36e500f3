import Foundation
import XCTest
import GMapTestSupport
import gmap

/// Arguments a person actually types (issue #14, part 2): "LAT,LON" in one argument, bad coordinates
/// without a map, the map after the coordinates, longitude first, degrees-minutes-seconds, unknown
/// help topics, missing output directories, a bad $GMAP_MAP, GeoJSON where a map belongs, and ids
/// that fell back to feature positions. Every test runs the built `gmap`.
final class CommandLineArgumentTests: CommandLineTestCase {
    private var fixtures: String { TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson").path }


    private func fixtureMap() throws -> String {
        let map = path("fixtures.gmap")
        let result = try run(["build", fixtures, "-o", map, "--id", "id", "--keep", "name", "-q"])
        XCTAssertEqual(result.status, 0, result.stderr)
        return map
    }

    // MARK: 1. "LAT,LON" in one argument

    func testOneArgumentHoldsLatitudeAndLongitude() throws {
        let map = try fixtureMap()
        for point in ["9,89", "9, 89", " 9 ,89 ", "9 89"] {
            let result = try run(["query", map, point])
            XCTAssertEqual(result.status, 0, "\(point): \(result.stderr)")
            XCTAssertEqual(result.stdout, "SMALL\n", point)
        }
        XCTAssertEqual(try run(["query", map, "9,89", "--all"]).stdout, "SMALL CROSS BIG\n")
        XCTAssertEqual(try run(["query", "--json", map, "1,1"]).stdout, "{\"id\":\"HOLE\",\"properties\":{\"name\":\"Square with a hole\"}}\n")
        // The map from $GMAP_MAP, and the world map that ships with gmap.
        let fromEnvironment = try run(["query", "9,89"], environment: ["GMAP_MAP": map])
        XCTAssertEqual(fromEnvironment.status, 0, fromEnvironment.stderr)
        XCTAssertEqual(fromEnvironment.stdout, "SMALL\n")
        for point in ["36.14,-5.35", "36.14, -5.35"] {
            let shipped = try run(["query", point], environment: ["GMAP_MAP": ""])
            XCTAssertEqual(shipped.status, 0, shipped.stderr)
            XCTAssertEqual(shipped.stdout, "GI\n")
        }
        // Its parts are checked like two arguments.
        try assertFails(["query", map, "91,0"], stderr: "gmap: latitude 91 is outside [-90, 90]; latitude comes first: did you mean 0 91?\n")
        try assertFails(["query", map, "9,abc"], stderr: "gmap: longitude 'abc' is not a number\n")
        try assertFails(["query", map, "9,89,1"], stderr: "gmap: usage: gmap query [MAP] LATITUDE LONGITUDE, or gmap query [MAP] - to read lines from standard input (see 'gmap help query')\n")
    }

    // MARK: 2. Bad coordinates without a map

    func testBadCoordinatesWithoutAMapAreNamedAsWithOne() throws {
        let map = try fixtureMap()
        let cases: [([String], String)] = [
            (["nan", "0"], "gmap: latitude 'nan' is not a number\n"),
            (["abc", "5"], "gmap: latitude 'abc' is not a number\n"),
            (["1e999", "0"], "gmap: latitude '1e999' is not a number\n"),
            (["5", "abc"], "gmap: longitude 'abc' is not a number\n"),
        ]
        for (coordinates, message) in cases {
            let withMap = try run(["query", map] + coordinates)
            XCTAssertEqual(withMap.status, 2)
            XCTAssertEqual(withMap.stderr, message)
            // Without a map: the shipped one, one from $GMAP_MAP, and even a $GMAP_MAP that is missing.
            for environment in ["", map, path("missing.gmap")] {
                try assertFails(["query"] + coordinates, environment: ["GMAP_MAP": environment], stderr: message)
            }
        }
        // A map without its second coordinate is still a usage error.
        try assertFails(["query", map, "1"], stderr: "gmap: usage: gmap query [MAP] LATITUDE LONGITUDE, or gmap query [MAP] - to read lines from standard input (see 'gmap help query')\n")
    }

    // MARK: 3. The map after the coordinates

    func testMapAfterTheCoordinatesSaysTheMapComesFirst() throws {
        try assertFails(["query", "36.14", "-5.35", "nosuch.gmap"], stderr: "gmap: the map comes first: gmap query nosuch.gmap 36.14 -5.35\n")
        try assertFails(["query", "36.14", "-5.35", "nosuch.gmap", "--json"], stderr: "gmap: the map comes first: gmap query nosuch.gmap 36.14 -5.35 --json\n")
        try assertFails(["query", "36.14, -5.35", "nosuch.gmap"], stderr: "gmap: the map comes first: gmap query nosuch.gmap '36.14, -5.35'\n")
        try assertFails(["query", "-", "nosuch.gmap"], stderr: "gmap: the map comes first: gmap query nosuch.gmap -\n")
        let map = try fixtureMap()
        let result = try run(["query", "9", "89", map])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr, "gmap: the map comes first: gmap query \(map) 9 89\n")
        XCTAssertFalse(result.stderr.contains("cannot open"))
    }

    // MARK: 4. Latitude first; degrees-minutes-seconds

    func testSwappedCoordinatesGetAHint() throws {
        let map = try fixtureMap()
        try assertFails(["query", map, "120.5", "36.1"],
                        stderr: "gmap: latitude 120.5 is outside [-90, 90]; latitude comes first: did you mean 36.1 120.5?\n")
        try assertFails(["query", "120.5", "36.1"], environment: ["GMAP_MAP": ""],
                        stderr: "gmap: latitude 120.5 is outside [-90, 90]; latitude comes first: did you mean 36.1 120.5?\n")
        // No hint when the swapped pair is no point either.
        try assertFails(["query", map, "120", "100"], stderr: "gmap: latitude 120 is outside [-90, 90]\n")
        // A miss whose swap is inside a feature (89, 9 is in no feature; 9, 89 is in SMALL): exit 1 as any miss.
        try assertFails(["query", map, "89", "9"], status: 1, stderr: "gmap: no feature contains (89, 9); latitude comes first: did you mean 9 89?\n")
        try assertFails(["query", map, "89,9", "--all"], status: 1, stderr: "gmap: no feature contains (89, 9); latitude comes first: did you mean 9 89?\n")
        try assertFails(["query", map, "89", "9", "--nearest", "1km"], status: 1,
                        stderr: "gmap: no feature contains (89, 9) or lies within 1000 m of it; latitude comes first: did you mean 9 89?\n")
        // A miss whose swap is a miss too has no hint.
        try assertFails(["query", map, "50", "50"], status: 1, stderr: "gmap: no feature contains (50, 50)\n")
        // No hint when the point as given lies near a feature (here 33 km north of N), even though
        // its swap is inside S: near a coast the order was most likely right.
        let nearCoast = path("near-coast.geojson")
        try Data(#"""
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{"id":"N"},"geometry":{"type":"Polygon","coordinates":[[[20,0],[21,0],[21,1],[20,1],[20,0]]]}},
        {"type":"Feature","properties":{"id":"S"},"geometry":{"type":"Polygon","coordinates":[[[1,20],[2,20],[2,21],[1,21],[1,20]]]}}]}
        """#.utf8).write(to: URL(fileURLWithPath: nearCoast))
        let coastMap = path("near-coast.gmap")
        XCTAssertEqual(try run(["build", nearCoast, "-o", coastMap, "-q"]).status, 0)
        try assertFails(["query", coastMap, "1.3", "20.5"], status: 1, stderr: "gmap: no feature contains (1.3, 20.5)\n")
        try assertFails(["query", coastMap, "1.3", "20.5", "--nearest", "5km"], status: 1,
                        stderr: "gmap: no feature contains (1.3, 20.5) or lies within 5000 m of it\n")
        XCTAssertEqual(try run(["query", coastMap, "20.5", "1.3"]).stdout, "S\n")
        // A map of several layers.
        let layered = path("layered.gmap")
        XCTAssertEqual(try run(["build", "-o", layered, "--layer", "one=\(fixtures):id", "--layer", "two=\(fixtures):name", "-q"]).status, 0)
        try assertFails(["query", layered, "89", "9"], status: 1,
                        stderr: "gmap: no feature of any layer contains (89, 9); latitude comes first: did you mean 9 89?\n")
        // Batch lines get the hint for an out-of-range latitude.
        let batch = try run(["query", map, "-"], input: "120.5 36.1\n")
        XCTAssertEqual(batch.status, 2)
        XCTAssertTrue(batch.stderr.contains("line 1: latitude 120.5 is outside [-90, 90]; latitude comes first: did you mean 36.1 120.5?"), batch.stderr)
    }

    func testDegreesMinutesSecondsAreRead() throws {
        let map = try fixtureMap()
        let inside: [[String]] = [
            ["9°N", "89°E"], ["9°30'N", "89°30'E"], ["9°30′N", "89°30′E"], ["9°0'0\"N", "89°0′0″E"], ["N9°", "E89°"],
            ["9° 30' 15.5\" N", "89° 30' E"], ["9°30'15''N", "89°E"], ["9.5N", "89.5E"], ["9°30'", "89°30'"],
            ["89°E", "9°N"],  // both letters: either order
        ]
        for point in inside {
            let result = try run(["query", map] + point)
            XCTAssertEqual(result.status, 0, "\(point): \(result.stderr)")
            XCTAssertEqual(result.stdout, "SMALL\n", "\(point)")
        }
        for point in ["9°30'N 89°30'E", "9° 30' N, 89° 30' E", "9°30'N,89°30'E"] {
            XCTAssertEqual(try run(["query", map, point]).stdout, "SMALL\n", point)
        }
        // Minutes and seconds count: the hole of HOLE is 3..7 × 3..7; 2°59'59" is just south of it.
        XCTAssertEqual(try run(["query", map, "2°59'59\"N", "5°E"]).stdout, "HOLE\n")
        XCTAssertEqual(try run(["query", map, "3°0'1\"N", "5°E"]).status, 1)
        XCTAssertEqual(try run(["query", map, "-", "--all"], input: "2°59'59\"N 5°E\n").stdout, "HOLE\n")
        // S and W are negative: the split feature FJ reaches 178°E..178°W, 16°S..18°S.
        XCTAssertEqual(try run(["query", map, "17°S", "179°30'W"]).stdout, "FJ\n")
        // The shipped world map.
        XCTAssertEqual(try run(["query", "36°8'N", "5°21'W"], environment: ["GMAP_MAP": ""]).stdout, "GI\n")
        XCTAssertEqual(try run(["query", "36°8′N", "5°21′W"], environment: ["GMAP_MAP": ""]).stdout, "GI\n")

        let bad: [([String], String)] = [
            (["9°61'N", "89"], "gmap: latitude '9°61'N': minutes and seconds must be below 60\n"),
            (["9°N", "89°N"], "gmap: '9°N' and '89°N' are both latitudes (N or S); give a latitude (N or S) and a longitude (E or W)\n"),
            (["89°E", "9"], "gmap: latitude '89°E' is a longitude (E); latitude comes first: did you mean 9 89°E?\n"),
            (["9.5°30'", "89"], "gmap: latitude '9.5°30'' is not decimal degrees (36.1333) or degrees-minutes-seconds (36°8'N, 36°8'24\"N)\n"),
            (["-9°N", "89"], "gmap: latitude '-9°N' has both a sign and a hemisphere letter; give one\n"),
            (["95°N", "89°E"], "gmap: latitude 95°N is outside [-90, 90]\n"),
            (["NaN", "0"], "gmap: latitude 'NaN' is not a number\n"),
        ]
        for (point, message) in bad {
            try assertFails(["query", map] + point, stderr: message)
        }
        // Files of known locations take decimal degrees only, and say so.
        let known = path("known.csv")
        try "9°N,89°E,SMALL\n".write(toFile: known, atomically: true, encoding: .utf8)
        try assertFails(["verify", map, "--known", known],
                        stderr: "gmap: \(known):1: latitude '9°N': degrees-minutes-seconds are not supported here; give decimal degrees like 36.1333 -5.35\n")
    }

    // MARK: 5. gmap help nope

    func testHelpForAnUnknownCommandFails() throws {
        let result = try run(["help", "nope"])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderr, "gmap: unknown command 'nope'; the commands are query, place, where, nearby, find, geocode, build, export, info, verify, render, bench and help (see 'gmap help')\n")
        XCTAssertEqual(try run(["help", "build"]).status, 0)
        XCTAssertEqual(try run(["help", "help"]).status, 0)
        let overview = try run(["help"])
        XCTAssertEqual(overview.status, 0)
        for asking in [["help", "--help"], ["help", "-h"], ["--help", "help"]] {
            let result = try run(asking)
            XCTAssertEqual(result.status, 0, "\(asking): \(result.stderr)")
            XCTAssertEqual(result.stdout, overview.stdout, "\(asking)")
        }
    }

    /// The commands as the tool lists them, read rather than typed again (the literal list above is
    /// the one check of the message's wording): the tool's own `CommandTable.names`, the list the
    /// message and the overview are both built from (``CommandOptionTests`` checks that the overview
    /// lists them, in that order). Each must have a snapshot of its help, so a command added without
    /// one fails here (and HelpSnapshotTests catches a snapshot left behind, and pins the overview).
    func testUnknownCommandMessageListsTheCommandTable() throws {
        let commands = CommandTable.names
        XCTAssertFalse(commands.isEmpty, "the tool's CommandTable lists no command")
        let snapshots = try SnapshotFiles.help.names()
        for command in commands {
            XCTAssertTrue(snapshots.contains(command), "the tool has the command \(command), which has no \(SnapshotFiles.help.relativePath)/\(command).txt")
            let help = try run(["help", command])
            XCTAssertEqual(help.status, 0, "gmap help \(command): \(help.stderr)")
        }
        let message = HelpOverview.unknownCommandMessage("nope", commands: commands)
        try assertFails(["nope"], stderr: message)
        try assertFails(["help", "nope"], stderr: message)
    }

    // MARK: 6. A missing output directory

    func testMissingOutputDirectoryIsNamed() throws {
        let output = path("missing/dir/x.gmap"), directory = path("missing/dir")
        try assertFails(["build", fixtures, "-o", output, "--id", "id"],
                        stderr: "gmap: cannot write \(output): directory \(directory) does not exist\n")
        let notADirectory = path("file")
        try "x".write(toFile: notADirectory, atomically: true, encoding: .utf8)
        try assertFails(["build", fixtures, "-o", notADirectory + "/x.gmap"],
                        stderr: "gmap: cannot write \(notADirectory)/x.gmap: \(notADirectory) is not a directory\n")
        // Checked before the input is read: a missing input is not reached.
        try assertFails(["build", path("absent.geojson"), "-o", output],
                        stderr: "gmap: cannot write \(output): directory \(directory) does not exist\n")
        let map = try fixtureMap()
        try assertFails(["export", map, "-o", path("missing/dir/x.geojson")],
                        stderr: "gmap: cannot write \(path("missing/dir/x.geojson")): directory \(directory) does not exist\n")
        try assertFails(["render", map, "-o", path("missing/dir/x.png"), "--width", "10"],
                        stderr: "gmap: cannot write \(path("missing/dir/x.png")): directory \(directory) does not exist\n")
    }

    // MARK: 7. A bad $GMAP_MAP

    func testBadEnvironmentMapSaysWhereItCameFrom() throws {
        let missing = path("missing.gmap")
        for arguments in [["query", "1", "1"], ["query", "1,1"], ["info"], ["find", "x"], ["render", "-o", path("x.png")], ["bench", "--points", "10"]] {
            try assertFails(arguments, environment: ["GMAP_MAP": missing],
                            stderr: "gmap: cannot open \(missing) (from $GMAP_MAP): No such file or directory\n")
        }
        let notAMap = path("not-a-map.gmap")
        try Data("hello".utf8 + [UInt8](repeating: 0, count: 100)).write(to: URL(fileURLWithPath: notAMap))
        try assertFails(["query", "1", "1"], environment: ["GMAP_MAP": notAMap],
                        stderr: "gmap: \(notAMap) (from $GMAP_MAP): not a gmap file (the first 8 bytes are not the gmap magic)\n")
        // A map given as an argument keeps the plain message.
        try assertFails(["query", missing, "1", "1"], environment: ["GMAP_MAP": notAMap],
                        stderr: "gmap: cannot open \(missing): No such file or directory\n")
    }

    // MARK: 8. GeoJSON where a map belongs

    func testGeoJSONGivenAsAMapSuggestsBuild() throws {
        let geoJSON = path("countries.geojson")
        try FileManager.default.copyItem(atPath: fixtures, toPath: geoJSON)
        let suggestion = "gmap: \(geoJSON) is GeoJSON, not a gmap map; make a map of it first: gmap build \(geoJSON) -o \(path("countries.gmap"))\n"
        for arguments in [["query", geoJSON, "1", "1"], ["query", geoJSON, "-"], ["info", geoJSON], ["verify", geoJSON],
                          ["find", geoJSON, "big"], ["export", geoJSON, "-o", path("out.geojson")], ["render", geoJSON, "-o", path("out.png")], ["bench", geoJSON, "--points", "10"]] {
            try assertFails(arguments, stderr: suggestion)
        }
        // By content: a first non-space byte '{' whatever the name.
        let named = path("data.txt")
        try ("\n  " + (try String(contentsOfFile: fixtures, encoding: .utf8))).write(toFile: named, atomically: true, encoding: .utf8)
        try assertFails(["query", named, "1", "1"],
                        stderr: "gmap: \(named) is GeoJSON, not a gmap map; make a map of it first: gmap build \(named) -o \(path("data.gmap"))\n")
        try assertFails(["query", "1", "1"], environment: ["GMAP_MAP": geoJSON],
                        stderr: "gmap: \(geoJSON) (from $GMAP_MAP) is GeoJSON, not a gmap map; make a map of it first: gmap build \(geoJSON) -o \(path("countries.gmap"))\n")
        // The suggested command works.
        XCTAssertEqual(try run(["build", geoJSON, "-o", path("countries.gmap"), "-q"]).status, 0)
        XCTAssertEqual(try run(["query", path("countries.gmap"), "9", "89"]).stdout, "SMALL\n")
    }

    // MARK: 9. Ids that are feature positions

    /// The fixtures with their properties renamed so that no automatic id property is left.
    private func unnamedInput() throws -> String {
        var text = try String(contentsOfFile: fixtures, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"id\":", with: "\"CODE\":").replacingOccurrences(of: "\"name\":", with: "\"LABEL\":")
        let input = path("unnamed.geojson")
        try text.write(toFile: input, atomically: true, encoding: .utf8)
        return input
    }

    func testBuildWarnsWhenIdsAreFeaturePositions() throws {
        let input = try unnamedInput()
        let output = path("unnamed.gmap")
        let warning = "gmap: warning: \(input): no feature has an id property (id, tzid, iso_3166_2, iso_a2, ISO_A2, name) or a GeoJSON \"id\", "
            + "so the ids are the features' positions (0, 1, 2, …); their properties are CODE, LABEL; choose one with --id PROPERTY\n"
        let quiet = try run(["build", input, "-o", output, "-q"])
        XCTAssertEqual(quiet.status, 0, quiet.stderr)
        XCTAssertEqual(quiet.stderr, warning)
        let loud = try run(["build", input, "-o", output])
        XCTAssertEqual(loud.status, 0)
        XCTAssertTrue(loud.stderr.hasPrefix(warning), loud.stderr)
        XCTAssertEqual(try run(["query", output, "9", "89"]).stdout, "10\n", "the warning does not change the map")
        // No warning once an id is chosen, or when the automatic choice finds one.
        XCTAssertEqual(try run(["build", input, "-o", output, "-q", "--id", "CODE"]).stderr, "")
        XCTAssertEqual(try run(["build", fixtures, "-o", output, "-q"]).stderr, "")
        // A layer of several: the hint names the layer's own id syntax.
        let layered = try run(["build", "-o", output, "--layer", "a=\(input)", "--layer", "b=\(input):CODE", "-q"])
        XCTAssertEqual(layered.status, 0)
        XCTAssertEqual(layered.stderr, "gmap: warning: layer a (\(input)): no feature has an id property (id, tzid, iso_3166_2, iso_a2, ISO_A2, name) or a GeoJSON \"id\", "
            + "so the ids are the features' positions (0, 1, 2, …); their properties are CODE, LABEL; choose one with --layer a=\(input):PROPERTY\n")
        // Whole-number ids that come from a property or from the Feature's "id" member are not positions.
        func square(_ index: Int, _ member: String, _ properties: String) -> String {
            "{\"type\":\"Feature\",\(member)\"properties\":{\(properties)},\"geometry\":{\"type\":\"Polygon\","
                + "\"coordinates\":[[[\(index),0],[\(index + 1),0],[\(index + 1),1],[\(index),0]]]}}"
        }
        for (name, features) in [("property", [square(0, "", "\"id\":0,\"X\":1"), square(1, "", "\"id\":1,\"X\":1")]),
                                 ("member", [square(0, "\"id\":0,", "\"X\":1"), square(1, "\"id\":1,", "\"X\":1")]),
                                 ("none", [square(0, "", "\"X\":1"), square(1, "", "\"X\":1")])] {
            let numbered = path("\(name).geojson")
            try "{\"type\":\"FeatureCollection\",\"features\":[\(features.joined(separator: ","))]}".write(toFile: numbered, atomically: true, encoding: .utf8)
            let result = try run(["build", numbered, "-o", output, "-q"])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(result.stderr.contains("the features' positions"), name == "none", "\(name): \(result.stderr)")
        }
    }

    func testMissingIdPropertyListsTheProperties() throws {
        let input = try unnamedInput()
        try assertFails(["build", input, "-o", path("x.gmap"), "--id", "iso_a2"],
                        stderr: "gmap: \(input): feature 0 has no property \"iso_a2\" for its id (choose another with --id); feature 0 has the properties CODE, LABEL\n")
        // Many properties: sorted, at most 12, then how many more.
        var properties = (1...15).map { "\"P\(String(format: "%02d", $0))\": \($0)" }
        properties.append("\"alpha\": 0")
        let many = path("many.geojson")
        try """
        {"type":"FeatureCollection","features":[{"type":"Feature","properties":{\(properties.joined(separator: ","))},
        "geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}}]}
        """.write(toFile: many, atomically: true, encoding: .utf8)
        try assertFails(["build", many, "-o", path("x.gmap"), "--id", "name"],
                        stderr: "gmap: \(many): feature 0 has no property \"name\" for its id (choose another with --id); feature 0 has the properties "
                            + "alpha, P01, P02, P03, P04, P05, P06, P07, P08, P09, P10, P11 and 4 more\n")
    }

    /// `--version` names the formats the tool writes (3.0 to 3.2, 2.x on request) and reads.
    func testVersionNamesTheFormatsWrittenAndRead() throws {
        let result = try run(["--version"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "gmap 1.1.0 (writes format 3.0–3.6 (2.0 and 2.1 with --format); reads 1.x to 3.x)\n")
    }
}
