import Foundation
import GMap
import GMapBuilder
import XCTest
import GMapTestSupport

/// The shipped world map (Sources/GMapWorld/Resources/world.gmap, in the repository): its placemark on
/// the known places of Fixtures/known-places.csv, and fields left empty where a layer is missing.
final class WorldPlacemarkTests: XCTestCase {
    static let world = TestSupport.shippedMap

    func testTheShippedMapHasItsFiveLayersCountriesFirst() throws {
        let map = try GMap(contentsOf: Self.world)
        XCTAssertEqual(map.layerNames, ["countries", "marine", "timezones", "towns", "states"])
        XCTAssertEqual(map.lookup(latitude: 36.14, longitude: -5.35)?.id, "GI")   // the first layer answers
        XCTAssertLessThanOrEqual(map.byteCount, 16_000_000)
        XCTAssertEqual(map.layer(named: "towns")?.geometryKind, .points)
        XCTAssertNotNil(map.layer(named: "towns")?.lexiconKeyCount, "the towns are named compact points (3.6)")
    }

    func testKnownPlaces() throws {
        let map = try GMap(contentsOf: Self.world)
        let text = try String(contentsOf: TestSupport.fixtures.appendingPathComponent("known-places.csv"), encoding: .utf8)
        var rows = 0
        for line in text.split(separator: "\n") where !line.hasPrefix("#") && !line.isEmpty {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            XCTAssertEqual(fields.count, 7, String(line))
            guard fields.count == 7, let latitude = Double(fields[0]), let longitude = Double(fields[1]) else { continue }
            rows += 1
            let place = map.placemark(latitude: latitude, longitude: longitude)
            func expected(_ text: String) -> String? { text == "-" ? nil : text }
            XCTAssertEqual(place.isoCountryCode, expected(fields[2]), "country at \(line)")
            XCTAssertEqual(place.ocean ?? place.inlandWater, expected(fields[3]), "water at \(line)")
            XCTAssertEqual(place.timeZone, expected(fields[4]), "zone at \(line)")
            XCTAssertEqual(place.locality, expected(fields[5]), "town at \(line)")
            XCTAssertEqual(place.locality == nil, place.localityDistance == nil)
            if let distance = place.localityDistance { XCTAssertLessThanOrEqual(distance, Placemark.localityRadius) }
            XCTAssertEqual(place.administrativeArea, expected(fields[6]), "state at \(line)")
            XCTAssertEqual(place.administrativeArea == nil, place.administrativeAreaCode == nil)
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

    /// A stack of the one map (which keeps its layers' roles and its polygon features' texts, and
    /// answers `gmap place -`) gives every field and every answer as `GMap.placemark`, which finds
    /// them on each call: points uniform on the sphere and near towns.
    func testAStackOfOneMapAnswersAsTheMap() throws {
        let map = try GMap(contentsOf: Self.world)
        let stack = MapStack([map])
        guard let towns = map.layer(named: "towns") else { return XCTFail("no towns layer") }
        var random = SplitMix64(seed: 26_04)
        let count = TestSupport.underSanitizer ? 300 : 20_000
        var withLocality = 0, atSea = 0
        // One placemark filled again for every point, as a batch does (MapStack.placemark(latitude:longitude:into:)).
        var reused = Placemark(latitude: 0, longitude: 0)
        for step in 0..<count {
            var latitude = asin(random.unit() * 2 - 1) * 180 / .pi, longitude = random.unit() * 360 - 180
            if step % 2 == 1, let town = towns.feature(at: random.below(towns.featureCount))?.labelPoint {
                latitude = max(-90, min(90, town.latitude + (random.unit() - 0.5) * 0.5))
                longitude = town.longitude + (random.unit() - 0.5) * 0.5
            }
            let one = map.placemark(latitude: latitude, longitude: longitude), kept = stack.placemark(latitude: latitude, longitude: longitude)
            let fields: [(String, String?, String?)] = [
                ("isoCountryCode", one.isoCountryCode, kept.isoCountryCode), ("country", one.country, kept.country),
                ("timeZone", one.timeZone, kept.timeZone), ("ocean", one.ocean, kept.ocean), ("inlandWater", one.inlandWater, kept.inlandWater),
                ("locality", one.locality, kept.locality), ("administrativeArea", one.administrativeArea, kept.administrativeArea),
            ]
            for (name, expected, got) in fields { XCTAssertEqual(got, expected, "\(name) at \(latitude), \(longitude)") }
            stack.placemark(latitude: latitude, longitude: longitude, into: &reused)
            XCTAssertEqual(reused.comparableFields, one.comparableFields, "reused at \(latitude), \(longitude)")
            XCTAssertEqual(kept.localityDistance, one.localityDistance, "at \(latitude), \(longitude)")
            XCTAssertEqual(kept.answers.map { $0.layer }, one.answers.map { $0.layer })
            XCTAssertEqual(kept.answers.map { $0.features.map(\.index) }, one.answers.map { $0.features.map(\.index) }, "at \(latitude), \(longitude)")
            if one.locality != nil { withLocality += 1 }
            if one.ocean != nil { atSea += 1 }
        }
        XCTAssertGreaterThan(withLocality, count / 4)
        XCTAssertGreaterThan(atSea, count / 10)
    }

    /// `map.placemark` keeps the layers' roles with the map's bytes after the first call: its
    /// features are the map's own (equal to its lookups'), they outlive the map, and the map is still
    /// unmapped once nothing refers to it (what it keeps must not keep it alive). Linux: the mappings
    /// are counted in /proc/self/maps.
    func testAFreshPlacemarkKeepsItsRolesWithoutKeepingTheMap() throws {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("placemark-roles-\(getpid()).gmap")
        try? FileManager.default.removeItem(at: copy)
        try FileManager.default.copyItem(at: URL(fileURLWithPath: Self.world), to: copy)
        defer { try? FileManager.default.removeItem(at: copy) }
        func mappings() -> Int? {
            guard let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) else { return nil }
            return maps.split(separator: "\n").filter { $0.hasSuffix(copy.path) }.count
        }
        var kept: [Feature] = []
        do {
            let map = try GMap(contentsOf: copy.path)
            for (latitude, longitude) in [(48.8566, 2.3522), (36.14, -5.35), (-33.87, 151.21)] {
                let place = map.placemark(latitude: latitude, longitude: longitude)
                let country = try XCTUnwrap(place.features(in: "countries").first)
                XCTAssertEqual(country, map.lookup(latitude: latitude, longitude: longitude), "the map's own feature")
                XCTAssertEqual(place.features(in: "timezones"), map.layer(named: "timezones")?.lookupAll(latitude: latitude, longitude: longitude))
                kept += place.answers.flatMap { $0.features }
            }
            if let count = mappings() { XCTAssertGreaterThanOrEqual(count, 1, "the map is mapped") }
        }
        // The features keep the bytes alive, and read them.
        XCTAssertEqual(kept.first?.id, "FR")
        XCTAssertTrue(kept.contains { $0.id == "Australia/Sydney" })
        if let count = mappings() { XCTAssertGreaterThanOrEqual(count, 1, "the features keep the map") }
        kept = []
        if let count = mappings() { XCTAssertEqual(count, 0, "the map is unmapped once nothing refers to it") }
    }

    /// The roles are found once under a lock: placemarks from several threads at once, on a map
    /// just opened, answer as one thread does (ThreadSanitizer checks the sharing in CI).
    func testFreshPlacemarksFromManyThreadsAgree() throws {
        let points: [(Double, Double)] = (0..<400).map { (step: Int) -> (Double, Double) in (Double(step % 160) - 80, Double(step * 37 % 360) - 180) }
        let stack = MapStack([try GMap(contentsOf: Self.world)])
        let expected = points.map { stack.placemark(latitude: $0.0, longitude: $0.1).comparableFields }
        let map = try GMap(contentsOf: Self.world)
        let differences = LockedCounter()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for (index, point) in points.enumerated() where index % 8 == thread || thread == 0 {
                if map.placemark(latitude: point.0, longitude: point.1).comparableFields != expected[index] { differences.add() }
            }
        }
        XCTAssertEqual(differences.value, 0)
    }

