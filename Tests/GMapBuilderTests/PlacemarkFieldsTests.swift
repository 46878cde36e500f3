import XCTest
import GMap
import GMapBuilder
import GMapTestSupport

/// A location map's placemark fields from OSM (issue 25, part 4) and a ``MapStack`` of it over a
/// small world-like map (part 3), on a town made here: settlements as nodes and as areas, water
/// areas of the three kinds, addresses with and without a street.
final class PlacemarkFieldsTests: XCTestCase {
    static func node(_ id: Int64, _ latitude: Double, _ longitude: Double, _ tags: [String: String] = [:]) -> OSMNode {
        OSMNode(id: id, latitudeNanodegrees: Int64((latitude * 1e9).rounded()), longitudeNanodegrees: Int64((longitude * 1e9).rounded()),
                tags: tags.sorted { $0.key < $1.key }.map { OSMTag(key: $0.key, value: $0.value) })
    }

    static func tags(_ tags: [String: String]) -> [OSMTag] {
        tags.sorted { $0.key < $1.key }.map { OSMTag(key: $0.key, value: $0.value) }
    }

    /// The town: a street along 60° N from 25.00° to 25.01° E, six settlement nodes, five areas
    /// (closed ways) and a reservoir (a multipolygon relation), three addresses.
    static let town: OSMData = {
        var nodes = [
            node(1, 60.0, 25.0), node(2, 60.0, 25.01),
            node(10, 60.05, 25.0, ["place": "city", "name": "Bigcity"]),
            node(11, 60.0, 25.08, ["place": "town", "name": "Smalltown"]),
            node(12, 59.99, 25.0, ["place": "village", "name": "Pikkukylä"]),
            node(13, 60.0, 25.02, ["place": "suburb", "name": "Esikaupunki"]),
            node(14, 60.005, 25.0, ["place": "quarter", "name": "Kortteli"]),
            node(15, 60.0, 25.005, ["place": "neighbourhood", "name": "Naapurusto"]),
            node(16, 60.0001, 25.002, ["addr:housenumber": "7", "addr:street": "Testikatu"]),
            node(17, 60.0003, 25.005, ["addr:housenumber": "9"]),
            node(18, 60.00045, 25.0051, ["addr:housenumber": "11", "addr:street": "Testikatu", "addr:postcode": "00990"]),
        ]
        var ways = [OSMWay(id: 100, nodeIDs: [1, 2], tags: tags(["highway": "residential", "name": "Testikatu"]))]
        var next: Int64 = 1000
        /// A closed square way from (south, west) of `size` degrees (`width` east–west), tagged.
        func square(_ id: Int64, south: Double, west: Double, size: Double, width: Double? = nil, _ tagged: [String: String]) {
            let corners = [(south, west), (south, west + (width ?? size)), (south + size, west + (width ?? size)), (south + size, west)]
            var ids: [Int64] = []
            for (latitude, longitude) in corners {
                nodes.append(node(next, latitude, longitude))
                ids.append(next)
                next += 1
            }
            ways.append(OSMWay(id: id, nodeIDs: ids + [ids[0]], tags: tags(tagged)))
        }
        square(200, south: 59.98, west: 24.98, size: 0.05, ["place": "town", "name": "Kaupunkialue"])
        square(201, south: 60.001, west: 25.001, size: 0.002, ["place": "suburb", "name": "Sisäalue"])
        square(202, south: 60.0015, west: 25.0015, size: 0.001, ["amenity": "school", "place": "neighbourhood", "name": "Koulu"])
        square(203, south: 60.01, west: 25.01, size: 0.01, ["natural": "water", "name": "Järvi"])
        square(204, south: 59.995, west: 25.0, size: 0.001, width: 0.01, ["waterway": "riverbank", "name": "Joki"])
        square(205, south: 60.04, west: 25.04, size: 0.005, [:])
        let relation = OSMRelation(id: 300, members: [OSMMember(kind: .way, id: 205, role: "outer")],
                                   tags: tags(["type": "multipolygon", "landuse": "reservoir", "name": "Allas"]))
        return OSMData(nodes: nodes, ways: ways, relations: [relation])
    }()

