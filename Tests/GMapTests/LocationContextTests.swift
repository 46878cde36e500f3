import XCTest
import GMap
import GMapTestSupport

/// A made-up world along one east–west line: roads and intersections at given longitudes.
struct FakeSource: LocationSource {
    /// Roads as (name, class, latitude of the road): east–west lines.
    var roads: [(name: String, roadClass: String, latitude: Double)] = []
    /// Intersections as (names, latitude, longitude, main).
    var junctions: [(names: [String], latitude: Double, longitude: Double, isMain: Bool)] = []
    var placeList: [(name: String, latitude: Double, longitude: Double)] = []
    var areaNames: [String] = []

    func roads(latitude: Double, longitude: Double, within radius: Double) -> [RoadMatch] {
        roads.map { RoadMatch(name: $0.name, roadClass: $0.roadClass, distance: Geodesic.distance(latitude: latitude, longitude: longitude, toLatitude: $0.latitude, longitude: longitude), direction: 90) }
            .filter { $0.distance <= radius }.sorted { $0.distance < $1.distance }
    }
    func intersections(latitude: Double, longitude: Double, within radius: Double) -> [IntersectionMatch] {
        junctions.map { j in IntersectionMatch(streetNames: j.names.sorted(), distance: Geodesic.distance(latitude: latitude, longitude: longitude, toLatitude: j.latitude, longitude: j.longitude),
                                               bearing: Compass.bearing(fromLatitude: latitude, longitude: longitude, toLatitude: j.latitude, longitude: j.longitude), isMain: j.isMain) }
            .filter { $0.distance <= radius }.sorted { $0.distance < $1.distance }
    }
    func places(latitude: Double, longitude: Double, within radius: Double, limit: Int) -> [NearbyPlace] {
        Array(placeList.map { p in NearbyPlace(name: p.name, category: "amenity=cafe", distance: Geodesic.distance(latitude: latitude, longitude: longitude, toLatitude: p.latitude, longitude: p.longitude),
                                                bearing: Compass.bearing(fromLatitude: latitude, longitude: longitude, toLatitude: p.latitude, longitude: p.longitude)) }
            .filter { $0.distance <= radius }.sorted { $0.distance < $1.distance }.prefix(limit))
    }
    func areas(latitude: Double, longitude: Double) -> [NearbyPlace] {
        areaNames.map { NearbyPlace(name: $0, category: "leisure=park", distance: 0, bearing: 0) }
    }
}

final class LocationContextTests: XCTestCase {
    static let metre = 1 / 111_320.0  // degrees of latitude, about

    /// Two parallel roads 30 m apart; A crosses B at longitude 25.001 (a junction).
    static func source() -> FakeSource {
        var source = FakeSource()
        source.roads = [("Akatu", "residential", 60), ("Btie", "primary", 60 + 30 * metre)]
        source.junctions = [(["Akatu", "Ckatu"], 60, 25.001, true), (["Akatu", "Polku"], 60, 25.0005, false), (["Btie", "Ckatu"], 60 + 30 * metre, 25.001, true)]
        source.placeList = [("Kahvila", 60 + 5 * metre, 24.9999)]
        return source
    }

    func testRoadAlongAndIntersectionAhead() throws {
        var context = LocationContext(source: Self.source(), options: { var o = LocationContext<FakeSource>.Options(); o.throttle = .none; return o }())
        // 2 m north of Akatu, moving east: along Akatu; the main junction with Ckatu is ahead, east.
        let sense = try XCTUnwrap(context.update(LocationFix(latitude: 60 + 2 * Self.metre, longitude: 25, time: 0, course: 90)))
        guard case let .alongRoad(road, ahead, place) = sense else { return XCTFail("\(sense)") }
        XCTAssertEqual(road.name, "Akatu")
        XCTAssertEqual(ahead?.streetNames, ["Akatu", "Ckatu"], "the minor junction with Polku is nearer but not main")
        XCTAssertEqual(place?.name, "Kahvila")
        XCTAssertEqual(sense.callouts(direction: (90, false)), ["You are heading east along Akatu.", "Intersection with Ckatu is 56 m east.", "Kahvila is 6 m northwest."])
        XCTAssertEqual(sense.callouts(direction: (90, true)).first, "You are facing east along Akatu.")
        XCTAssertEqual(sense.callouts().first, "You are along Akatu.")
        // Moving west: the junction is behind, so none ahead.
        guard case let .alongRoad(_, behind, _)? = context.update(LocationFix(latitude: 60 + 2 * Self.metre, longitude: 25, time: 1, course: 270)) else { return XCTFail() }
        XCTAssertNil(behind)
        // No direction at all: none ahead either. A NaN heading counts as none; the course is used instead.
        guard case let .alongRoad(_, none, _)? = context.update(LocationFix(latitude: 60 + 2 * Self.metre, longitude: 25, time: 2)) else { return XCTFail() }
        XCTAssertNil(none)
        XCTAssertEqual(LocationFix(latitude: 0, longitude: 0, time: 0, heading: .nan, course: 450).direction?.degrees, 90)
        XCTAssertEqual(LocationFix(latitude: 0, longitude: 0, time: 0, heading: -90).direction?.degrees, 270)
    }

