import Foundation
import GMap
import GMapBuilder
import XCTest
import GMapTestSupport

/// Forward geocoding and the state on the shipped world map: the held-out names of
/// Tests/Data/typed-names.tsv (at least 95 % right first), the state rule against a brute force
/// over every town, and CLGeocoder's shapes (a region, an address in fields, a stack).
final class WorldGeocodeTests: XCTestCase {
    static let world = TestSupport.shippedMap

    /// One case of Tests/Data/typed-names.tsv.
    struct TypedName {
        var category: String, text: String, kind: String, expected: String, note: String
    }

    static func typedNames() throws -> [TypedName] {
        let url = TestSupport.repositoryRoot.appendingPathComponent("Tests/Data/typed-names.tsv")
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        return lines.dropFirst().compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 5 else { return nil }
            return TypedName(category: fields[0], text: fields[1], kind: fields[2], expected: fields[3], note: fields[4])
        }
    }

    /// Whether the first match is the place the test set expects (``TypedName/expected``: a town
    /// `NAME|CC[|ADMIN1]`, a country `CC`, a state `CC|ADMIN1`, a street or an address by name).
    static func isExpected(_ match: GeocodeMatch?, _ typed: TypedName) -> Bool {
        guard let match else { return false }
        let expected = typed.expected.split(separator: "|").map(String.init)
        switch typed.kind {
        case "town":
            return match.kind == .town && match.name == expected[0] && match.isoCountryCode == expected[1]
                && (expected.count < 3 || match.administrativeAreaCode == "\(expected[1])-\(expected[2])")
        case "country": return match.kind == .country && match.isoCountryCode == expected[0]
        case "state": return match.kind == .state && match.administrativeAreaCode == "\(expected[0])-\(expected[1])"
        case "street": return match.kind == .street && match.name == typed.expected
        case "address": return match.kind == .address && match.name == typed.expected
        default: return false
        }
    }

    /// The held-out test set: the place meant first for at least 95 % of the names (street and
    /// address rows on the Helsinki location map stacked on the world map; skipped without ../shared).
    func testTypedNames() throws {
        let world = try GMap(contentsOf: Self.world)
        var helsinki: MapStack?
        if let pbf = try? TestSupport.osmExtract("Helsinki.osm.pbf") {
            let bytes = try LocationMapBuilder.build(try OSMPBFReader.read(path: pbf.path)).bytes
            helsinki = MapStack([try GMap(bytes: bytes), world])
        }
        var right: [String: (Int, Int)] = [:], failures: [String] = []
        for typed in try Self.typedNames() {
            let first: GeocodeMatch?
            if typed.kind == "street" || typed.kind == "address" {
                guard let helsinki else { continue }
                first = helsinki.geocode(typed.text, limit: 1).first
            } else {
                first = world.geocode(typed.text, limit: 1).first
            }
            let ok = Self.isExpected(first, typed)
            right[typed.category, default: (0, 0)].0 += ok ? 1 : 0
            right[typed.category, default: (0, 0)].1 += 1
            if !ok { failures.append("\(typed.category) '\(typed.text)': \(first.map { "\($0.kind.name) \($0.name) \($0.administrativeAreaCode ?? $0.isoCountryCode ?? "")" } ?? "nothing"), expected \(typed.expected)") }
        }
        let total = right.values.reduce((0, 0)) { ($0.0 + $1.0, $0.1 + $1.1) }
        for (category, counts) in right.sorted(by: { $0.key < $1.key }) {
            print("typed names, \(category): \(counts.0) of \(counts.1)")
        }
        print("typed names: \(total.0) of \(total.1) right first (\(String(format: "%.1f", 100 * Double(total.0) / Double(max(1, total.1)))) %)" + (helsinki == nil ? "; street rows skipped: ../shared/data/osm absent" : ""))
        for failure in failures { print("  " + failure) }
        XCTAssertGreaterThanOrEqual(total.1, helsinki == nil ? 500 : 540)
        XCTAssertGreaterThanOrEqual(Double(total.0), 0.95 * Double(total.1), "\(failures.count) wrong: \(failures.prefix(12))")
    }

    /// The towns of the shipped map as the brute force reads them: point, country, state code,
    /// state and county.
    struct Town {
        var latitude: Double, longitude: Double
        var state: String?, name: String?, county: String?
    }

    /// The state rule (``Placemark/fillAdministration(_:record:country:reusing:)``) against a brute
    /// force over every town: for points uniform on the sphere that have a country, the nearest
    /// town of that country (geodesic distance, ties to the lower feature index, within 1,350 km)
    /// gives the state and county, the state as the USPS code in the US and as its name elsewhere.
    func testTheStateRuleAgainstBruteForce() throws {
        let world = try GMap(contentsOf: Self.world)
        let towns = try XCTUnwrap(world.layer(named: "towns"))
        var byCountry: [String: [(index: Int, town: Town)]] = [:]
        for feature in towns.features {
            guard let point = feature.labelPoint, let country = feature.property("country_code") else { continue }
            byCountry[country, default: []].append((feature.index, Town(latitude: point.latitude, longitude: point.longitude, state: feature.property("admin1_code"),
                                                                        name: feature.property("admin1"), county: feature.property("admin2"))))
        }
        var random = SplitMix64(seed: 35_2)
        // 2,000 under a sanitizer (a debug build: 20,000 took 160 s under ASan).
        let wanted = TestSupport.underSanitizer ? 2_000 : TestSupport.count("GMAP_ORACLE_POINTS", quick: 20_000, long: 20_000)
        var checked = 0, far = 0, differences: [String] = []
        var stack = Placemark(latitude: 0, longitude: 0)
        let reused = MapStack([world])
        while checked < wanted {
            let latitude = asin(random.unit() * 2 - 1) * 180 / .pi, longitude = random.unit() * 360 - 180
            let place = world.placemark(latitude: latitude, longitude: longitude)
            guard let country = place.isoCountryCode else { continue }
            checked += 1
            var best: (distance: Double, index: Int, town: Town)?
            for (index, town) in byCountry[country] ?? [] {
                let distance = Geodesic.distance(latitude: latitude, longitude: longitude, toLatitude: town.latitude, longitude: town.longitude)
                if best.map({ (distance, index) < ($0.distance, $0.index) }) ?? true { best = (distance, index, town) }
            }
            var expected: (state: String?, code: String?, county: String?) = (nil, nil, nil)
            if let best, best.distance <= Placemark.stateSearchRadii.last ?? 0, let code = best.town.state {
                expected = (country == "US" ? code : best.town.name ?? code, country + "-" + code, best.town.county)
                if best.distance > Placemark.localityRadius { far += 1 }
            }
            // A placemark filled again through a stack gives the same fields (its strings reused).
            reused.placemark(latitude: latitude, longitude: longitude, into: &stack)
            for found in [place, stack] where found.administrativeArea != expected.state || found.administrativeAreaCode != expected.code
                || found.subAdministrativeArea != expected.county {
                differences.append("(\(latitude), \(longitude)) \(country): \(found.administrativeAreaCode ?? "-") \(found.administrativeArea ?? "-") \(found.subAdministrativeArea ?? "-"), expected \(expected.code ?? "-") \(expected.state ?? "-") \(expected.county ?? "-")")
            }
        }
        print("state rule: \(checked) points in a country, \(far) of them more than 50 km from a town of it, \(differences.count) differences")
        XCTAssertEqual(differences.prefix(10).map { $0 }, [], "\(differences.count) differences")
    }

    /// CLGeocoder's shapes: a region to prefer, an address in fields, placemarks with the match's
    /// fields, and a stack of a location map on the world map.
    func testTheCLGeocoderShapes() async throws {
        let world = try GMap(contentsOf: Self.world)
        let texas = GeocodeRegion(latitude: 33.66, longitude: -95.55, radius: 50_000)
        let paris = await world.geocodeAddressString("Paris", in: texas, limit: 2)
        XCTAssertEqual(paris.first?.administrativeArea, "TX")
        XCTAssertEqual(paris.first?.locality, "Paris")
        XCTAssertEqual(paris.first?.isoCountryCode, "US")
        let france = await world.geocodeAddressString("Paris", in: nil, limit: 1)
        XCTAssertEqual(france.first?.isoCountryCode, "FR")
        let fields = await world.geocodePostalAddress(PostalAddress(city: "Springfield", state: "Illinois", country: "USA"))
        XCTAssertEqual(fields.first?.administrativeArea, "IL")
        XCTAssertEqual(fields.first?.country, "United States")
        let country = await world.geocodeAddressString("Deutschland", in: nil, limit: 1)
        XCTAssertEqual(country.first?.country, "Germany")
        XCTAssertNil(country.first?.locality)
        // Typed coordinates answer with the point.
        let point = world.geocode("48.14, 11.58").first
        XCTAssertEqual(point?.kind, .coordinates)
        XCTAssertEqual(point?.administrativeArea, "Bavaria")
        XCTAssertEqual(point?.latitude, 48.14)
    }

    /// Every other name of the shipped map's towns, as the map spells it, finds its town among its
    /// layer's exact matches; and as a geocoding text, among the first ten unless more towns share it.
    func testEveryOtherNameFindsItsTown() throws {
        let world = try GMap(contentsOf: Self.world)
        let towns = try XCTUnwrap(world.layer(named: "towns"))
        var names: [(feature: Int, name: String)] = []
        towns.forEachOtherName { feature, name in
            names.append((feature.index, name))
            return true
        }
        XCTAssertGreaterThan(names.count, 150_000)
        var random = SplitMix64(seed: 352)
        let sample = TestSupport.longTests ? names : (0..<5_000).map { _ in names[random.below(names.count)] }
        var missing: [String] = [], firstTen = 0
        for (feature, name) in sample {
            let found = towns.findMatches(name, matching: .exact)
            if !found.contains(where: { $0.feature.index == feature }) { missing.append(name) }
            if world.geocode(name, limit: 10).contains(where: { $0.feature.layerName == "towns" && $0.feature.index == feature }) || found.count > 10 { firstTen += 1 }
        }
        print("other names: \(names.count); of \(sample.count) tried, \(sample.count - missing.count) find their town, \(firstTen) among geocode's first ten (or shared by more than ten towns)")
        XCTAssertEqual(missing.prefix(10).map { $0 }, [])
        XCTAssertGreaterThanOrEqual(Double(firstTen), 0.99 * Double(sample.count))
    }
}