    static func townMap() throws -> GMap {
        try GMap(bytes: LocationMapBuilder.build(town).bytes)
    }

    func testSettlementsAndWaterAreKeptWithTheirKinds() throws {
        let places = OSMPlaces(Self.town)
        XCTAssertEqual(places.areas.map(\.name), ["Kaupunkialue", "Sisäalue", "Koulu", "Järvi", "Joki", "Allas"])
        XCTAssertEqual(places.areas.map { $0.settlement ?? "-" }, ["town", "suburb", "neighbourhood", "-", "-", "-"])
        XCTAssertEqual(places.areas.map(\.isWater), [false, false, false, true, true, true])
        XCTAssertEqual(places.areas.map(\.category), ["place=town", "place=suburb", "amenity=school", "natural=water", "waterway=riverbank", "landuse=reservoir"])
        let map = try Self.townMap()
        XCTAssertEqual(map.layerNames, ["areas", "roads", "places", "addresses", "postcodes", "settlements"])
        let settlements = try XCTUnwrap(map.layer(named: "settlements"))
        XCTAssertEqual((0..<settlements.featureCount).compactMap { settlements.feature(at: $0).map { "\($0.id) \($0.property("place") ?? "-")" } },
                       ["Bigcity city", "Smalltown town", "Pikkukylä village", "Esikaupunki suburb", "Kortteli quarter", "Naapurusto neighbourhood"])
        let school = try XCTUnwrap(map.find("koulu").first)
        XCTAssertEqual(school.property("place"), "neighbourhood", "an area whose category is another key keeps its place")
        XCTAssertEqual(map.find("joki").first?.property("water"), "inland")
        XCTAssertNil(map.find("kaupunkialue").first?.property("water"))
        XCTAssertEqual(Placemark.settlementRadii.map(\.place), ["city", "town", "village", "suburb", "quarter", "neighbourhood"])
        XCTAssertEqual(Placemark.settlementRadii.map(\.metres), [10_000, 5_000, 2_000, 2_000, 1_000, 500])
    }

    /// Each field where one rule decides it (distances worked out by hand in the comments).
    func testLocalityFromTheSmallestAreaElseTheNearestNodeWithinItsKindsRadius() throws {
        let map = try Self.townMap()
        func place(_ latitude: Double, _ longitude: Double) -> Placemark { map.placemark(latitude: latitude, longitude: longitude) }
        // Inside the school (a neighbourhood), the suburb area and the town area.
        let school = place(60.002, 25.002)
        XCTAssertEqual(school.locality, "Kaupunkialue")
        XCTAssertEqual(school.localityDistance, 0)
        XCTAssertEqual(school.subLocality, "Koulu")
        XCTAssertEqual(school.areasOfInterest, ["Koulu", "Sisäalue", "Kaupunkialue"])
        XCTAssertNil(school.inlandWater)
        // In the lake: the suburb node 1.69 km away (within 2 km); the quarter is 1.39 km (over 1 km).
        let lake = place(60.015, 25.015)
        XCTAssertEqual(lake.inlandWater, "Järvi")
        XCTAssertEqual(lake.locality, "Kaupunkialue")
        XCTAssertEqual(lake.subLocality, "Esikaupunki")
        XCTAssertEqual(lake.features(in: "settlements").map(\.id), ["Esikaupunki"], "the node that gave a field answers")
        // On the river; the neighbourhood node is 548 m away (over 500 m).
        let river = place(59.9955, 25.009)
        XCTAssertEqual(river.inlandWater, "Joki")
        XCTAssertEqual(river.subLocality, "Esikaupunki")
        XCTAssertEqual(place(60.0425, 25.0425).inlandWater, "Allas", "a reservoir drawn as a multipolygon")
        // Outside the town area: the city node 1.11 km away.
        let north = place(60.04, 25.0)
        XCTAssertEqual(north.locality, "Bigcity")
        XCTAssertEqual(try XCTUnwrap(north.localityDistance), 1_114, accuracy: 3)
        XCTAssertNil(north.subLocality)
        // The town node 1.12 km away rather than the city 7.9 km away.
        XCTAssertEqual(place(60.0, 25.1).locality, "Smalltown")
        // The village 2.30 km away is beyond its 2 km, the town 6.0 km beyond its 5 km: the city, 8.9 km away.
        XCTAssertEqual(place(59.97, 24.99).locality, "Bigcity")
        // Beyond every node's radius: none.
        XCTAssertNil(place(60.0, 24.75).locality)
    }

