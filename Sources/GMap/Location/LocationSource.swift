/// A position report: where the user is, when, and which way they face or move.
public struct LocationFix: Sendable, Equatable {
    /// Latitude in degrees.
    public var latitude: Double
    /// Longitude in degrees.
    public var longitude: Double
    /// When, in seconds on any clock that only goes forward (the caller's clock: the context has none).
    public var time: Double
    /// Where the user faces (a compass), degrees clockwise from north; nil when unknown. NaN counts as unknown.
    public var heading: Double?
    /// Where the user moves (the course over ground), degrees clockwise from north; nil when unknown.
    /// Used when there is no ``heading``.
    public var course: Double?
    /// How far off the position may be, in metres: the radius the device reports (Core
    /// Location's `horizontalAccuracy`, a 68 % radius); nil when unknown. A value that is not
    /// finite or not above 0 counts as unknown (Core Location reports an invalid fix as negative).
    public var horizontalAccuracy: Double?

    /// A fix from its parts.
    public init(latitude: Double, longitude: Double, time: Double, heading: Double? = nil, course: Double? = nil, horizontalAccuracy: Double? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.time = time
        self.heading = heading
        self.course = course
        self.horizontalAccuracy = horizontalAccuracy
    }

    /// ``horizontalAccuracy`` when it is known (finite and above 0).
    public var accuracy: Double? {
        guard let horizontalAccuracy, horizontalAccuracy.isFinite, horizontalAccuracy > 0 else { return nil }
        return horizontalAccuracy
    }

    /// The direction to use, normalised to 0 ..< 360, and whether it is a facing (compass) or a
    /// moving (course) direction; nil when neither is known.
    public var direction: (degrees: Double, isFacing: Bool)? {
        if let heading, heading.isFinite { return (Compass.normalised(heading), true) }
        if let course, course.isFinite { return (Compass.normalised(course), false) }
        return nil
    }
}

/// A road near the user.
public struct RoadMatch: Sendable, Equatable {
    /// The road's name (a road's identity).
    public var name: String
    /// Its class (`residential`, `primary`, …).
    public var roadClass: String
    /// Distance from the user to the road, in metres.
    public var distance: Double
    /// The direction of the road's nearest segment, degrees clockwise from north (0 ..< 360, in
    /// the direction the segment is stored; the road runs both ways).
    public var direction: Double
    /// The bearing from the user to the road's nearest point, degrees clockwise from north (0 when
    /// the user is on it).
    public var bearing: Double
    /// The road's nearest point (the user's position projected onto the road), in degrees; nil
    /// when the source does not say.
    public var latitude: Double?, longitude: Double?
    /// The road-layer feature the nearest point is on, when a map answered (the intersection
    /// ahead then follows that feature's line without looking for it again).
    var featureIndex: Int?
    /// The position in its ``MapStack`` of the map whose road layer holds that feature, when a
    /// ``StackLocationSource`` answered.
    var mapPosition: Int?

