import Foundation
import XCTest
import GMapTestSupport

/// Several maps for one placemark (issue 25, part 3): `gmap place`, `gmap query --all` and
/// `gmap find` with `--map` (repeatable), a `$GMAP_MAP` list and `--no-world`, on the Helsinki
/// location map (built here; skipped when ../shared/data/osm is absent) and a map of one state
/// made here, with exact outputs.
final class StackCommandLineTests: CommandLineTestCase {
    /// Runs the tool with `GMAP_MAP` empty unless the test sets it.
    @discardableResult
    override func run(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws -> Outcome {
        try super.run(arguments, input: input, environment: ["GMAP_MAP": ""].merging(environment) { $1 })
    }

    /// `helsinki.gmap` (gmap build --osm) and `uusimaa.gmap`: one square `state` feature, FI-18
    /// Uusimaa, around Helsinki.
    private func maps() throws -> (city: String, state: String) {
        let pbf = try TestSupport.osmExtract("Helsinki.osm.pbf")
        let city = path("helsinki.gmap"), state = path("uusimaa.gmap"), geojson = path("uusimaa.geojson")
        XCTAssertEqual(try run(["build", "--osm", pbf.path, "-o", city, "-q"]).status, 0)
        try """
        {"type":"FeatureCollection","features":[{"type":"Feature","properties":{"iso_3166_2":"FI-18","name":"Uusimaa"},\
        "geometry":{"type":"Polygon","coordinates":[[[24.5,59.9],[25.5,59.9],[25.5,60.5],[24.5,60.5],[24.5,59.9]]]}}]}
        """.write(toFile: geojson, atomically: true, encoding: .utf8)
        let built = try run(["build", "--layer", "state=\(geojson):iso_3166_2", "-o", state, "-q"])
        XCTAssertEqual(built.status, 0, built.stderr)
        return (city, state)
    }

    static let point = ["60.1690", "24.9396"]

    /// The city map's street fields, in the order gmap place prints them.
    static let cityFields = """
        thoroughfare            Mannerheimintie
        subThoroughfare         16
        postalCode              00100
        name                    Mannerheimintie kaupunkipyöräasema
        locality                Helsinki
        localityDistance        242 m
        subLocality             Keskusta

        """

    func testPlaceWithTwoMapsAndTheWorld() throws {
        let (city, state) = try maps()
        let stacked = try run(["place", "--map", city, "--map", state] + Self.point)
        XCTAssertEqual(stacked.status, 0, stacked.stderr)
        XCTAssertEqual(stacked.stdout, """
            isoCountryCode          FI
            country                 Finland
            administrativeArea      Uusimaa
            administrativeAreaCode  FI-18
            timeZone                Europe/Helsinki

            """ + Self.cityFields)
        // The same maps from $GMAP_MAP, in either order: the location map leads.
        for list in ["\(city):\(state)", "\(state):\(city)"] {
            let fromEnvironment = try run(["place"] + Self.point, environment: ["GMAP_MAP": list])
            XCTAssertEqual(fromEnvironment.stdout, stacked.stdout, list)
            XCTAssertEqual(fromEnvironment.status, 0)
        }
        // Without the world: no country name, no time zone (the state's code still gives FI).
        let alone = try run(["place", "--map", state, "--map", city, "--no-world"] + Self.point)
        XCTAssertEqual(alone.stdout, """
            isoCountryCode          FI
            administrativeArea      Uusimaa
            administrativeAreaCode  FI-18

            """ + Self.cityFields)
        // One --map: the city map and the world map.
        let one = try run(["place", "--map", city] + Self.point)
        XCTAssertEqual(one.stdout, """
            isoCountryCode          FI
            country                 Finland
            administrativeArea      Uusimaa
            administrativeAreaCode  FI-01
            subAdministrativeArea   Helsinki
            timeZone                Europe/Helsinki

            """ + Self.cityFields)
        XCTAssertEqual(try run(["place"] + Self.point, environment: ["GMAP_MAP": city + ":"]).stdout, one.stdout, "a list of one map")
        // The positional MAP: that map alone, as before; so is $GMAP_MAP naming one map.
        XCTAssertEqual(try run(["place", city] + Self.point).stdout, Self.cityFields)
        XCTAssertEqual(try run(["place"] + Self.point, environment: ["GMAP_MAP": city]).stdout, Self.cityFields)
        // At sea, far from the city: the world map's fields only.
        XCTAssertEqual(try run(["place", "--map", city, "30", "-40"]).stdout, "timeZone                Etc/GMT+3\nocean                   North Atlantic Ocean\n")
        // The shipped map given with --map is not added again.
        let world = TestSupport.shippedMap
        XCTAssertEqual(try run(["place", "--map", city, "--map", world] + Self.point).stdout, one.stdout)
    }

    func testPlaceJSONListsEveryLayerThatAnswered() throws {
        let (city, state) = try maps()
        let json = try run(["place", "--map", city, "--map", state, "--json"] + Self.point)
        XCTAssertEqual(json.status, 0, json.stderr)
        // The fields, then every layer of every map (the world map's countries with their names in other languages).
        let head = #"{"isoCountryCode":"FI","country":"Finland","administrativeArea":"Uusimaa","administrativeAreaCode":"FI-18","timeZone":"Europe/Helsinki","#
            + #""thoroughfare":"Mannerheimintie","subThoroughfare":"16","postalCode":"00100","name":"Mannerheimintie kaupunkipyöräasema","locality":"Helsinki","#
            + #""localityDistance":242.3,"subLocality":"Keskusta","layers":{"areas":[],"roads":[{"id":"Mannerheimintie","properties":{"name":"Mannerheimintie","#
            + #""class":"primary","intersections":"49,117,60,73,66,67,118,119;47,80,72,53,64,65,40,74,43"}}],"places":[{"id":"Mannerheimintie kaupunkipyöräasema","#
            + #""properties":{"category":"amenity=bicycle_rental"}}],"addresses":[{"id":"Mannerheimintie","properties":{"housenumber":"16"}}],"#
            + #""postcodes":[{"id":"00100","properties":{}}],"intersections":[],"settlements":[{"id":"Helsinki","properties":{"place":"city"}},"#
            + #"{"id":"Keskusta","properties":{"place":"neighbourhood"}}],"state":[{"id":"FI-18","properties":{"name":"Uusimaa"}}],"#
            + #""countries":[{"id":"FI","properties":{"name":"Finland","name_long":"Finland","name_en":"Finland","iso_a3":"FIN","adm0_a3":"FIN","#
        XCTAssertTrue(json.stdout.hasPrefix(head), json.stdout)
        XCTAssertTrue(json.stdout.contains(#""name:fi":"Suomi""#), json.stdout)
        XCTAssertTrue(json.stdout.hasSuffix(#""marine":[],"timezones":[{"id":"Europe/Helsinki","properties":{}}],"towns":[],"states":[]}}"# + "\n"), json.stdout)
        // One map alone: its roads answer too (the street of the thoroughfare).
        let single = try run(["place", city, "--json"] + Self.point)
        XCTAssertTrue(single.stdout.contains("\"roads\":[{\"id\":\"Mannerheimintie\""), single.stdout)
        // Two maps with the same layer names: the second map's are told apart.
        let twice = try run(["place", "--map", city, "--map", city, "--no-world", "--json"] + Self.point)
        XCTAssertTrue(twice.stdout.contains("\"settlements\":[{"), twice.stdout)
        XCTAssertTrue(twice.stdout.contains("\"roads#2\":[{\"id\":\"Mannerheimintie\""), twice.stdout)
    }

    func testQueryAllAndFindWithSeveralMaps() throws {
        let (city, state) = try maps()
        let query = try run(["query", "--all", "--map", city, "--map", state] + Self.point)
        XCTAssertEqual(query.status, 0, query.stderr)
        XCTAssertEqual(query.stdout, "areas=\troads=Mannerheimintie\tplaces=Mannerheimintie kaupunkipyöräasema\taddresses=Mannerheimintie\tpostcodes=00100\t"
            + "intersections=\tsettlements=Helsinki,Keskusta\tstate=FI-18\tcountries=FI\tmarine=\ttimezones=Europe/Helsinki\ttowns=\tstates=\n")
        let lines = try run(["query", "--all", "-", "--map", city, "--no-world"], input: "60.1690 24.9396\n30 -40\n")
        XCTAssertEqual(lines.stdout, "areas=\troads=Mannerheimintie\tplaces=Mannerheimintie kaupunkipyöräasema\taddresses=Mannerheimintie\tpostcodes=00100\t"
            + "intersections=\tsettlements=Helsinki,Keskusta\nareas=\troads=\tplaces=\taddresses=\tpostcodes=\tintersections=\tsettlements=\n")
        let miss = try run(["query", "--all", "--map", city, "--no-world", "30", "-40"])
        XCTAssertEqual(miss.status, 1)
        XCTAssertEqual(miss.stderr, "gmap: no feature of any layer contains (30, -40)\n")
        // find: exact matches of every map first, each line with its layer.
        let found = try run(["find", "--map", city, "--map", state, "uusimaa"])
        XCTAssertEqual(found.status, 0, found.stderr)
        XCTAssertEqual(found.stdout, "state\tFI-18\tUusimaa\tbbox 24.5,59.9,25.5,60.5\tlabel 60.2,25.0\n"
            + "states\tUusimaa\t\tbbox 24.90595,60.25028,24.90595,60.25028\tlabel 60.25028,24.90595\n"
            + "places\tKiinteistöliitto Uusimaa\t\tbbox 24.9364673,60.1670343,24.9364673,60.1670343\tlabel 60.1670343,24.9364673\n")
        // The world map's exact match before the city map's prefix matches.
        let finland = try run(["find", "--map", city, "finland", "--limit", "2"])
        XCTAssertEqual(finland.stdout.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).prefix(2).joined(separator: " ") },
                       ["countries FI", "places Finlandia Caviar"])
        let stateOnly = try run(["find", "uusimaa", "--layer", "state"], environment: ["GMAP_MAP": "\(city):\(state)"])
        XCTAssertEqual(stateOnly.stdout, "state\tFI-18\tUusimaa\tbbox 24.5,59.9,25.5,60.5\tlabel 60.2,25.0\n")
    }

    func testMessages() throws {
        let (city, state) = try maps()
        try assertFails(["place", city, "--map", state] + Self.point,
                        stderr: "gmap: '\(city)' and --map: give the maps either with --map (each one) or as the one MAP before the coordinates, not both\n")
        try assertFails(["place", "--no-world"] + Self.point,
                        stderr: "gmap: --no-world leaves no map: give the maps with --map FILE (or in $GMAP_MAP, separated by ':')\n")
        try assertFails(["query", "--map", city] + Self.point,
                        stderr: "gmap: --map is for several maps, which gmap query answers with --all (every layer of every map); gmap place gives their placemark\n")
        try assertFails(["query"] + Self.point, environment: ["GMAP_MAP": "\(city):\(state)"],
                        stderr: "gmap: $GMAP_MAP lists maps ('\(city):\(state)'), but gmap query reads one map: give it as MAP, or answer from every map with --all (gmap place gives the placemark)\n")
        try assertFails(["query", "--all", "--map", city, "--layer", "roads"] + Self.point,
                        stderr: "gmap: --layer answers from a layer of one map; with several maps (\(city) and the shipped world map), give that map as MAP\n")
        try assertFails(["find", "--map", city, "x", "--layer", "nope", "--no-world"],
                        stderr: "gmap: no map has a layer 'nope' (\(city)); their layers are 'areas', 'roads', 'places', 'addresses', 'postcodes', 'intersections', 'settlements'\n")
        try assertFails(["info"], environment: ["GMAP_MAP": "\(city):\(state)"],
                        stderr: "gmap: $GMAP_MAP lists maps ('\(city):\(state)'), but gmap info reads one map: give it as MAP\n")
        try assertFails(["place", "--map", path("missing.gmap")] + Self.point,
                        stderr: "gmap: cannot open \(path("missing.gmap")): No such file or directory\n")
    }
}
