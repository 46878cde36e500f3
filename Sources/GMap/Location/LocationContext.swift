/// Where the user is, in words a pedestrian can use.
public enum LocationSense: Sendable, Equatable {
    /// Nothing known around the point (no road, place or area within reach).
    case unknown
    /// Inside a named area (the smallest that contains the user), with the nearest place.
    case inside(area: NearbyPlace, nearestPlace: NearbyPlace?)
    /// Along a road (less than ``LocationContext/Options/roadDistance`` away), with the main
    /// intersection ahead on that road and the nearest place.
    case alongRoad(road: RoadMatch, intersectionAhead: IntersectionMatch?, nearestPlace: NearbyPlace?)
    /// Near, not along, a road: the nearest road and place, when there are any within reach.
    case other(nearestRoad: RoadMatch?, nearestPlace: NearbyPlace?)
}

/// Turns a stream of position fixes into ``LocationSense``s: which road the user is along
/// (kept steady near junctions), the intersection ahead, the place or area around.
///
/// The rules (issue 13), each an option:
/// - **Road**: the nearest road less than 20 m away; when the fix has a direction, the nearest of
///   those that run that way (within ±45°, either way along the road), if any. **Sticky**: near a junction (one less than
///   30 m away), the previous road is kept while it is still less than 20 m away, so GPS noise at
///   a corner does not flip between the streets that meet there. A road's identity is its name.
/// - **Intersection ahead**: the nearest main intersection within 500 m that the current road
///   goes through, whose bearing from the user is within ±45° of the fix's direction (heading,
///   else course). None without a direction.
/// - **Inside**: when no road is along, the smallest named area that contains the user.
/// - **Throttle**: a sense is given for a fix when 15 s have passed since the last one given, or
///   the user has moved 10 m from where it was given (or both, with ``Throttle/timeAndDistance``);
///   otherwise `update` returns nil. Every fix still updates the road kept. A fix whose time goes
///   backwards restarts the throttle. The first fix always gives a sense.
///
/// A value type with no clock: times come with the fixes, so replays and tests are exact.
public struct LocationContext<Source: LocationSource> {
    /// When ``LocationContext/update(_:)`` gives a sense.
    public enum Throttle: Sendable, Equatable {
        /// For every fix.
        case none
        /// When `seconds` have passed OR the user moved `metres` since the last sense given.
        case timeOrDistance(seconds: Double, metres: Double)
        /// When `seconds` have passed AND the user moved `metres`.
        case timeAndDistance(seconds: Double, metres: Double)
    }

    /// The rules' distances and switches.
    public struct Options: Sendable, Equatable {
        /// A road nearer than this is the road the user is along, in metres.
        public var roadDistance = 20.0
        /// Near a junction closer than this, the previous road is kept (the sticky rule), in metres.
        public var junctionDistance = 30.0
        /// Whether the sticky rule applies.
        public var sticky = true
        /// Whether, when the fix has a direction, roads that run that way are preferred to nearer ones that do not.
        public var alignment = true
        /// How far off the fix's direction a road may run and still count as running that way, in degrees.
        public var alignmentAngle = 45.0
        /// How far ahead an intersection may be, in metres.
        public var intersectionDistance = 500.0
        /// How far off the direction an intersection ahead may lie, in degrees.
        public var aheadAngle = 45.0
        /// How far the nearest place or road is looked for, in metres.
        public var placeDistance = 200.0
        /// When a sense is given.
        public var throttle = Throttle.timeOrDistance(seconds: 15, metres: 10)

        /// The defaults above.
        public init() {}
    }

    /// What the context reads its surroundings from.
    public let source: Source
    /// The rules in force.
    public var options: Options
    /// The road the user was last along (its name), if any.
    public private(set) var currentRoad: String?
    /// The last fix for which a sense was given.
    public private(set) var lastGiven: LocationFix?

    /// A context reading `source`.
    public init(source: Source, options: Options = Options()) {
        self.source = source
        self.options = options
    }

    /// Takes a fix: updates the road kept, and gives the sense unless the throttle holds it back.
    /// Nil for a throttled fix and for coordinates that are not valid.
    public mutating func update(_ fix: LocationFix) -> LocationSense? {
        guard fix.latitude.isFinite, fix.longitude.isFinite, abs(fix.latitude) <= 90, abs(fix.longitude) <= 180, fix.time.isFinite else { return nil }
        let sense = self.sense(at: fix)
        guard shouldGive(fix) else { return nil }
        lastGiven = fix
        return sense
    }

    /// Whether `fix` passes the throttle.
    func shouldGive(_ fix: LocationFix) -> Bool {
        guard let last = lastGiven, fix.time >= last.time else { return true }
        let elapsed = fix.time - last.time
        let moved = Geodesic.distance(latitude: last.latitude, longitude: last.longitude, toLatitude: fix.latitude, longitude: fix.longitude)
        switch options.throttle {
        case .none: return true
        case let .timeOrDistance(seconds, metres): return elapsed >= seconds || moved >= metres
        case let .timeAndDistance(seconds, metres): return elapsed >= seconds && moved >= metres
        }
    }