    /// A match from its parts.
    public init(name: String, roadClass: String, distance: Double, direction: Double, bearing: Double = 0,
                latitude: Double? = nil, longitude: Double? = nil) {
        self.name = name
        self.roadClass = roadClass
        self.distance = distance
        self.direction = direction
        self.bearing = bearing
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// An intersection near the user.
public struct IntersectionMatch: Sendable, Equatable {
    /// The names of the streets that meet there, sorted.
    public var streetNames: [String]
    /// Distance from the user, in metres.
    public var distance: Double
    /// Bearing from the user to the intersection, degrees clockwise from north.
    public var bearing: Double
    /// Whether it is worth announcing (two named streets, not paths; a roundabout; or a street changing class).
    public var isMain: Bool
    /// Where it is, in degrees; nil when the source does not say.
    public var latitude: Double?, longitude: Double?

    /// A match from its parts.
    public init(streetNames: [String], distance: Double, bearing: Double, isMain: Bool, latitude: Double? = nil, longitude: Double? = nil) {
        self.streetNames = streetNames
        self.distance = distance
        self.bearing = bearing
        self.isMain = isMain
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// A named place or area near or around the user.
public struct NearbyPlace: Sendable, Equatable {
    /// Its name.
    public var name: String
    /// What it is, as `key=value` (`amenity=cafe`, `leisure=park`).
    public var category: String
    /// Distance from the user, in metres (0 for an area that contains the user).
    public var distance: Double
    /// Bearing from the user to it, degrees clockwise from north (0 for a containing area).
    public var bearing: Double
    /// Where the place is, in degrees; nil for an area, or when the source does not say.
    public var latitude: Double?, longitude: Double?

    /// A place from its parts.
    public init(name: String, category: String, distance: Double, bearing: Double, latitude: Double? = nil, longitude: Double? = nil) {
        self.name = name
        self.category = category
        self.distance = distance
        self.bearing = bearing
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// What ``LocationContext`` asks about the user's surroundings: roads, intersections, places and
/// areas. A map with road, place and area layers answers these; so does an in-memory network
/// (the builder's, used as the tests' oracle).
public protocol LocationSource {
    /// Roads within `radius` metres, the nearest point of each road (by name), nearest first.
    func roads(latitude: Double, longitude: Double, within radius: Double) -> [RoadMatch]
    /// Intersections within `radius` metres, nearest first.
    func intersections(latitude: Double, longitude: Double, within radius: Double) -> [IntersectionMatch]
    /// Named places within `radius` metres, nearest first, at most `limit`.
    func places(latitude: Double, longitude: Double, within radius: Double, limit: Int) -> [NearbyPlace]
    /// Named areas that contain the point, smallest first.
    func areas(latitude: Double, longitude: Double) -> [NearbyPlace]
    /// The nearest intersection within `radius` metres that is main (``IntersectionMatch/isMain``),
    /// has `road` among its streets and lies within `angle` degrees of `direction` (its bearing
    /// from the point): the first such of ``intersections(latitude:longitude:within:)``. A default
    /// implementation filters that list; a source may answer faster.
    func intersectionAhead(on road: String, latitude: Double, longitude: Double, within radius: Double,
                           direction: Double, angle: Double) -> IntersectionMatch?
    /// Whether some intersection lies within `radius` metres. The default asks ``intersections(latitude:longitude:within:)``.
    func hasIntersection(latitude: Double, longitude: Double, within radius: Double) -> Bool
    /// The intersection ahead on the walker's own way (see ``AheadCone``): of the main
    /// intersections that have `road` among their streets, lie within the cone's radius and angle
    /// of `direction` as seen from the point, and no farther off the line through the point along
    /// `direction` than the cone allows, the first by ``AheadCone/rank(distance:offset:)`` (the
    /// distance ahead plus a penalty for the distance to the side, so that of a dual
    /// carriageway's two junctions with one street the one on the walker's own side wins; ties by
    /// straight distance, then names); its ``IntersectionMatch/distance`` is measured along that
    /// line (the distance ahead, not the straight one). The default filters
    /// ``intersections(latitude:longitude:within:)``; a source may answer faster.
    func intersectionAhead(on road: String, latitude: Double, longitude: Double, direction: Double, cone: AheadCone) -> IntersectionMatch?
    /// ``intersectionAhead(on:latitude:longitude:direction:cone:)`` from `road`'s nearest point
    /// (else the given point), knowing the match (a map source then knows the road's line). The
    /// default asks by the road's name.
    func intersectionAhead(along road: RoadMatch, latitude: Double, longitude: Double, direction: Double, cone: AheadCone) -> IntersectionMatch?
}

/// Where an intersection must lie to be "ahead" on the walker's own way: within `radius` metres,
/// within `angle` degrees of the direction, and at most `lateral` + `lateralPerMetre` × (distance
/// ahead) metres off the line along the direction. The lateral limit keeps the junction on the
/// other carriageway of a dual carriageway (15–30 m to the side) out, while a straight or gently
/// curving street keeps its junctions in.
public struct AheadCone: Sendable, Equatable {
    /// How far ahead, in metres.
    public var radius: Double
    /// How far off the direction, in degrees, as seen from the point.
    public var angle: Double
    /// How far off the line at the point itself, in metres.
    public var lateral: Double
    /// How much farther off the line it may be per metre ahead.
    public var lateralPerMetre: Double
    /// What a metre to the side costs against a metre ahead when ranking.
    public var lateralWeight: Double
    /// How far off the line at the point, in metres, an intersection on another line of the
    /// walker's road may lie (its other carriageway), for a source that knows the walker's own
    /// line (``MapLocationSource``): the widest dual carriageway's separation.
    public var carriageway: Double

    /// A cone from its parts.
    public init(radius: Double, angle: Double, lateral: Double, lateralPerMetre: Double, lateralWeight: Double = 2, carriageway: Double = 35) {
        self.radius = radius
        self.angle = angle
        self.lateral = lateral
        self.lateralPerMetre = lateralPerMetre
        self.lateralWeight = lateralWeight
        self.carriageway = carriageway
    }

    /// The rank of a point inside the cone (smaller first): its distance ahead plus
    /// ``lateralWeight`` times its distance to the side; nil outside the cone. Never less than
    /// `distance` × cos(``angle``), so a search in order of distance can stop early.
    public func rank(distance: Double, offset: Double) -> Double? {
        guard let along = ahead(distance: distance, offset: offset) else { return nil }
        let side = abs(distance * Trigonometry.sin(offset * Double.pi / 180))
        return along + lateralWeight * side
    }

    /// Whether a point `distance` metres away at `offset` degrees off the direction is inside the
    /// cone; its distance ahead (along the direction) when it is.
    public func ahead(distance: Double, offset: Double) -> Double? {
        guard distance <= radius, abs(offset) <= angle else { return nil }
        let radians = offset * Double.pi / 180
        let along = distance * Trigonometry.cos(radians), side = abs(distance * Trigonometry.sin(radians))
        guard side <= lateral + lateralPerMetre * max(0, along) else { return nil }
        return max(0, along)
    }
}

extension LocationSource {
    public func intersectionAhead(along road: RoadMatch, latitude: Double, longitude: Double, direction: Double, cone: AheadCone) -> IntersectionMatch? {
        intersectionAhead(on: road.name, latitude: road.latitude ?? latitude, longitude: road.longitude ?? longitude, direction: direction, cone: cone)
    }

    public func intersectionAhead(on road: String, latitude: Double, longitude: Double, within radius: Double,
                                  direction: Double, angle: Double) -> IntersectionMatch? {
        intersections(latitude: latitude, longitude: longitude, within: radius).first { match in
            match.isMain && match.streetNames.contains(road) && Compass.difference(match.bearing, direction) <= angle
        }
    }

    public func hasIntersection(latitude: Double, longitude: Double, within radius: Double) -> Bool {
        !intersections(latitude: latitude, longitude: longitude, within: radius).isEmpty
    }

    public func intersectionAhead(on road: String, latitude: Double, longitude: Double, direction: Double, cone: AheadCone) -> IntersectionMatch? {
        var best: (match: IntersectionMatch, rank: Double)?
        for match in intersections(latitude: latitude, longitude: longitude, within: cone.radius)
        where match.isMain && match.streetNames.contains(road) {
            let offset = Compass.signedDifference(match.bearing, direction)
            guard let along = cone.ahead(distance: match.distance, offset: offset), let rank = cone.rank(distance: match.distance, offset: offset),
                  rank < (best?.rank ?? .infinity) else { continue }
            var ahead = match
            ahead.distance = along
            best = (ahead, rank)
        }
        return best?.match
    }
}