    func testTheHouseNumberComesFromTheStreetsNearestAddress() throws {
        let map = try Self.townMap()
        // 28 m from the street: no street within 20 m. The nearest address (9, 6 m away) has no
        // street; the nearest with one is 11 Testikatu, 23 m away.
        let near = map.placemark(latitude: 60.00025, longitude: 25.005)
        XCTAssertEqual(near.thoroughfare, "Testikatu")
        XCTAssertEqual(near.subThoroughfare, "11")
        XCTAssertEqual(near.postalCode, "00990")
        XCTAssertEqual(near.features(in: "addresses").map { $0.property("housenumber") ?? "-" }, ["11"])
        XCTAssertEqual(near.features(in: "postcodes").map(\.id), ["00990"])
        // On the street, 11 m from number 7.
        let onStreet = map.placemark(latitude: 60.0, longitude: 25.002)
        XCTAssertEqual(onStreet.thoroughfare, "Testikatu")
        XCTAssertEqual(onStreet.subThoroughfare, "7")
        XCTAssertEqual(onStreet.features(in: "roads").map(\.id), ["Testikatu"], "the street answers in its layer")
    }

    /// The town's settlement fields against the brute force of ``SettlementOracle`` at random points.
    func testSettlementsAgainstBruteForce() throws {
        let map = try Self.townMap()
        let oracle = SettlementOracle(places: OSMPlaces(Self.town))
        var random = SplitMix64(state: 25)
        var compared = 0, skipped = 0
        for _ in 0..<20_000 {
            let latitude = 59.95 + 0.15 * random.unit(), longitude = 24.9 + 0.25 * random.unit()
            guard let expected = oracle.expected(latitude: latitude, longitude: longitude) else { skipped += 1; continue }
            let placemark = map.placemark(latitude: latitude, longitude: longitude)
            XCTAssertEqual(placemark.locality, expected.locality, "\(latitude) \(longitude)")
            XCTAssertEqual(placemark.subLocality, expected.subLocality, "\(latitude) \(longitude)")
            XCTAssertEqual(placemark.inlandWater, expected.inlandWater, "\(latitude) \(longitude)")
            if let distance = expected.localityDistance {
                XCTAssertEqual(try XCTUnwrap(placemark.localityDistance), distance, accuracy: 0.05)
            }
            compared += 1
        }
        XCTAssertGreaterThan(compared, 19_000)
        print("town settlements: \(compared) points as brute force, \(skipped) within 5 cm of a tie")
    }

