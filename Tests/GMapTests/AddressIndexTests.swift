import Foundation
import XCTest
import GMap
import GMapBuilder
import GMapTestSupport

/// The address index (`ADDR`, format 3.3, Spec/FORMAT.md 5.11) and forward geocoding on small
/// hand-made location maps: the spec's worked example byte for byte, house-number keys, query
/// words, the scan of maps without an index, `gmap verify`'s checks, and damaged indexes.
final class AddressIndexTests: XCTestCase {
    static func node(_ id: Int64, _ latitude: Double, _ longitude: Double, _ tags: [String: String] = [:]) -> OSMNode {
        OSMNode(id: id, latitudeNanodegrees: Int64((latitude * 1e9).rounded()), longitudeNanodegrees: Int64((longitude * 1e9).rounded()),
                tags: tags.sorted { $0.key < $1.key }.map { OSMTag(key: $0.key, value: $0.value) })
    }

    static func address(_ street: String?, _ number: String, _ postcode: String?) -> [String: String] {
        var tags = ["addr:housenumber": number]
        if let street { tags["addr:street"] = street }
        if let postcode { tags["addr:postcode"] = postcode }
        return tags
    }

    /// Section 5.11's example: one street, Kaivokatu, and five addresses, one of them on
    /// Mikonkatu (no road of that name) and one without a street.
    static let example: OSMData = {
        let nodes = [
            node(1, 60.1700, 24.9400), node(2, 60.1700, 24.9420),
            node(3, 60.17005, 24.9402, address("Kaivokatu", "12-14", "00100")),
            node(4, 60.17005, 24.9405, address("Kaivokatu", "1", "00100")),
            node(5, 60.16995, 24.9410, address("Kaivokatu", "12 B", "00100")),
            node(6, 60.1690, 24.9430, address("Mikonkatu", "5", "00101")),
            node(7, 60.1695, 24.9440, address(nil, "7", nil)),
        ]
        let ways = [OSMWay(id: 10, nodeIDs: [1, 2], tags: [OSMTag(key: "highway", value: "residential"), OSMTag(key: "name", value: "Kaivokatu")])]
        return OSMData(nodes: nodes, ways: ways, relations: [])
    }()

    static func exampleMap() throws -> (bytes: [UInt8], map: GMap) {
        let bytes = try LocationMapBuilder.build(example).bytes
        return (bytes, try GMap(bytes: bytes))
    }

    /// The bytes of section `tag` of `map`.
    static func section(_ tag: String, of map: GMap, in bytes: [UInt8]) throws -> [UInt8] {
        let info = try XCTUnwrap(map.sections.first { $0.tag == tag }, "no section \(tag)")
        return Array(bytes[Int(info.offset)..<Int(info.offset + info.length)])
    }

