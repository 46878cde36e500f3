import XCTest
import GMap
import GMapBuilder
import GMapTestSupport

/// Forward geocoding (issue 25) on the location maps of the Helsinki and Kotka extracts: every
/// address and street found, misspellings never answered by another street, and round trips from
/// reverse geocoding (skipped when ../shared/data/osm is absent).
final class GeocodeDatasetTests: XCTestCase {
    struct Extract {
        var name: String
        var places: OSMPlaces
        var network: StreetNetwork
        var map: GMap
    }

    static func extract(_ file: String) throws -> Extract {
        let data = try OSMPBFReader.read(path: try TestSupport.osmExtract(file).path)
        let (bytes, _) = try LocationMapBuilder.build(data)
        return Extract(name: file, places: OSMPlaces(data), network: StreetNetwork(data), map: try GMap(bytes: bytes))
    }

    static func extracts() throws -> [Extract] {
        [try extract("Helsinki.osm.pbf"), try extract("test.osm.pbf")]
    }

    /// The addresses of the extract that have a street (an address without one is not found by a street).
    static func streetAddresses(_ extract: Extract) -> [OSMAddress] {
        extract.places.addresses.filter { address in address.street.map { !NameFolding.normalized($0).isEmpty } ?? false }
    }

    static func isAddress(_ match: GeocodeMatch, street: String, number: String) -> Bool {
        match.kind == .address && NameFolding.normalized(match.thoroughfare ?? "") == NameFolding.normalized(street)
            && NameFolding.houseNumberKey(match.subThoroughfare ?? "") == NameFolding.houseNumberKey(number)
    }

    static func metres(_ match: GeocodeMatch, _ latitude: Double, _ longitude: Double) -> Double {
        Geodesic.distance(latitude: match.latitude, longitude: match.longitude, toLatitude: latitude, longitude: longitude)
    }

    /// Every address, as "street number", "number street" and "street number, postcode": the first
    /// match is that street and number, and the matches of that street and number that lead the
    /// list (an address that OSM gives several points: entrances, shops of one building) hold its
    /// point within 1 m.
    func testEveryAddressIsFoundInEachForm() throws {
        for extract in try Self.extracts() {
            let addresses = Self.streetAddresses(extract)
            var forms = 0, first = 0, failures: [String] = []
            for address in addresses {
                guard let street = address.street else { continue }
                var texts = ["\(street) \(address.houseNumber)", "\(address.houseNumber) \(street)"]
                if let code = address.postalCode { texts.append("\(street) \(address.houseNumber), \(code)") }
                for text in texts {
                    forms += 1
                    let matches = extract.map.geocode(text, limit: 200)
                    let leading = matches.prefix { Self.isAddress($0, street: street, number: address.houseNumber) }
                    guard let head = matches.first, !leading.isEmpty else {
                        failures.append("\(text): \(matches.first.map { "\($0.kind.name) \($0.name)" } ?? "nothing")")
                        continue
                    }
                    if text.contains(","), let code = address.postalCode, leading.contains(where: { $0.postalCode != code }) {
                        failures.append("\(text): an address of another postal code")
                    }
                    guard leading.contains(where: { Self.metres($0, address.latitude, address.longitude) <= 1 }) else {
                        failures.append("\(text): no match within 1 m of (\(address.latitude), \(address.longitude))")
                        continue
                    }
                    if Self.metres(head, address.latitude, address.longitude) <= 1 { first += 1 }
                }
            }
            print("\(extract.name): \(addresses.count) addresses with a street, \(forms) queries: all found, \(first) with their own point first (the others share street and number with another point, listed together first)")
            XCTAssertEqual(failures, [], "\(extract.name): \(failures.count) failures: \(failures.prefix(20))")
        }
    }