    func testStickyRoadNearJunctions() {
        var options = LocationContext<FakeSource>.Options()
        options.throttle = .none
        var context = LocationContext(source: Self.source(), options: options)
        _ = context.update(LocationFix(latitude: 60 + 2 * Self.metre, longitude: 25.001, time: 0))
        XCTAssertEqual(context.currentRoad, "Akatu")
        // 16 m north: Btie (14 m) is nearer than Akatu (16 m), but a junction is 16 m away: keep Akatu.
        _ = context.update(LocationFix(latitude: 60 + 16 * Self.metre, longitude: 25.001, time: 1))
        XCTAssertEqual(context.currentRoad, "Akatu")
        // Far from any junction the nearest road wins.
        _ = context.update(LocationFix(latitude: 60 + 16 * Self.metre, longitude: 25.01, time: 2))
        XCTAssertEqual(context.currentRoad, "Btie")
        // Without the sticky rule the nearest wins at the junction too.
        options.sticky = false
        var plain = LocationContext(source: Self.source(), options: options)
        _ = plain.update(LocationFix(latitude: 60 + 2 * Self.metre, longitude: 25.001, time: 0))
        _ = plain.update(LocationFix(latitude: 60 + 16 * Self.metre, longitude: 25.001, time: 1))
        XCTAssertEqual(plain.currentRoad, "Btie")
    }

    func testThrottleByTimeOrDistance() {
        var context = LocationContext(source: Self.source())  // default: 15 s or 10 m
        let base = LocationFix(latitude: 60 + 2 * Self.metre, longitude: 25, time: 100)
        XCTAssertNotNil(context.update(base), "the first fix always gives a sense")
        XCTAssertNil(context.update(base), "a duplicate fix is throttled")
        XCTAssertNil(context.update(LocationFix(latitude: base.latitude, longitude: 25 + 5 * Self.metre * 2, time: 105)), "5 m and 5 s")
        XCTAssertNotNil(context.update(LocationFix(latitude: base.latitude, longitude: 25 + 12 * Self.metre * 2, time: 106)), "12 m")
        XCTAssertNil(context.update(LocationFix(latitude: base.latitude, longitude: 25 + 12 * Self.metre * 2, time: 120)))
        XCTAssertNotNil(context.update(LocationFix(latitude: base.latitude, longitude: 25 + 12 * Self.metre * 2, time: 121)), "15 s")
        XCTAssertNotNil(context.update(LocationFix(latitude: base.latitude, longitude: 25, time: 50)), "time going backwards restarts the throttle")
        XCTAssertNil(context.update(LocationFix(latitude: base.latitude, longitude: 25, time: 51)))
        XCTAssertNil(context.update(LocationFix(latitude: .nan, longitude: 25, time: 99)), "invalid coordinates give nothing")
        XCTAssertNil(context.update(LocationFix(latitude: 91, longitude: 25, time: 99)))

        var both = LocationContext(source: Self.source(), options: { var o = LocationContext<FakeSource>.Options(); o.throttle = .timeAndDistance(seconds: 15, metres: 10); return o }())
        XCTAssertNotNil(both.update(base))
        XCTAssertNil(both.update(LocationFix(latitude: base.latitude, longitude: 25, time: 200)), "time alone is not enough")
        XCTAssertNil(both.update(LocationFix(latitude: base.latitude, longitude: 25 + 20 * Self.metre * 2, time: 101)), "distance alone is not enough")
        XCTAssertNotNil(both.update(LocationFix(latitude: base.latitude, longitude: 25 + 20 * Self.metre * 2, time: 116)))
    }

    func testInsideOtherAndUnknown() {
        var source = Self.source()
        source.areaNames = ["Puisto"]
        var context = LocationContext(source: source)
        // 25 m from Akatu and 5 m from Btie's... use a point 100 m south: no road along, inside the park.
        let inside = context.update(LocationFix(latitude: 60 - 100 * Self.metre, longitude: 25, time: 0))
        guard case let .inside(area, _)? = inside else { return XCTFail("\(String(describing: inside))") }
        XCTAssertEqual(area.name, "Puisto")
        XCTAssertEqual(inside?.callouts().first, "You are inside Puisto.")
        var noArea = LocationContext(source: Self.source())
        let other = noArea.update(LocationFix(latitude: 60 - 100 * Self.metre, longitude: 25, time: 0))
        guard case let .other(road, _)? = other else { return XCTFail("\(String(describing: other))") }
        XCTAssertEqual(road?.name, "Akatu")
        XCTAssertEqual(other?.callouts(), ["Akatu is 100 m away.", "Kahvila is 105 m north."])
        var empty = LocationContext(source: FakeSource())
        XCTAssertEqual(empty.update(LocationFix(latitude: 10, longitude: 10, time: 0)), .unknown)
    }

    func testCompass() {
        XCTAssertEqual(Compass.direction(0), "north")
        XCTAssertEqual(Compass.direction(22.4), "north")
        XCTAssertEqual(Compass.direction(22.5), "northeast")
        XCTAssertEqual(Compass.direction(359), "north")
        XCTAssertEqual(Compass.direction(-45), "northwest")
        XCTAssertEqual(Compass.direction(200), "south")
        XCTAssertEqual(Compass.difference(350, 10), 20)
        XCTAssertEqual(Compass.bearing(fromLatitude: 60, longitude: 25, toLatitude: 61, longitude: 25), 0, accuracy: 1e-9)
        XCTAssertEqual(Compass.bearing(fromLatitude: 0, longitude: 25, toLatitude: 0, longitude: 26), 90, accuracy: 1e-9)
    }
}