    /// The fenced block that follows `heading` in Spec/FORMAT.md.
    static func specBlock(after heading: String) throws -> [Substring] {
        let spec = try String(contentsOf: TestSupport.repositoryRoot.appendingPathComponent("Spec/FORMAT.md"), encoding: .utf8)
        let start = try XCTUnwrap(spec.range(of: heading), "Spec/FORMAT.md has no heading \(heading)")
        let rest = spec[start.upperBound...]
        let open = try XCTUnwrap(rest.range(of: "\n```"))
        let body = rest[open.upperBound...].drop { $0 != "\n" }.dropFirst()
        let close = try XCTUnwrap(body.range(of: "\n```"))
        return body[..<close.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// Every byte of `ADDR` that section 5.11's example shows (`OO  bytes  comment`, offsets in the
    /// section, hexadecimal) is the built map's, every byte is shown, and the strings it names are
    /// those the example says.
    func testTheSpecExampleIsWhatTheBuilderWrites() throws {
        let (bytes, map) = try Self.exampleMap()
        XCTAssertEqual(map.formatVersion.major, 3)
        XCTAssertEqual(map.formatVersion.minor, 3)
        XCTAssertEqual(map.layerNames, ["roads", "addresses", "postcodes"])
        let section = try Self.section("ADDR", of: map, in: bytes)

        var shown: [UInt8] = []
        for line in try Self.specBlock(after: "**Example.**") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first, first.count == 2, let offset = Int(first, radix: 16) else { continue }
            XCTAssertEqual(offset, shown.count, "5.11's example: \(line) is out of place")
            for field in fields.dropFirst() {
                guard field.count == 2, let byte = UInt8(field, radix: 16) else { break }
                shown.append(byte)
            }
        }
        XCTAssertEqual(shown, section, "Spec/FORMAT.md 5.11's example is not the ADDR the builder writes: update it")
        let strings = try Self.section("STRS", of: map, in: bytes)
        func string(at record: Int) -> String {
            let at = 16 + 16 * record
            let offset = Int(section[at]) | Int(section[at + 1]) << 8, length = Int(section[at + 4])
            return String(decoding: strings[offset..<offset + length], as: UTF8.self)
        }
        XCTAssertEqual(string(at: 0), "kaivokatu")
        XCTAssertEqual(string(at: 1), "mikonkatu")
        let addresses = try XCTUnwrap(map.layer(named: "addresses"))
        XCTAssertEqual(addresses.features.map { "\($0.id) \($0.property("housenumber") ?? "")" },
                       ["Kaivokatu 1", "Kaivokatu 12-14", "Kaivokatu 12 B", "Mikonkatu 5", "7 7"])
        XCTAssertEqual(map.addressIndexInfo, AddressIndexInfo(layer: "addresses", postcodesLayer: "postcodes", streets: 2, addresses: 4))
        XCTAssertTrue(MapVerifier(map: map).isSound, "\(MapVerifier(map: map).problems)")
    }

    /// Section 5.11's lookups by hand.
    func testTheSpecExampleLookups() throws {
        let map = try Self.exampleMap().map
        func first(_ text: String) -> String? { map.geocode(text, limit: 1).first.map { "\($0.kind.name) \($0.name)" } }
        XCTAssertEqual(first("Kaivokatu 12-14"), "address Kaivokatu 12-14")
        XCTAssertEqual(first("kaivokatu 12–14"), "address Kaivokatu 12-14")
        XCTAssertEqual(first("Kaivokatu 12"), "address Kaivokatu 12-14", "the first number of a range")
        XCTAssertEqual(first("Kaivokatu 14"), "address Kaivokatu 12-14", "the last number of a range of two")
        XCTAssertEqual(first("KAIVOKATU 12b"), "address Kaivokatu 12 B")
        XCTAssertEqual(first("12 b Kaivokatu"), "address Kaivokatu 12 B")
        XCTAssertEqual(first("Kaivokatu 13"), "street Kaivokatu", "a number the street lacks gives the street")
        XCTAssertEqual(first("Mikonkatu 5, 00101"), "address Mikonkatu 5")
        XCTAssertNil(first("Mikonkatu 5, 00100"), "an address of another postal code is ruled out")
        XCTAssertEqual(first("Mikonkatu 6"), "street Mikonkatu", "a street known only from its addresses")
        XCTAssertNil(first("Mikonkatu 7 Kaivokatu"))
        XCTAssertNil(first("Helmikatu 1"), "a street the map does not have, nor one within an edit or two of it")
        let typo = try XCTUnwrap(map.geocode("Kaivokatuu 1", limit: 1).first)
        XCTAssertEqual("\(typo.kind.name) \(typo.name) \(typo.match)", "address Kaivokatu 1 typo", "a misspelled street: marked as such")
        XCTAssertEqual(first("00101"), "postcode 00101")
        let street = try XCTUnwrap(map.geocode("Mikonkatu").first)
        XCTAssertEqual(street.kind, .street)
        XCTAssertEqual(street.latitude, 60.1690, accuracy: 1e-7)
        let address = try XCTUnwrap(map.geocode("Kaivokatu 1").first)
        XCTAssertEqual(address.thoroughfare, "Kaivokatu")
        XCTAssertEqual(address.subThoroughfare, "1")
        XCTAssertEqual(address.postalCode, "00100")
        XCTAssertEqual(address.latitude, 60.17005, accuracy: 1e-7)
        XCTAssertEqual(address.longitude, 24.9405, accuracy: 1e-7)
        XCTAssertEqual(address.placemark.thoroughfare, "Kaivokatu")
    }

    func testHouseNumberKeys() {
        func key(_ text: String) -> String { String(decoding: NameFolding.houseNumberKey(text), as: UTF8.self) }
        XCTAssertEqual(key("12a"), "12a")
        XCTAssertEqual(key("12 A"), "12a")
        XCTAssertEqual(key("12A"), "12a")
        XCTAssertEqual(key("12-14"), "12 14")
        XCTAssertEqual(key("12–14"), "12 14")
        XCTAssertEqual(key("12, 14"), "12 14")
        XCTAssertEqual(key("11 B 9"), "11b 9")
        XCTAssertEqual(key("2, 2. krs./Floor 2"), "2 2 krs floor 2")
        XCTAssertEqual(key("7 Ä"), "7a")
        XCTAssertEqual(key("7 ab"), "7 ab")
        XCTAssertEqual(key("A 12"), "a 12")
        XCTAssertEqual(key(""), "")
    }

    func testQueryWords() {
        let (words, parts) = NameFolding.queryWords(" Aleksanterink. 5 b,  00100 Helsinki ,Suomi")
        XCTAssertEqual(words.map { String(decoding: $0.bytes, as: UTF8.self) }, ["aleksanterink", "5", "b", "00100", "helsinki", "suomi"])
        XCTAssertEqual(words.map(\.part), [0, 0, 0, 1, 1, 2])
        XCTAssertEqual(words.map(\.isAbbreviated), [true, false, false, false, false, false])
        XCTAssertEqual(parts, ["Aleksanterink. 5 b", "00100 Helsinki", "Suomi"])
        // Joined by spaces, the words are the text's key as the name index makes it.
        for text in ["Côte d'Ivoire", "  a--b  c ", "Mannerheimintie 12–14", "São\u{200B}Tomé"] {
            let joined = NameFolding.queryWords(text).words.map { $0.bytes }.joined(separator: [0x20])
            XCTAssertEqual(Array(joined), NameFolding.normalized(text), text)
        }
    }

    /// A map whose `ADDR` is hidden (its tag changed, as a map built before 3.3 has none) gives the
    /// same answers by scanning the layer of addresses.
    func testMapsWithoutAnIndexGiveTheSameAnswers() throws {
        var (bytes, map) = try Self.exampleMap()
        XCTAssertNotNil(map.addressIndexInfo)
        let entry = try XCTUnwrap((0..<map.sections.count).first { map.sections[$0].tag == "ADDR" })
        bytes[FormatLayout.headerLength + entry * FormatLayout.sectionEntryLength] = UInt8(ascii: "X")
        let old = try GMap(bytes: bytes)
        XCTAssertNil(old.addressIndexInfo)
        for text in ["Kaivokatu 12-14", "Kaivokatu 12", "Kaivokatu 14", "12b kaivokatu", "Kaivokatu 13", "Mikonkatu 5, 00101", "Mikonkatu",
                     "Mikonk. 5", "Kaivok. 1", "00100", "Kaivokatu", "7"] {
            XCTAssertEqual(old.geocode(text).map { "\($0.kind.name) \($0.name) \($0.latitude) \($0.longitude)" },
                           map.geocode(text).map { "\($0.kind.name) \($0.name) \($0.latitude) \($0.longitude)" }, text)
        }
    }

    /// `gmap verify` reports an index whose keys are out of order, whose range leaves the layer or
    /// names features of another street, and whose numbers are out of order.
    func testVerifyChecksTheIndex() throws {
        let (bytes, map) = try Self.exampleMap()
        let info = try XCTUnwrap(map.sections.first { $0.tag == "ADDR" })
        let base = Int(info.offset)
        func problems(_ change: (inout [UInt8]) -> Void) throws -> [String] {
            var damaged = bytes
            change(&damaged)
            return MapVerifier(map: try GMap(bytes: damaged)).problems.map(\.description).filter { !$0.contains("CRC") }
        }
        // The two records swapped: keys out of order, and ranges out of order.
        let swapped = try problems { file in
            let first = Array(file[base + 16..<base + 32])
            file.replaceSubrange(base + 16..<base + 32, with: file[base + 32..<base + 48])
            file.replaceSubrange(base + 32..<base + 48, with: first)
        }
        XCTAssertTrue(swapped.contains { $0.contains("keys are not in strictly ascending byte order") }, "\(swapped)")
        XCTAssertTrue(swapped.contains { $0.contains("overlap or precede") }, "\(swapped)")
        // Kaivokatu's count 3 → 5: past Mikonkatu's feature and into the one without a street.
        let long = try problems { $0[base + 16 + 12] = 5 }
        XCTAssertTrue(long.contains { $0.contains("street is not the record's key") }, "\(long)")
        // A range outside the layer.
        let outside = try problems { $0[base + 16 + 12] = 50 }
        XCTAssertTrue(outside.contains { $0.contains("lie outside") }, "\(outside)")
        // The layer of addresses said to be the roads.
        let layer = try problems { $0[base + 8] = 0 }
        XCTAssertTrue(layer.contains { $0.contains("is not a layer of points") }, "\(layer)")
        // A key out of STRS.
        let key = try problems { $0[base + 16 + 3] = 0x7F }
        XCTAssertTrue(key.contains { $0.contains("lies outside STRS") }, "\(key)")
        // Opening refuses a preamble that does not fit or names a layer the file lacks.
        var refused = bytes
        refused[base + 8] = 9
        XCTAssertThrowsError(try GMap(bytes: refused))
        refused = bytes
        refused[base] = 200
        XCTAssertThrowsError(try GMap(bytes: refused))
    }

    /// Damaged indexes: every byte of `ADDR` changed in turn, and random bytes: opening, `verify`
    /// and geocoding never crash, and every address found is one that the text names.
    func testDamagedIndexesNeverGiveAWrongAddress() throws {
        let (bytes, map) = try Self.exampleMap()
        let info = try XCTUnwrap(map.sections.first { $0.tag == "ADDR" })
        var random = SplitMix64(seed: 11)
        let texts = ["Kaivokatu 12-14", "Kaivokatu 1", "Mikonkatu 5", "kaivokatu 12b", "Kaivok. 1"]
        for trial in 0..<2_000 {
            var damaged = bytes
            let at = Int(info.offset) + (trial < Int(info.length) * 8 ? trial / 8 : random.below(Int(info.length)))
            damaged[at] = trial < Int(info.length) * 8 ? damaged[at] ^ UInt8(1 << (trial % 8)) : UInt8(truncatingIfNeeded: random.next())
            guard let opened = try? GMap(bytes: damaged) else { continue }
            _ = MapVerifier(map: opened)
            _ = opened.addressIndexInfo
            for text in texts {
                for match in opened.geocode(text) where match.kind == .address {
                    XCTAssertEqual(NameFolding.normalized(match.thoroughfare ?? ""), NameFolding.normalized(text.split(separator: " ")[0].replacingOccurrences(of: ".", with: "atu")),
                                   "\(text) at byte \(at)")
                }
            }
        }
    }

    /// The `async` form, for code written for `CLGeocoder`.
    func testTheAsyncForm() async throws {
        let map = try Self.exampleMap().map
        let matches = await map.geocodeAddressString("Kaivokatu 12-14, 00100")
        XCTAssertEqual(matches.map(\.name), ["Kaivokatu 12-14"])
    }

    /// The shipped world map: towns, countries and time zones, ranked, with contexts.
    func testTheWorldMap() throws {
        let map = try GMap(contentsOf: TestSupport.shippedMap)
        func list(_ text: String, limit: Int = 10) -> [String] { map.geocode(text, limit: limit).map { "\($0.kind.name) \($0.name)" } }
        XCTAssertEqual(list("Helsinki"), ["town Helsinki", "time zone Europe/Helsinki"])
        XCTAssertEqual(list("Helsinki, Finland"), ["town Helsinki"], "a time zone is in no country")
        XCTAssertEqual(list("Finland"), ["country Finland"])
        XCTAssertEqual(list("Europe/Helsinki"), ["time zone Europe/Helsinki"])
        XCTAssertEqual(list("Baltic Sea"), ["area Baltic Sea"])
        XCTAssertEqual(list("Helsinki, Sweden"), [])
        XCTAssertEqual(list("Paris, France", limit: 1), ["town Paris"])
        let paris = try XCTUnwrap(map.geocode("Paris").first)
        XCTAssertEqual(paris.isoCountryCode, "FR", "the most populous Paris first")
        XCTAssertEqual(paris.placemark.isoCountryCode, "FR")
        // Near Illinois, its capital comes first; without a point, the most populous Springfield.
        XCTAssertEqual(map.geocode("Springfield", near: (39.8, -89.6), limit: 1).first?.latitude, 39.80172)
        XCTAssertEqual(map.geocode("Springfield", limit: 1).first?.latitude, 37.21533)
        let ivoire = try XCTUnwrap(map.geocode("ivoire").first)
        XCTAssertEqual(ivoire.isoCountryCode, "CI")
        XCTAssertEqual(ivoire.match, .words, "no whole match: names with a word starting so")
    }

    /// Geocoding never crashes on odd text, and answers nothing for text that names nothing.
    func testOddTexts() throws {
        let map = try Self.exampleMap().map
        for text in ["", " ", ",,,", "-", "12", "12 12 12", String(repeating: "a ", count: 30), String(repeating: "Kaivokatu ", count: 24) + "1",
                     "\u{0}", "🏠 1", "Kaivokatu\u{301} 1", ", Kaivokatu 1,", "1 2 3 4 5 6 7 8 9 10 11 12"] {
            _ = map.geocode(text)
        }
        XCTAssertEqual(map.geocode(", Kaivokatu 1,").first?.name, "Kaivokatu 1")
        XCTAssertTrue(map.geocode("Kaivokatu 1", limit: 0).isEmpty)
        XCTAssertTrue(map.geocode(String(repeating: "x ", count: GMap.geocodeWordLimit + 1)).isEmpty)
    }
}
