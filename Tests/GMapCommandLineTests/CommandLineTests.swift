import Foundation
import XCTest
import GMap
import GMapTestSupport

/// Runs the `gmap` executable the way users do and checks its output and exit codes.
final class CommandLineTests: CommandLineTestCase {
    private func fixtureMap() throws -> String {
        let path = temporary.appendingPathComponent("fixtures.gmap").path
        let result = try run(["build", TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson").path, "-o", path, "--id", "id", "--keep", "name", "-q"])
        XCTAssertEqual(result.status, 0, result.stderr)
        return path
    }

    func testDefaultMapAnswersGibraltar() throws {
        let result = try run(["query", "36.14", "-5.35"], environment: ["GMAP_MAP": ""])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "GI\n")
        for point in try TestSupport.knownLocations(TestSupport.fixtures.appendingPathComponent("known-countries.csv")) {
            let answer = try run(["query", String(point.latitude), String(point.longitude)], environment: ["GMAP_MAP": ""])
            XCTAssertEqual(answer.stdout.isEmpty ? nil : String(answer.stdout.dropLast()), point.expected, "(\(point.latitude), \(point.longitude))")
        }
    }

    func testQueryOutputs() throws {
        let map = try fixtureMap()
        XCTAssertEqual(try run(["query", map, "9", "89"]).stdout, "SMALL\n")
        XCTAssertEqual(try run(["query", map, "9", "89", "--all"]).stdout, "SMALL CROSS BIG\n")
        XCTAssertEqual(try run(["query", map, "1", "1", "--json"]).stdout, "{\"id\":\"HOLE\",\"properties\":{\"name\":\"Square with a hole\"}}\n")
        XCTAssertEqual(try run(["query", map, "10", "95", "--json", "--all"]).stdout,
                       "[{\"id\":\"CROSS\",\"properties\":{\"name\":\"Crossing Big\"}},{\"id\":\"BIG\",\"properties\":{\"name\":\"Big\"}}]\n")
        let none = try run(["query", map, "50", "50"])
        XCTAssertEqual(none.status, 1)
        XCTAssertEqual(none.stdout, "")
        XCTAssertTrue(none.stderr.contains("no feature contains (50, 50)"), none.stderr)
    }

    func testBatchQueries() throws {
        let map = try fixtureMap()
        let result = try run(["query", map, "-"], input: "9 89\n9,89\n50, 50\n\n1\t1\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "SMALL\nSMALL\n\n\nHOLE\n")
        let bad = try run(["query", map, "-"], input: "9 89\nninety 0\n91 0\n1 1")
        XCTAssertEqual(bad.status, 2)
        XCTAssertEqual(bad.stdout, "SMALL\n\n\nHOLE\n")
        XCTAssertTrue(bad.stderr.contains("line 2: latitude 'ninety' is not a number"), bad.stderr)
        XCTAssertTrue(bad.stderr.contains("line 3: latitude 91 is outside [-90, 90]"), bad.stderr)
    }

    func testBenchMeasuresEveryPointSet() throws {
        let map = try fixtureMap()
        let result = try run(["bench", map, "--points", "3000", "--runs", "2", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let sets = try XCTUnwrap(report["sets"] as? [[String: Any]])
        XCTAssertEqual(sets.map { $0["name"] as? String }, ["uniform", "on land", "near border"])
        for set in sets {
            XCTAssertEqual(set["points"] as? Int, 3000)
            XCTAssertGreaterThan(try XCTUnwrap(set["ns_median"] as? Double), 0)
        }
        XCTAssertEqual(sets[1]["found"] as? Int, 3000, "every on-land point is inside a feature")
        // The fixtures' boundaries cover a few percent of the sphere; near-border points find both sides.
        let nearFound = try XCTUnwrap(sets[2]["found"] as? Int)
        XCTAssertTrue(nearFound > 0 && nearFound < 3000, "near-border points fall on both sides: \(nearFound) found")
        XCTAssertEqual((report["threads"] as? [[String: Any]])?.first?["threads"] as? Int, 1)
        XCTAssertNil(report["where"], "a map of polygons alone has no where measurement")
        XCTAssertNil(report["build"], "nothing was built")

        let points = temporary.appendingPathComponent("points.csv"), answers = temporary.appendingPathComponent("answers.txt")
        try "9,89\n# comment\n\n1 1\n50,50\n".write(to: points, atomically: true, encoding: .utf8)
        let file = try run(["bench", map, "--points-file", points.path, "--answers", answers.path, "--runs", "1"])
        XCTAssertEqual(file.status, 0, file.stderr)
        XCTAssertEqual(try String(contentsOf: answers, encoding: .utf8), "SMALL\nHOLE\n\n")
        try "9,89\nnot a point\n".write(to: points, atomically: true, encoding: .utf8)
        let bad = try run(["bench", map, "--points-file", points.path])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("points.csv:2:"), bad.stderr)
    }

    func testBadInputExitsTwoWithAMessage() throws {
        let map = try fixtureMap()
        let notAMap = temporary.appendingPathComponent("not-a-map.gmap")
        try Data("hello".utf8 + [UInt8](repeating: 0, count: 100)).write(to: notAMap)
        let truncated = temporary.appendingPathComponent("truncated.gmap")
        try Data(try Data(contentsOf: URL(fileURLWithPath: map)).prefix(1000)).write(to: truncated)
        let cases: [([String], String)] = [
            (["query", map, "91", "0"], "latitude 91 is outside [-90, 90]"),
            (["query", map, "0", "-180.5"], "longitude -180.5 is outside [-180, 180]"),
            (["query", map, "nan", "0"], "latitude 'nan' is not a number"),
            (["query", map, "0", "abc"], "longitude 'abc' is not a number"),
            (["query", map, "0x10", "0"], "latitude '0x10' is not a number"),
            (["query", temporary.appendingPathComponent("missing.gmap").path, "0", "0"], "No such file or directory"),
            (["query", notAMap.path, "0", "0"], "not a gmap file"),
            (["query", truncated.path, "0", "0"], "truncated gmap file"),
            (["query", map, "1"], "usage: gmap query"),
            (["query", map, "1", "2", "--bogus"], "unknown option '--bogus'"),
            (["frobnicate"], "unknown command 'frobnicate'"),
            (["build", "in.geojson"], "needs an output file"),
            (["build", "in.geojson", "-o", "x.gmap", "--precision", "3e-7"], "--precision must be 1/N degrees"),
        ]
        for (arguments, message) in cases {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        var newer = try Data(contentsOf: URL(fileURLWithPath: map))
        newer[FormatLayout.Header.majorVersion] = 7
        let newerPath = temporary.appendingPathComponent("newer.gmap")
        try newer.write(to: newerPath)
        let result = try run(["query", newerPath.path, "0", "0"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("format version 7.\(FormatLayout.minorVersionWithRunBands) is newer than this reader"), result.stderr)
    }

    func testBrokenGeoJSONNamesTheFeatureAndLeavesTheOldMap() throws {
        let map = try fixtureMap()
        let before = try Data(contentsOf: URL(fileURLWithPath: map))
        let broken = temporary.appendingPathComponent("broken.geojson")
        try Data("""
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{"id":"OK"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}},
        {"type":"Feature","properties":{"id":"BAD"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[200,1],[0,0]]]}}
        ]}
        """.utf8).write(to: broken)
        let result = try run(["build", broken.path, "-o", map, "--id", "id"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("feature 1"), result.stderr)
        XCTAssertTrue(result.stderr.contains("200"), result.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: map)), before, "a failed build leaves the old map untouched")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: temporary.path).filter { $0.contains(".tmp-") }
        XCTAssertEqual(leftovers, [])
        let missingID = try run(["build", broken.path, "-o", map, "--id", "iso_a2"])
        XCTAssertEqual(missingID.status, 2)
        XCTAssertTrue(missingID.stderr.contains("feature 0 has no property \"iso_a2\""), missingID.stderr)
    }

    func testBuildReportsSkippedGeometriesAndInfoDescribesTheMap() throws {
        let input = temporary.appendingPathComponent("mixed.geojson")
        try Data("""
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{"name":"Square"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]]]}},
        {"type":"Feature","properties":{"name":"Spot"},"geometry":{"type":"Point","coordinates":[0.5,0.5]}},
        {"type":"Feature","properties":{"name":"Road"},"geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}}
        ]}
        """.utf8).write(to: input)
        let output = temporary.appendingPathComponent("mixed.gmap").path
        let build = try run(["build", input.path, "-o", output])
        XCTAssertEqual(build.status, 0, build.stderr)
        XCTAssertTrue(build.stderr.contains("skipped (not Polygon/MultiPolygon): 1 LineString, 1 Point"), build.stderr)
        XCTAssertEqual(try run(["query", output, "0.5", "0.5"]).stdout, "Square\n")
        let info = try run(["info", output])
        XCTAssertEqual(info.status, 0)
        for expected in ["format        3.5", "features      1", "GRID", "TILE", "FEAT", "edges/tile    p50", "source: mixed.geojson"] {
            XCTAssertTrue(info.stdout.contains(expected), "info lacks \(expected):\n\(info.stdout)")
        }
    }

    func testSimplifyReportsItsErrorAndRefusesBadDistances() throws {
        let input = TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson").path
        let output = temporary.appendingPathComponent("simple.gmap").path
        let build = try run(["build", input, "-o", output, "--simplify", "20km", "--coast-buffer"])
        XCTAssertEqual(build.status, 0, build.stderr)
        XCTAssertTrue(build.stderr.contains("maximum position error: quantization 0.8 cm, simplification "), build.stderr)
        XCTAssertTrue(build.stderr.contains("simplified: 20.00 km requested, maximum error measured "), build.stderr)
        XCTAssertTrue(build.stderr.contains("moved outward only"), build.stderr)
        let info = try run(["info", output])
        XCTAssertTrue(info.stdout.contains("simplified    20.00 km requested"), info.stdout)
        XCTAssertEqual(try run(["verify", output]).status, 0)
        for (arguments, message) in [(["--simplify", "fast"], "--simplify 'fast' must be a distance"),
                                     (["--simplify", "0m"], "must be a distance above 0"),
                                     (["--coast-buffer"], "--coast-buffer only applies with --simplify")] {
            let outcome = try run(["build", input, "-o", output] + arguments)
            XCTAssertEqual(outcome.status, 2)
            XCTAssertTrue(outcome.stderr.contains(message), outcome.stderr)
        }
    }

    func testVerifyTellsSoundFromDamaged() throws {
        let map = try fixtureMap()
        let sound = try run(["verify", map, "--known", TestSupport.fixtures.appendingPathComponent("known-fixtures.csv").path])
        XCTAssertEqual(sound.status, 0, sound.stdout + sound.stderr)
        XCTAssertTrue(sound.stdout.contains(": sound ("), sound.stdout)
        XCTAssertTrue(sound.stdout.contains("known locations answer as expected"), sound.stdout)

        let wrong = temporary.appendingPathComponent("wrong.csv")
        try Data("# two wrong expectations\n9,89,BIG\n50,50,HOLE\n1,1,HOLE\n".utf8).write(to: wrong)
        let failing = try run(["verify", map, "--known", wrong.path])
        XCTAssertEqual(failing.status, 1)
        XCTAssertTrue(failing.stdout.contains("line 2: (9, 89) expected BIG, got SMALL"), failing.stdout)
        XCTAssertTrue(failing.stdout.contains("line 3: (50, 50) expected HOLE, got -"), failing.stdout)
        XCTAssertTrue(failing.stdout.contains("1 of 3 known locations"), failing.stdout)

        // Damage one byte of each section in turn: every copy is reported, with the section named.
        let original = try Data(contentsOf: URL(fileURLWithPath: map))
        let opened = try GMap(contentsOf: map)
        for section in opened.sections where section.length > 0 {
            var damaged = original
            damaged[Int(section.offset + section.length / 2)] ^= 0x5A
            let path = temporary.appendingPathComponent("damaged-\(section.tag).gmap")
            try damaged.write(to: path)
            let result = try run(["verify", path.path])
            XCTAssertEqual(result.status, 1, "\(section.tag): \(result.stdout)")
            XCTAssertTrue(result.stdout.contains("NOT SOUND"), result.stdout)
            XCTAssertTrue(result.stdout.contains("section \(section.tag)"), "\(section.tag): \(result.stdout)")
        }
        var header = original
        header[FormatLayout.Header.minorVersion] = 7 // a later minor version still opens; the CRC covers it
        header[40] ^= 1 // a reserved header byte outside the CRC's coverage does not matter; the table does
        header[FormatLayout.headerLength + FormatLayout.SectionEntry.crc] ^= 1
        let headerPath = temporary.appendingPathComponent("header.gmap")
        try header.write(to: headerPath)
        let headerResult = try run(["verify", headerPath.path])
        XCTAssertEqual(headerResult.status, 1)
        XCTAssertTrue(headerResult.stdout.contains("header at byte 36"), headerResult.stdout)
        XCTAssertEqual(try run(["verify", temporary.appendingPathComponent("absent.gmap").path]).status, 2)
        // --limit takes a whole number above 0; anything else is refused, naming the value.
        for bad in ["0", "-3", "many", "2.5"] {
            let refused = try run(["verify", headerPath.path, "--limit", bad])
            XCTAssertEqual(refused.status, 2, bad)
            XCTAssertEqual(refused.stderr, "gmap: --limit '\(bad)' must be a whole number above 0\n")
        }
        let limited = try run(["verify", headerPath.path, "--limit", "1"])
        XCTAssertEqual(limited.status, 1, limited.stderr)
    }

    /// A build whose write fails (the file-size limit is hit mid-write) leaves the old map and no temporary file.
    func testFailedWriteKeepsTheOldMap() throws {
        if ProcessInfo.processInfo.environment["GMAP_SANITIZER"] == "thread" {
            // ThreadSanitizer's runtime itself dies under a tiny file-size limit; the normal and ASan runs cover this.
            throw XCTSkip("not under ThreadSanitizer")
        }
        let map = try fixtureMap()
        let before = try Data(contentsOf: URL(fileURLWithPath: map))
        let input = TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // ulimit -f counts 512-byte blocks here (dash); 8 blocks = 4 KB, far less than the map.
        process.arguments = ["-c", "trap '' XFSZ; ulimit -f 8; exec \"$0\" build \"$1\" -o \"$2\" --id id --tile-size 0.25", Self.executable!.path, input, map]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 2, message)
        XCTAssertTrue(message.contains("cannot write"), message)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: map)), before)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temporary.path).filter { $0.contains(".tmp-") }, [])
    }

    /// Builds interrupted by SIGTERM at random moments leave either the old map or the whole new one, and no temporary file.
    func testInterruptedBuildsLeaveAWholeMap() throws {
        let map = try fixtureMap()
        let before = try Data(contentsOf: URL(fileURLWithPath: map))
        let input = TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson").path
        var interrupted = 0
        for attempt in 0..<12 {
            let process = Process()
            process.executableURL = Self.executable
            process.arguments = ["build", input, "-o", map, "--id", "id", "--tile-size", "0.1", "-q"]
            try process.run()
            usleep(UInt32(20_000 + attempt * 25_000))
            process.terminate()
            process.waitUntilExit()
            if process.terminationReason == .uncaughtSignal || process.terminationStatus != 0 { interrupted += 1 }
            let now = try GMap(contentsOf: map)
            XCTAssertEqual(now.lookup(latitude: 9, longitude: 89)?.id, "SMALL", "attempt \(attempt): the map is whole")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temporary.path).filter { $0.contains(".tmp-") }, [], "attempt \(attempt)")
        }
        XCTAssertGreaterThan(interrupted, 0, "at least one build was interrupted")
        _ = before
    }

    /// The worked example in Spec/FORMAT.md is rebuilt byte for byte by the command the spec shows.
    func testSpecWorkedExampleIsCurrent() throws {
        let output = temporary.appendingPathComponent("spec-example.gmap")
        let input = TestSupport.fixtures.appendingPathComponent("spec-example.geojson")
        let result = try run(["build", input.path, "-o", output.path, "--precision", "0.01", "--tile-size", "5", "--max-edges", "4",
                              "--split", "2", "--max-depth", "1", "--id", "name", "--keep", "name", "--format", "2.0", "-q"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try Data(contentsOf: output), try Data(contentsOf: TestSupport.fixtures.appendingPathComponent("spec-example.gmap")))
        XCTAssertEqual(try run(["query", output.path, "1.5", "2.2"]).stdout, "B\n")
    }

    func testHelpDescribesEveryCommand() throws {
        let help = try run(["--help"])
        XCTAssertEqual(help.status, 0)
        for command in ["gmap query", "gmap build", "gmap info"] { XCTAssertTrue(help.stdout.contains(command)) }
        XCTAssertTrue(try run(["build", "--help"]).stdout.contains("--max-edges N"))
        XCTAssertTrue(try run(["help", "query"]).stdout.contains("--all"))
        XCTAssertEqual(try run([]).status, 2)
    }
}
