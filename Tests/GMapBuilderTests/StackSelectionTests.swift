import XCTest
import GMap
import GMapBuilder
import GMapTestSupport

/// A ``MapStack`` asks only the maps whose bounds come near the point (issue 38, part 1): its
/// placemarks against a stack that asks every map, on maps overlapping and not, at the
/// antimeridian, in several orders; and its index of bounds against a test of every map's bounds.
final class StackSelectionTests: XCTestCase {
    /// The town of ``PlacemarkFieldsTests`` (a street, settlements, areas, addresses) moved by
    /// `north` and `east` degrees, ids kept: a location map of a region.
    static func town(north: Double, east: Double) throws -> GMap {
        let data = PlacemarkFieldsTests.town
        let nodes = data.nodes.map { node in
            OSMNode(id: node.id, latitudeNanodegrees: node.latitudeNanodegrees + Int64((north * 1e9).rounded()),
                    longitudeNanodegrees: node.longitudeNanodegrees + Int64((east * 1e9).rounded()), tags: node.tags)
        }
        return try GMap(bytes: LocationMapBuilder.build(OSMData(nodes: nodes, ways: data.ways, relations: data.relations)).bytes)
    }

    /// A location map of one street along 61° N from 25.00° to 25.01° E with an address and a
    /// postal code: its data starts on a tile's edge, so that points a few metres south or west of
    /// the street lie outside the map's bounds, where only the street fields' reach finds it.
    static func edgeStreet() throws -> GMap {
        let node = PlacemarkFieldsTests.node, tags = PlacemarkFieldsTests.tags
        let nodes = [node(1, 61.0, 25.0, [:]), node(2, 61.0, 25.01, [:]),
                     node(3, 61.00002, 25.0001, ["addr:housenumber": "1", "addr:street": "Rajakatu", "addr:postcode": "00610"])]
        let ways = [OSMWay(id: 10, nodeIDs: [1, 2], tags: tags(["highway": "residential", "name": "Rajakatu"]))]
        return try GMap(bytes: LocationMapBuilder.build(OSMData(nodes: nodes, ways: ways, relations: [])).bytes)
    }

    /// A map of one polygon layer named `layer`, of squares `(id, west, south, size)`.
    static func squares(_ layer: String, _ squares: [(String, Double, Double, Double)]) throws -> GMap {
        var builder = LayeredMapBuilder()
        try builder.addLayer(named: layer, SampleMaps.builder(squares.map { SampleMaps.square($0.0, west: $0.1, south: $0.2, size: $0.3) }))
        return try GMap(bytes: builder.finish().bytes)
    }

    /// The maps: the shipped world map, eight region maps of the town (two overlapping, two at
    /// either side of the antimeridian, one far north), and 24 maps of squares (states, countries,
    /// time zones; random, some overlapping, two touching ±180°).
    static func maps() throws -> [GMap] {
        var maps = [try GMap(contentsOf: TestSupport.shippedMap)]
        // The town spans 59.98…60.05° N, 24.98…25.09° E.
        for (north, east) in [(0.0, 0.0), (0.03, 0.04), (0.0, 0.2), (-20.0, 154.89), (-20.0, -204.96), (10.0, -100.0), (15.0, 5.0), (-70.0, 10.0)] {
            maps.append(try town(north: north, east: east))
        }
        var random = SplitMix64(state: 3_801)
        func uniform(_ low: Double, _ high: Double) -> Double { low + (high - low) * Double(random.next() >> 11) / Double(1 << 53) }
        for number in 0..<22 {
            let layer = ["states", "countries", "timezones"][number % 3]
            var squares: [(String, Double, Double, Double)] = []
            for part in 0..<1 + number % 3 {
                let size = [0.05, 0.5, 3, 20][(number + part) % 4]
                let id = layer == "states" ? "Q\(number % 10)-\(part)" : "Z\(number)-\(part)"
                squares.append((id, uniform(-180, 180 - size), uniform(-80, 80 - size), size))
            }
            maps.append(try Self.squares(layer, squares))
        }
        maps.append(try edgeStreet())
        maps.append(try squares("states", [("QA-E", 179, -16, 1)]))
        maps.append(try squares("states", [("QA-W", -180, -16, 1)]))
        return maps
    }

