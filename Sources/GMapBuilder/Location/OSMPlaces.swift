/// A named point of interest: a shop, a café, a station, a monument…
public struct OSMPlace: Sendable, Equatable {
    /// The place's name.
    public var name: String
    /// What it is, as the first of ``OSMPlaces/placeKeys`` it has: `amenity=cafe`, `shop=bakery`, …
    public var category: String
    /// Where it is: the node, or the centre of a way's nodes.
    public var latitude: Double
    /// Where it is, in degrees east.
    public var longitude: Double
    /// The OSM element it came from.
    public var source: (kind: OSMElementKind, id: Int64)
    /// Its names in other languages, by key (`name:sv`).
    public var localNames: [String: String] = [:]
    /// Its `place` value when that is one of ``OSMPlaces/settlementKinds`` (`suburb`), else nil.
    public var settlement: String?

    /// Equal when every field is (the source compared by kind and id).
    public static func == (a: OSMPlace, b: OSMPlace) -> Bool {
        a.name == b.name && a.category == b.category && a.latitude == b.latitude && a.longitude == b.longitude
            && a.source.kind == b.source.kind && a.source.id == b.source.id && a.localNames == b.localNames && a.settlement == b.settlement
    }
}

/// A street address: a house number on a street.
public struct OSMAddress: Sendable, Equatable {
    /// `addr:housenumber`.
    public var houseNumber: String
    /// `addr:street` (or `addr:place`), when present.
    public var street: String?
    /// `addr:postcode`, when present.
    public var postalCode: String?
    /// Where it is: the node, or the centre of a way's nodes.
    public var latitude: Double
    /// Where it is, in degrees east.
    public var longitude: Double

