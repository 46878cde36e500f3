import Foundation
import XCTest
import GMapTestSupport
import GMap

/// `gmap place` on the shipped map and on a map without its layers, and `gmap query --layer`.
final class PlaceCommandLineTests: CommandLineTestCase {
    /// Runs the tool with `GMAP_MAP` empty, so that a command without a map uses the shipped one.
    @discardableResult
    override func run(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws -> Outcome {
        try super.run(arguments, input: input, environment: ["GMAP_MAP": ""].merging(environment) { $1 })
    }

    /// `gmap find` on the shipped map finds a country by its English name as well as its own
    /// (issue 14: "ivory coast", "cote d ivoire" and "ivoire" all find CI).
    func testFindByEnglishNameOnTheShippedMap() throws {
        for text in ["ivory coast", "cote d ivoire", "ivoire", "Côte d'Ivoire"] {
            let found = try run(["find", text])
            XCTAssertEqual(found.status, 0, "\(text): \(found.stderr)")
            XCTAssertTrue(found.stdout.hasPrefix("countries\tCI\tCôte d'Ivoire\t"), "\(text): \(found.stdout)")
        }
        XCTAssertEqual(try run(["find", "no such country at all"]).status, 1)
    }

    func testPlaceOnTheShippedMap() throws {
        let atSea = try run(["place", "30", "-40"])
        XCTAssertEqual(atSea.status, 0, atSea.stderr)
        XCTAssertEqual(atSea.stdout, "timeZone                Etc/GMT+3\nocean                   North Atlantic Ocean\n")
        let json = try run(["place", "30", "-40", "--json"])
        XCTAssertTrue(json.stdout.hasPrefix("{\"isoCountryCode\":null,\"country\":null,\"administrativeArea\":null,\"administrativeAreaCode\":null,\"timeZone\":\"Etc/GMT+3\",\"ocean\":\"North Atlantic Ocean\",\"layers\":{"), json.stdout)
        let kehl = try run(["place", "48.5700", "7.8150", "--json"])
        XCTAssertTrue(kehl.stdout.contains("\"isoCountryCode\":\"DE\""), kehl.stdout)
        XCTAssertTrue(kehl.stdout.contains("\"locality\":\"Kehl\",\"localityDistance\":"), kehl.stdout)
        XCTAssertTrue(kehl.stdout.contains("\"administrativeArea\":\"Baden-Wuerttemberg\",\"administrativeAreaCode\":\"DE-01\""), kehl.stdout)
        // The state: a US state by its USPS code, its county; the country in another language.
        let cupertino = try run(["place", "37.3", "-122.0"])
        XCTAssertTrue(cupertino.stdout.contains("administrativeArea      CA\nadministrativeAreaCode  US-CA\nsubAdministrativeArea   Santa Clara County\n"), cupertino.stdout)
        let munich = try run(["place", "48.14", "11.58", "--language", "de"])
        XCTAssertTrue(munich.stdout.hasPrefix("isoCountryCode          DE\ncountry                 Deutschland\nadministrativeArea      Bavaria\n"), munich.stdout)
        let suomi = try run(["place", "-", "--language", "fi"], input: "60.17 24.94\n")
        XCTAssertTrue(suomi.stdout.hasPrefix("isoCountryCode=FI\tcountry=Suomi\t"), suomi.stdout)
        XCTAssertEqual(try run(["place", "48.14", "11.58", "--language", "xx"]).stdout, try run(["place", "48.14", "11.58"]).stdout,
                       "a language the map has no name in: the name as it is")
        // The default map still answers gmap query from its countries layer alone.
        XCTAssertEqual(try run(["query", "36.14", "-5.35"]).stdout, "GI\n")
    }

    func testBadCoordinatesAsQuery() throws {
        for arguments in [["91", "0"], ["nan", "0"], ["0", "181"], ["abc", "1"]] {
            let place = try run(["place"] + arguments), query = try run(["query"] + arguments)
            XCTAssertEqual(place.status, query.status, arguments.joined(separator: " "))
            XCTAssertEqual(place.status, 2)
            XCTAssertEqual(place.stderr, query.stderr, arguments.joined(separator: " "))
            XCTAssertEqual(place.stdout, "")
        }
        let mapLast = try run(["place", "36.14", "-5.35", "world.gmap"])
        XCTAssertEqual(mapLast.status, 2)
        XCTAssertEqual(mapLast.stderr, "gmap: the map comes first: gmap place world.gmap 36.14 -5.35\n")
    }

    func testAMapWithoutTheLayersLeavesTheFieldsOut() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gmap-place-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let map = directory.appendingPathComponent("one.gmap").path
        let world = TestSupport.repositoryRoot.appendingPathComponent("Sources/GMapWorld/Resources/world.gmap").path
        // The countries layer alone, exported and built again: a map of one layer.
        let geojson = directory.appendingPathComponent("countries.geojson").path
        XCTAssertEqual(try run(["export", world, "--layer", "countries", "-o", geojson, "-q"]).status, 0)
        XCTAssertEqual(try run(["build", geojson, "-o", map, "-q"]).status, 0)
        let place = try run(["place", map, "36.14", "-5.35"])
        XCTAssertEqual(place.status, 0, place.stderr)
        XCTAssertEqual(place.stdout, "isoCountryCode          GI\ncountry                 Gibraltar\n")
        let sea = try run(["place", map, "30", "-40"])
        XCTAssertEqual(sea.status, 1)
        XCTAssertEqual(sea.stderr, "gmap: no feature of any layer contains (30, -40)\n")
    }