    /// Every street of the roads layer, and every street of the addresses, by its name: a street match of that name first.
    func testEveryStreetIsFoundByName() throws {
        for extract in try Self.extracts() {
            var names: [String] = []
            let roads = try XCTUnwrap(extract.map.layer(named: "roads"))
            for feature in roads.features where !names.contains(feature.property("name") ?? feature.id) { names.append(feature.property("name") ?? feature.id) }
            for address in Self.streetAddresses(extract) where !names.contains(address.street ?? "") { names.append(address.street ?? "") }
            var failures: [String] = []
            for name in names {
                let matches = extract.map.geocode(name)
                let isStreet = { (match: GeocodeMatch) in match.kind == .street && NameFolding.normalized(match.name) == NameFolding.normalized(name) }
                // A street named like an address of another ("Pohjoisesplanadi 33", an addr:street
                // in Helsinki): that address first, the street after it.
                if let head = matches.first, head.kind == .address, NameFolding.normalized(head.name) == NameFolding.normalized(name),
                   matches.contains(where: isStreet) {
                    continue
                }
                guard let head = matches.first, isStreet(head) else {
                    failures.append("\(name): \(matches.first.map { "\($0.kind.name) \($0.name)" } ?? "nothing")")
                    continue
                }
            }
            print("\(extract.name): \(names.count) streets found by name")
            XCTAssertEqual(failures, [], "\(extract.name): \(failures.prefix(20))")
        }
    }

    /// 200 addresses that the map does not have (numbers a street lacks, streets that do not exist,
    /// streets misspelled): a number the street lacks gives the street asked for first, never an
    /// address (after it may come another street that the text also names: `Galleria Esplanad,
    /// Aleksanterinkatu 44q` asks for the street OSM calls `Galleria Esplanad, Aleksanterinkatu`,
    /// and also names Aleksanterinkatu beside the shopping centre Galleria Esplanad). A street the
    /// map does not have gives nothing, or only matches marked as typos of streets within the
    /// edits ``TypoRule`` allows of the one typed; a misspelled street of a real address gives that
    /// address among them.
    func testMisspelledAndAbsentAddressesGiveNothingOrTheStreet() throws {
        let extract = try Self.extract("Helsinki.osm.pbf")
        let addresses = Self.streetAddresses(extract)
        var streets: [[UInt8]: Set<[UInt8]>] = [:]  // street key → its house-number keys
        var spelling: [[UInt8]: String] = [:]
        for address in addresses {
            let key = NameFolding.normalized(address.street ?? "")
            streets[key, default: []].insert(NameFolding.houseNumberKey(address.houseNumber))
            spelling[key] = address.street
        }
        let roads = try XCTUnwrap(extract.map.layer(named: "roads"))
        for feature in roads.features { spelling[NameFolding.normalized(feature.id)] = feature.id }
        let keys = spelling.keys.sorted { $0.lexicographicallyPrecedes($1) }
        var random = SplitMix64(seed: 25)
        var cases: [(text: String, street: [UInt8]?, typed: [UInt8]?, meant: OSMAddress?)] = []
        // Wrong numbers on real streets.
        while cases.count < 70 {
            let key = keys[random.below(keys.count)]
            let number = [String(1 + random.below(400)), "\(1 + random.below(60))\(["x", "q", "z"][random.below(3)])", "\(500 + random.below(500))"][random.below(3)]
            guard !(streets[key]?.contains(NameFolding.houseNumberKey(number)) ?? false),
                  let name = spelling[key] else { continue }
            cases.append(("\(name) \(number)", key, nil, nil))
        }
        // Streets that do not exist.
        let syllables = ["ka", "lo", "mi", "nen", "ta", "ri", "vo", "su", "pe", "hu"]
        let suffixes = ["katu", "tie", "kuja", "polku", "ranta"]
        while cases.count < 130 {
            let stem = (0..<(2 + random.below(3))).map { _ in syllables[random.below(syllables.count)] }.joined()
            let name = stem.prefix(1).uppercased() + stem.dropFirst() + suffixes[random.below(suffixes.count)]
            guard spelling[NameFolding.normalized(name)] == nil else { continue }
            cases.append(("\(name) \(1 + random.below(40))", nil, NameFolding.normalized(name), nil))
        }
        // Typos: a letter dropped, doubled, changed, or two swapped, in a real street of a real address.
        while cases.count < 200 {
            let address = addresses[random.below(addresses.count)]
            var letters = Array(address.street ?? "")
            guard letters.count > 3 else { continue }
            let at = 1 + random.below(letters.count - 2)
            switch random.below(4) {
            case 0: letters.remove(at: at)
            case 1: letters.insert(letters[at], at: at)
            case 2: letters[at] = letters[at] == "e" ? "a" : "e"
            default: letters.swapAt(at, at + 1)
            }
            let typo = String(letters)
            // Not a typo when it is another street's name (or the same key: a changed space or case).
            guard spelling[NameFolding.normalized(typo)] == nil else { continue }
            cases.append(("\(typo) \(address.houseNumber)", nil, NameFolding.normalized(typo), address))
        }
        var nothing = 0, street = 0, corrected = 0, typos = 0, failures: [String] = []
        for (text, key, typed, meant) in cases {
            let matches = extract.map.geocode(text, limit: 50)
            if matches.isEmpty { nothing += 1; continue }
            if let key, let head = matches.first, NameFolding.normalized(head.name) == key, matches.allSatisfy({ $0.kind == .street }) {
                street += 1
            } else if let typed, matches.allSatisfy({ match in
                let found = NameFolding.normalized(match.thoroughfare ?? match.name)
                return match.match == .typo && TypoRule.accepts(found, asTypoOf: typed)
            }) {
                typos += 1
                if let meant, matches.contains(where: { Self.isAddress($0, street: meant.street ?? "", number: meant.houseNumber) }) { corrected += 1 }
            } else {
                failures.append("\(text): " + matches.prefix(3).map { "\($0.kind.name) \($0.name) (\($0.match))" }.joined(separator: ", "))
            }
        }
        print("200 absent or misspelled addresses: \(nothing) nothing, \(street) the street asked for, \(typos) typos (\(corrected) of the 70 misspelled streets found with their address), \(failures.count) other")
        XCTAssertEqual(failures, [])
        XCTAssertEqual(nothing + street + typos, 200)
        // Every misspelling of one edit is within the rule: each of the 70 finds its address.
        XCTAssertEqual(corrected, 70)
    }

