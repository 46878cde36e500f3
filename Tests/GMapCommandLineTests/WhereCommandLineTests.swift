import Foundation
import XCTest
import GMap
import GMapBuilder
import GMapCodecs
import GMapRender
import GMapTestSupport

/// `gmap build --osm` and `gmap where` (issue 13, part 6) on small inputs made here: a PBF file of
/// one street (``PBFFixture``), a polygon map without roads, and bad arguments, replay lines and
/// PBF files. Every test runs the built `gmap`.
final class WhereCommandLineTests: CommandLineTestCase {
    /// The fixtures' polygon map: a map without a road layer.
    private func polygonMap() throws -> String {
        let map = path("fixtures.gmap")
        let result = try run(["build", TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson").path, "-o", map, "--id", "id", "-q"])
        XCTAssertEqual(result.status, 0, result.stderr)
        return map
    }

    /// `small.osm.pbf`: Keskuskatu (residential) from 60.1700 N 24.9400 E to 60.1702 N 24.9402 E, a
    /// node named Keskuskatu, and a way node absent from the file (see ``PBFFixture/dataBlock(granularity:latitudeOffset:)``).
    private func smallPBF(compression: PBFFixture.Compression = .zlib) throws -> String {
        let file = path("small.osm.pbf")
        try Data(PBFFixture.file(compression: compression)).write(to: URL(fileURLWithPath: file))
        return file
    }

    /// The location map of ``smallPBF(compression:)``, built by `gmap build --osm`.
    private func smallLocationMap() throws -> String {
        let map = path("small.gmap")
        let result = try run(["build", "--osm", try smallPBF(), "-o", map])
        XCTAssertEqual(result.status, 0, result.stderr)
        return map
    }

    // MARK: build --osm

    /// `--max-nodes`: an extract with more nodes stops the build (exit 2) with a message naming the
    /// limit and how to raise it; at the limit it builds; the option is refused without `--osm`.
    func testTheNodeLimitStopsABuildWithAMessage() throws {
        let map = path("limited.gmap")
        let over = try run(["build", "--osm", try smallPBF(), "-o", map, "--max-nodes", "4"])
        XCTAssertEqual(over.status, 2, over.stderr)
        XCTAssertTrue(over.stderr.contains("more than 4 nodes, the limit of --max-nodes"), over.stderr)
        XCTAssertTrue(over.stderr.contains("raise it with --max-nodes N"), over.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: map))
        let at = try run(["build", "--osm", try smallPBF(), "-o", map, "--max-nodes", "5"])
        XCTAssertEqual(at.status, 0, at.stderr)
        let bad = try run(["build", "--osm", try smallPBF(), "-o", map, "--max-nodes", "0"])
        XCTAssertEqual(bad.status, 2, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("--max-nodes needs a positive whole number"), bad.stderr)
        let polygons = try run(["build", "in.geojson", "-o", map, "--max-nodes", "5"])
        XCTAssertEqual(polygons.status, 2, polygons.stderr)
        XCTAssertTrue(polygons.stderr.contains("--max-nodes only applies with --osm"), polygons.stderr)
    }

    func testBuildSummaryAndMetadata() throws {
        let map = path("small.gmap")
        let result = try run(["build", "--osm", try smallPBF(), "-o", map])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.first?.hasPrefix("wrote \(map): ") ?? false, result.stderr)
        XCTAssertTrue(lines.contains("  read small.osm.pbf: 5 nodes, 1 ways, 1 relations in 2 blobs"), result.stderr)
        XCTAssertTrue(lines.contains { $0.hasPrefix("  roads 1 (from 1 ways), areas ") }, result.stderr)
        XCTAssertTrue(lines.contains("  ways with absent nodes: 1 (1 references), kept in their present pieces"), result.stderr)
        XCTAssertTrue(lines.contains { $0.hasPrefix("  incomplete relations skipped: ") }, result.stderr)
        XCTAssertTrue(lines.contains { $0.hasPrefix("  layer bytes: ") && $0.contains("roads ") }, result.stderr)
        XCTAssertTrue(lines.contains("  © OpenStreetMap contributors, ODbL 1.0"), result.stderr)
        let opened = try GMap(contentsOf: map)
        let metadata = Dictionary(opened.metadata.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        XCTAssertEqual(metadata["source"], "small.osm.pbf")
        XCTAssertEqual(metadata["attribution"], "© OpenStreetMap contributors, ODbL 1.0")
        XCTAssertNoThrow(try MapLocationSource(map: opened), "the map has a road layer")
        // -q: no summary.
        let quiet = try run(["build", "--osm", try smallPBF(), "-o", map, "-q"])
        XCTAssertEqual(quiet.status, 0, quiet.stderr)
        XCTAssertEqual(quiet.stderr, "")
    }

    func testBuildRefusesWhatDoesNotApplyToOSM() throws {
        let pbf = try smallPBF(), map = path("x.gmap")
        let fixed = "does not apply to --osm: a location map's layers, ids and settings are fixed (see 'gmap help build')"
        for (option, value) in [("--id", "name"), ("--keep", "all"), ("--simplify", "10m"), ("--precision", "1e-6"), ("--format", "2.1"),
                                ("--layer", "a=b.geojson"), ("--top", "packed"), ("--tile-size", "0.1"), ("--max-edges", "10")] {
            try assertFails(["build", "--osm", pbf, "-o", map, option, value], stderr: "gmap: \(option) \(fixed)\n")
        }
        try assertFails(["build", "--osm", pbf, "-o", map, "--coast-buffer"], stderr: "gmap: --coast-buffer \(fixed)\n")
        try assertFails(["build", "--osm", pbf, "other.geojson", "-o", map],
                        stderr: "gmap: with --osm, the input is the PBF file; 'other.geojson' is one input too many (gmap build --osm FILE.osm.pbf -o MAP.gmap)\n")
        try assertFails(["build", "--osm", pbf], stderr: "gmap: gmap build needs an output file: -o OUTPUT.gmap\n")
        try assertFails(["build", "--osm", "", "-o", map], stderr: "gmap: --osm needs an OpenStreetMap PBF file: gmap build --osm FILE.osm.pbf -o MAP.gmap\n")
        try assertFails(["build", TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson").path, "-o", map, "--paths"],
                        stderr: "gmap: --paths only applies with --osm FILE.osm.pbf (footways, cycleways, paths and steps as roads)\n")
        // A PBF file given as a GeoJSON input, or as a map.
        try assertFails(["build", pbf, "-o", map],
                        stderr: "gmap: \(pbf) is an OpenStreetMap PBF extract: build a location map of it with gmap build --osm \(pbf) -o \(map)\n")
        try assertFails(["where", pbf, "60.17", "24.94"],
                        stderr: "gmap: \(pbf) is an OpenStreetMap PBF extract, not a gmap map; make a map of it first: gmap build --osm \(pbf) -o \(path("small.gmap"))\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: map))
    }

    func testBadPBFNamesTheFileBlobAndByte() throws {
        let map = path("x.gmap")
        try Data("not a pbf".utf8).write(to: URL(fileURLWithPath: path("bad.osm.pbf")))
        let notPBF = try run(["build", "--osm", path("bad.osm.pbf"), "-o", map])
        XCTAssertEqual(notPBF.status, 2)
        XCTAssertTrue(notPBF.stderr.hasPrefix("gmap: \(path("bad.osm.pbf")): blob 1, byte 0: not an OpenStreetMap PBF file"), notPBF.stderr)
        let lzma = try run(["build", "--osm", try smallPBF(compression: .lzma), "-o", map])
        XCTAssertEqual(lzma.status, 2)
        XCTAssertTrue(lzma.stderr.hasPrefix("gmap: \(path("small.osm.pbf")): blob 1, byte "), lzma.stderr)
        XCTAssertTrue(lzma.stderr.hasSuffix("blob compressed with lzma: not supported; zlib or raw only\n"), lzma.stderr)
        try assertFails(["build", "--osm", path("missing.osm.pbf"), "-o", map], stderr: "gmap: cannot open '\(path("missing.osm.pbf"))': No such file or directory\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: map), "no map is written")
    }

    // MARK: where: arguments

    func testWhereOnAMapWithoutRoads() throws {
        let map = try polygonMap()
        try assertFails(["where", map, "9", "89"], stderr: "gmap where: \(map) has no road layer (build it with --osm)\n")
        try assertFails(["where", map, "--replay", "-"], input: "0,9,89\n", stderr: "gmap where: \(map) has no road layer (build it with --osm)\n")
    }

    func testWhereArgumentErrors() throws {
        let map = try polygonMap()
        let usage = "gmap: usage: gmap where MAP LATITUDE LONGITUDE [--heading DEG | --course DEG] [--language LL] [--json], "
            + "gmap where --map MAP … LATITUDE LONGITUDE, or gmap where MAP --replay FILE|- [--every | --throttled] [--language LL] (see 'gmap help where')\n"
        try assertFails(["where"], stderr: usage)
        try assertFails(["where", map], stderr: usage)
        try assertFails(["where", map, "1", "2", "3"], stderr: usage)
        // Coordinates: as gmap query says, read before the map is opened.
        for (latitude, longitude, message) in [("91", "100", "latitude 91 is outside [-90, 90]"), ("120.5", "36.1", "latitude 120.5 is outside [-90, 90]; latitude comes first: did you mean 36.1 120.5?"),
                                               ("0", "181", "longitude 181 is outside [-180, 180]"), ("nan", "0", "latitude 'nan' is not a number"),
                                               ("0", "abc", "longitude 'abc' is not a number")] {
            try assertFails(["where", map, latitude, longitude], stderr: "gmap: \(message)\n")
            try assertFails(["where", path("missing.gmap"), latitude, longitude], stderr: "gmap: \(message)\n")
            let query = try run(["query", map, latitude, longitude])
            XCTAssertEqual(query.stderr, "gmap: \(message)\n", "gmap query says the same")
        }
        try assertFails(["where", map, "60.17", "24.94", "--heading", "east"],
                        stderr: "gmap: --heading 'east' is not a number of degrees clockwise from north (for example 90 for east; nan for none)\n")
        try assertFails(["where", map, "60.17", "24.94", "--course", "inf"],
                        stderr: "gmap: --course 'inf' is not a number of degrees clockwise from north (for example 90 for east; nan for none)\n")
        try assertFails(["where", map, "60.17", "24.94", "--heading", "1", "--course", "2"],
                        stderr: "gmap: give --heading (where the user faces) or --course (where the user moves), not both\n")
        try assertFails(["where", map, "60.17", "24.94", "--every"], stderr: "gmap: --every only applies with --replay FILE\n")
        try assertFails(["where", map, "60.17", "24.94", "--throttled"], stderr: "gmap: --throttled only applies with --replay FILE\n")
        try assertFails(["where", map, "--replay", "-", "--every", "--throttled"],
                        stderr: "gmap: give --every (a sense for every fix) or --throttled (every 15 s or 10 m), not both\n")
        try assertFails(["where", map, "--replay", "-", "--heading", "90"],
                        stderr: "gmap: --heading applies to one point; with --replay, each line's fourth field is its course and the fifth its compass heading\n")
        try assertFails(["where", map, "1", "2", "--replay", "-"], stderr: "gmap: usage: gmap where MAP --replay FILE|- [--every | --throttled] [--language LL] [--json], or gmap where --map MAP … --replay FILE|- (see 'gmap help where')\n")
        try assertFails(["where", path("missing.gmap"), "60.17", "24.94"], stderr: "gmap: cannot open \(path("missing.gmap")): No such file or directory\n")
        // NaN headings are valid: no direction.
        try assertFails(["where", map, "60.17", "24.94", "--heading", "nan"], stderr: "gmap where: \(map) has no road layer (build it with --osm)\n")
        try assertFails(["where", map, "60.17", "24.94", "--heading", "-NaN"], stderr: "gmap where: \(map) has no road layer (build it with --osm)\n")
    }

    func testHelpAndCommandList() throws {
        let help = try run(["help", "where"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.hasPrefix("gmap where MAP LATITUDE LONGITUDE [--heading DEG | --course DEG] [--language LL] [--json]\n"), help.stdout)
        XCTAssertTrue(help.stdout.contains("--replay FILE"))
        XCTAssertEqual(try run(["where", "--help"]).stdout, help.stdout)
        let overview = try run(["help"]).stdout
        XCTAssertTrue(overview.contains("gmap where MAP LATITUDE LONGITUDE"))
        XCTAssertTrue(overview.contains("gmap build --osm FILE.osm.pbf"))
        let build = try run(["help", "build"]).stdout
        XCTAssertTrue(build.contains("--osm FILE") && build.contains("--paths"))
        XCTAssertTrue(build.contains("© OpenStreetMap contributors, ODbL 1.0"))
        try assertFails(["frob"], stderr: "gmap: unknown command 'frob'; the commands are query, place, where, nearby, find, geocode, build, export, info, verify, render, bench and help (see 'gmap help')\n")
    }

    // MARK: where: answers on the small map

    func testWhereAlongTheSmallStreet() throws {
        let map = try smallLocationMap()
        // On the street, halfway along its first segment; heading 45° runs along it (north-east).
        var result = try run(["where", map, "60.17005", "24.94005", "--heading", "405"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("You are facing northeast along Keskuskatu.\n"), result.stdout)
        result = try run(["where", map, "60.17005,24.94005", "--course", "45"])
        XCTAssertTrue(result.stdout.hasPrefix("You are heading northeast along Keskuskatu.\n"), result.stdout)
        result = try run(["where", map, "60.17005", "24.94005", "--heading", "nan"])
        XCTAssertTrue(result.stdout.hasPrefix("You are along Keskuskatu.\n"), result.stdout)
        result = try run(["where", map, "60.17005", "24.94005", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix(#"{"kind":"along_road","road":{"name":"Keskuskatu","class":"residential","distance_m":"#), result.stdout)
        XCTAssertTrue(result.stdout.hasSuffix("\n") && result.stdout.contains(#""callouts":[{"text":"You are along Keskuskatu.","bearing":"#), result.stdout)
        // Far away: nothing known, exit 1.
        result = try run(["where", map, "0", "0"])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(result.stdout, "Nothing known nearby.\n")
        result = try run(["where", map, "0", "0", "--json"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, #"{"kind":"unknown","road":null,"intersection_ahead":null,"nearest_place":null,"area":null,"callouts":[{"text":"Nothing known nearby.","bearing":null}]}"# + "\n")
    }

    func testReplayThrottlesAndNamesMalformedLines() throws {
        let map = try smallLocationMap()
        // Five fixes 1 s and 3.7 m apart along the street, with a course: nothing changes after
        // the first, so the default (on change) prints only it; --throttled (15 s or 10 m) lets the
        // first through and then the one 11 m on; --every lets all through.
        let track = "# time,lat,lon,course\n0,60.17000,24.94000,45\n\n1,60.17003,24.94003,45\n2,60.17006,24.94006,45\n3,60.17009,24.94009,45\n4,60.17012,24.94012,45\n"
        var result = try run(["where", map, "--replay", "-"], input: track)
        XCTAssertEqual(result.status, 0, result.stderr)
        var lines = result.stdout.split(separator: "\n")
        XCTAssertEqual(lines.map { $0.prefix(2) }, ["0 "], result.stdout)
        XCTAssertTrue(lines.first?.hasPrefix("0 You are heading northeast along Keskuskatu.") ?? false, result.stdout)
        result = try run(["where", map, "--replay", "-", "--throttled"], input: track)
        lines = result.stdout.split(separator: "\n")
        XCTAssertEqual(lines.map { $0.prefix(2) }, ["0 ", "3 "], result.stdout)
        // A fifth field is a compass heading: "facing", and it comes before the course.
        result = try run(["where", map, "--replay", "-"], input: "0,60.17000,24.94000,,45\n")
        XCTAssertTrue(result.stdout.hasPrefix("0 You are facing northeast along Keskuskatu."), result.stdout)
        result = try run(["where", map, "--replay", "-"], input: "0,60.17000,24.94000,225,45\n")
        XCTAssertTrue(result.stdout.hasPrefix("0 You are facing northeast along Keskuskatu."), result.stdout)
        result = try run(["where", map, "--replay", "-", "--every"], input: track)
        lines = result.stdout.split(separator: "\n")
        XCTAssertEqual(lines.map { $0.prefix(2) }, ["0 ", "1 ", "2 ", "3 ", "4 "], result.stdout)
        // From a file, as JSON: one object per line with the time.
        let file = path("track.csv")
        try track.write(toFile: file, atomically: true, encoding: .utf8)
        result = try run(["where", map, "--replay", file, "--json", "--every"])
        XCTAssertEqual(result.status, 0, result.stderr)
        lines = result.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 5)
        XCTAssertTrue(lines.allSatisfy { $0.hasPrefix(#"{"time":"#) && $0.hasSuffix("]}") && $0.contains(#""changes":["#) }, result.stdout)
        XCTAssertTrue(lines[1].hasPrefix(#"{"time":1,"kind":"along_road""#), result.stdout)
        // Malformed lines: named with their numbers, skipped, exit 2 at the end.
        let bad = "0,60.17000,24.94000\n1,60.17002\nabc,60.17004,24.94004\n3,91,24.94006\n4,60.17008,24.94008,north\n5,60.17010,24.94010,nan\n6,60.17010,24.94010,\n"
        result = try run(["where", map, "--replay", "-", "--every"], input: bad)
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stdout.split(separator: "\n").map { $0.prefix(2) }, ["0 ", "5 ", "6 "], result.stdout)
        XCTAssertEqual(result.stderr, """
            gmap: line 2: expected 'time,latitude,longitude[,course[,heading[,accuracy]]]', got 2 fields in '1,60.17002'
            gmap: line 3: time 'abc' is not a number (seconds)
            gmap: line 4: latitude 91 is outside [-90, 90]
            gmap: line 5: course 'north' is not a number of degrees clockwise from north (for example 90 for east; nan for none)
            gmap: 4 of 7 lines could not be read

            """)
        try bad.write(toFile: file, atomically: true, encoding: .utf8)
        result = try run(["where", map, "--replay", file, "--every"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.hasPrefix("gmap: \(file):2: expected 'time,latitude,longitude[,course[,heading[,accuracy]]]'"), result.stderr)
        try assertFails(["where", map, "--replay", path("missing.csv")], stderr: "gmap: cannot open \(path("missing.csv")): No such file or directory\n")
        try assertFails(["where", map, "--replay", temporary.path], stderr: "gmap: cannot read \(temporary.path): it is a directory\n")
    }

    /// Issue 36: the sixth field is the accuracy the phone reports (a fix worse than 20 m changes
    /// nothing; a bad one is named); 10 s without a fix say so, once, or once a second with --every,
    /// and the next fix starts afresh.
    func testReplayAccuracyAndSilence() throws {
        let map = try smallLocationMap()
        let track = "0,60.17000,24.94000,45,,5\n1,60.17003,24.94003,45,,5\n14,60.17012,24.94012,45,,5\n15,60.17015,24.94015,45\n"
        var result = try run(["where", map, "--replay", "-"], input: track)
        XCTAssertEqual(result.status, 0, result.stderr)
        var lines = result.stdout.split(separator: "\n")
        XCTAssertEqual(lines.map { $0.prefix(3) }, ["0 Y", "11 ", "14 "], result.stdout)
        XCTAssertEqual(lines[1], "11 We don't have geolocation information.")
        XCTAssertTrue(lines[2].hasPrefix("14 You are heading northeast along Keskuskatu."), result.stdout)
        result = try run(["where", map, "--replay", "-", "--every"], input: track)
        lines = result.stdout.split(separator: "\n")
        XCTAssertEqual(lines.map { $0.split(separator: " ").first ?? "" }, ["0", "1", "11", "12", "13", "14", "15"], result.stdout)
        result = try run(["where", map, "--replay", "-", "--every", "--json"], input: track)
        XCTAssertTrue(result.stdout.contains(#"{"time":11,"kind":"no_location","road":null"#), result.stdout)
        result = try run(["where", map, "--replay", "-"], input: "0,60.17000,24.94000,45,,x\n")
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr, "gmap: line 1: accuracy 'x' is not a number (metres)\ngmap: 1 of 1 lines could not be read\n")
    }
}
