import GMap

/// A ``LocationSource`` that answers by brute force over an in-memory street network, places and
/// areas: every segment, intersection, place and ring is looked at for every question.
///
/// It is the oracle for the map's indexed queries and lets ``LocationContext`` run on OSM data
/// before it is written to a map. Distances are measured in a local plane around the question's
/// point (metres east and north, exact enough within a few hundred metres) to rank, and the
/// results' distances are then measured on the WGS 84 ellipsoid (``Geodesic``).
public struct NetworkLocationSource: LocationSource {
    /// One segment of a street.
    struct Segment {
        var street: Int
        var a: (latitude: Double, longitude: Double)
        var b: (latitude: Double, longitude: Double)
    }

    let network: StreetNetwork
    let segments: [Segment]
    let places: OSMPlaces

    /// A source over `network`'s streets and intersections and `places`' places and areas.
    public init(network: StreetNetwork, places: OSMPlaces) {
        self.network = network
        self.places = places
        var segments: [Segment] = []
        for (index, street) in network.streets.enumerated() {
            for line in street.lines {
                for (a, b) in zip(line, line.dropFirst()) {
                    segments.append(Segment(street: index, a: (a.latitude, a.longitude), b: (b.latitude, b.longitude)))
                }
            }
        }
        self.segments = segments
    }

    /// Metres per degree of latitude and of longitude near `latitude` (WGS 84, local).
    static func scale(at latitude: Double) -> (north: Double, east: Double) {
        let radians = latitude * Double.pi / 180
        let sine = Trigonometry.sin(radians)
        let e2 = Geodesic.flattening * (2 - Geodesic.flattening)
        let w = (1 - e2 * sine * sine).squareRoot()
        let meridian = Geodesic.equatorialRadius * (1 - e2) / (w * w * w)
        let normal = Geodesic.equatorialRadius / w
        return (meridian * Double.pi / 180, normal * Trigonometry.cos(radians) * Double.pi / 180)
    }

    /// The point of segment a–b nearest to p, in degrees.
    static func nearest(on a: (latitude: Double, longitude: Double), _ b: (latitude: Double, longitude: Double),
                        to latitude: Double, _ longitude: Double, scale: (north: Double, east: Double)) -> (latitude: Double, longitude: Double) {
        let ax = (a.longitude - longitude) * scale.east, ay = (a.latitude - latitude) * scale.north
        let bx = (b.longitude - longitude) * scale.east, by = (b.latitude - latitude) * scale.north
        let dx = bx - ax, dy = by - ay
        let length2 = dx * dx + dy * dy
        var t = length2 > 0 ? -(ax * dx + ay * dy) / length2 : 0
        t = min(1, max(0, t))
        return (a.latitude + (b.latitude - a.latitude) * t, a.longitude + (b.longitude - a.longitude) * t)
    }

    public func roads(latitude: Double, longitude: Double, within radius: Double) -> [RoadMatch] {
        let scale = Self.scale(at: latitude)
        var best: [String: (distance: Double, segment: Segment, point: (latitude: Double, longitude: Double))] = [:]
        for segment in segments {
            let point = Self.nearest(on: segment.a, segment.b, to: latitude, longitude, scale: scale)
            let x = (point.longitude - longitude) * scale.east, y = (point.latitude - latitude) * scale.north
            let planar = (x * x + y * y).squareRoot()
            guard planar <= radius * 1.01 else { continue }
            let name = network.streets[segment.street].name
            if let current = best[name], current.distance <= planar { continue }
            best[name] = (planar, segment, point)
        }
        var matches: [RoadMatch] = []
        for (name, found) in best {
            let distance = Geodesic.distance(latitude: latitude, longitude: longitude, toLatitude: found.point.latitude, longitude: found.point.longitude)
            guard distance <= radius else { continue }
            let direction = Compass.bearing(fromLatitude: found.segment.a.latitude, longitude: found.segment.a.longitude,
                                            toLatitude: found.segment.b.latitude, longitude: found.segment.b.longitude)
            let bearing = distance > 0 ? Compass.bearing(fromLatitude: latitude, longitude: longitude, toLatitude: found.point.latitude, longitude: found.point.longitude) : 0
            matches.append(RoadMatch(name: name, roadClass: network.streets[found.segment.street].highwayClass, distance: distance, direction: direction,
                                     bearing: bearing, latitude: found.point.latitude, longitude: found.point.longitude))
        }
        return matches.sorted { ($0.distance, $0.name) < ($1.distance, $1.name) }
    }

