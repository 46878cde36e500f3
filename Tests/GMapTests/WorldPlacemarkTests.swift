import Foundation
import GMap
import GMapBuilder
import XCTest
import GMapTestSupport

/// The shipped world map (Sources/GMapWorld/Resources/world.gmap, in the repository): its placemark on
/// the known places of Fixtures/known-places.csv, and fields left empty where a layer is missing.
final class WorldPlacemarkTests: XCTestCase {
    static let world = TestSupport.shippedMap

    func testTheShippedMapHasItsFourLayersCountriesFirst() throws {
        let map = try GMap(contentsOf: Self.world)
        XCTAssertEqual(map.layerNames, ["countries", "marine", "timezones", "towns"])
        XCTAssertEqual(map.lookup(latitude: 36.14, longitude: -5.35)?.id, "GI")   // the first layer answers
        XCTAssertLessThanOrEqual(map.byteCount, 8_000_000)
        XCTAssertEqual(map.layer(named: "towns")?.geometryKind, .points)
    }

    func testKnownPlaces() throws {
        let map = try GMap(contentsOf: Self.world)
        let text = try String(contentsOf: TestSupport.fixtures.appendingPathComponent("known-places.csv"), encoding: .utf8)
        var rows = 0
        for line in text.split(separator: "\n") where !line.hasPrefix("#") && !line.isEmpty {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            XCTAssertEqual(fields.count, 6, String(line))
            guard fields.count == 6, let latitude = Double(fields[0]), let longitude = Double(fields[1]) else { continue }
            rows += 1
            let place = map.placemark(latitude: latitude, longitude: longitude)
            func expected(_ text: String) -> String? { text == "-" ? nil : text }
            XCTAssertEqual(place.isoCountryCode, expected(fields[2]), "country at \(line)")
            XCTAssertEqual(place.ocean ?? place.inlandWater, expected(fields[3]), "water at \(line)")
            XCTAssertEqual(place.timeZone, expected(fields[4]), "zone at \(line)")
            XCTAssertEqual(place.locality, expected(fields[5]), "town at \(line)")
            XCTAssertEqual(place.locality == nil, place.localityDistance == nil)
            if let distance = place.localityDistance { XCTAssertLessThanOrEqual(distance, Placemark.localityRadius) }
            XCTAssertNil(place.administrativeArea, "no state layer in the shipped map")
        }
        XCTAssertGreaterThanOrEqual(rows, 60)
    }

    func testTheIssueExamples() throws {
        let map = try GMap(contentsOf: Self.world)
        let atSea = map.placemark(latitude: 30, longitude: -40)
        XCTAssertEqual(atSea.ocean, "North Atlantic Ocean")
        XCTAssertEqual(atSea.timeZone, "Etc/GMT+3")
        XCTAssertNil(atSea.isoCountryCode)
        XCTAssertNil(atSea.locality)
        // Kehl is 500 m away and German; Strasbourg, across the Rhine, is nearer to some of Kehl's streets.
        let kehl = map.placemark(latitude: 48.5700, longitude: 7.8150)
        XCTAssertEqual(kehl.isoCountryCode, "DE")
        XCTAssertEqual(kehl.locality, "Kehl")
        let caspian = map.placemark(latitude: 42, longitude: 50.5)
        XCTAssertEqual(caspian.inlandWater, "Caspian Sea")
        XCTAssertNil(caspian.ocean)
        XCTAssertTrue(map.placemark(latitude: .nan, longitude: 0).isEmpty)
        XCTAssertTrue(map.placemark(latitude: 91, longitude: 0).isEmpty)
    }

    /// A map without a layer leaves that layer's fields empty: never an error.
    func testAMissingLayerLeavesItsFieldEmpty() throws {
        var countries = LayeredMapBuilder()
        var polygons = try MapBuilder(options: BuildOptions())
        try polygons.add(SourceFeature(id: "XX", polygons: [[[(0, 0), (10, 0), (10, 10), (0, 10)]]]))
        try countries.addLayer(named: "countries", polygons)
        let map = try GMap(bytes: try countries.finish().bytes)
        let place = map.placemark(latitude: 5, longitude: 5)
        XCTAssertEqual(place.isoCountryCode, "XX")
        XCTAssertNil(place.ocean)
        XCTAssertNil(place.inlandWater)
        XCTAssertNil(place.locality)
        XCTAssertNil(place.localityDistance)
        XCTAssertNil(place.timeZone)
    }

    /// The nearest town against a brute-force search over every town of the layer, with the
    /// country filter: the same town (or one at the same distance) on random points, uniform on
    /// the sphere and near towns. `GMAP_ORACLE_POINTS` sets the number (default 3,000, 4 s; 1,000,000
    /// take about 17 minutes, brute force being 17,225 distances a point).
    func testNearestTownAgainstBruteForce() throws {
        let map = try GMap(contentsOf: Self.world)
        guard let towns = map.layer(named: "towns") else { return XCTFail("no towns layer") }
        var all: [(latitude: Double, longitude: Double, code: String?, name: String)] = []
        for feature in towns.features {
            guard let point = feature.labelPoint else { continue }
            all.append((point.latitude, point.longitude, feature.property("country_code"), feature.id))
        }
        XCTAssertEqual(all.count, towns.featureCount)
        let count = Int(ProcessInfo.processInfo.environment["GMAP_ORACLE_POINTS"] ?? "") ?? 3_000
        var random = SystemRandomNumberGenerator()
        var checked = 0, filled = 0
        for step in 0..<count {
            var latitude: Double, longitude: Double
            if step % 2 == 0 {  // uniform on the sphere
                latitude = asin(Double.random(in: -1...1, using: &random)) * 180 / .pi
                longitude = Double.random(in: -180..<180, using: &random)
            } else {  // within about 60 km of a town
                let town = all[Int.random(in: 0..<all.count, using: &random)]
                latitude = max(-90, min(90, town.latitude + Double.random(in: -0.5...0.5, using: &random)))
                longitude = town.longitude + Double.random(in: -0.5...0.5, using: &random)
                if longitude >= 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
            }
            let place = map.placemark(latitude: latitude, longitude: longitude)
            var best: (distance: Double, index: Int)?
            for (index, town) in all.enumerated() where place.isoCountryCode == nil || town.code == place.isoCountryCode {
                let distance = Geodesic.distance(latitude: latitude, longitude: longitude, toLatitude: town.latitude, longitude: town.longitude)
                if distance <= Placemark.localityRadius, best.map({ distance < $0.distance }) ?? true { best = (distance, index) }
            }
            checked += 1
            if let best {
                filled += 1
                XCTAssertNotNil(place.locality, "(\(latitude), \(longitude)): brute force finds \(all[best.index].name) at \(best.distance) m")
                if let distance = place.localityDistance {
                    XCTAssertEqual(distance, best.distance, accuracy: 0.01, "(\(latitude), \(longitude)): \(place.locality ?? "-") against \(all[best.index].name)")
                }
            } else {
                XCTAssertNil(place.locality, "(\(latitude), \(longitude)): no town within the radius, but \(place.locality ?? "")")
            }
        }
        print("towns: \(checked) points, \(filled) with a town within the radius, all as brute force")
        XCTAssertEqual(checked, count)
        XCTAssertGreaterThan(filled, count / 3)
    }
}