    /// The sense at `fix`, updating the road kept.
    mutating func sense(at fix: LocationFix) -> LocationSense {
        // Roads close enough to be along first; the nearest farther road only when the answer needs it.
        let close = source.roads(latitude: fix.latitude, longitude: fix.longitude, within: options.roadDistance)
        let nearestPlace = source.places(latitude: fix.latitude, longitude: fix.longitude, within: options.placeDistance, limit: 1).first
        var along = close.filter { $0.distance < options.roadDistance }
        // With a direction, roads that run that way come first (nearest first among them): walking
        // along one street past the end of another, the one walked is the one the course follows.
        if options.alignment, let direction = fix.direction?.degrees {
            let aligned = along.filter { Self.runs($0.direction, along: direction, within: options.alignmentAngle) }
            along = aligned + along.filter { road in !aligned.contains { $0.name == road.name } }
        }
        var road = along.first
        if options.sticky, let previous = currentRoad, let kept = along.first(where: { $0.name == previous }), kept.name != road?.name {
            if source.hasIntersection(latitude: fix.latitude, longitude: fix.longitude, within: options.junctionDistance) { road = kept }
        }
        currentRoad = road?.name
        if let road {
            return .alongRoad(road: road, intersectionAhead: intersectionAhead(on: road.name, at: fix), nearestPlace: nearestPlace)
        }
        if let area = source.areas(latitude: fix.latitude, longitude: fix.longitude).first {
            return .inside(area: area, nearestPlace: nearestPlace)
        }
        let reach = max(options.roadDistance, options.placeDistance)
        let nearestRoad = close.first ?? (reach > options.roadDistance
            ? source.roads(latitude: fix.latitude, longitude: fix.longitude, within: reach).first : nil)
        if nearestRoad == nil && nearestPlace == nil { return .unknown }
        return .other(nearestRoad: nearestRoad, nearestPlace: nearestPlace)
    }

    /// Whether a road whose segment points `roadDirection` runs along `direction` (either way) within `angle` degrees.
    static func runs(_ roadDirection: Double, along direction: Double, within angle: Double) -> Bool {
        let difference = Compass.difference(roadDirection, direction)
        return difference <= angle || difference >= 180 - angle
    }

    /// The nearest main intersection on `road` within reach and within the angle of the fix's direction.
    func intersectionAhead(on road: String, at fix: LocationFix) -> IntersectionMatch? {
        guard let direction = fix.direction?.degrees else { return nil }
        return source.intersectionAhead(on: road, latitude: fix.latitude, longitude: fix.longitude, within: options.intersectionDistance,
                                        direction: direction, angle: options.aheadAngle)
    }
}

extension LocationSense {
    /// The sense in English sentences for a screen reader, e.g. `["You are heading north along
    /// Keskuskatu.", "Intersection with Aleksanterinkatu is 40 m north.", "Stockmann is 25 m east."]`.
    ///
    /// `direction` is the fix's (``LocationFix/direction``): "heading" for a course, "facing" for a
    /// compass. Distances are rounded to whole metres; directions are the eight compass sectors.
    public func callouts(direction: (degrees: Double, isFacing: Bool)? = nil) -> [String] {
        func place(_ place: NearbyPlace?) -> [String] {
            guard let place else { return [] }
            return ["\(place.name) is \(Self.metres(place.distance)) \(Compass.direction(place.bearing))."]
        }
        switch self {
        case .unknown:
            return ["Nothing known nearby."]
        case let .inside(area, nearestPlace):
            return ["You are inside \(area.name)."] + place(nearestPlace)
        case let .alongRoad(road, ahead, nearestPlace):
            var lines: [String]
            if let direction {
                lines = ["You are \(direction.isFacing ? "facing" : "heading") \(Compass.direction(direction.degrees)) along \(road.name)."]
            } else {
                lines = ["You are along \(road.name)."]
            }
            if let ahead {
                let others = ahead.streetNames.filter { $0 != road.name }
                let names = others.isEmpty ? road.name : Self.list(others)
                lines.append("Intersection with \(names) is \(Self.metres(ahead.distance)) \(Compass.direction(ahead.bearing)).")
            }
            return lines + place(nearestPlace)
        case let .other(nearestRoad, nearestPlace):
            var lines: [String] = []
            if let nearestRoad { lines.append("\(nearestRoad.name) is \(Self.metres(nearestRoad.distance)) away.") }
            return lines + place(nearestPlace)
        }
    }

    /// "40 m" (whole metres).
    static func metres(_ distance: Double) -> String {
        "\(Int((distance.isFinite ? max(0, distance) : 0).rounded())) m"
    }

    /// "A", "A and B", "A, B and C".
    static func list(_ names: [String]) -> String {
        guard names.count > 1, let last = names.last else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " and " + last
    }
}
