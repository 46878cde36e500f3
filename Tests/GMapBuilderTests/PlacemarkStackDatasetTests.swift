import XCTest
import GMap
import GMapBuilder
import GMapTestSupport

/// The Helsinki location map stacked on the shipped world map (issue 25, parts 3 and 4): the
/// stack's placemark against each map's own, and the location map's OSM fields against brute force
/// over the extract (skipped when ../shared/data/osm is absent).
final class PlacemarkStackDatasetTests: XCTestCase {
    /// 1,000 random points of the extract's box: every field of the stack is the city map's when
    /// it has one, else the world map's (by the groups of ``MapStack``), and its answers are the
    /// city map's layers then the world map's, the towns not searched where the city map gave a locality.
    func testTheStackIsTheCityMapsFieldsThenTheWorldMaps() throws {
        let built = try LocationMapDatasetTests.helsinki()
        let city = try GMap(bytes: built.bytes)
        let world = try GMap(contentsOf: TestSupport.shippedMap)
        let stack = MapStack([world, city])  // given world first: the location map still leads
        XCTAssertEqual(stack.maps.map(\.layerNames), [city.layerNames, world.layerNames])
        var fromCity: [String: Int] = [:], fromWorld: [String: Int] = [:]
        // One placemark of each filled again for every point (MapStack.placemark(latitude:longitude:into:)):
        // the city map's street, address and place answers must not linger from the point before.
        let cityStack = MapStack([city])
        var reusedCity = Placemark(latitude: 0, longitude: 0), reusedStack = Placemark(latitude: 0, longitude: 0)
        func count(_ field: String, _ cityValue: Any?, _ worldValue: Any?) {
            if cityValue != nil { fromCity[field, default: 0] += 1 } else if worldValue != nil { fromWorld[field, default: 0] += 1 }
        }
        for point in LocationMapDatasetTests.points(1_000, in: built.data, seed: 2_503) {
            let (latitude, longitude) = (point.latitude, point.longitude)
            let c = city.placemark(latitude: latitude, longitude: longitude)
            let w = world.placemark(latitude: latitude, longitude: longitude)
            let s = stack.placemark(latitude: latitude, longitude: longitude)
            let at = "\(latitude) \(longitude)"
            cityStack.placemark(latitude: latitude, longitude: longitude, into: &reusedCity)
            XCTAssertEqual(reusedCity.comparableFields, c.comparableFields, at)
            stack.placemark(latitude: latitude, longitude: longitude, into: &reusedStack)
            XCTAssertEqual(reusedStack.comparableFields, s.comparableFields, at)
            XCTAssertEqual(s.isoCountryCode, c.isoCountryCode ?? w.isoCountryCode, at)
            XCTAssertEqual(s.country, c.country ?? (w.isoCountryCode == nil || w.isoCountryCode == s.isoCountryCode ? w.country : nil), at)
            let cityState = c.administrativeArea != nil || c.administrativeAreaCode != nil
            XCTAssertEqual(s.administrativeArea, cityState ? c.administrativeArea : w.administrativeArea, at)
            XCTAssertEqual(s.administrativeAreaCode, cityState ? c.administrativeAreaCode : w.administrativeAreaCode, at)
            XCTAssertEqual(s.timeZone, c.timeZone ?? w.timeZone, at)
            XCTAssertEqual(s.thoroughfare, c.thoroughfare ?? w.thoroughfare, at)
            XCTAssertEqual(s.subThoroughfare, c.thoroughfare != nil ? c.subThoroughfare : w.subThoroughfare, at)
            XCTAssertEqual(s.postalCode, c.postalCode ?? w.postalCode, at)
            XCTAssertEqual(s.name, c.name ?? w.name, at)
            XCTAssertEqual(s.locality, c.locality ?? w.locality, at)
            XCTAssertEqual(s.localityDistance, c.locality != nil ? c.localityDistance : w.localityDistance, at)
            XCTAssertEqual(s.subLocality, c.subLocality ?? w.subLocality, at)
            XCTAssertEqual(s.inlandWater, c.inlandWater ?? w.inlandWater, at)
            XCTAssertEqual(s.ocean, s.isoCountryCode != nil || s.country != nil ? nil : c.ocean ?? w.ocean, at)
            XCTAssertEqual(s.areasOfInterest, c.areasOfInterest.isEmpty ? w.areasOfInterest : c.areasOfInterest, at)
            // Every layer of both maps, the city map's first.
            var expected = c.answers.map { ($0.layer, 0, $0.features.map(\.id)) }
            expected += w.answers.map { ($0.layer, 1, $0.layer == "towns" && c.locality != nil ? [] : $0.features.map(\.id)) }
            XCTAssertEqual(s.answers.map(\.layer), expected.map(\.0), at)
            XCTAssertEqual(s.answers.map(\.map), expected.map(\.1), at)
            XCTAssertEqual(s.answers.map { $0.features.map(\.id) }, expected.map(\.2), at)
            for (field, cityValue, worldValue) in [("isoCountryCode", c.isoCountryCode, w.isoCountryCode), ("timeZone", c.timeZone, w.timeZone),
                                                   ("thoroughfare", c.thoroughfare, w.thoroughfare), ("postalCode", c.postalCode, w.postalCode),
                                                   ("locality", c.locality, w.locality), ("subLocality", c.subLocality, w.subLocality),
                                                   ("ocean", c.ocean, w.ocean), ("inlandWater", c.inlandWater, w.inlandWater)] {
                count(field, cityValue, worldValue)
            }
        }
        print("stack of Helsinki and the world, 1,000 points: from the city map \(fromCity.sorted { $0.key < $1.key }), from the world map \(fromWorld.sorted { $0.key < $1.key })")
        XCTAssertGreaterThan(fromWorld["timeZone"] ?? 0, 990, "the world map gives the time zone")
        XCTAssertGreaterThan(fromCity["thoroughfare"] ?? 0, 500, "the city map gives the street")
        XCTAssertEqual(fromCity["locality"], 1_000, "Helsinki's city node is within 10 km of the whole extract")
        XCTAssertGreaterThan(fromCity["subLocality"] ?? 0, 990)
    }

