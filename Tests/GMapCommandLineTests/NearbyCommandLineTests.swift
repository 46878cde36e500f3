import Foundation
import XCTest
import GMap
import GMapTestSupport

/// `gmap query … --nearest DIST`: output, JSON, batch mode and the radius's errors.
final class NearbyCommandLineTests: CommandLineTestCase {
    /// Runs the tool with `GMAP_MAP` empty, so that a command without a map uses the shipped one.
    @discardableResult
    override func run(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws -> Outcome {
        try super.run(arguments, input: input, environment: ["GMAP_MAP": ""].merging(environment) { $1 })
    }

    /// A 1° square at the equator with id SQ.
    private func squareMap() throws -> String {
        let geojson = temporary.appendingPathComponent("square.geojson"), map = temporary.appendingPathComponent("square.gmap").path
        try #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"id":"SQ","name":"Square"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]]]}}]}"#
            .write(to: geojson, atomically: true, encoding: .utf8)
        let result = try run(["build", geojson.path, "-o", map, "-q"])
        XCTAssertEqual(result.status, 0, result.stderr)
        return map
    }

    func testNearbyAndInsideAnswers() throws {
        let map = try squareMap()
        // 0.05° east of the square at 0.5° N: 5565.8 m (GeographicLib 5565.764 m).
        var result = try run(["query", map, "0.5", "1.05", "--nearest", "10km"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "SQ nearby 5566 m\n")
        result = try run(["query", map, "0.5", "1.05", "--nearest=10km", "--json"])
        XCTAssertEqual(result.stdout, #"{"id":"SQ","properties":{"name":"Square"},"match":"nearby","distance_m":5565.8}"# + "\n")
        result = try run(["query", map, "0.5", "0.5", "--nearest", "10km"])
        XCTAssertEqual(result.stdout, "SQ\n")
        result = try run(["query", map, "0.5", "0.5", "--nearest", "10km", "--json"])
        XCTAssertEqual(result.stdout, #"{"id":"SQ","properties":{"name":"Square"},"match":"inside","distance_m":0}"# + "\n")
        // Out of range: exit 1, null with --json.
        result = try run(["query", map, "0.5", "1.05", "--nearest", "5km"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderr, "gmap: no feature contains (0.5, 1.05) or lies within 5000 m of it\n")
        result = try run(["query", map, "0.5", "1.05", "--nearest", "5000", "--json"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, "null\n")
        // Units: 5.6km = 5600 m reaches it, 5500m does not.
        XCTAssertEqual(try run(["query", map, "0.5", "1.05", "--nearest", "5.6km"]).status, 0)
        XCTAssertEqual(try run(["query", map, "0.5", "1.05", "--nearest", "5500m"]).status, 1)
    }

    func testBatchMode() throws {
        let map = try squareMap()
        var result = try run(["query", map, "-", "--nearest", "10km"], input: "0.5 1.05\n0.5,0.5\n0 -30\n\n-0.05 0.5\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "SQ nearby 5566 m\nSQ\n\n\nSQ nearby 5529 m\n")
        result = try run(["query", map, "-", "--nearest", "10km", "--json"], input: "0.5 1.05\n0 -30\n")
        XCTAssertEqual(result.stdout, #"{"id":"SQ","properties":{"name":"Square"},"match":"nearby","distance_m":5565.8}"# + "\nnull\n")
    }

    func testBadRadii() throws {
        let map = try squareMap()
        let cases: [(String, String)] = [
            ("-5km", "gmap: --nearest '-5km' must not be negative\n"),
            ("nan", "gmap: --nearest 'nan' is not a distance (for example 500m or 10km; a plain number is metres)\n"),
            ("km", "gmap: --nearest 'km' is not a distance (for example 500m or 10km; a plain number is metres)\n"),
            ("10mi", "gmap: --nearest '10mi': unknown unit 'mi'; use m or km (for example 500m or 10km; a plain number is metres)\n"),
            ("200km", "gmap: --nearest '200km' is more than the largest radius, 100km\n"),
        ]
        for (radius, message) in cases {
            let result = try run(["query", map, "0.5", "1.05", "--nearest", radius])
            XCTAssertEqual(result.status, 2, radius)
            XCTAssertEqual(result.stderr, message)
        }
        let all = try run(["query", map, "0.5", "1.05", "--nearest", "10km", "--all"])
        XCTAssertEqual(all.status, 2)
        XCTAssertEqual(all.stderr, "gmap: --nearest answers one feature per point; it cannot be combined with --all\n")
        XCTAssertEqual(try run(["query", map, "0.5", "1.05", "--nearest"]).stderr, "gmap: --nearest needs a value\n")
    }

    /// The issue's example on the shipped map: a point in the Strait of Gibraltar.
    func testShippedMapStraitOfGibraltar() throws {
        let result = try run(["query", "36.0", "-5.2", "--nearest", "20km"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "ES nearby 12336 m\n")
    }
}
