import Foundation
import XCTest
import GMapTestSupport

/// `gmap bench` comparing in one run (issue 26, Tests): the batch path's lines per second, another
/// map on the same points (`--against`, format 3 against 2.1) and the C reference reader
/// (`--c-reader`, Swift ÷ C). Small point sets and 3 runs: these check the report, not the speed.
final class BenchCompareCommandLineTests: CommandLineTestCase {
    /// The fixtures built as format 3 (the default) and as format 2.1: the same data.
    private func fixtureMaps() throws -> (format3: String, format21: String) {
        let input = TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson").path
        let format3 = path("fixtures-3.gmap"), format21 = path("fixtures-21.gmap")
        for (output, extra) in [(format3, [String]()), (format21, ["--format", "2.1"])] {
            let result = try run(["build", input, "-o", output, "--id", "id", "-q"] + extra)
            XCTAssertEqual(result.status, 0, result.stderr)
        }
        return (format3, format21)
    }

    private func json(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
    }

    func testBatchLinesPerSecondAreReported() throws {
        let (map, _) = try fixtureMaps()
        let result = try run(["bench", map, "--points", "2000", "--runs", "3", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let batch = try XCTUnwrap(try json(result.stdout)["batch"] as? [String: Any])
        XCTAssertEqual(batch["set"] as? String, "uniform")
        XCTAssertEqual(batch["lines"] as? Int, 2000)
        XCTAssertEqual(batch["runs"] as? Int, 3)
        XCTAssertEqual(batch["layered"] as? Bool, false)
        let threads = try XCTUnwrap(batch["threads"] as? [[String: Any]])
        XCTAssertEqual(threads.first?["threads"] as? Int, 1)
        for entry in threads {
            XCTAssertGreaterThan(try XCTUnwrap(entry["ns_per_line"] as? Double), 0)
            XCTAssertGreaterThan(try XCTUnwrap(entry["lines_per_second"] as? Double), 0)
        }
        let text = try run(["bench", map, "--points", "2000", "--runs", "3"])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.contains("\nbatch         1 thread "), text.stdout)
        XCTAssertTrue(text.stdout.contains("ns/line"), text.stdout)
    }

    /// `--only`: the calls alone, counted (what Benchmarks/instructions.sh runs under callgrind),
    /// on the points of a file; the lookups found agree with gmap query's answers for them.
    func testOnlyCallsOneOperationAndCountsWhatItFound() throws {
        let (map, _) = try fixtureMaps()
        let points = path("points.txt")
        // Two passes over five points: found counts each point's answer twice.
        try "0.5 0.5\n10 10\n-0.25 0.75\n45 170\n0.5 1.5\n".write(toFile: points, atomically: true, encoding: .utf8)
        let answers = try run(["query", map, "-"], input: try String(contentsOfFile: points, encoding: .utf8))
        let inside = answers.stdout.split(separator: "\n", omittingEmptySubsequences: false).prefix(5).filter { !$0.isEmpty }.count
        XCTAssertGreaterThan(inside, 0, "some of the points lie in a fixture")
        let result = try run(["bench", map, "--only", "lookup", "--calls", "10", "--points-file", points])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "lookup\t10 calls\t\(2 * inside) found\n")
        let saved = path("saved.txt")
        let withSets = try run(["bench", map, "--only", "lookup", "--calls", "0", "--points", "50", "--save-points", saved])
        XCTAssertEqual(withSets.status, 0, withSets.stderr)
        let text = try String(contentsOfFile: saved, encoding: .utf8)
        for set in ["# uniform: 50 points", "# on land: 50 points", "# near border: 50 points"] { XCTAssertTrue(text.contains(set), text) }
        let wrong = try run(["bench", map, "--only", "lookups"])
        XCTAssertEqual(wrong.status, 2)
        XCTAssertEqual(wrong.stderr, "gmap: --only 'lookups' must be one of lookup, placemark, stack-placemark, where, geocode\n")
        let noRoads = try run(["bench", map, "--only", "where", "--calls", "1"])
        XCTAssertNotEqual(noRoads.status, 0)
        XCTAssertTrue(noRoads.stderr.contains("has nothing to call it on"), noRoads.stderr)
    }

