import Foundation
import XCTest
import GMap
import GMapTestSupport

/// `gmap build --layer`, `gmap query` on a map of several layers, `gmap find` and `gmap info`.
final class LayerCommandLineTests: CommandLineTestCase {
    private func fixture(_ name: String) -> String { TestSupport.fixtures.appendingPathComponent(name).path }

    /// country = all fixtures, shape = the C shape and the overlaps.
    private func layeredMap() throws -> String {
        let path = temporary.appendingPathComponent("layered.gmap").path
        let result = try run(["build", "-o", path, "--layer", "country=\(fixture("all-fixtures.geojson")):id",
                              "--layer", "shape=\(fixture("overlaps.geojson"))", "-q"])
        XCTAssertEqual(result.status, 0, result.stderr)
        return path
    }

    func testQueryPrintsEveryLayersAnswer() throws {
        let map = try layeredMap()
        let single = temporary.appendingPathComponent("single.gmap").path
        XCTAssertEqual(try run(["build", fixture("overlaps.geojson"), "-o", single, "-q"]).status, 0)
        let fixtures = temporary.appendingPathComponent("fixtures.gmap").path
        XCTAssertEqual(try run(["build", fixture("all-fixtures.geojson"), "-o", fixtures, "--id", "id", "-q"]).status, 0)
        let points = "5 85\n1 1\n45 45\n5 25\n-89 0\n10 90\n"
        let country = try run(["query", fixtures, "-", "--all"], input: points).stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let shape = try run(["query", single, "-", "--all"], input: points).stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let layered = try run(["query", map, "-", "--all"], input: points)
        XCTAssertEqual(layered.status, 0, layered.stderr)
        let expected = zip(country, shape).dropLast().map { "country=\($0.0.replacingOccurrences(of: " ", with: ","))\tshape=\($0.1.replacingOccurrences(of: " ", with: ","))" }
        XCTAssertEqual(layered.stdout.split(separator: "\n").map(String.init), expected)

        let one = try run(["query", map, "5", "85"])
        XCTAssertEqual(one.status, 0, one.stderr)
        XCTAssertTrue(one.stdout.hasPrefix("country="), one.stdout)
        XCTAssertTrue(one.stdout.contains("\tshape="), one.stdout)
        let json = try run(["query", map, "5", "85", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        XCTAssertNotNil(object?["isoCountryCode"])
        XCTAssertEqual((object?["layers"] as? [String: Any]).map { Set($0.keys) }, ["country", "shape"])
        let nowhere = try run(["query", map, "-60", "-150"])
        XCTAssertEqual(nowhere.status, 1)
        XCTAssertEqual(nowhere.stdout, "")
    }

    func testFindPrintsIdNameBoxAndLabel() throws {
        let map = try layeredMap()
        let result = try run(["find", map, "c-SHAPE"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let fields = result.stdout.split(separator: "\n").first?.split(separator: "\t").map(String.init) ?? []
        XCTAssertEqual(fields.prefix(3), ["country", "C", "C-shape"])
        XCTAssertEqual(fields.dropFirst(3).first, "bbox 20.0,0.0,30.0,10.0")
        let label = try XCTUnwrap(fields.last?.split(separator: " ").last?.split(separator: ",").compactMap { Double($0) })
        XCTAssertEqual(try run(["query", map, String(label[0]), String(label[1])]).stdout.hasPrefix("country=C\t"), true, "the label point is inside")
        let json = try run(["find", map, "C-shape", "--json", "--layer", "country"])
        let array = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        XCTAssertEqual(array?.first?["id"] as? String, "C")
        XCTAssertEqual((array?.first?["bbox"] as? [Double]), [20, 0, 30, 10])
        XCTAssertEqual(try run(["find", map, "no such place"]).status, 1)
        XCTAssertEqual(try run(["find", map, "c", "--layer", "nope"]).status, 2)
    }

    /// Punctuation and spacing aside, by word prefixes, exact matches first; `--exact` keeps those.
    func testFindMatchesWordsWhateverThePunctuation() throws {
        let map = try layeredMap()
        for query in [["c shape"], ["C", "SHAPE"], ["shape"], ["sha", "c"], ["c.-shape"]] {
            let result = try run(["find", map] + query + ["--layer", "country"])
            XCTAssertEqual(result.status, 0, "\(query): \(result.stderr)")
            XCTAssertEqual(result.stdout.split(separator: "\n").first?.split(separator: "\t").dropFirst().first, "C", "\(query)")
        }
        XCTAssertEqual(try run(["find", map, "shape", "--exact", "--layer", "country"]).status, 1)
        let punctuation = try run(["find", map, "'-"])
        XCTAssertEqual(punctuation.status, 2)
        XCTAssertEqual(punctuation.stderr, "gmap: ''-' is only punctuation and spaces: nothing to search for\n")
    }

    /// The alternative names a source carries (Natural Earth's `ADMIN`, `FORMAL_EN`, `NAME_EN`) are
    /// found when the build keeps them.
    func testFindUsesTheKeptAlternativeNames() throws {
        let input = temporary.appendingPathComponent("ci.geojson")
        let properties = #"{"ISO_A2":"CI","NAME":"Côte d'Ivoire","ADMIN":"Ivory Coast","FORMAL_EN":"Republic of Ivory Coast","NAME_DE":"Elfenbeinküste"}"#
        try Data(#"{"type":"FeatureCollection","features":[{"type":"Feature","properties":\#(properties),"geometry":{"type":"Polygon","coordinates":[[[-8,4],[-3,4],[-3,10],[-8,10],[-8,4]]]}}]}"#.utf8).write(to: input)
        let plain = temporary.appendingPathComponent("plain.gmap").path, kept = temporary.appendingPathComponent("kept.gmap").path
        XCTAssertEqual(try run(["build", input.path, "-o", plain, "--id", "ISO_A2", "--keep", "NAME", "-q"]).status, 0)
        XCTAssertEqual(try run(["build", input.path, "-o", kept, "--id", "ISO_A2", "--keep", "NAME,ADMIN,FORMAL_EN,NAME_DE", "-q"]).status, 0)
        for query in ["cote d ivoire", "ivoire", "CÔTE D’IVOIRE"] {
            XCTAssertEqual(try run(["find", plain, query]).stdout.prefix(3), "CI\t", query)
        }
        XCTAssertEqual(try run(["find", plain, "ivory coast"]).status, 1, "ADMIN is not kept")
        for query in ["ivory coast", "coast", "republic of ivory", "elfenbeinkuste"] {
            let result = try run(["find", kept, query])
            XCTAssertTrue(result.stdout.hasPrefix("CI\tCôte d'Ivoire\tbbox -8.0,4.0,-3.0,10.0\tlabel "), "\(query): \(result.stdout)\(result.stderr)")
            XCTAssertEqual(result.stdout.split(separator: "\n").count, 1, query)
        }
    }

    func testInfoListsLayersAndVerifyChecksThem() throws {
        let map = try layeredMap()
        let info = try run(["info", map])
        XCTAssertEqual(info.status, 0, info.stderr)
        for expected in ["format        3.5", "layers        2", "  country: ", "  shape: ", "LAYR", "G001", "N001"] {
            XCTAssertTrue(info.stdout.contains(expected), "info lacks \(expected):\n\(info.stdout)")
        }
        let verify = try run(["verify", map])
        XCTAssertEqual(verify.status, 0, verify.stdout)
        XCTAssertTrue(verify.stdout.contains("in 2 layers checked"), verify.stdout)
    }

    func testBuildChecksLayerArguments() throws {
        let output = temporary.appendingPathComponent("x.gmap").path
        XCTAssertEqual(try run(["build", "-o", output, "--layer", "nolayername"]).status, 2)
        XCTAssertEqual(try run(["build", fixture("c-shape.geojson"), "-o", output, "--layer", "a=\(fixture("c-shape.geojson"))"]).status, 2)
        let twice = try run(["build", "-o", output, "--layer", "a=\(fixture("c-shape.geojson"))", "--layer", "a=\(fixture("overlaps.geojson"))"])
        XCTAssertEqual(twice.status, 2)
        XCTAssertTrue(twice.stderr.contains("used twice"), twice.stderr)
        let plain = try run(["build", fixture("c-shape.geojson"), "-o", output, "--format", "2.0", "-q"])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertTrue(try run(["info", output]).stdout.contains("format        2.0"))
        XCTAssertEqual(try run(["query", output, "1", "25"]).stdout, "C\n", "a single layer answers as before")
    }
}