    /// A layer of more settlements than are read one by one is searched instead: the same answers
    /// as the brute force.
    func testManySettlementsAgainstBruteForce() throws {
        var random = SplitMix64(state: 77)
        var nodes = [Self.node(1, 60.0, 25.0), Self.node(2, 60.0, 25.01)]
        let kinds = ["city", "town", "village", "suburb", "quarter", "neighbourhood"]
        for index in 0..<150 {
            nodes.append(Self.node(Int64(10 + index), 59.9 + 0.2 * random.unit(), 24.8 + 0.4 * random.unit(), ["place": kinds[index % 6], "name": "S\(index)"]))
        }
        let data = OSMData(nodes: nodes, ways: [OSMWay(id: 100, nodeIDs: [1, 2], tags: Self.tags(["highway": "residential", "name": "Testikatu"]))], relations: [])
        let map = try GMap(bytes: LocationMapBuilder.build(data).bytes)
        XCTAssertEqual(map.layer(named: "settlements")?.featureCount, 150)
        let oracle = SettlementOracle(places: OSMPlaces(data))
        var compared = 0, withSubLocality = 0
        for _ in 0..<5_000 {
            let latitude = 59.85 + 0.3 * random.unit(), longitude = 24.7 + 0.6 * random.unit()
            guard let expected = oracle.expected(latitude: latitude, longitude: longitude) else { continue }
            let placemark = map.placemark(latitude: latitude, longitude: longitude)
            XCTAssertEqual(placemark.locality, expected.locality, "\(latitude) \(longitude)")
            XCTAssertEqual(placemark.subLocality, expected.subLocality, "\(latitude) \(longitude)")
            if let distance = expected.localityDistance { XCTAssertEqual(try XCTUnwrap(placemark.localityDistance), distance, accuracy: 0.05) }
            compared += 1
            if expected.subLocality != nil { withSubLocality += 1 }
        }
        XCTAssertGreaterThan(compared, 4_900)
        XCTAssertGreaterThan(withSubLocality, 1_000)
    }

    /// A stack of the town's map over a world-like map (country, time zone, marine with a lake,
    /// towns): each field from the town's map when it has it, else from the other.
    func testAStackTakesEachFieldFromTheMostDetailedMap() async throws {
        let town = try Self.townMap()
        var builder = LayeredMapBuilder()
        try builder.addLayer(named: "countries", SampleMaps.builder([
            SampleMaps.square("FI", west: 24, south: 59, size: 2, properties: [.init(key: "name", value: "Finland")]),
        ]))
        try builder.addLayer(named: "marine", SampleMaps.builder([
            SampleMaps.square("Big lake", west: 25.0, south: 60.0, size: 0.1, properties: [.init(key: "name", value: "Big lake"), .init(key: "water", value: "inland")]),
            SampleMaps.square("Sea", west: 20, south: 55, size: 3, properties: [.init(key: "name", value: "Sea"), .init(key: "water", value: "sea")]),
        ]))
        try builder.addLayer(named: "timezones", SampleMaps.builder([SampleMaps.square("Europe/Helsinki", west: 20, south: 55, size: 10)]))
        var towns = try PointLayerBuilder()
        try towns.add(SourcePointFeature(id: "Worldtown", properties: [.init(key: "country_code", value: "FI")], points: [(25.5, 60.5)]))
        try builder.addLayer(named: "towns", towns)
        let world = try GMap(bytes: builder.finish().bytes)

        let stack = MapStack([world, town])
        XCTAssertEqual(stack.maps.map(\.layerNames), [town.layerNames, world.layerNames], "the location map first, whatever the order given")
        XCTAssertEqual(MapStack([town, world]).maps.map(\.layerNames), stack.maps.map(\.layerNames))
        // In the town's lake: the town's lake, not the world's; the town's locality, and no town searched for.
        let lake = stack.placemark(latitude: 60.015, longitude: 25.015)
        XCTAssertEqual(lake.isoCountryCode, "FI")
        XCTAssertEqual(lake.country, "Finland")
        XCTAssertEqual(lake.timeZone, "Europe/Helsinki")
        XCTAssertEqual(lake.inlandWater, "Järvi")
        XCTAssertEqual(lake.locality, "Kaupunkialue")
        XCTAssertEqual(lake.localityDistance, 0)
        XCTAssertEqual(lake.answers.map(\.layer), town.layerNames + world.layerNames)
        XCTAssertEqual(lake.answers.map(\.map), Array(repeating: 0, count: town.layerNames.count) + Array(repeating: 1, count: world.layerNames.count))
        XCTAssertEqual(lake.features(in: "towns"), [], "the world's towns are not searched when the town map has a locality")
        XCTAssertEqual(lake.features(in: "marine").map(\.id), ["Big lake"], "every map's layers answer")
        // In the world's lake but none of the town's water, and far from the town's settlements.
        let far = stack.placemark(latitude: 60.09, longitude: 25.09)
        XCTAssertEqual(far.inlandWater, "Big lake")
        XCTAssertEqual(far.locality, "Bigcity", "the town map's city node (6.7 km) before the world's town")
        let beyond = stack.placemark(latitude: 60.45, longitude: 25.45)
        XCTAssertEqual(beyond.locality, "Worldtown")
        XCTAssertEqual(beyond.features(in: "towns").map(\.id), ["Worldtown"])
        XCTAssertNil(beyond.thoroughfare)
        // At sea: the ocean, since no map puts the point in a country.
        let sea = stack.placemark(latitude: 56, longitude: 21)
        XCTAssertEqual(sea.ocean, "Sea")
        XCTAssertNil(sea.isoCountryCode)
        // Another map of countries: it fills the country where the map before it has none, and
        // then there is no ocean; where both have a country, the first map given answers.
        var claims = LayeredMapBuilder()
        try claims.addLayer(named: "country", SampleMaps.builder([
            SampleMaps.square("XX", west: 20.5, south: 55.5, size: 1), SampleMaps.square("YY", west: 24.5, south: 59.5, size: 1),
        ]))
        let other = try GMap(bytes: claims.finish().bytes)
        let claimed = MapStack([world, other]).placemark(latitude: 56, longitude: 21)
        XCTAssertEqual(claimed.isoCountryCode, "XX", "the world map has no country there")
        XCTAssertNil(claimed.ocean, "no ocean where a map puts the point in a country")
        XCTAssertEqual(claimed.timeZone, "Europe/Helsinki")
        XCTAssertEqual(claimed.answers.map(\.layer), world.layerNames + ["country"])
        XCTAssertEqual(MapStack([world, other]).placemark(latitude: 60.2, longitude: 25.2).isoCountryCode, "FI")
        XCTAssertEqual(MapStack([other, world]).placemark(latitude: 60.2, longitude: 25.2).isoCountryCode, "YY")
        // Nowhere: empty, and reverseGeocode gives nothing.
        XCTAssertTrue(stack.placemark(latitude: -40, longitude: -100).isEmpty)
        let none = await stack.reverseGeocode(latitude: -40, longitude: -100)
        XCTAssertEqual(none.count, 0)
        let one = await stack.reverseGeocode(latitude: 60.015, longitude: 25.015)
        XCTAssertEqual(one.first?.inlandWater, "Järvi")
    }