    func testAgainstTimesBothMapsAndGivesTheRatio() throws {
        let (format3, format21) = try fixtureMaps()
        let result = try run(["bench", format3, "--against", format21, "--points", "2000", "--runs", "3", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stderr.contains("warning"), "the same data in two formats: \(result.stderr)")
        let against = try XCTUnwrap(try json(result.stdout)["against"] as? [String: Any])
        XCTAssertEqual(against["map"] as? String, format21)
        XCTAssertEqual(against["format"] as? String, "2.1")
        XCTAssertEqual(against["map_format"] as? String, "3.5")
        XCTAssertEqual(against["features"] as? Int, against["map_features"] as? Int)
        XCTAssertEqual(against["sample_points"] as? Int, 6000, "2,000 points of each of three sets")
        XCTAssertEqual(against["sample_differing"] as? Int, 0)
        XCTAssertGreaterThan(try XCTUnwrap(against["bytes"] as? Int), 0)
        let sets = try XCTUnwrap(against["sets"] as? [[String: Any]])
        XCTAssertEqual(sets.map { $0["name"] as? String }, ["uniform", "on land", "near border"])
        for set in sets {
            XCTAssertEqual(set["runs"] as? Int, 3)
            XCTAssertEqual(set["points"] as? Int, 2000)
            let mine = try XCTUnwrap(set["ns_median"] as? Double), other = try XCTUnwrap(set["other_ns_median"] as? Double)
            let ratio = try XCTUnwrap(set["ratio"] as? Double)
            XCTAssertGreaterThan(mine, 0)
            XCTAssertGreaterThan(other, 0)
            XCTAssertEqual(ratio, mine / other, accuracy: 0.01 + ratio * 0.01, "the ratio is this map ÷ the other")
        }

        let text = try run(["bench", format3, "--against", format21, "--points", "2000", "--runs", "3"])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.contains("against       \(format21): format 2.1"), text.stdout)
        XCTAssertTrue(text.stdout.contains("0 of 6000 sample points answered differently"), text.stdout)
        XCTAssertTrue(text.stdout.contains("  near border "), text.stdout)
        XCTAssertTrue(text.stdout.contains("ratio "), text.stdout)
    }

    func testAgainstAnotherMapWarnsAndStillMeasures() throws {
        let (map, _) = try fixtureMaps()
        let other = path("hole.gmap")
        let built = try run(["build", TestSupport.fixtures.appendingPathComponent("square-with-hole.geojson").path, "-o", other, "-q"])
        XCTAssertEqual(built.status, 0, built.stderr)
        let result = try run(["bench", map, "--against", other, "--points", "2000", "--runs", "3", "--json"])
        XCTAssertEqual(result.status, 0, "different data is timed, with a warning: \(result.stderr)")
        XCTAssertTrue(result.stderr.contains("gmap: warning: \(other) has another first layer than the map (features: 1 against"), result.stderr)
        XCTAssertTrue(result.stderr.contains("sample points differently from the map: the ratios compare different data, not formats"), result.stderr)
        let against = try XCTUnwrap(try json(result.stdout)["against"] as? [String: Any])
        XCTAssertEqual(against["features"] as? Int, 1)
        XCTAssertGreaterThan(try XCTUnwrap(against["sample_differing"] as? Int), 0)
        XCTAssertEqual((against["sets"] as? [Any])?.count, 3)

        try assertFails(["bench", map, "--against", path("missing.gmap"), "--points", "100", "--runs", "1"],
                        stderr: "gmap: cannot open \(path("missing.gmap")): No such file or directory\n")
        let notAMap = try run(["bench", map, "--against", TestSupport.fixtures.appendingPathComponent("spec-example.geojson").path,
                               "--points", "100", "--runs", "1"])
        XCTAssertEqual(notAMap.status, 2)
        XCTAssertTrue(notAMap.stderr.contains("is GeoJSON, not a gmap map; make a map of it first"), notAMap.stderr)
    }