    /// 10,000 random points of the extract: the nearest address (reverse geocoding, as a placemark
    /// gives street and number), written as "street number" and geocoded, lands within 30 m of it.
    func testRoundTripFromReverseGeocoding() throws {
        for extract in try Self.extracts() {
            let addresses = try XCTUnwrap(extract.map.layer(named: "addresses"))
            let points = Self.streetAddresses(extract)
            let south = points.map(\.latitude).min() ?? 0, north = points.map(\.latitude).max() ?? 0
            let west = points.map(\.longitude).min() ?? 0, east = points.map(\.longitude).max() ?? 0
            var random = SplitMix64(seed: 2025)
            var trips = 0, exact = 0, within = 0, worst = 0.0, failures: [String] = [], far: [String] = []
            var uniqueTrips = 0, uniqueWithin = 0
            while trips < 10_000 {
                let latitude = south + (north - south) * random.unit(), longitude = west + (east - west) * random.unit()
                guard let nearest = addresses.nearestPoints(latitude: latitude, longitude: longitude, within: 5_000, limit: 1).first,
                      let number = nearest.feature.property("housenumber"), nearest.feature.id != number else { continue }
                trips += 1
                let text = "\(nearest.feature.id) \(number)"
                let matches = extract.map.geocode(text, limit: 100)
                let leading = matches.prefix { Self.isAddress($0, street: nearest.feature.id, number: number) }
                guard let head = leading.first else {
                    failures.append("\(text): \(matches.first.map { "\($0.kind.name) \($0.name)" } ?? "nothing")")
                    continue
                }
                if !leading.contains(where: { Self.metres($0, nearest.latitude, nearest.longitude) < 0.01 }) {
                    failures.append("\(text): the point is not among the matches of that street and number")
                }
                let distance = Self.metres(head, nearest.latitude, nearest.longitude)
                worst = max(worst, distance)
                if distance < 0.01 { exact += 1 }
                if distance <= 30 { within += 1 } else { far.append("\(text) \(Int(distance)) m") }
                // An address OSM gives at one point only: the first match is that point's.
                if leading.count == 1 {
                    uniqueTrips += 1
                    if distance <= 30 { uniqueWithin += 1 }
                }
            }
            print("\(extract.name): of them \(uniqueTrips) to an address at one point only, \(uniqueWithin) within 30 m")
            XCTAssertEqual(uniqueWithin, uniqueTrips, "an address at one point only comes back to it")
            print("\(extract.name): 10,000 round trips: the first match within 30 m \(within) times (\(exact) the very point), farthest \(Int(worst.rounded())) m; over 30 m: \(Set(far).sorted().prefix(40))")
            XCTAssertEqual(failures, [], "\(failures.prefix(10))")
            // The rest: OSM gives some addresses at several points up to 183 m apart (a building's
            // shops, its entrances); the first match is the most central of them.
            XCTAssertGreaterThanOrEqual(Double(within) / Double(trips), Self.firstWithin30m, extract.name)
        }
    }