    func testFindSearchesEveryMapExactMatchesFirst() throws {
        let town = try Self.townMap()
        var builder = LayeredMapBuilder()
        try builder.addLayer(named: "countries", SampleMaps.builder([
            SampleMaps.square("Bigcity Republic", west: 24, south: 59, size: 2, properties: [.init(key: "name", value: "Bigcity Republic")]),
            SampleMaps.square("Smalltown", west: 10, south: 10, size: 1, properties: [.init(key: "name", value: "Smalltown")]),
        ]))
        let other = try GMap(bytes: builder.finish().bytes)
        let stack = MapStack([other, town])
        // Exact matches of every map first (the town map's places, then the other map), then prefixes.
        XCTAssertEqual(stack.find("smalltown").map { "\($0.layerName) \($0.id)" }, ["places Smalltown", "settlements Smalltown", "countries Smalltown"])
        XCTAssertEqual(stack.find("bigcity").map { "\($0.layerName) \($0.id)" }, ["places Bigcity", "settlements Bigcity", "countries Bigcity Republic"])
        XCTAssertEqual(stack.find("bigcity", matching: .exact).count, 2)
        XCTAssertEqual(stack.find("bigcity", layer: "countries").map(\.id), ["Bigcity Republic"])
        XCTAssertEqual(stack.find("bigcity", limit: 1).count, 1)
    }
}