    /// A C compiler on PATH, or nil.
    private static func compiler() -> String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return directories.map { "\($0)/cc" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// `gmap_ref` built from Benchmarks/c-reader into the test's folder; skips the test without `cc`.
    private func buildReferenceReader() throws -> String {
        guard let cc = Self.compiler() else {
            throw XCTSkip("no C compiler ('cc') on PATH: the C reference reader (Benchmarks/c-reader) cannot be built, so --c-reader is not tested here")
        }
        let sources = TestSupport.repositoryRoot.appendingPathComponent("Benchmarks/c-reader")
        let binary = path("gmap_ref")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: cc)
        process.arguments = ["-O2", "-std=c99", "-o", binary, sources.appendingPathComponent("gmap_ref.c").path,
                             sources.appendingPathComponent("main.c").path, "-lm"]
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "cc could not build gmap_ref")
        return binary
    }

    func testCReaderIsTimedOnTheSamePoints() throws {
        let (map, format21) = try fixtureMaps()
        let reader = try buildReferenceReader()
        let result = try run(["bench", map, "--c-reader", reader, "--points", "2000", "--runs", "3", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stderr.contains("warning"), result.stderr)
        let report = try json(result.stdout)
        let c = try XCTUnwrap(report["c_reader"] as? [String: Any])
        XCTAssertEqual(c["path"] as? String, reader)
        XCTAssertEqual(c["rounds"] as? Int, 3)
        XCTAssertEqual(c["runs"] as? Int, 3)
        let sets = try XCTUnwrap(c["sets"] as? [[String: Any]])
        XCTAssertEqual(sets.map { $0["name"] as? String }, ["uniform", "on land", "near border"])
        let measured = try XCTUnwrap(report["sets"] as? [[String: Any]])
        for (set, own) in zip(sets, measured) {
            XCTAssertEqual(set["points"] as? Int, 2000)
            XCTAssertEqual(set["c_found"] as? Int, set["found"] as? Int, "both readers answer the same points")
            XCTAssertEqual(set["found"] as? Int, own["found"] as? Int)
            XCTAssertGreaterThan(try XCTUnwrap(set["c_ns_median"] as? Double), 0)
            XCTAssertGreaterThan(try XCTUnwrap(set["ns_median"] as? Double), 0)
            XCTAssertGreaterThan(try XCTUnwrap(set["ratio"] as? Double), 0)
        }
        XCTAssertEqual(sets[1]["c_found"] as? Int, 2000, "every on-land point is inside a feature for C too")

        // With --points-file: one set, "file", and --against beside it.
        let points = path("points.csv")
        try "9,89\n1 1\n50,50\n".write(toFile: points, atomically: true, encoding: .utf8)
        let file = try run(["bench", map, "--points-file", points, "--c-reader", reader, "--against", format21, "--runs", "3"])
        XCTAssertEqual(file.status, 0, file.stderr)
        XCTAssertTrue(file.stdout.contains("C reader      \(reader): 3 rounds of 3 runs"), file.stdout)
        XCTAssertTrue(file.stdout.contains("  file        "), file.stdout)
        XCTAssertTrue(file.stdout.contains("Swift ÷ C "), file.stdout)
        XCTAssertTrue(file.stdout.contains("3 points, 2 found by both"), file.stdout)
    }

    func testCReaderProblemsAreClearErrors() throws {
        let (map, _) = try fixtureMaps()
        let missing = path("no-such-gmap_ref")
        let absent = try run(["bench", map, "--c-reader", missing, "--points", "100", "--runs", "1"])
        XCTAssertEqual(absent.status, 2)
        XCTAssertTrue(absent.stderr.hasPrefix("gmap: --c-reader: \(missing): no such file (build it: cc -O2 -std=c99"), absent.stderr)
        XCTAssertEqual(absent.stdout, "", "refused before anything is measured")

        let plain = path("not-executable")
        try "not a program\n".write(toFile: plain, atomically: true, encoding: .utf8)
        let notExecutable = try run(["bench", map, "--c-reader", plain, "--points", "100", "--runs", "1"])
        XCTAssertEqual(notExecutable.status, 2)
        XCTAssertTrue(notExecutable.stderr.contains("--c-reader: \(plain) is not an executable file"), notExecutable.stderr)
        let directory = try run(["bench", map, "--c-reader", temporary.path, "--points", "100", "--runs", "1"])
        XCTAssertEqual(directory.status, 2)
        XCTAssertTrue(directory.stderr.contains("is not an executable file"), directory.stderr)

        func script(_ name: String, _ body: String) throws -> String {
            let file = path(name)
            try "#!/bin/sh\n\(body)\n".write(toFile: file, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file)
            return file
        }
        let chatty = try script("chatty", "echo \"$@\"")
        let unparsable = try run(["bench", map, "--c-reader", chatty, "--points", "1000", "--runs", "1"])
        XCTAssertEqual(unparsable.status, 2)
        XCTAssertTrue(unparsable.stderr.contains("gmap: --c-reader: cannot read what \(chatty) printed (is it gmap_ref from Benchmarks/c-reader?): expected 3 lines (one per point set), got 1"),
                      unparsable.stderr)
        let wrongSets = try script("wrong-sets", "printf 'uniform\\t1000\\t5\\t1\\t10.0\\t9.0\\nelsewhere\\t1000\\t5\\t1\\t10.0\\t9.0\\nnear border\\t1000\\t5\\t1\\t1.0\\t1.0\\n'")
        let wrong = try run(["bench", map, "--c-reader", wrongSets, "--points", "1000", "--runs", "1"])
        XCTAssertEqual(wrong.status, 2)
        XCTAssertTrue(wrong.stderr.contains("expected the set 'on land' of 1000 points timed 1 times, got 'elsewhere"), wrong.stderr)
        let failing = try script("failing", "echo 'gmap_ref: cannot open the map' >&2\nexit 3")
        let failed = try run(["bench", map, "--c-reader", failing, "--points", "1000", "--runs", "1"])
        XCTAssertEqual(failed.status, 2)
        XCTAssertTrue(failed.stderr.contains("gmap: --c-reader: \(failing) exited with status 3: gmap_ref: cannot open the map"), failed.stderr)
    }
}