    /// Points: a third anywhere on the globe, the rest near a map's squares or towns (within 0.3°,
    /// and 15 km of the towns, where their settlements reach).
    static func points(_ count: Int, seed: UInt64) -> [(latitude: Double, longitude: Double)] {
        var random = SplitMix64(state: seed)
        func uniform(_ low: Double, _ high: Double) -> Double { low + (high - low) * Double(random.next() >> 11) / Double(1 << 53) }
        let centres: [(Double, Double)] = [(60.01, 25.03), (60.04, 25.07), (60.01, 25.23), (40.01, 179.92), (40.01, -179.93), (70.01, -74.97),
                                           (75.01, 30.03), (-9.99, 35.03), (-15.5, 179.5), (-15.5, -179.5), (-15.5, 180), (-15.5, -180)]
        // Within 60 m of the edge street's south-west end, where its reach matters.
        let edge = (latitude: 61.0, longitude: 25.0)
        return (0..<count).map { number in
            switch number % 3 {
            case 0 where number % 9 == 0: return (edge.latitude + uniform(-0.0005, 0.0005), edge.longitude + uniform(-0.001, 0.001))
            case 0: return (uniform(-90, 90), uniform(-180, 180))
            default:
                let (latitude, longitude) = centres[Int(random.next() % UInt64(centres.count))]
                var east = longitude + uniform(-0.3, 0.3)
                if east > 180 { east -= 360 } else if east < -180 { east += 360 }
                return (min(90, max(-90, latitude + uniform(-0.15, 0.15))), east)
            }
        }
    }

    /// 100,000 points; a tenth under a sanitizer's debug build (`GMAP_SANITIZER`), where each is 10–20 times slower.
    static let pointCount = ProcessInfo.processInfo.environment["GMAP_SANITIZER"] == nil ? 100_000 : 10_000

    /// Whether `fast` is `every` as the stack documents it: every field the same; the answers of
    /// every map asked the same; and a map not asked answers nothing, or (a map asked only for its
    /// settlements) only its settlements.
    static func agree(_ fast: Placemark, _ every: Placemark) -> Bool {
        var fields = fast, all = every
        (fields.answers, all.answers) = ([], [])
        guard fields.comparableFields == all.comparableFields else { return false }
        let asked = Set(fast.answers.map(\.map))
        var kept = every
        kept.answers = every.answers.filter { asked.contains($0.map) }
        guard kept.comparableFields == fast.comparableFields else { return false }
        return every.answers.allSatisfy { answer in asked.contains(answer.map) || answer.features.isEmpty || answer.layer == "settlements" }
    }