/// The settlement and water fields by brute force over the extract's places and areas, under
/// the rule of ``Placemark``: the smallest containing area of a kind (even-odd over its rings,
/// sizes in a local plane), else the nearest node of those kinds within its kind's radius
/// (geodesic, at the node's own position). Nil for a point within 5 cm of a tie or of a radius
/// (the map stores positions to 1e-7°, about 1 cm).
struct SettlementOracle {
    struct Expected { var locality: String?, localityDistance: Double?, subLocality: String?, inlandWater: String? }

    static let radii: [String: Double] = ["city": 10_000, "town": 5_000, "village": 2_000, "suburb": 2_000, "quarter": 1_000, "neighbourhood": 500]
    static let localityKinds: Set<String> = ["city", "town", "village"]

    let places: OSMPlaces

    func expected(latitude: Double, longitude: Double) -> Expected? {
        let point = OSMNode(id: 0, latitudeNanodegrees: Int64((latitude * 1e9).rounded()), longitudeNanodegrees: Int64((longitude * 1e9).rounded()))
        // Containing areas, smallest first.
        let plane = LocalPlane(latitude: latitude, longitude: longitude)
        func size(_ ring: [OSMNode]) -> Double {
            let projected = ring.map { plane.project(latitude: $0.latitude, longitude: $0.longitude) }
            var twice = 0.0
            for (a, b) in zip(projected, projected.dropFirst()) { twice += a.x * b.y - b.x * a.y }
            return abs(twice) / 2
        }
        var containing: [(size: Double, area: OSMArea)] = []
        for area in places.areas {
            let inside = area.polygons.contains { polygon in
                guard let outer = polygon.first, OSMPlaces.contains(outer, point) else { return false }
                return !polygon.dropFirst().contains { OSMPlaces.contains($0, point) }
            }
            guard inside else { continue }
            let total = area.polygons.reduce(0.0) { sum, polygon in sum + polygon.enumerated().reduce(0.0) { $0 + ($1.offset == 0 ? 1 : -1) * size($1.element) } }
            containing.append((total, area))
        }
        containing.sort { $0.size < $1.size }
        var result = Expected()
        if let area = containing.first(where: { $0.area.settlement.map(Self.localityKinds.contains) ?? false }) {
            result.locality = area.area.name
            result.localityDistance = 0
        }
        if let area = containing.first(where: { $0.area.settlement.map { !Self.localityKinds.contains($0) } ?? false }) {
            result.subLocality = area.area.name
        }
        result.inlandWater = containing.first { $0.area.isWater }?.area.name
        // Nodes within their kind's radius, nearest first.
        if result.locality == nil {
            guard let found = nearestNode(locality: true, latitude: latitude, longitude: longitude) else { return nil }
            result.locality = found.name
            result.localityDistance = found.distance
        }
        if result.subLocality == nil {
            guard let found = nearestNode(locality: false, latitude: latitude, longitude: longitude) else { return nil }
            result.subLocality = found.name
        }
        return result
    }

    /// The nearest settlement node of the group within its kind's radius (name and distance, both
    /// nil when none), or nil for a tie: a node within 5 cm of its radius, or two of different
    /// names within 5 cm of each other.
    func nearestNode(locality: Bool, latitude: Double, longitude: Double) -> (name: String?, distance: Double?)? {
        var eligible: [(name: String, distance: Double)] = []
        for place in places.places where place.source.kind == .node {
            guard let kind = place.settlement, Self.localityKinds.contains(kind) == locality, let radius = Self.radii[kind] else { continue }
            let distance = Geodesic.distance(latitude: latitude, longitude: longitude, toLatitude: place.latitude, longitude: place.longitude)
            if abs(distance - radius) < 0.05 { return nil }
            if distance <= radius { eligible.append((place.name, distance)) }
        }
        eligible.sort { $0.distance < $1.distance }
        if eligible.count > 1, eligible[1].distance - eligible[0].distance < 0.05, eligible[1].name != eligible[0].name { return nil }
        return (eligible.first?.name, eligible.first?.distance)
    }
}