    public func intersections(latitude: Double, longitude: Double, within radius: Double) -> [IntersectionMatch] {
        var matches: [IntersectionMatch] = []
        for intersection in network.intersections {
            let node = intersection.node
            let distance = Geodesic.distance(latitude: latitude, longitude: longitude, toLatitude: node.latitude, longitude: node.longitude)
            guard distance <= radius else { continue }
            let names = Set(intersection.legs.map { network.streets[$0.street].name }).sorted()
            matches.append(IntersectionMatch(streetNames: names, distance: distance,
                                             bearing: Compass.bearing(fromLatitude: latitude, longitude: longitude, toLatitude: node.latitude, longitude: node.longitude),
                                             isMain: intersection.isMain, latitude: node.latitude, longitude: node.longitude))
        }
        return matches.sorted { ($0.distance, $0.streetNames.joined(separator: "\u{1}")) < ($1.distance, $1.streetNames.joined(separator: "\u{1}")) }
    }

    public func places(latitude: Double, longitude: Double, within radius: Double, limit: Int) -> [NearbyPlace] {
        var matches: [NearbyPlace] = []
        for place in places.places {
            let distance = Geodesic.distance(latitude: latitude, longitude: longitude, toLatitude: place.latitude, longitude: place.longitude)
            guard distance <= radius else { continue }
            matches.append(NearbyPlace(name: place.name, category: place.category, distance: distance,
                                       bearing: Compass.bearing(fromLatitude: latitude, longitude: longitude, toLatitude: place.latitude, longitude: place.longitude),
                                       latitude: place.latitude, longitude: place.longitude))
        }
        matches.sort { ($0.distance, $0.name) < ($1.distance, $1.name) }
        return Array(matches.prefix(max(0, limit)))
    }

    public func areas(latitude: Double, longitude: Double) -> [NearbyPlace] {
        let point = OSMNode(id: 0, latitudeNanodegrees: Int64((latitude * 1e9).rounded()), longitudeNanodegrees: Int64((longitude * 1e9).rounded()))
        let scale = Self.scale(at: latitude)
        var found: [(area: Double, place: NearbyPlace)] = []
        for area in places.areas {
            // Inside a polygon: inside its outer ring and in none of its holes (even-odd per polygon).
            let containing = area.polygons.first { polygon in
                guard let outer = polygon.first, OSMPlaces.contains(outer, point) else { return false }
                return !polygon.dropFirst().contains { OSMPlaces.contains($0, point) }
            }
            guard containing != nil else { continue }
            let size = area.polygons.reduce(0.0) { total, polygon in
                total + polygon.enumerated().reduce(0.0) { $0 + ($1.offset == 0 ? 1 : -1) * Self.planarArea($1.element, scale: scale) }
            }
            found.append((size, NearbyPlace(name: area.name, category: area.category, distance: 0, bearing: 0)))
        }
        return found.sorted { ($0.area, $0.place.name) < ($1.area, $1.place.name) }.map(\.place)
    }

    /// The area of a closed ring in square metres (local plane, shoelace), whatever its orientation.
    static func planarArea(_ ring: [OSMNode], scale: (north: Double, east: Double)) -> Double {
        var twice = 0.0
        for (a, b) in zip(ring, ring.dropFirst()) {
            twice += (a.longitude * scale.east) * (b.latitude * scale.north) - (b.longitude * scale.east) * (a.latitude * scale.north)
        }
        return abs(twice) / 2
    }
}