    /// An address from its parts.
    public init(houseNumber: String, street: String?, postalCode: String?, latitude: Double, longitude: Double) {
        self.houseNumber = houseNumber
        self.street = street
        self.postalCode = postalCode
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// A named area: a building, a park, a square, a land use, with its rings.
public struct OSMArea: Sendable, Equatable {
    /// The area's name.
    public var name: String
    /// What it is: the first of ``OSMPlaces/areaKeys`` it has, as `key=value`.
    public var category: String
    /// Its polygons: each an outer ring followed by its holes; rings are closed (last node = first).
    public var polygons: [[[OSMNode]]]
    /// The OSM element it came from.
    public var source: (kind: OSMElementKind, id: Int64)
    /// Its names in other languages, by key (`name:sv`).
    public var localNames: [String: String] = [:]
    /// Its `place` value when that is one of ``OSMPlaces/settlementKinds`` (`suburb`), else nil.
    public var settlement: String?
    /// Whether it is inland water: `natural=water`, `waterway=riverbank` or `landuse=reservoir`.
    public var isWater = false

    /// Equal when every field is (the source compared by kind and id).
    public static func == (a: OSMArea, b: OSMArea) -> Bool {
        a.name == b.name && a.category == b.category && a.polygons == b.polygons && a.source.kind == b.source.kind && a.source.id == b.source.id
            && a.localNames == b.localNames && a.settlement == b.settlement && a.isWater == b.isWater
    }
}

/// The named places, addresses and areas of OSM data, for the location sense.
///
/// - **Places**: named nodes, and named ways that are not areas or streets, with one of
///   ``placeKeys`` (a way's place is the centre of its nodes' bounding box).
/// - **Addresses**: nodes and ways with `addr:housenumber`.
/// - **Areas**: named closed ways with one of ``areaKeys`` or `waterway=riverbank` (not streets,
///   unless `area=yes`), and such named `type=multipolygon` relations whose member ways join into
///   closed rings. Each knows its settlement kind (``OSMArea/settlement``) and whether it is
///   water (``OSMArea/isWater``), for the placemark's locality, subLocality and inland water. A relation
///   with a member the extract does not hold, or whose ways do not close, is skipped and counted
///   in ``incompleteRelations``: extracts cut relations at their edge.
public struct OSMPlaces: Sendable {
    /// Keys that make a named element a place, most telling first.
    public static let placeKeys = ["amenity", "shop", "tourism", "leisure", "office", "craft", "historic", "healthcare",
                                   "public_transport", "railway", "aeroway", "emergency", "sport", "man_made", "place", "natural", "building"]
    /// Keys that make a named closed way or multipolygon an area, most telling first.
    public static let areaKeys = ["amenity", "leisure", "tourism", "shop", "place", "landuse", "natural", "building", "man_made",
                                  "historic", "public_transport", "railway", "highway"]

    /// The `place` values that name a settlement or a part of one: the placemark's locality
    /// (`city`, `town`, `village`) and subLocality (`suburb`, `quarter`, `neighbourhood`).
    public static let settlementKinds = ["city", "town", "village", "suburb", "quarter", "neighbourhood"]

    /// Named points of interest, in file order (nodes, then ways).
    public var places: [OSMPlace] = []
    /// Addresses, in file order (nodes, then ways).
    public var addresses: [OSMAddress] = []
    /// Named areas, in file order (closed ways, then multipolygon relations).
    public var areas: [OSMArea] = []
    /// Named multipolygon relations skipped because the extract does not hold all of them or their rings do not close.
    public var incompleteRelations = 0

    /// The places, addresses and areas of `data`. The pedestrian `profile` (the default) leaves
    /// out areas under the surface (``RoadProfile/isUnderground(_:)``, or `location=underground`):
    /// a walker in the street is not inside the shopping level beneath it.
    public init(_ data: OSMData, profile: RoadProfile = .pedestrian) {
        func isSurfaceArea(_ tag: (String) -> String?) -> Bool {
            profile == .all || !(RoadProfile.isUnderground(tag) || tag("location") == "underground")
        }
        for node in data.nodes {
            if let name = node.tag("name"), let category = Self.category(of: node.tags, keys: Self.placeKeys) {
                places.append(OSMPlace(name: name, category: category, latitude: node.latitude, longitude: node.longitude, source: (.node, node.id),
                                       localNames: LocalNames.of(node.tags, keeping: { _ in true }), settlement: Self.settlement(node.tags)))
            }
            if let address = Self.address(node.tags, latitude: node.latitude, longitude: node.longitude) { addresses.append(address) }
        }
        for way in data.ways {
            let nodes = way.nodeIDs.compactMap { data.node(id: $0) }
            guard nodes.count == way.nodeIDs.count, let centre = Self.centre(of: nodes) else { continue }
            let name = way.tag("name")
            let isStreet = way.tag("highway") != nil && way.tag("area") != "yes"
            if let name, way.isClosed, !isStreet, let category = Self.areaCategory(of: way.tags) {
                if isSurfaceArea(way.tag) {
                    areas.append(OSMArea(name: name, category: category, polygons: [[nodes]], source: (.way, way.id), localNames: LocalNames.of(way.tags, keeping: { _ in true }),
                                         settlement: Self.settlement(way.tags), isWater: Self.isWater(way.tags)))
                }
            } else if let name, way.tag("highway") == nil, let category = Self.category(of: way.tags, keys: Self.placeKeys) {
                places.append(OSMPlace(name: name, category: category, latitude: centre.latitude, longitude: centre.longitude, source: (.way, way.id),
                                       localNames: LocalNames.of(way.tags, keeping: { _ in true }), settlement: Self.settlement(way.tags)))
            }
            if let address = Self.address(way.tags, latitude: centre.latitude, longitude: centre.longitude) { addresses.append(address) }
        }
        let waysByID = Dictionary(data.ways.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for relation in data.relations where relation.tag("type") == "multipolygon" {
            guard let name = relation.tag("name"), let category = Self.areaCategory(of: relation.tags),
                  isSurfaceArea(relation.tag) else { continue }
            guard let polygons = Self.polygons(of: relation, ways: waysByID, data: data) else {
                incompleteRelations += 1
                continue
            }
            areas.append(OSMArea(name: name, category: category, polygons: polygons, source: (.relation, relation.id),
                                 localNames: LocalNames.of(relation.tags, keeping: { _ in true }), settlement: Self.settlement(relation.tags),
                                 isWater: Self.isWater(relation.tags)))
        }
    }

    /// `key=value` for the first of `keys` present (`value` may be `yes`).
    static func category(of tags: [OSMTag], keys: [String]) -> String? {
        for key in keys { if let tag = tags.first(where: { $0.key == key }), tag.value != "no" { return "\(key)=\(tag.value)" } }
        return nil
    }

    /// An area's category: the first of ``areaKeys`` present, else `waterway=riverbank` (a river's
    /// water as an area), else nil.
    static func areaCategory(of tags: [OSMTag]) -> String? {
        if let category = category(of: tags, keys: areaKeys) { return category }
        return tags.contains { $0.key == "waterway" && $0.value == "riverbank" } ? "waterway=riverbank" : nil
    }

    /// The `place` value when it is one of ``settlementKinds``.
    static func settlement(_ tags: [OSMTag]) -> String? {
        guard let value = tags.first(where: { $0.key == "place" })?.value, settlementKinds.contains(value) else { return nil }
        return value
    }

    /// Whether the tags make inland water: `natural=water`, `waterway=riverbank` or `landuse=reservoir`.
    static func isWater(_ tags: [OSMTag]) -> Bool {
        tags.contains { ($0.key == "natural" && $0.value == "water") || ($0.key == "waterway" && $0.value == "riverbank")
            || ($0.key == "landuse" && $0.value == "reservoir") }
    }

    static func address(_ tags: [OSMTag], latitude: Double, longitude: Double) -> OSMAddress? {
        func tag(_ key: String) -> String? { tags.first { $0.key == key }?.value }
        guard let number = tag("addr:housenumber") else { return nil }
        return OSMAddress(houseNumber: number, street: tag("addr:street") ?? tag("addr:place"), postalCode: tag("addr:postcode"),
                          latitude: latitude, longitude: longitude)
    }

    /// The centre of the nodes' bounding box, or nil for no nodes.
    static func centre(of nodes: [OSMNode]) -> (latitude: Double, longitude: Double)? {
        guard let first = nodes.first else { return nil }
        var south = first.latitudeNanodegrees, north = south, west = first.longitudeNanodegrees, east = west
        for node in nodes {
            south = min(south, node.latitudeNanodegrees); north = max(north, node.latitudeNanodegrees)
            west = min(west, node.longitudeNanodegrees); east = max(east, node.longitudeNanodegrees)
        }
        // Halves first: the sum of two coordinates in nanodegrees cannot overflow, but stay exact anyway.
        func middle(_ a: Int64, _ b: Int64) -> Double {
            let halves: Int64 = a / 2 + b / 2
            let remainders: Int64 = (a % 2 + b % 2) / 2
            return Double(halves + remainders) / 1e9
        }
        return (middle(south, north), middle(west, east))
    }

    /// The relation's rings, each outer ring with the inner rings inside it, or nil when a member
    /// way is absent, one of its nodes is, or the ways do not join into closed rings.
    static func polygons(of relation: OSMRelation, ways: [Int64: OSMWay], data: OSMData) -> [[[OSMNode]]]? {
        var outer: [[OSMNode]] = [], inner: [[OSMNode]] = []
        for member in relation.members where member.kind == .way {
            guard let way = ways[member.id] else { return nil }
            let nodes = way.nodeIDs.compactMap { data.node(id: $0) }
            guard nodes.count == way.nodeIDs.count, nodes.count >= 2 else { return nil }
            if member.role == "inner" { inner.append(nodes) } else { outer.append(nodes) }
        }
        guard !outer.isEmpty else { return nil }
        let outerRings = StreetNetwork.joined(outer), innerRings = StreetNetwork.joined(inner)
        guard (outerRings + innerRings).allSatisfy({ $0.count >= 4 && $0.first?.id == $0.last?.id }) else { return nil }
        // Each hole goes with the first outer ring that contains its first vertex (even-odd).
        var polygons = outerRings.map { [$0] }
        for hole in innerRings {
            guard let point = hole.first, let index = outerRings.firstIndex(where: { contains($0, point) }) else { return nil }
            polygons[index].append(hole)
        }
        return polygons
    }

    /// Whether `point` lies inside the closed ring (the even-odd rule in nanodegrees, exact).
    public static func contains(_ ring: [OSMNode], _ point: OSMNode) -> Bool {
        var inside = false
        let px = point.longitudeNanodegrees, py = point.latitudeNanodegrees
        for (a, b) in zip(ring, ring.dropFirst()) {
            let ax = a.longitudeNanodegrees, ay = a.latitudeNanodegrees, bx = b.longitudeNanodegrees, by = b.latitudeNanodegrees
            guard (ay > py) != (by > py) else { continue }
            // Crossing x > px  ⇔  (px − ax)·(by − ay) < (py − ay)·(bx − ax), with the sign of (by − ay) taken into account.
            let left = (px - ax).multipliedFullWidth(by: by - ay), right = (py - ay).multipliedFullWidth(by: bx - ax)
            let less = left.high != right.high ? left.high < right.high : left.low < right.low
            let greater = left.high != right.high ? left.high > right.high : left.low > right.low
            if by > ay ? less : greater { inside.toggle() }
        }
        return inside
    }
}