    /// The Helsinki map with its address index hidden (as a location map built before format 3.3)
    /// gives the same matches for 300 addresses, by scanning its layer of addresses.
    func testMapsWithoutTheIndexGiveTheSameMatches() throws {
        let data = try OSMPBFReader.read(path: try TestSupport.osmExtract("Helsinki.osm.pbf").path)
        var bytes = try LocationMapBuilder.build(data).bytes
        let map = try GMap(bytes: bytes)
        let entry = try XCTUnwrap((0..<map.sections.count).first { map.sections[$0].tag == "ADDR" })
        bytes[FormatLayout.headerLength + entry * FormatLayout.sectionEntryLength] = UInt8(ascii: "X")
        let old = try GMap(bytes: bytes)
        XCTAssertNil(old.addressIndexInfo)
        let addresses = Self.streetAddresses(Extract(name: "", places: OSMPlaces(data), network: StreetNetwork(data), map: map))
        var random = SplitMix64(seed: 33)
        for _ in 0..<300 {
            let address = addresses[random.below(addresses.count)]
            for text in ["\(address.street ?? "") \(address.houseNumber)", "\(address.street ?? "") 9999", "\(address.street ?? "")"] {
                XCTAssertEqual(old.geocode(text).map { "\($0.kind.name) \($0.name) \($0.latitude) \($0.longitude)" },
                               map.geocode(text).map { "\($0.kind.name) \($0.name) \($0.latitude) \($0.longitude)" }, text)
            }
        }
    }

    /// Parts that say where a match is, on the Helsinki map.
    func testContextsOnTheHelsinkiMap() throws {
        let map = try Self.extract("Helsinki.osm.pbf").map
        func first(_ text: String) -> String? { map.geocode(text, limit: 1).first.map { "\($0.kind.name) \($0.name)" } }
        XCTAssertEqual(first("Aleksanterinkatu 52, Stockmann"), "address Aleksanterinkatu 52", "a landmark within 300 m")
        XCTAssertEqual(first("Kaartinkaupunki, Helsinki"), "place Kaartinkaupunki", "the first part names the thing")
        XCTAssertEqual(first("Helsinki"), "place Helsinki", "the city before the stations of its name")
        XCTAssertEqual(map.geocode("Helsinki", limit: 1).first?.category, "place=city")
        XCTAssertEqual(first("Mannerheimintie 5, 00100 Helsinki"), "address Mannerheimintie 5")
        XCTAssertEqual(first("Mannerheimintie 5 00100 Helsinki"), "address Mannerheimintie 5")
        XCTAssertNil(first("Mannerheimintie 5 Tampere"), "without commas every word must be explained")
        let aside = try XCTUnwrap(map.geocode("Mannerheimintie 5, Tampere, Finland").first)
        XCTAssertEqual(aside.unmatched, ["Tampere", "Finland"])
        XCTAssertNil(first("Mannerheimintie 5, 00530"), "an address of another postal code")
        XCTAssertEqual(first("Aleksanterink. 52"), "address Aleksanterinkatu 52")
        XCTAssertNil(first("Postik. 1"), "Postikatu and Postikuja: not guessed")
    }

    /// The share of round trips whose first match lies within 30 m of the address point (measured
    /// 0.854 on Helsinki, 1 on Kotka).
    static let firstWithin30m = 0.85
}