    /// The location map's locality and subLocality against ``SettlementOracle`` (the extract's
    /// place nodes and areas), at random points of the extract's box and of the box 12 km around
    /// it (where the radii decide): 0 differences, points within 5 cm of a tie skipped.
    func testLocalityAndSubLocalityAgainstBruteForce() throws {
        let built = try LocationMapDatasetTests.helsinki()
        let map = try GMap(bytes: built.bytes)
        let oracle = SettlementOracle(places: built.places)
        let settlements = built.places.places.filter { $0.source.kind == .node && $0.settlement != nil }
        XCTAssertEqual(settlements.map(\.name).sorted(), ["Hakaniemi", "Helsinki", "Kaartinkaupunki", "Kaisaniemi", "Keskusta", "Kluuvi", "Siltasaari"])
        var points = LocationMapDatasetTests.points(20_000, in: built.data, seed: 2_504)
        // And 20,000 points up to about 12 km (0.11° north–south, 0.22° east–west) around the centre.
        var random = SplitMix64(state: 2_505)
        points += (0..<20_000).map { _ in (60.17 + 0.22 * (random.unit() - 0.5), 24.945 + 0.44 * (random.unit() - 0.5)) }
        var compared = 0, skipped = 0, differ = 0, withLocality = 0, withSubLocality = 0
        for point in points {
            guard let expected = oracle.expected(latitude: point.latitude, longitude: point.longitude) else { skipped += 1; continue }
            let placemark = map.placemark(latitude: point.latitude, longitude: point.longitude)
            compared += 1
            if expected.locality != nil { withLocality += 1 }
            if expected.subLocality != nil { withSubLocality += 1 }
            let distanceDiffers = zip(placemark.localityDistance.map { [$0] } ?? [], expected.localityDistance.map { [$0] } ?? []).contains { abs($0 - $1) > 0.05 }
                || (placemark.localityDistance == nil) != (expected.localityDistance == nil)
            if placemark.locality != expected.locality || placemark.subLocality != expected.subLocality || placemark.inlandWater != expected.inlandWater || distanceDiffers {
                differ += 1
                if differ <= 5 { XCTFail("\(point): map \(placemark.locality ?? "-") \(placemark.localityDistance ?? -1) \(placemark.subLocality ?? "-"), brute force \(expected)") }
            }
        }
        print("OSM locality: \(compared) points as brute force (\(withLocality) with a locality, \(withSubLocality) with a subLocality), \(skipped) within 5 cm of a tie, \(differ) differ")
        XCTAssertEqual(differ, 0)
        XCTAssertGreaterThan(withLocality, compared / 2)
        XCTAssertLessThan(withLocality, compared, "some points lie beyond the city's 10 km")
        XCTAssertLessThan(withSubLocality, withLocality, "the suburbs' radii are smaller")
    }