    /// The locality against brute force under its rule (``Placemark/fillLocality(from:)``): of the
    /// towns of the point's country (every town at sea) at most 1.25 times as far as the nearest,
    /// which lies within 50 km, or within their own reach, the most populous, then the nearer, then
    /// the lower index. Points
    /// uniform on the sphere and near towns; `GMAP_ORACLE_POINTS` sets the number (default 3,000).
    func testLocalityAgainstBruteForce() throws {
        let map = try GMap(contentsOf: Self.world)
        guard let towns = map.layer(named: "towns") else { return XCTFail("no towns layer") }
        var all: [(latitude: Double, longitude: Double, code: String?, name: String, population: Int)] = []
        for feature in towns.features {
            guard let point = feature.labelPoint else { continue }
            all.append((point.latitude, point.longitude, feature.property("country_code"), feature.id,
                        feature.property("population").flatMap { Int($0) } ?? 0))
        }
        XCTAssertEqual(all.count, towns.featureCount)
        XCTAssertGreaterThan(all.count, 170_000, "all of cities1000")
        let count = Int(ProcessInfo.processInfo.environment["GMAP_ORACLE_POINTS"] ?? "") ?? (TestSupport.underSanitizer ? 150 : 3_000)
        var random = SplitMix64(seed: 2026_11_26)
        var checked = 0, filled = 0, preferred = 0
        for step in 0..<count {
            var latitude: Double, longitude: Double
            if step % 2 == 0 {  // uniform on the sphere
                latitude = asin(random.unit() * 2 - 1) * 180 / .pi
                longitude = random.unit() * 360 - 180
            } else {  // within about 60 km of a town
                let town = all[random.below(all.count)]
                latitude = max(-90, min(90, town.latitude + random.unit() - 0.5))
                longitude = town.longitude + random.unit() - 0.5
                if longitude >= 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
            }
            let place = map.placemark(latitude: latitude, longitude: longitude)
            // Towns of the country within the radius (a cheap latitude test first), with their distances.
            var near: [(index: Int, distance: Double)] = []
            for (index, town) in all.enumerated() where abs(town.latitude - latitude) < 0.6
                && (place.isoCountryCode == nil || town.code == place.isoCountryCode) {
                let distance = Geodesic.distance(latitude: latitude, longitude: longitude, toLatitude: town.latitude, longitude: town.longitude)
                if distance <= Placemark.localityRadius * Placemark.localityPreference { near.append((index, distance)) }
            }
            checked += 1
            guard let nearest = near.filter({ $0.distance <= Placemark.localityRadius }).min(by: { ($0.distance, $0.index) < ($1.distance, $1.index) }) else {
                XCTAssertNil(place.locality, "(\(latitude), \(longitude)): no town within the radius, but \(place.locality ?? "")")
                continue
            }
            filled += 1
            let reach = nearest.distance * Placemark.localityPreference
            let chosen = near.filter { $0.distance <= reach || $0.distance <= Placemark.townReach(population: all[$0.index].population) }.min { a, b in
                (-all[a.index].population, a.distance, a.index) < (-all[b.index].population, b.distance, b.index)
            } ?? nearest
            if chosen.index != nearest.index { preferred += 1 }
            XCTAssertEqual(place.locality, all[chosen.index].name, "(\(latitude), \(longitude))")
            XCTAssertEqual(place.localityDistance ?? -1, chosen.distance, accuracy: 0.01, "(\(latitude), \(longitude)): \(place.locality ?? "-")")
        }
        print("towns: \(checked) points, \(filled) with a town within the radius, \(preferred) given a larger town, all as brute force")
        XCTAssertEqual(checked, count)
        XCTAssertGreaterThan(filled, count / 3)
        if count >= 1_000 { XCTAssertGreaterThan(preferred, 0, "the rule's preference for a larger town shows") }
    }

