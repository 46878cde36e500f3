import Foundation
import XCTest
import GMap
import GMapBuilder
import GMapTestSupport

/// `gmap geocode`: exact output, JSON, exit codes and messages, on a small hand-made location map
/// (one street and five addresses) and on the shipped world map; `gmap info` and `gmap verify` on
/// a map with an address index.
final class GeocodeCommandLineTests: CommandLineTestCase {
    /// Runs the tool with `GMAP_MAP` empty, so that a command without a map uses the shipped one.
    @discardableResult
    override func run(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws -> Outcome {
        try super.run(arguments, input: input, environment: ["GMAP_MAP": ""].merging(environment) { $1 })
    }

    static func node(_ id: Int64, _ latitude: Double, _ longitude: Double, _ tags: [String: String] = [:]) -> OSMNode {
        OSMNode(id: id, latitudeNanodegrees: Int64((latitude * 1e9).rounded()), longitudeNanodegrees: Int64((longitude * 1e9).rounded()),
                tags: tags.sorted { $0.key < $1.key }.map { OSMTag(key: $0.key, value: $0.value) })
    }

    /// Kaivokatu (a road) with 1, 12-14 and 12 B (00100), Mikonkatu 5 (00101, no road) and a café.
    private func streetMap() throws -> String {
        let nodes = [
            Self.node(1, 60.1700, 24.9400), Self.node(2, 60.1700, 24.9420),
            Self.node(3, 60.17005, 24.9402, ["addr:street": "Kaivokatu", "addr:housenumber": "12-14", "addr:postcode": "00100"]),
            Self.node(4, 60.17005, 24.9405, ["addr:street": "Kaivokatu", "addr:housenumber": "1", "addr:postcode": "00100"]),
            Self.node(5, 60.16995, 24.9410, ["addr:street": "Kaivokatu", "addr:housenumber": "12 B", "addr:postcode": "00100"]),
            Self.node(6, 60.1690, 24.9430, ["addr:street": "Mikonkatu", "addr:housenumber": "5", "addr:postcode": "00101"]),
            Self.node(7, 60.1701, 24.9415, ["name": "Café Kaivo", "amenity": "cafe"]),
        ]
        let ways = [OSMWay(id: 10, nodeIDs: [1, 2], tags: [OSMTag(key: "highway", value: "residential"), OSMTag(key: "name", value: "Kaivokatu")])]
        let bytes = try LocationMapBuilder.build(OSMData(nodes: nodes, ways: ways, relations: [])).bytes
        let path = temporary.appendingPathComponent("street.gmap").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testAddressesStreetsAndPlaces() throws {
        let map = try streetMap()
        var result = try run(["geocode", map, "Kaivokatu 12-14"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "address\tKaivokatu 12-14\t60.17005,24.9402\tpostcode 00100\n")
        XCTAssertEqual(result.stderr, "")
        // The first number of the range, in the other order, with the postal code.
        result = try run(["geocode", map, "12", "kaivokatu,", "00100"])
        XCTAssertEqual(result.stdout, "address\tKaivokatu 12-14\t60.17005,24.9402\tpostcode 00100\n")
        // A number the street lacks: the street, its middle vertex and its box.
        result = try run(["geocode", map, "Kaivokatu 99"])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stdout, "street\tKaivokatu\t60.17,24.942\tbbox 24.94,60.17,24.942,60.17\n")
        // A place, and a part the map knows nothing of, left aside with a note.
        result = try run(["geocode", map, "cafe kaivo, Tampere"])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stdout, "place\tCafé Kaivo\t60.1701,24.9415\tamenity=cafe\n")
        XCTAssertEqual(result.stderr, "gmap: the map knows nothing of 'Tampere': left aside\n")
        // --near: distances in whole metres; --limit.
        result = try run(["geocode", map, "Kaivokatu", "--near", "60.17,24.94", "--limit", "1"])
        XCTAssertEqual(result.stdout, "street\tKaivokatu\t60.17,24.942\tbbox 24.94,60.17,24.942,60.17\t111 m\n")
        // JSON.
        result = try run(["geocode", map, "Mikonkatu 5", "--json"])
        XCTAssertEqual(result.stdout, #"[{"kind":"address","name":"Mikonkatu 5","latitude":60.169,"longitude":24.943,"bbox":[24.943,60.169,24.943,60.169],"layer":"addresses","id":"Mikonkatu","match":"exact","thoroughfare":"Mikonkatu","subThoroughfare":"5","postalCode":"00101"}]"# + "\n")
        result = try run(["geocode", map, "Mikonkatu 5, Tampere", "--near", "60.17 24.94", "--json"])
        XCTAssertEqual(result.stdout, #"[{"kind":"address","name":"Mikonkatu 5","latitude":60.169,"longitude":24.943,"bbox":[24.943,60.169,24.943,60.169],"layer":"addresses","id":"Mikonkatu","match":"exact","thoroughfare":"Mikonkatu","subThoroughfare":"5","postalCode":"00101","distance_m":200.4,"unmatched":["Tampere"]}]"# + "\n")
    }

    func testNothingMatchesAndBadUsage() throws {
        let map = try streetMap()
        // A street the map does not have, nor one within an edit or two of it: nothing.
        var result = try run(["geocode", map, "Helmikatu 12"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderr, "gmap: nothing in \(map) matches 'Helmikatu 12'\n")
        // A misspelt street: the address, marked as spelled so.
        result = try run(["geocode", map, "Kaivokatuu 12"])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stdout, "address\tKaivokatu 12-14\t60.17005,24.9402\tpostcode 00100\t(spelled so)\n")
        result = try run(["geocode", map, "Mikonkatu 5, 00100", "--json"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, "[]\n")
        try assertFails(["geocode", map, "--limit", "0", "Kaivokatu"], stderr: "gmap: --limit '0' is not a whole number ≥ 1\n")
        try assertFails(["geocode", map, "Kaivokatu", "--near", "91,24"], stderr: "gmap: --near: latitude 91 is outside [-90, 90]; latitude comes first: did you mean 24 91?\n")
        try assertFails(["geocode", map, "--", "-,."], stderr: "gmap: '-,.' is only punctuation and spaces: nothing to look for\n")
        try assertFails(["geocode"], stderr: "gmap: usage: gmap geocode [MAP | --map FILE ...] TEXT [--near LAT,LON] [--region LAT,LON,M] [--limit N] [--json] (see 'gmap help geocode')\n")
        try assertFails(["geocode", temporary.appendingPathComponent("absent.gmap").path, "Kaivokatu"],
                        stderr: "gmap: cannot open \(temporary.appendingPathComponent("absent.gmap").path): No such file or directory\n")
    }

    /// On the shipped world map: towns by any of their names, states, countries, qualified names
    /// in any order, typos, and coordinates; the table of examples of issue 35.
    func testTheWorldMap() throws {
        func first(_ text: String) throws -> String {
            let result = try run(["geocode", text, "--limit", "1"])
            XCTAssertEqual(result.status, 0, "\(text): \(result.stderr)")
            return result.stdout.trimmingCharacters(in: .newlines)
        }
        XCTAssertEqual(try first("Helsinki, Finland"), "town\tHelsinki\t60.16952,24.93545\tFI\tUusimaa")
        // A country's name or code matching the whole text comes first, in any of its languages.
        XCTAssertEqual(try first("Gibraltar"), "country\tGibraltar\t36.129293,-5.3485495\tGI\tbbox -5.3583868,36.1105004,-5.3387735,36.1411197")
        XCTAssertTrue(try first("Deutschland").hasPrefix("country\tGermany\t"))
        XCTAssertTrue(try first("USA").hasPrefix("country\tUnited States\t"))
        XCTAssertTrue(try first("DEU").hasPrefix("country\tGermany\t"))
        XCTAssertTrue(try first("Suomi").hasPrefix("country\tFinland\t"))
        // Other names, shown with the one that matched.
        XCTAssertEqual(try first("New York"), "town\tNew York City\t40.71427,-74.00597\tUS\tNY\t(as New York)")
        XCTAssertEqual(try first("Peking"), "town\tBeijing\t39.9075,116.39723\tCN\tBeijing\t(as Peking)")
        XCTAssertEqual(try first("NYC"), "town\tNew York City\t40.71427,-74.00597\tUS\tNY\t(as NYC)")
        XCTAssertEqual(try first("München"), "town\tMunich\t48.13743,11.57549\tDE\tBavaria\t(as München)")
        // Qualified names: by state name or code, country name or code, with commas or without.
        XCTAssertEqual(try first("Cupertino, CA USA"), "town\tCupertino\t37.323,-122.03218\tUS\tCA")
        XCTAssertEqual(try first("Portland, Oregon"), "town\tPortland\t45.52345,-122.67621\tUS\tOR")
        XCTAssertEqual(try first("Paris, Texas"), "town\tParis\t33.66094,-95.55551\tUS\tTX")
        XCTAssertEqual(try first("Austin TX"), "town\tAustin\t30.26715,-97.74306\tUS\tTX")
        XCTAssertTrue(try first("Wien, Österreich").hasPrefix("town\tVienna\t48.20849,16.37208\tAT\t"))
        XCTAssertTrue(try first("California").hasPrefix("state\tCalifornia\t"))
        // A code no state has is left aside, with a note.
        let london = try run(["geocode", "London, ON, Canada", "--limit", "1"])
        XCTAssertEqual(london.stdout, "town\tLondon\t42.98339,-81.23304\tCA\tOntario\n")
        XCTAssertEqual(london.stderr, "gmap: the map knows nothing of 'ON': left aside\n")
        // A typo, marked so; coordinates answer as the point.
        XCTAssertEqual(try first("Lodnon"), "town\tLondon\t51.50853,-0.12574\tGB\tEngland\t(spelled so)")
        XCTAssertEqual(try first("60.1690, 24.9396"), "coordinates\tHelsinki\t60.169,24.9396\tFI\tUusimaa")
        // JSON says which name matched, and the state's fields.
        let json = try run(["geocode", "Peking", "--limit", "1", "--json"])
        XCTAssertEqual(json.stdout, #"[{"kind":"town","name":"Beijing","latitude":39.9075,"longitude":116.39723,"bbox":[116.39723,39.9075,116.39723,39.9075],"layer":"towns","id":"Beijing","match":"exact","matchedName":"Peking","isoCountryCode":"CN","administrativeArea":"Beijing","administrativeAreaCode":"CN-22"}]"# + "\n")
        let result = try run(["geocode", "Helsinki, Sweden"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.hasPrefix("gmap: nothing in "), result.stderr)
    }

    /// Several maps as one: a location map's street and house number, qualified by the world
    /// map's town and country; the address in fields; a region to prefer.
    func testStackedAndStructured() throws {
        let map = try streetMap()
        var result = try run(["geocode", "--map", map, "Kaivokatu 1, Helsinki, Finland"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "address\tKaivokatu 1\t60.17005,24.9405\tpostcode 00100\n")
        XCTAssertEqual(result.stderr, "")
        result = try run(["geocode", "--map", map, "--street", "Kaivokatu 1", "--city", "Helsinki", "--country", "Suomi"])
        XCTAssertEqual(result.stdout, "address\tKaivokatu 1\t60.17005,24.9405\tpostcode 00100\n")
        // The city map alone knows nothing of Finland: left aside, as before.
        result = try run(["geocode", map, "--street", "Kaivokatu 1", "--country", "Finland"])
        XCTAssertEqual(result.stderr, "gmap: the map knows nothing of 'Finland': left aside\n")
        // Another town's street is ruled out by the town.
        XCTAssertEqual(try run(["geocode", "--map", map, "Kaivokatu 1, Tampere"]).status, 1)
        // --region: of the towns named Paris, the one in the region first.
        result = try run(["geocode", "Paris", "--region", "33.66,-95.55,50000", "--limit", "1"])
        XCTAssertEqual(result.stdout, "town\tParis\t33.66094,-95.55551\tUS\tTX\t522 m\n")
        try assertFails(["geocode", "Paris", "--region", "33.66,-95.55"], stderr: "gmap: --region '33.66,-95.55' must be LAT,LON,METRES (a point and a radius above 0 in metres)\n")
        try assertFails(["geocode", map, "Kaivokatu 1", "--city", "Helsinki"], stderr: "gmap: give the address either as TEXT or in fields (--street, --city, …), not both\n")
    }

    func testInfoAndVerifyShowTheIndex() throws {
        let map = try streetMap()
        let info = try run(["info", map])
        XCTAssertTrue(info.stdout.contains("format        3.3, "), info.stdout)
        XCTAssertTrue(info.stdout.contains("address index 2 streets, 4 addresses of layer addresses, postal codes in layer postcodes\n"), info.stdout)
        XCTAssertTrue(info.stdout.contains("  ADDR  offset"), info.stdout)
        let verify = try run(["verify", map])
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
        // The layer of addresses exports as before: every address, in the index's order.
        let out = temporary.appendingPathComponent("addresses.geojson").path
        XCTAssertEqual(try run(["export", map, "-o", out, "--layer", "addresses", "-q"]).status, 0)
        let exported = try String(contentsOfFile: out, encoding: .utf8)
        XCTAssertEqual(exported.components(separatedBy: "\"type\":\"Feature\"").count - 1, 4)
        XCTAssertTrue(exported.contains(#""id":"Kaivokatu","properties":{"housenumber":"1"}"#), exported)
    }
}