    /// The thoroughfare and house number against brute force over the extract's streets and
    /// addresses: the nearest street within 20 m, else the street of the nearest address within
    /// 30 m that has one; then the number of the nearest address on that street within 30 m.
    /// Points within 3 cm of the 20 m limit or of a tie between streets, and within 5 cm of the
    /// 30 m limit or of a tie between addresses, are skipped.
    func testSubThoroughfareAgainstBruteForce() throws {
        let built = try LocationMapDatasetTests.helsinki()
        let map = try GMap(bytes: built.bytes)
        let segments = LocationMapDatasetTests.segments(of: built.network)
        let addresses = built.places.addresses
        var compared = 0, skipped = 0, differ = 0, numbered = 0, fromAddress = 0
        for point in LocationMapDatasetTests.points(20_000, in: built.data, seed: 2_506) {
            let streets = LocationMapDatasetTests.streets(near: point, segments: segments, reach: 22)
            if let first = streets.first, abs(first.distance - 20) < 0.03 || (streets.count > 1 && streets[1].distance - first.distance < 0.03) {
                skipped += 1
                continue
            }
            let near = addresses.map { address in
                (address, Geodesic.distance(latitude: point.latitude, longitude: point.longitude, toLatitude: address.latitude, longitude: address.longitude))
            }.filter { $0.1 <= 30.05 }.sorted { $0.1 < $1.1 }
            if near.contains(where: { abs($0.1 - 30) < 0.05 }) { skipped += 1; continue }
            let within = near.filter { $0.1 <= 30 }
            var thoroughfare = streets.first.flatMap { $0.distance < 20 ? $0.name : nil }
            if thoroughfare == nil {
                let withStreet = within.filter { $0.0.street != nil }
                if withStreet.count > 1, withStreet[1].1 - withStreet[0].1 < 0.05, withStreet[1].0.street != withStreet[0].0.street { skipped += 1; continue }
                thoroughfare = withStreet.first?.0.street
                if thoroughfare != nil { fromAddress += 1 }
            }
            let onStreet = within.filter { $0.0.street != nil && $0.0.street == thoroughfare }
            if onStreet.count > 1, onStreet[1].1 - onStreet[0].1 < 0.05, onStreet[1].0.houseNumber != onStreet[0].0.houseNumber { skipped += 1; continue }
            let number = onStreet.first?.0.houseNumber
            let placemark = map.placemark(latitude: point.latitude, longitude: point.longitude)
            compared += 1
            if number != nil { numbered += 1 }
            if placemark.thoroughfare != thoroughfare || placemark.subThoroughfare != number {
                differ += 1
                if differ <= 5 { XCTFail("\(point): map \(placemark.thoroughfare ?? "-") \(placemark.subThoroughfare ?? "-"), brute force \(thoroughfare ?? "-") \(number ?? "-")") }
            }
        }
        print("subThoroughfare: \(compared) points as brute force (\(numbered) with a house number, \(fromAddress) streets from an address), \(skipped) within a tie or a limit, \(differ) differ")
        XCTAssertEqual(differ, 0)
        XCTAssertGreaterThan(numbered, compared / 10)
        XCTAssertGreaterThan(fromAddress, 0)
    }
}
