import XCTest
import GMap
import GMapTestSupport

/// A made-up world of straight roads: east–west ones at given latitudes, north–south ones at given longitudes.
struct FakeSource: LocationSource {
    /// Roads as (name, class, latitude of the road): east–west lines.
    var roads: [(name: String, roadClass: String, latitude: Double)] = []
    /// Roads as (name, class, longitude of the road): north–south lines.
    var meridianRoads: [(name: String, roadClass: String, longitude: Double)] = []
    /// Intersections as (names, latitude, longitude, main).
    var junctions: [(names: [String], latitude: Double, longitude: Double, isMain: Bool)] = []
    var placeList: [(name: String, latitude: Double, longitude: Double)] = []
    var areaNames: [String] = []
    /// Areas as latitude bands (south, north): a point between them is inside.
    var areaBands: [(name: String, south: Double, north: Double)] = []

    func roads(latitude: Double, longitude: Double, within radius: Double) -> [RoadMatch] {
        func match(_ name: String, _ roadClass: String, _ pointLatitude: Double, _ pointLongitude: Double, direction: Double) -> RoadMatch {
            let distance = Geodesic.distance(latitude: latitude, longitude: longitude, toLatitude: pointLatitude, longitude: pointLongitude)
            return RoadMatch(name: name, roadClass: roadClass, distance: distance, direction: direction,
                             bearing: distance > 0 ? Compass.bearing(fromLatitude: latitude, longitude: longitude, toLatitude: pointLatitude, longitude: pointLongitude) : 0,
                             latitude: pointLatitude, longitude: pointLongitude)
        }
        return (roads.map { match($0.name, $0.roadClass, $0.latitude, longitude, direction: 90) }
                + meridianRoads.map { match($0.name, $0.roadClass, latitude, $0.longitude, direction: 0) })
            .filter { $0.distance <= radius }.sorted { ($0.distance, $0.name) < ($1.distance, $1.name) }
    }
    func intersections(latitude: Double, longitude: Double, within radius: Double) -> [IntersectionMatch] {
        junctions.map { j in IntersectionMatch(streetNames: j.names.sorted(), distance: Geodesic.distance(latitude: latitude, longitude: longitude, toLatitude: j.latitude, longitude: j.longitude),
                                               bearing: Compass.bearing(fromLatitude: latitude, longitude: longitude, toLatitude: j.latitude, longitude: j.longitude), isMain: j.isMain,
                                               latitude: j.latitude, longitude: j.longitude) }
            .filter { $0.distance <= radius }.sorted { $0.distance < $1.distance }
    }
    func places(latitude: Double, longitude: Double, within radius: Double, limit: Int) -> [NearbyPlace] {
        Array(placeList.map { p in NearbyPlace(name: p.name, category: "amenity=cafe", distance: Geodesic.distance(latitude: latitude, longitude: longitude, toLatitude: p.latitude, longitude: p.longitude),
                                                bearing: Compass.bearing(fromLatitude: latitude, longitude: longitude, toLatitude: p.latitude, longitude: p.longitude)) }
            .filter { $0.distance <= radius }.sorted { $0.distance < $1.distance }.prefix(limit))
    }
    func areas(latitude: Double, longitude: Double) -> [NearbyPlace] {
        areaNames.map { NearbyPlace(name: $0, category: "leisure=park", distance: 0, bearing: 0) }
            + areaBands.filter { $0.south <= latitude && latitude <= $0.north }.map { NearbyPlace(name: $0.name, category: "building=yes", distance: 0, bearing: 0) }
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

    /// Options that follow the fixes exactly (no smoothing, no waiting for a second fix), to test one rule at a time.
    static func exact() -> LocationContext<FakeSource>.Options {
        var options = LocationContext<FakeSource>.Options()
        options.throttle = .none
        options.smoothing.positionGain = 1
        options.smoothing.velocityGain = 0
        options.smoothing.courseFixes = 1
        options.smoothing.outlierDistance = .infinity  // fixes taken as they are
        options.switchFixes = 1
        return options
    }

    func testRoadAlongAndIntersectionAhead() throws {
        var context = LocationContext(source: Self.source(), options: Self.exact())
        // 2 m north of Akatu, moving east: along Akatu; the main junction with Ckatu is ahead, east.
        let sense = try XCTUnwrap(context.update(LocationFix(latitude: 60 + 2 * Self.metre, longitude: 25, time: 0, course: 90)))
        guard case let .alongRoad(road, ahead, place) = sense else { return XCTFail("\(sense)") }
        XCTAssertEqual(road.name, "Akatu")
        XCTAssertEqual(ahead?.streetNames, ["Akatu", "Ckatu"], "the minor junction with Polku is nearer but not main")
        XCTAssertEqual(place?.name, "Kahvila")
        XCTAssertEqual(sense.callouts(direction: (90, false)), ["You are heading east along Akatu.", "Intersection with Ckatu is 56 m east.", "Kahvila, cafe, is 6 m northwest."])
        XCTAssertEqual(sense.spokenCallouts(direction: (90, false)).map { $0.bearing.map { Int($0.rounded()) } }, [90, 90, 298],
                       "each callout carries the bearing of its subject")
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
        var options = Self.exact()
        var context = LocationContext(source: Self.source(), options: options)
        _ = context.update(LocationFix(latitude: 60 + 2 * Self.metre, longitude: 25.001, time: 0))
        XCTAssertEqual(context.currentRoad, "Akatu")
        // 18 m north: Btie (12 m) is nearer than Akatu (18 m), but a junction is 18 m away: keep Akatu.
        _ = context.update(LocationFix(latitude: 60 + 18 * Self.metre, longitude: 25.001, time: 1))
        XCTAssertEqual(context.currentRoad, "Akatu")
        // Far from any junction the nearest road wins (without a direction, when nearer by the 5 m margin).
        _ = context.update(LocationFix(latitude: 60 + 18 * Self.metre, longitude: 25.01, time: 2))
        XCTAssertEqual(context.currentRoad, "Btie")
        // Without the sticky rule the nearest wins at the junction too.
        options.sticky = false
        var plain = LocationContext(source: Self.source(), options: options)
        _ = plain.update(LocationFix(latitude: 60 + 2 * Self.metre, longitude: 25.001, time: 0))
        _ = plain.update(LocationFix(latitude: 60 + 18 * Self.metre, longitude: 25.001, time: 1))
        XCTAssertEqual(plain.currentRoad, "Btie")
    }

    func testThrottleByTimeOrDistance() {
        var context = LocationContext(source: Self.source(), options: { var o = Self.exact(); o.throttle = .timeOrDistance(seconds: 15, metres: 10); return o }())
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

        var both = LocationContext(source: Self.source(), options: { var o = Self.exact(); o.throttle = .timeAndDistance(seconds: 15, metres: 10); return o }())
        XCTAssertNotNil(both.update(base))
        XCTAssertNil(both.update(LocationFix(latitude: base.latitude, longitude: 25, time: 200)), "time alone is not enough")
        XCTAssertNil(both.update(LocationFix(latitude: base.latitude, longitude: 25 + 20 * Self.metre * 2, time: 101)), "distance alone is not enough")
        XCTAssertNotNil(both.update(LocationFix(latitude: base.latitude, longitude: 25 + 20 * Self.metre * 2, time: 116)))
    }

    func testInsideOtherAndUnknown() {
        var source = Self.source()
        source.areaNames = ["Puisto"]
        var context = LocationContext(source: source, options: Self.exact())
        // 100 m south of Akatu: no road along, inside the park; the nearest road is still named.
        let inside = context.update(LocationFix(latitude: 60 - 100 * Self.metre, longitude: 25, time: 0))
        guard case let .inside(area, road, _)? = inside else { return XCTFail("\(String(describing: inside))") }
        XCTAssertEqual(area.name, "Puisto")
        XCTAssertEqual(road?.name, "Akatu")
        XCTAssertEqual(inside?.callouts(), ["You are inside Puisto, park.", "Nearest road, Akatu, is 100 m north.", "Kahvila, cafe, is 105 m north."])
        var noArea = LocationContext(source: Self.source(), options: Self.exact())
        let other = noArea.update(LocationFix(latitude: 60 - 100 * Self.metre, longitude: 25, time: 0))
        guard case let .other(nearest, _)? = other else { return XCTFail("\(String(describing: other))") }
        XCTAssertEqual(nearest?.name, "Akatu")
        XCTAssertEqual(other?.callouts(), ["Nearest road, Akatu, is 100 m north.", "Kahvila, cafe, is 105 m north."])
        var empty = LocationContext(source: FakeSource())
        XCTAssertEqual(empty.update(LocationFix(latitude: 10, longitude: 10, time: 0)), .unknown)
    }

    /// Inside first: an area that contains the user wins over a road 2 m away, and still names it.
    func testInsideComesBeforeAlong() throws {
        var source = Self.source()
        source.areaBands = [("Kiasma", 60 + 1 * Self.metre, 60 + 10 * Self.metre)]
        var context = LocationContext(source: source, options: Self.exact())
        let sense = try XCTUnwrap(context.update(LocationFix(latitude: 60 + 2 * Self.metre, longitude: 25, time: 0, course: 90)))
        guard case let .inside(area, road, _) = sense else { return XCTFail("\(sense)") }
        XCTAssertEqual(area.name, "Kiasma")
        XCTAssertEqual(road?.name, "Akatu", "the road along is the nearest road of the inside sense")
        XCTAssertEqual(context.currentRoad, "Akatu", "the road is still kept while inside")
        XCTAssertEqual(sense.callouts().prefix(2), ["You are inside Kiasma, building.", "Nearest road, Akatu, is 2 m south."])
    }

    /// A turn: walking east along Akatu, then north up Ckatu from the junction. The kept road is
    /// released once the course runs along Ckatu and not Akatu for two fixes; not before the turn.
    func testTurnReleasesTheKeptRoad() throws {
        var source = Self.source()
        source.meridianRoads = [("Ckatu", "residential", 25.001)]
        var options = LocationContext<FakeSource>.Options()
        options.throttle = .none
        options.smoothing.positionGain = 1  // exact positions; the course is still averaged
        var context = LocationContext(source: source, options: options)
        let east = 1 / (111_320.0 * 0.5)  // degrees of longitude per metre at 60°, about
        var time = 0.0
        // East along Akatu to the junction at 25.001, 1.4 m a second.
        var longitude = 25.001 - 60 * 1.4 * east
        while longitude < 25.001 - 0.5 * 1.4 * east {
            _ = context.advance(LocationFix(latitude: 60, longitude: longitude, time: time, course: 90))
            XCTAssertEqual(context.currentRoad, "Akatu", "at \(time) s, before the turn")
            longitude += 1.4 * east
            time += 1
        }
        // North up Ckatu.
        var named: Double?
        for step in 1...20 {
            _ = context.advance(LocationFix(latitude: 60 + Double(step) * 1.4 * Self.metre, longitude: 25.001, time: time, course: 0))
            if named == nil, context.currentRoad == "Ckatu" { named = Double(step) }
            time += 1
        }
        let lag = try XCTUnwrap(named, "Ckatu was never named")
        XCTAssertLessThanOrEqual(lag, 4, "named \(lag) s after the turn")
        XCTAssertGreaterThanOrEqual(lag, 2, "not on the first fix after the turn: two fixes of evidence")
        XCTAssertEqual(context.currentRoad, "Ckatu")
    }

    /// Hysteresis: away from junctions, a nearer different road must win two fixes in a row; one
    /// noisy fix does not switch. A kept road beyond 20 m gives way at once to one within 20 m.
    func testAnotherRoadMustWinTwice() {
        var source = Self.source()
        source.junctions = []
        var options = Self.exact()
        options.switchFixes = 2
        var context = LocationContext(source: source, options: options)
        _ = context.advance(LocationFix(latitude: 60 + 2 * Self.metre, longitude: 25, time: 0, course: 90))
        XCTAssertEqual(context.currentRoad, "Akatu")
        // One fix 17 m north (Btie 13 m away, nearer): kept.
        _ = context.advance(LocationFix(latitude: 60 + 17 * Self.metre, longitude: 25, time: 1, course: 90))
        XCTAssertEqual(context.currentRoad, "Akatu")
        _ = context.advance(LocationFix(latitude: 60 + 3 * Self.metre, longitude: 25, time: 2, course: 90))
        XCTAssertEqual(context.currentRoad, "Akatu")
        // Two in a row: switched.
        _ = context.advance(LocationFix(latitude: 60 + 17 * Self.metre, longitude: 25, time: 3, course: 90))
        _ = context.advance(LocationFix(latitude: 60 + 18 * Self.metre, longitude: 25, time: 4, course: 90))
        XCTAssertEqual(context.currentRoad, "Btie")
        // Btie, kept, is now 25 m away and Akatu 5 m: Akatu at once.
        _ = context.advance(LocationFix(latitude: 60 + 5 * Self.metre, longitude: 25, time: 5, course: 90))
        XCTAssertEqual(context.currentRoad, "Akatu", "Btie is 25 m away: Akatu, 5 m away, at once")
    }

    /// After a drop-out (10 s or more without a fix) nothing kept holds: one fix where hysteresis
    /// would keep Akatu (Btie nearer, but by one fix only) takes Btie; a fix 1 s on does not.
    func testADropOutForgetsWhatWasKept() {
        var source = Self.source()
        source.junctions = []
        var options = Self.exact()
        options.switchFixes = 2
        for (gap, expected) in [(1.0, "Akatu"), (10.0, "Btie"), (30.0, "Btie")] {
            var context = LocationContext(source: source, options: options)
            _ = context.advance(LocationFix(latitude: 60 + 2 * Self.metre, longitude: 25, time: 0, course: 90))
            XCTAssertEqual(context.currentRoad, "Akatu")
            _ = context.advance(LocationFix(latitude: 60 + 17 * Self.metre, longitude: 25, time: gap, course: 90))
            XCTAssertEqual(context.currentRoad, expected, "after \(gap) s without a fix")
        }
    }

    /// What changed, and speaking on change: the first fix says everything; the same road and
    /// intersection say nothing; a new intersection ahead, a new road or a new area speak; a
    /// nearer place alone does not, and a different place must be nearer by the margin.
    func testChangesAndSpeakingOnChange() throws {
        var source = Self.source()
        source.placeList = [("Kahvila", 60 + 5 * Self.metre, 25.0002), ("Baari", 60 + 5 * Self.metre, 25.0006)]
        var options = Self.exact()
        options.throttle = .onChange
        var context = LocationContext(source: source, options: options)
        let east = 1 / (111_320.0 * 0.5)
        let first = try XCTUnwrap(context.advance(LocationFix(latitude: 60, longitude: 25, time: 0, course: 90)))
        XCTAssertTrue(first.isWorthSaying)
        XCTAssertEqual(first.sense.nearestPlace?.name, "Kahvila")
        let same = try XCTUnwrap(context.advance(LocationFix(latitude: 60, longitude: 25 + 2 * east, time: 1, course: 90)))
        XCTAssertEqual(same.changes, [], "nothing changed")
        XCTAssertNil(context.update(LocationFix(latitude: 60, longitude: 25 + 3 * east, time: 1.5, course: 90)), "nothing changed: nothing said")
        // 25 m east: Baari (10 m) is nearer than Kahvila (15 m), by less than the margin: kept.
        let later = try XCTUnwrap(context.advance(LocationFix(latitude: 60, longitude: 25 + 25 * east, time: 2, course: 90)))
        XCTAssertEqual(later.sense.nearestPlace?.name, "Kahvila")
        XCTAssertFalse(later.changes.contains(.nearestPlace))
        // 45 m east: Baari is 20 m nearer: changed, but that alone is not worth a callout.
        let moved = try XCTUnwrap(context.advance(LocationFix(latitude: 60, longitude: 25 + 45 * east, time: 3, course: 90)))
        XCTAssertEqual(moved.sense.nearestPlace?.name, "Baari")
        XCTAssertEqual(moved.changes, [.nearestPlace])
        XCTAssertFalse(moved.isWorthSaying)
        // Past the Polku junction (not main) and the Ckatu one (main) at 25.001: the next intersection ahead is none;
        // turning back west, Ckatu is ahead again (the last one announced): no change.
        let past = try XCTUnwrap(context.advance(LocationFix(latitude: 60, longitude: 25.0012, time: 4, course: 90)))
        XCTAssertNil(past.sense.intersectionAhead)
        XCTAssertFalse(past.changes.contains(.intersectionAhead), "losing the intersection ahead is not a change")
        let back = try XCTUnwrap(context.advance(LocationFix(latitude: 60, longitude: 25.0012, time: 5, course: 270)))
        XCTAssertEqual(back.sense.intersectionAhead?.streetNames, ["Akatu", "Ckatu"])
        XCTAssertFalse(back.changes.contains(.intersectionAhead))
        // Standing still (no course): a change is kept but not spoken.
        var still = LocationContext(source: Self.source(), options: { var o = Self.exact(); o.throttle = .onChange; return o }())
        XCTAssertNotNil(still.update(LocationFix(latitude: 60 + 2 * Self.metre, longitude: 25.01, time: 0)), "the first fix is spoken")
        let shifted = try XCTUnwrap(still.advance(LocationFix(latitude: 60 + 29 * Self.metre, longitude: 25.01, time: 1)))
        XCTAssertEqual(still.currentRoad, "Btie")
        XCTAssertTrue(shifted.changes.contains(.road))
        XCTAssertFalse(shifted.isWorthSaying, "no direction: not spoken")
        // Into Btie's band of road, far from junctions: the road changes.
        _ = context.advance(LocationFix(latitude: 60 + 30 * Self.metre, longitude: 25.01, time: 6, course: 90))
        XCTAssertEqual(context.last?.changes.contains(.road), true)
        XCTAssertEqual(context.last?.isWorthSaying, true)
    }

    /// The intersection ahead is measured along the road from the user's point on it, and held
    /// while noise alone would make it grow.
    func testIntersectionAheadDistanceIsHeld() throws {
        var options = Self.exact()
        options.switchFixes = 2
        var context = LocationContext(source: Self.source(), options: options)
        let east = 1 / (111_320.0 * 0.5)
        // 8 m to the side of Akatu, 30 m before the Ckatu junction: 30 m ahead, not the straight 31 m.
        let first = try XCTUnwrap(context.advance(LocationFix(latitude: 60 + 8 * Self.metre, longitude: 25.001 - 30 * east, time: 0, course: 90)))
        let ahead = try XCTUnwrap(first.sense.intersectionAhead)
        XCTAssertEqual(ahead.distance, 30, accuracy: 0.5)
        // A fix 4 m back (noise): the distance stays; 20 m on: it falls.
        let noisy = try XCTUnwrap(context.advance(LocationFix(latitude: 60 + 8 * Self.metre, longitude: 25.001 - 34 * east, time: 1, course: 90)))
        XCTAssertEqual(noisy.sense.intersectionAhead?.distance ?? 0, ahead.distance, accuracy: 1e-9)
        let on = try XCTUnwrap(context.advance(LocationFix(latitude: 60 + 8 * Self.metre, longitude: 25.001 - 10 * east, time: 2, course: 90)))
        XCTAssertEqual(on.sense.intersectionAhead?.distance ?? 0, 10, accuracy: 0.5)
    }

    /// The words: lists, "at", kinds of places, and refs.
    func testWords() {
        XCTAssertEqual(LocationWords.spoken("Äiti ja lapset;Kaksi lasta"), "Äiti ja lapset and Kaksi lasta")
        XCTAssertEqual(LocationWords.spoken("A; B ;C"), "A, B and C")
        XCTAssertEqual(LocationWords.kind(of: "tourism=museum"), "museum")
        XCTAssertEqual(LocationWords.kind(of: "railway=tram_stop"), "tram stop")
        XCTAssertEqual(LocationWords.kind(of: "building=yes"), "building")
        XCTAssertEqual(LocationWords.described("Kiasma", category: "tourism=museum"), "Kiasma, museum")
        XCTAssertEqual(LocationWords.described("Museum", category: "tourism=museum"), "Museum, museum")
        XCTAssertEqual(LocationWords.described("museum", category: "tourism=museum"), "museum")
        let at = LocationSense.alongRoad(road: RoadMatch(name: "Akatu", roadClass: "residential", distance: 1, direction: 90),
                                         intersectionAhead: IntersectionMatch(streetNames: ["Akatu", "Kluuvikatu"], distance: 0.4, bearing: 315, isMain: true),
                                         nearestPlace: NearbyPlace(name: "Kilpiveistos", category: "tourism=artwork", distance: 24, bearing: 90))
        XCTAssertEqual(at.callouts(direction: (0, false)), ["You are heading north along Akatu.", "You are at the intersection with Kluuvikatu.", "Kilpiveistos, artwork, is 24 m east."])
        XCTAssertEqual(at.spokenCallouts(direction: (0, false))[1].bearing, nil)
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
