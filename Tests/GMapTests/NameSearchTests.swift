import Foundation
import XCTest
import GMap
import GMapBuilder
import GMapTestSupport

/// `find` that finds (issue #14): keys without punctuation, word matches, alternative names, every
/// layer, and features that print readably.
final class NameSearchTests: XCTestCase {
    /// A square of `size` degrees at (west, 0) with string properties.
    private static func square(_ id: String, west: Double, size: Double, _ properties: [String: String]) -> SourceFeature {
        let kept = properties.sorted { $0.key < $1.key }.map { SourceFeature.KeptProperty(key: $0.key, value: $0.value) }
        return SourceFeature(id: id, properties: kept, polygons: [[[(west, 0), (west + size, 0), (west + size, size), (west, size)]]])
    }

    /// West African names, from the largest square to the smallest (feature order is by area).
    private static func africa() throws -> GMap {
        try TestSupport.build([
            square("CI", west: 0, size: 9, ["name": "Côte d'Ivoire", "admin": "Ivory Coast", "formal_en": "Republic of Ivory Coast", "abbrev": "Zz."]),
            square("GN", west: 10, size: 8, ["name": "Guinea"]),
            square("PG", west: 20, size: 7, ["name": "Papua New Guinea"]),
            square("GQ", west: 30, size: 6, ["name": "Equatorial Guinea"]),
            square("GW", west: 40, size: 5, ["name": "Guinea-Bissau"]),
        ]).map
    }

    func testKeysFoldPunctuationAndSpaces() {
        func key(_ text: String) -> String { String(decoding: NameFolding.normalized(text), as: UTF8.self) }
        XCTAssertEqual(key("Côte d'Ivoire"), "cote d ivoire")
        XCTAssertEqual(key("  CÔTE-D’IVOIRE. "), "cote d ivoire", "hyphen, typographic apostrophe, dot, spaces")
        XCTAssertEqual(key("America/Argentina/Buenos_Aires"), "america argentina buenos aires")
        XCTAssertEqual(key("Bosnia & Herzegovina (B.i.H.)"), "bosnia herzegovina b i h")
        XCTAssertEqual(key("Sa\u{0303}o\u{00A0}Tomé\u{200B}"), "sao tome", "combining mark, no-break space, zero-width space")
        XCTAssertEqual(key("東京・大阪"), "東京 大阪")
        XCTAssertEqual(key("'-_ ."), "")
        let keys = NameFolding.indexKeys(id: "CI", names: ["Côte d'Ivoire"]).map { String(decoding: $0.bytes, as: UTF8.self) }
        XCTAssertEqual(keys, ["ci", "cote d ivoire", " d ivoire", " ivoire"])
        let zone = NameFolding.wholeKeys(id: "America/Buenos_Aires", names: []).map { String(decoding: $0, as: UTF8.self) }
        XCTAssertEqual(zone, ["america buenos aires", "buenos aires"])
    }

    func testFindIgnoresPunctuationAndMatchesWordPrefixes() throws {
        let map = try Self.africa()
        for query in ["cote d ivoire", "Côte d'Ivoire", "COTE-D’IVOIRE", "ivoire", "d ivo", "ivoire cote", "côte  d'"] {
            XCTAssertEqual(map.find(query).map(\.id), ["CI"], query)
        }
        XCTAssertEqual(map.find("ivoire bissau").map(\.id), [], "every word must match a word of one name")
        XCTAssertEqual(map.find("voire").map(\.id), [], "words match by their start")
        XCTAssertEqual(map.find("'-.").map(\.id), [])
    }

    func testFindRanksExactThenPrefixThenWords() throws {
        let map = try Self.africa()
        // Exact; prefix; then word matches smallest area first.
        XCTAssertEqual(map.find("guinea").map(\.id), ["GN", "GW", "GQ", "PG"])
        XCTAssertEqual(map.find("guinea", matching: .exact).map(\.id), ["GN"])
        XCTAssertEqual(map.find("guinea", matching: .prefix).map(\.id), ["GN", "GW"])
        XCTAssertEqual(map.find("guinea", limit: 3).map(\.id), ["GN", "GW", "GQ"])
        XCTAssertEqual(map.find("gu").map(\.id), ["GW", "GN", "GQ", "PG"], "prefix matches smallest first, then word matches")
        XCTAssertEqual(map.find("g").map(\.id), ["GW", "GQ", "GN", "PG"], "the ids are prefix matches too, each feature once")
    }

    /// Natural Earth's alternative names: `admin` ("Ivory Coast"), `formal_en`, `name_en`, and `name:xx`, `*_name:xx`.
    func testAlternativeNamesAreIndexed() throws {
        let map = try Self.africa()
        XCTAssertEqual(map.find("ivory coast").map(\.id), ["CI"])
        XCTAssertEqual(map.find("republic of ivory").map(\.id), ["CI"])
        XCTAssertEqual(map.find("zz").map(\.id), [], "abbrev is not a name")
        for key in ["admin", "ADMIN", "formal_en", "FORMAL_FR", "name_en", "name:fr", "official_name:en", "brk_name"] {
            XCTAssertTrue(NameFolding.isNameKey(key), key)
        }
        for key in ["abbrev", "admin1", "formal", "sovereignt", "names", "iso_a2"] {
            XCTAssertFalse(NameFolding.isNameKey(key), key)
        }
    }