    func testQueryLayer() throws {
        let world = TestSupport.repositoryRoot.appendingPathComponent("Sources/GMapWorld/Resources/world.gmap").path
        XCTAssertEqual(try run(["query", world, "36.14", "-5.35", "--layer", "countries"]).stdout, "GI\n")
        XCTAssertEqual(try run(["query", world, "30", "-40", "--layer", "marine"]).stdout, "North Atlantic Ocean\n")
        XCTAssertEqual(try run(["query", world, "30", "-40", "--layer", "timezones", "--json"]).stdout, "{\"id\":\"Etc/GMT+3\",\"properties\":{}}\n")
        let layered = try run(["query", world, "36.14", "-5.35"])
        XCTAssertTrue(layered.stdout.hasPrefix("countries=GI\tmarine="), layered.stdout)
        let missing = try run(["query", world, "1", "1", "--layer", "roads"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertEqual(missing.stderr, "gmap: \(world) has no layer named 'roads'; its layers are countries, marine, timezones, towns, states\n")
    }

    /// `gmap place -`: one line per input line, each the one-point command's answer (JSON with
    /// --json, the fields as field=value with tabs without), bad lines named and answered by an
    /// empty line (null), exit 2 at the end.
    func testManyPointsFromStandardInput() throws {
        var random = SplitMix64(seed: 26)
        var points: [(Double, Double)] = [(36.14, -5.35), (30, -40), (48.57, 7.81), (60.1699, 24.9384)]
        for _ in 0..<40 { points.append(((random.unit() * 2 - 1) * 80, (random.unit() * 2 - 1) * 180)) }
        let input = points.map { "\($0.0) \($0.1)" }.joined(separator: "\n") + "\n"
        let json = try run(["place", "-", "--json"], input: input)
        XCTAssertEqual(json.status, 0, json.stderr)
        let lines = json.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        XCTAssertEqual(lines.count, points.count)
        var answered = 0
        for (point, line) in zip(points, lines) {
            let one = try run(["place", String(point.0), String(point.1), "--json"])
            XCTAssertEqual(String(line), one.stdout.trimmingCharacters(in: .newlines), "\(point)")
            if one.status == 0 { answered += 1 }
        }
        XCTAssertGreaterThan(answered, 10)
        let text = try run(["place", "-"], input: "36.14 -5.35\nnot a point\n30 -40\n")
        XCTAssertEqual(text.stdout, "isoCountryCode=GI\tcountry=Gibraltar\ttimeZone=Europe/Gibraltar\tlocality=Gibraltar\tlocalityDistance=575 m\n"
                       + "\ntimeZone=Etc/GMT+3\tocean=North Atlantic Ocean\n")
        XCTAssertEqual(text.stderr, "gmap: line 2: expected 'latitude longitude' or 'latitude,longitude', got 'not a point'\ngmap: 1 of 3 lines could not be read\n")
        XCTAssertEqual(text.status, 2)
        XCTAssertEqual(try run(["place", "-", "--json"], input: "x\n").stdout, "null\n")
        try assertFails(["place", "1", "2", "--max-line", "5"], stderr: "gmap: --max-line only applies with - (lines read from standard input)\n")
    }

    /// `place -` answers blocks of 1,024 lines and more on several threads: the output, the
    /// messages and the exit status are those of one thread, with and without --json.
    func testManyPointsOnSeveralThreads() throws {
        var random = SplitMix64(seed: 2_026)
        var lines: [String] = []
        for index in 0..<3_000 {
            lines.append(index == 1_500 ? "not a point" : "\((random.unit() * 2 - 1) * 80) \((random.unit() * 2 - 1) * 180)")
        }
        let input = lines.joined(separator: "\n") + "\n"
        for json in [[], ["--json"]] {
            let one = try run(["place", "-", "--threads", "1"] + json, input: input)
            XCTAssertEqual(one.status, 2)
            XCTAssertTrue(one.stderr.hasPrefix("gmap: line 1501: "), one.stderr)
            XCTAssertEqual(one.stdout.split(separator: "\n", omittingEmptySubsequences: false).count, 3_001)
            for threads in [nil, "2", "3"] {
                let other = try run(["place", "-"] + (threads.map { ["--threads", $0] } ?? []) + json, input: input)
                XCTAssertEqual(other.status, one.status, "--threads \(threads ?? "default")")
                XCTAssertEqual(other.stderr, one.stderr, "--threads \(threads ?? "default")")
                XCTAssertTrue(other.stdout == one.stdout, "--threads \(threads ?? "default") \(json) differs from --threads 1")
            }
        }
        try assertFails(["place", "1", "2", "--threads", "2"], stderr: "gmap: --threads only applies with - (lines read from standard input)\n")
        try assertFails(["place", "-", "--threads", "0"], stderr: "gmap: --threads takes a whole number from 1 to 256, got '0'\n")
    }
}
