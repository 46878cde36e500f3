import Foundation
import XCTest
import GMap
import GMapBuilder
import GMapCodecs
import GMapRender
import GMapTestSupport

/// `gmap render`: the picture it writes, its points file, layers, tiles and every error it reports.
final class CommandLineRenderTests: CommandLineTestCase {
    private func fixtureMap() throws -> String {
        let map = path("fixtures.gmap")
        let result = try run(["build", TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson").path, "-o", map, "--id", "id", "-q"])
        XCTAssertEqual(result.status, 0, result.stderr)
        return map
    }

    private func image(_ file: String) throws -> PNGTestDecoder.Image {
        try PNGTestDecoder.decode(Array(try Data(contentsOf: URL(fileURLWithPath: file))))
    }

    func testRendersTheMapWithASummary() throws {
        let map = try fixtureMap()
        let output = path("map.png")
        let result = try run(["render", map, "-o", output, "--bbox", "0,0,30,10", "--width", "300"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "")
        XCTAssertTrue(result.stderr.hasPrefix("wrote \(output): 300 × 100 pixels, "), result.stderr)
        XCTAssertTrue(result.stderr.contains(" bytes (palette of "), result.stderr)
        XCTAssertEqual(result.stderr.filter { $0 == "\n" }.count, 1, "one line")
        let picture = try image(output)
        XCTAssertEqual(picture.width, 300)
        XCTAssertEqual(picture.height, 100)
        // Pixel (x, y) has its centre at longitude x/10 + 0.05, latitude 9.95 − y/10: (5, 5) is in the
        // square's hole, (1, 1) in the square, (25, 1) in the C shape.
        XCTAssertEqual(picture.pixel(50, 50), MapStyle.standard.background)
        XCTAssertNotEqual(picture.pixel(10, 50), MapStyle.standard.background)
        XCTAssertNotEqual(picture.pixel(250, 90), MapStyle.standard.background)
        XCTAssertNotEqual(picture.pixel(10, 50), picture.pixel(250, 90))
        // Quiet: nothing on stderr; the same picture.
        let quiet = try run(["render", map, "-o", path("quiet.png"), "--bbox", "0,0,30,10", "--width", "300", "-q"])
        XCTAssertEqual(quiet.status, 0)
        XCTAssertEqual(quiet.stderr, "")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path("quiet.png"))), try Data(contentsOf: URL(fileURLWithPath: output)))
    }