    func testAStackAsksOnlyTheMapsNearThePointAndAnswersAsAskingEveryMap() throws {
        let maps = try Self.maps()
        var random = SplitMix64(state: 3_802)
        var orders = [maps]
        for _ in 0..<2 {
            var shuffled = maps
            for index in stride(from: shuffled.count - 1, to: 0, by: -1) { shuffled.swapAt(index, Int(random.next() % UInt64(index + 1))) }
            orders.append(shuffled)
        }
        var asked = 0, points = 0, differences = 0, located = 0, outsideStreets = 0
        for (number, order) in orders.enumerated() {
            let stack = MapStack(order)
            let edge = try XCTUnwrap(try Self.edgeStreet().bounds)
        XCTAssertEqual(edge.south, 61, "the edge street's map starts at its street: points south of it are outside")
        XCTAssertEqual(edge.west, 25)
        XCTAssertEqual(orders[0].count, 34)
        XCTAssertEqual(MapStack(orders[0]).bounds.filter { $0 == nil }.count, 1, "the world map (a town layer) is asked everywhere; every other map has bounds")
            for point in Self.points(number == 0 ? Self.pointCount : Self.pointCount / 10, seed: 3_803 + UInt64(number)) {
                let fast = stack.placemark(latitude: point.latitude, longitude: point.longitude)
                let every = stack.placemarkFromEveryMap(latitude: point.latitude, longitude: point.longitude)
                if !Self.agree(fast, every) {
                    differences += 1
                    if differences <= 5 { XCTFail("order \(number), \(point): \(fast.comparableFields) against \(every.comparableFields)") }
                }
                if fast.thoroughfare != nil || fast.locality != nil, fast.answers.contains(where: { $0.layer == "roads" }) { located += 1 }
                if fast.thoroughfare == "Rajakatu", point.latitude < 61 || point.longitude < 25 { outsideStreets += 1 }
                asked += Set(fast.answers.map(\.map)).count
                points += 1
            }
        }
        print("stack of \(maps.count) maps, \(points) points in 3 orders: \(differences) differences; \(String(format: "%.2f", Double(asked) / Double(points))) maps asked a point on average; \(located) points with a town's fields, \(outsideStreets) a street from outside its map's bounds")
        XCTAssertEqual(differences, 0)
        XCTAssertLessThan(Double(asked) / Double(points), 5, "a point is asked of the few maps near it, not of all 33")
        XCTAssertGreaterThan(located, Self.pointCount / 20, "the towns answer: the points reach them")
        XCTAssertGreaterThan(outsideStreets, Self.pointCount / 200, "a street found from outside its map's bounds")
    }

    func testTheIndexOfBoundsFindsEveryMapThatABoundsTestFinds() throws {
        let stack = MapStack(try Self.maps())
        var found = 0
        for (number, point) in Self.points(Self.pointCount, seed: 3_804).enumerated() {
            let radius = [0, 20, 100, 2_000, 10_000, 19_999, 50_000][number % 7]
            let indexed = stack.maps(near: point.latitude, longitude: point.longitude, within: Double(radius))
            let tested = stack.mapsTestingEveryBound(near: point.latitude, longitude: point.longitude, within: Double(radius))
            XCTAssertEqual(indexed, tested, "\(point) within \(radius) m")
            found += tested.count
            if indexed != tested { break }
        }
        XCTAssertGreaterThan(found, Self.pointCount, "points near maps find them")
    }

    func testBoundsHoldWhatTheMapAnswersAndWidenAcrossTheAntimeridian() throws {
        let east = try Self.squares("states", [("QA-E", 179, -16, 1)])
        let box = try XCTUnwrap(east.bounds)
        XCTAssertLessThanOrEqual(box.west, 179)
        XCTAssertGreaterThanOrEqual(box.east, 180)
        XCTAssertTrue(box.holds(latitude: -15.5, longitude: 179.5))
        XCTAssertFalse(box.holds(latitude: -15.5, longitude: -179.5))
        XCTAssertTrue(box.widened(by: 1_000).holds(latitude: -15.5, longitude: -179.995), "1 km east of 180° is 179.995° W")
        XCTAssertFalse(box.widened(by: 1_000).holds(latitude: -15.5, longitude: -179.9))
        XCTAssertTrue(box.widened(by: 100).holds(latitude: -16.0008, longitude: 179.5), "89 m south of the box")
        XCTAssertEqual(MapBounds(south: 88, west: 0, north: 89, east: 1).widened(by: 200_000).west, -540, "near a pole every longitude is near")
        let town = try Self.town(north: 0, east: 0)
        let townBox = try XCTUnwrap(town.bounds)
        XCTAssertLessThanOrEqual(townBox.south, 59.98)
        XCTAssertGreaterThanOrEqual(townBox.north, 60.05)
        XCTAssertLessThan(townBox.north - townBox.south, 1, "tiles, not the world")
    }
}