    /// Where people live: on 100,000 points uniform on land (the countries layer answers), the
    /// shares whose locality lies within 20 km and within 50 km (at least 25 % and 48 %: all of
    /// GeoNames cities1000 puts a place within those distances of 26 % and 50 %).
    func testLocalityReachOnLand() throws {
        let map = try GMap(contentsOf: Self.world)
        let count = TestSupport.underSanitizer ? 5_000 : 100_000
        var random = SplitMix64(seed: 20)
        var land = 0, within20 = 0, within50 = 0
        while land < count {
            let latitude = asin(random.unit() * 2 - 1) * 180 / .pi, longitude = random.unit() * 360 - 180
            guard map.lookup(latitude: latitude, longitude: longitude) != nil else { continue }
            land += 1
            guard let distance = map.placemark(latitude: latitude, longitude: longitude).localityDistance else { continue }
            if distance <= 20_000 { within20 += 1 }
            if distance <= 50_000 { within50 += 1 }
        }
        let share20 = Double(within20) / Double(land), share50 = Double(within50) / Double(land)
        print(String(format: "locality reach: %d land points, within 20 km %.1f %%, within 50 km %.1f %%", land, share20 * 100, share50 * 100))
        XCTAssertGreaterThanOrEqual(share20, 0.25)
        XCTAssertGreaterThanOrEqual(share50, 0.48)
    }
}

/// A count shared by threads.
private final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func add() { lock.withLock { count += 1 } }
}