    func testPointsFromACSVAreMarkedWithTheirAnswers() throws {
        let map = try fixtureMap()
        let points = path("points.csv")
        try """
        # a header naming the columns, and columns beyond them
        name,lat,lon,note
        square,5,1,x
        c,1,25,"y"

        hole,5,5,z
        far,50,50,w
        """.write(toFile: points, atomically: true, encoding: .utf8)
        let output = path("points.png")
        let result = try run(["render", map, "-o", output, "--bbox", "0,0,30,10", "--width", "300", "--points", points])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains(", 3 points (1 outside the window)"), result.stderr)
        let picture = try image(output)
        let style = MapStyle.standard
        XCTAssertEqual(picture.pixel(10, 50), style.ink, "(5, 1) in the square")
        XCTAssertEqual(picture.pixel(250, 90), style.ink, "(1, 25) in the C shape")
        XCTAssertEqual(picture.pixel(50, 50), style.missInk, "(5, 5) in the hole: no feature")
        // Each label is the answer's id in the bitmap font, right of the cross.
        func ink(x: Int, y: Int, text: String) -> (found: Int, expected: Int) {
            var found = 0
            for row in y..<(y + BitmapFont.glyphHeight) {
                for column in x..<(x + BitmapFont.width(of: text)) where picture.pixel(column, row) == style.ink { found += 1 }
            }
            return (found, FontInk.pixels(of: text))
        }
        let hole = ink(x: 16, y: 47, text: "HOLE")
        XCTAssertEqual(hole.found, hole.expected)
        let c = ink(x: 256, y: 87, text: "C")
        XCTAssertEqual(c.found, c.expected)
        let none = ink(x: 56, y: 47, text: "-")
        XCTAssertEqual(none.found, none.expected)
        // Plain "lat lon" lines without a header work too.
        try "5 1\n1\t25\n".write(toFile: points, atomically: true, encoding: .utf8)
        let plain = try run(["render", map, "-o", output, "--bbox", "0,0,30,10", "--width", "300", "--points", points])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertTrue(plain.stderr.contains(", 2 points, "), plain.stderr)
    }

    func testBadPointsFilesNameTheLine() throws {
        let map = try fixtureMap()
        let cases: [(text: String, message: String)] = [
            ("lat,lon\n1,2\n\nabc,3\n", "bad.csv:4: latitude 'abc' is not a number"),
            ("1,2\n91,0\n", "bad.csv:2: latitude 91 is outside [-90, 90]"),
            ("1,2\n3,200\n", "bad.csv:2: longitude 200 is outside [-180, 180]"),
            ("# comment\n1,2\n5\n", "bad.csv:3: expected 'latitude,longitude', got '5'"),
            ("city,country\nParis,FR\n", "bad.csv:1: expected 'latitude,longitude' numbers or a header naming lat and lon columns, got 'city,country'"),
            ("name,lat,lon\nx,1\n", "bad.csv:2: expected 'latitude,longitude', got 'x,1'"),
        ]
        let file = path("bad.csv")
        for item in cases {
            try item.text.write(toFile: file, atomically: true, encoding: .utf8)
            let result = try run(["render", map, "-o", path("bad.png"), "--width", "50", "--points", file])
            XCTAssertEqual(result.status, 2, item.text)
            XCTAssertEqual(result.stderr, "gmap: \(file.replacingOccurrences(of: "bad.csv", with: ""))\(item.message)\n")
            XCTAssertFalse(FileManager.default.fileExists(atPath: path("bad.png")), "nothing is written")
        }
        let missing = try run(["render", map, "-o", path("bad.png"), "--points", path("nowhere.csv")])
        XCTAssertEqual(missing.status, 2)
        XCTAssertEqual(missing.stderr, "gmap: cannot read points file \(path("nowhere.csv"))\n")
    }

    func testLayersAndTiles() throws {
        let map = path("layered.gmap")
        let build = try run(["build", "-o", map, "--layer", "country=\(TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson").path):id",
                             "--layer", "shape=\(TestSupport.fixtures.appendingPathComponent("overlaps.geojson").path)", "-q"])
        XCTAssertEqual(build.status, 0, build.stderr)
        let country = try run(["render", map, "-o", path("country.png"), "--width", "400"])
        let shape = try run(["render", map, "-o", path("shape.png"), "--width", "400", "--layer", "shape", "--tiles"])
        XCTAssertEqual(country.status, 0, country.stderr)
        XCTAssertEqual(shape.status, 0, shape.stderr)
        let layered = try GMap(contentsOf: map)
        let shapeFeatures = layered.layer(named: "shape")?.featureCount ?? -1
        XCTAssertTrue(shape.stderr.contains(", \(shapeFeatures) features in "), shape.stderr)
        XCTAssertNotEqual(try Data(contentsOf: URL(fileURLWithPath: path("country.png"))), try Data(contentsOf: URL(fileURLWithPath: path("shape.png"))))
        // With --tiles, the legend's frame sits in the bottom-left corner.
        let picture = try image(path("shape.png"))
        XCTAssertEqual(picture.pixel(3, picture.height - 4), MapStyle.standard.tileLine)
        let unknown = try run(["render", map, "-o", path("x.png"), "--layer", "nope"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertEqual(unknown.stderr, "gmap: --layer 'nope': the map has no such layer (its layers: country, shape)\n")
    }

    func testUsageErrors() throws {
        let map = try fixtureMap()
        let cases: [(arguments: [String], message: String)] = [
            (["render", map], "gmap render needs an output file: -o OUT.png"),
            (["render", map, "other", "-o", "x.png"], "usage: gmap render [MAP] -o OUT.png (see 'gmap help render')"),
            (["render", map, "-o", "x.png", "--width", "0"], "--width '0' must be a positive whole number of pixels"),
            (["render", map, "-o", "x.png", "--width", "wide"], "--width 'wide' must be a positive whole number of pixels"),
            (["render", map, "-o", "x.png", "--bbox", "1,2,3"], "--bbox '1,2,3' must be four numbers west,south,east,north in degrees (for example -10,35,5,44)"),
            (["render", map, "-o", "x.png", "--bbox", "10,0,5,1"], "window 10,0,5,1 (west,south,east,north): west must be less than east"),
            (["render", map, "-o", "x.png", "--bbox", "0,-95,5,1"], "window 0,-95,5,1 (west,south,east,north): latitudes must lie in [-90, 90]"),
            (["render", map, "-o", "x.png", "--bbox", "-180,-90,180,90", "--width", "10000"],
             "10000 × 5000 = 50000000 pixels is more than the limit of 16777216; a width of at most 5792 fits this window"),
            (["render", path("missing.gmap"), "-o", "x.png"], "cannot open \(path("missing.gmap")): No such file or directory"),
            (["render", map, "-o", "/nonexistent-dir/x.png", "--width", "10"], "cannot write /nonexistent-dir/x.png: directory /nonexistent-dir does not exist\n"),
        ]
        for item in cases {
            let result = try run(item.arguments)
            XCTAssertEqual(result.status, 2, "\(item.arguments)")
            XCTAssertTrue(result.stderr.hasPrefix("gmap: \(item.message)"), "\(item.arguments): \(result.stderr)")
        }
        let help = try run(["help", "render"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.hasPrefix("gmap render [MAP] -o OUT.png"), help.stdout)
        XCTAssertTrue(help.stdout.contains("--tiles"))
        XCTAssertTrue(help.stdout.contains("\n  --labels  "), help.stdout)
        XCTAssertEqual(try run(["render", "--help"]).stdout, help.stdout)
    }
}