    /// `map.find` searches every layer, or one named layer; the features know their layer.
    func testFindSearchesEveryLayer() throws {
        let map = try SampleMaps.layered()
        let texas = map.find("texas")
        XCTAssertEqual(texas.map(\.id), ["US-TX"], "the state layer, not only the first")
        XCTAssertEqual(texas.first?.layerName, "state")
        XCTAssertEqual(map.find("chicago").map(\.layerName), ["timezone"])
        XCTAssertEqual(map.find("us").map(\.id), ["US", "US-TX"], "exact matches of every layer, then prefix matches")
        XCTAssertEqual(map.find("us", layer: "state").map(\.id), ["US-TX"])
        XCTAssertEqual(map.find("us", layer: "nope"), [])
        XCTAssertEqual(map.layer(named: "state")?.find("gibraltar").map(\.layerName), ["country"], "whichever layer the map reads")
    }

    /// An index whose keys follow the 2.1 rules (punctuation kept, no word keys) is still searched:
    /// its names are found from their start.
    func testIndexOfThe21RulesIsStillSearched() throws {
        var bytes = try TestSupport.build([Self.square("x", west: 0, size: 1, ["name": "cote d'ivoire"])]).bytes
        func u32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
        func put(_ value: Int, at: Int) { for shift in 0..<4 { bytes[at + shift] = UInt8((value >> (8 * shift)) & 0xFF) } }
        var sections: [String: Int] = [:]
        for entry in 0..<u32(16) {
            let at = u32(12) + entry * 32
            sections[String(decoding: bytes[at..<at + 4], as: UTF8.self)] = u32(at + 8)
        }
        let names = try XCTUnwrap(sections["NAME"]), strings = try XCTUnwrap(sections["STRS"])
        XCTAssertEqual(u32(names), 4, "x, cote d ivoire, and two word keys")
        func stringOffset(_ text: String) throws -> Int {
            let needle = Array(text.utf8)
            let index = try XCTUnwrap((strings..<bytes.count).first { Array(bytes[$0..<min($0 + needle.count, bytes.count)]) == needle })
            return index - strings
        }
        // The 2.1 keys: "cote d'ivoire" (the value itself) and "x" (the id).
        put(2, at: names)
        for (record, key) in ["cote d'ivoire", "x"].enumerated() {
            let at = names + 8 + record * 12
            put(try stringOffset(key), at: at)
            put(key.utf8.count, at: at + 4)
            put(0, at: at + 8)
        }
        let map = try GMap(bytes: bytes)
        XCTAssertEqual(map.find("cote d'ivoire", matching: .exact).map(\.id), ["x"])
        XCTAssertEqual(map.find("Cote d ivoire", matching: .exact).map(\.id), ["x"], "the query's first word finds the old key")
        XCTAssertEqual(map.find("cote").map(\.id), ["x"])
        XCTAssertEqual(map.find("ivoire").map(\.id), [], "an old index has no word keys")
    }

    /// Word keys add no string bytes: they point into their whole key.
    func testWordKeysShareTheirWholeKeysBytes() throws {
        let spaced = try TestSupport.build([Self.square("x", west: 0, size: 1, ["name": "aaaa bbbb cccc"])]).map
        let joined = try TestSupport.build([Self.square("x", west: 0, size: 1, ["name": "aaaabbbbcccc"])]).map
        XCTAssertEqual(spaced.sections.first { $0.tag == "STRS" }?.length, joined.sections.first { $0.tag == "STRS" }.map { $0.length + 2 })
        XCTAssertEqual(spaced.sections.first { $0.tag == "NAME" }?.length, 8 + 4 * 12)
    }

    func testFeaturePlacemarkAndMatchPrintReadably() throws {
        let map = try SampleMaps.layered()
        let gibraltar = try XCTUnwrap(map.find("gibraltar").first)
        XCTAssertEqual("\(gibraltar)", "Feature(id: \"GI\", name: \"Gíbraltar\", layer: \"country\", index: 0)")
        XCTAssertEqual("\([map.find("chicago").first])", "[Optional(Feature(id: \"America/Chicago\", name: nil, layer: \"timezone\", index: 0))]")
        let place = map.placemark(latitude: 31, longitude: -99)
        XCTAssertEqual("\(place)", "Placemark(latitude: 31.0, longitude: -99.0, isoCountryCode: \"US\", country: \"United States\", "
            + "administrativeArea: \"Texas\", administrativeAreaCode: \"US-TX\", timeZone: \"America/Chicago\", "
            + "answers: country [US], state [US-TX], timezone [America/Chicago])")
        let match = try XCTUnwrap(map.lookup(latitude: 32.5, longitude: -92.5, within: 1000))
        XCTAssertEqual("\(match)", "PlaceMatch(inside, 0.0 m, Feature(id: \"GI\", name: \"Gíbraltar\", layer: \"country\", index: 0))")
    }
}
