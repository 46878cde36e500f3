import GMap

/// The kinds of `highway=*` ways a street network keeps, and how they rank.
///
/// Streets are the ways people walk or drive along and name in directions. Paths (footways,
/// cycleways, steps, bridleways, generic paths) are kept only when asked (`gmap build --osm
/// --paths`); ways under construction, proposed, abandoned, platforms and corridors never are.
public enum StreetClass {
    /// Road classes that count as main roads for intersections (the ones a pedestrian is told about).
    public static let mainRoads: Set<String> = [
        "motorway", "trunk", "primary", "secondary", "tertiary", "unclassified", "residential", "living_street", "pedestrian",
        "motorway_link", "trunk_link", "primary_link", "secondary_link", "tertiary_link",
    ]
    /// Minor roads: kept as streets, but not main roads.
    public static let minorRoads: Set<String> = ["service", "track", "road", "busway"]
    /// Paths: kept only with `includePaths`.
    public static let paths: Set<String> = ["footway", "cycleway", "path", "steps", "bridleway"]

    /// Whether a way with `highway=value` is a street, or (with `includePaths`) a path.
    public static func isKept(_ value: String, includePaths: Bool) -> Bool {
        mainRoads.contains(value) || minorRoads.contains(value) || (includePaths && paths.contains(value))
    }
}

/// Which roads a location map keeps for its user: a walker's (the default) or every road.
public enum RoadProfile: String, Sendable, CaseIterable {
    /// A surface walker's network: no motorways, no ways closed to walkers (`foot=no`, or
    /// `access=no`/`private` without a `foot` permission), no ways under the surface (`layer` < 0,
    /// `tunnel`, `indoor`, `level` < 0), so that a walker is never said to be along a road they
    /// cannot be on.
    case pedestrian
    /// Every kept street, as ``StreetClass`` says (the behaviour before profiles).
    case all

    /// Road classes a walker is never along.
    public static let motorways: Set<String> = ["motorway", "motorway_link"]

    /// Whether a way tagged `highway=highway` with `tags` belongs to this profile's network. Ways
    /// drawn as areas (`area=yes`: pedestrian squares) are never roads, in any profile: they are areas.
    public func keeps(highway: String, tag: (String) -> String?) -> Bool {
        if tag("area") == "yes" { return false }
        guard self == .pedestrian else { return true }
        if Self.motorways.contains(highway) { return false }
        let foot = tag("foot")
        if foot == "no" { return false }
        let footAllowed = foot == "yes" || foot == "designated" || foot == "permissive"
        if let access = tag("access"), access == "no" || access == "private", !footAllowed { return false }
        return !Self.isUnderground(tag)
    }

    /// Whether a way is under the surface: `layer` below 0, a `tunnel` or `indoor` tag other than
    /// `no`, or a `level` whose lowest value (of a `;` list or a `-1-0` range) is below 0.
    public static func isUnderground(_ tag: (String) -> String?) -> Bool {
        if let layer = tag("layer").flatMap({ Double($0.trimmed) }), layer < 0 { return true }
        for key in ["tunnel", "indoor"] { if let value = tag(key), value != "no" { return true } }
        if let level = tag("level") {
            // "-1", "-1;0", "-2--1": the first number of each part is its lowest.
            for part in level.split(separator: ";") {
                let text = part.trimmed
                var end = text.startIndex
                if end < text.endIndex, text[end] == "-" { end = text.index(after: end) }
                while end < text.endIndex, text[end].isNumber || text[end] == "." { end = text.index(after: end) }
                if let value = Double(text[text.startIndex..<end]), value < 0 { return true }
            }
        }
        return false
    }
}

extension StringProtocol {
    /// The text without spaces at either end.
    var trimmed: String {
        var text = Substring(self)
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}

/// A street: the ways of one name and one class, joined where they share an end node.
public struct Street: Sendable, Equatable {
    /// The street's name (`name`, else "road " and its `ref`: see ``StreetNetwork/streetName(name:ref:)``).
    public var name: String
    /// The ways' `highway` value.
    public var highwayClass: String
    /// The ways' `ref`, when they agree on one.
    public var ref: String?
    /// The street's polylines (each at least two nodes), ways joined end to end where they meet.
    public var lines: [[OSMNode]]
    /// The OSM ways it was made of, ascending.
    public var wayIDs: [Int64]
    /// Whether one of its ways is part of a roundabout (`junction=roundabout`).
    public var isRoundabout: Bool
    /// Its names in other languages, by key (`name:sv` → "Mannerheimvägen"): of its ways (by id), the first that has the key.
    public var localNames: [String: String] = [:]
}

/// Names in other languages: OSM's `name:LL` tags.
public enum LocalNames {
    /// Whether `key` is `name:` and a language code: two or three lower-case letters, then
    /// optionally `-` and letters or digits (`name:sv`, `name:se`, `name:zh-Hans`); not `name:left`.
    public static func isLanguageKey(_ key: String) -> Bool {
        let bytes = Array(key.utf8), prefix = Array("name:".utf8)
        guard bytes.count > prefix.count, bytes.starts(with: prefix) else { return false }
        let code = bytes[prefix.count...]
        let language = code.prefix { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }
        guard (2...3).contains(language.count) else { return false }
        let rest = code.dropFirst(language.count)
        guard let first = rest.first else { return true }
        return first == UInt8(ascii: "-") && rest.count > 1
            && rest.dropFirst().allSatisfy { ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) }
    }

    /// The `name:LL` tags of `tags` whose language `keep` lets through, by key.
    public static func of(_ tags: [OSMTag], keeping keep: (String) -> Bool) -> [String: String] {
        var names: [String: String] = [:]
        for tag in tags where isLanguageKey(tag.key) && !tag.value.isEmpty && keep(String(tag.key.dropFirst(5))) && names[tag.key] == nil {
            names[tag.key] = tag.value
        }
        return names
    }
}

/// One way out of an intersection: along which street, and which way it heads.
public struct IntersectionLeg: Sendable, Equatable {
    /// The street's index in ``StreetNetwork/streets``.
    public var street: Int
    /// The initial bearing, degrees clockwise from north (0 ..< 360), towards the point 25 m along
    /// the leg (or its last node, when the leg is shorter).
    public var bearing: Double
}

/// A node where streets meet.
public struct Intersection: Sendable, Equatable {
    /// The OSM node.
    public var node: OSMNode
    /// Its legs, by street index then bearing.
    public var legs: [IntersectionLeg]
    /// Whether it is worth announcing: two distinct named streets (not paths) meet, it is on a
    /// roundabout, or one street's name goes on with another class.
    public var isMain: Bool
}

/// The streets and intersections of OSM data, for the location sense.
///
/// **Streets**: every kept way (``StreetClass``, and the ``RoadProfile``) that has a `name` (or
/// else a `ref`, read "road REF"); ways of the
/// same name and class are one street, and ways that share an end node are joined into one
/// polyline. A way cut by the extract's edge keeps its pieces that the file holds.
///
/// **Intersections**: every node the file holds that two or more kept ways use, where at least
/// three legs meet or the legs belong to two or more streets (so the node where two ways of one
/// street join end to end is not one). A leg is the direction along one way out of the node:
/// one for a way that ends there, two for one that passes through.
public struct StreetNetwork: Sendable {
    /// The streets, by name then class.
    public var streets: [Street] = []
    /// The intersections, by node id.
    public var intersections: [Intersection] = []

    /// How far along a leg its bearing is taken, in metres.
    public static let legBearingDistance = 25.0

    /// The name a street is known by: its `name`, else "road " and its `ref` (a road known only by
    /// its number reads "road 170"), else nil (not a street).
    public static func streetName(name: String?, ref: String?) -> String? {
        if let name, !name.isEmpty { return name }
        if let ref, !ref.isEmpty { return "road \(ref)" }
        return nil
    }

    /// The network of `data`'s ways that `profile` keeps; paths too when `includePaths`.
    public init(_ data: OSMData, includePaths: Bool = false, profile: RoadProfile = .pedestrian) {
        // Ways kept, with their street key.
        struct Key: Hashable, Comparable {
            var name: String, highwayClass: String
            static func < (a: Key, b: Key) -> Bool { (a.name, a.highwayClass) < (b.name, b.highwayClass) }
        }
        var waysByStreet: [Key: [OSMWay]] = [:]
        for way in data.ways {
            guard let highway = way.tag("highway"), StreetClass.isKept(highway, includePaths: includePaths),
                  profile.keeps(highway: highway, tag: way.tag), let name = Self.streetName(name: way.tag("name"), ref: way.tag("ref")) else { continue }
            waysByStreet[Key(name: name, highwayClass: highway), default: []].append(way)
        }
        var streetOfWay: [Int64: Int] = [:]
        for key in waysByStreet.keys.sorted() {
            let ways = waysByStreet[key, default: []].sorted { $0.id < $1.id }
            let refs = Set(ways.compactMap { $0.tag("ref") })
            var pieces: [[OSMNode]] = []
            // A piece over the same nodes as one already kept (either way round) adds nothing to the street: 100,000 copies
            // of one way would otherwise be joined back and forth into one line, in time that grows with their square.
            var seen = Set<[Int64]>()
            for way in ways {
                for piece in data.pieces(of: way) {
                    let forward = piece.map(\.id), backward = Array(forward.reversed())
                    if seen.insert(backward.lexicographicallyPrecedes(forward) ? backward : forward).inserted { pieces.append(piece) }
                }
            }
            for way in ways { streetOfWay[way.id] = streets.count }
            var localNames: [String: String] = [:]
            for way in ways { localNames.merge(LocalNames.of(way.tags, keeping: { _ in true })) { first, _ in first } }
            streets.append(Street(name: key.name, highwayClass: key.highwayClass, ref: refs.count == 1 ? refs.first : nil,
                                  lines: Self.joined(pieces), wayIDs: ways.map(\.id),
                                  isRoundabout: ways.contains { $0.tag("junction") == "roundabout" }, localNames: localNames))
        }
        intersections = Self.intersections(data, streetOfWay: streetOfWay, streets: streets)
    }

    /// Polylines joined where one's end node is another's end node (either direction), until no
    /// two can be joined; closed lines stay as they are. Deterministic: each line, in order, grows
    /// at its end and then at its start, always with the lowest-numbered line that meets it there.
    static func joined(_ pieces: [[OSMNode]]) -> [[OSMNode]] {
        var lines = pieces
        var alive = [Bool](repeating: true, count: lines.count)
        var linesAt: [Int64: Set<Int>] = [:]  // open lines by end node
        func isOpen(_ line: [OSMNode]) -> Bool { line.first?.id != line.last?.id }
        func index(_ line: Int) {
            guard isOpen(lines[line]), let first = lines[line].first?.id, let last = lines[line].last?.id else { return }
            linesAt[first, default: []].insert(line)
            linesAt[last, default: []].insert(line)
        }
        func unindex(_ line: Int) {
            guard let first = lines[line].first?.id, let last = lines[line].last?.id else { return }
            linesAt[first]?.remove(line)
            linesAt[last]?.remove(line)
        }
        for line in lines.indices { index(line) }
        for line in lines.indices where alive[line] {
            for atEnd in [true, false] {
                while isOpen(lines[line]), let node = atEnd ? lines[line].last?.id : lines[line].first?.id,
                      let other = linesAt[node]?.filter({ $0 != line }).min() {
                    unindex(line)
                    unindex(other)
                    let a = lines[line], b = lines[other]
                    if atEnd {
                        lines[line] = a + (b.first?.id == node ? b : b.reversed()).dropFirst()
                    } else {
                        lines[line] = (b.last?.id == node ? b : b.reversed()) + a.dropFirst()
                    }
                    alive[other] = false
                    index(line)
                }
            }
        }
        return lines.indices.filter { alive[$0] }.map { lines[$0] }
    }

    /// The intersections: nodes where kept ways meet (see the type's documentation).
    static func intersections(_ data: OSMData, streetOfWay: [Int64: Int], streets: [Street]) -> [Intersection] {
        // For each node the file holds, the legs of the kept ways through it.
        var legs: [Int64: [IntersectionLeg]] = [:]
        var waysAt: [Int64: Set<Int64>] = [:]
        for way in data.ways {
            guard let street = streetOfWay[way.id] else { continue }
            for piece in data.pieces(of: way) {
                for (index, node) in piece.enumerated() {
                    waysAt[node.id, default: []].insert(way.id)
                    if index > 0 { legs[node.id, default: []].append(IntersectionLeg(street: street, bearing: bearing(from: index, step: -1, in: piece))) }
                    if index < piece.count - 1 { legs[node.id, default: []].append(IntersectionLeg(street: street, bearing: bearing(from: index, step: 1, in: piece))) }
                }
            }
        }
        var result: [Intersection] = []
        for (id, ways) in waysAt where ways.count >= 2 {
            guard let node = data.node(id: id), let nodeLegs = legs[id] else { continue }
            let streetsHere = Set(nodeLegs.map(\.street))
            guard nodeLegs.count >= 3 || streetsHere.count >= 2 else { continue }
            // Two named streets of any class (a named service road is a street its walker is told they are along).
            let names = Set(streetsHere.filter { !StreetClass.paths.contains(streets[$0].highwayClass) }.map { streets[$0].name })
            let classesByName = Dictionary(grouping: streetsHere, by: { streets[$0].name }).mapValues { Set($0.map { streets[$0].highwayClass }) }
            let isMain = names.count >= 2 || streetsHere.contains { streets[$0].isRoundabout } || classesByName.values.contains { $0.count >= 2 }
            let sorted = nodeLegs.sorted { ($0.street, $0.bearing) < ($1.street, $1.bearing) }
            result.append(Intersection(node: node, legs: sorted, isMain: isMain))
        }
        return result.sorted { $0.node.id < $1.node.id }
    }

    /// The bearing from `piece[index]` towards the point ``legBearingDistance`` metres along the
    /// piece in direction `step` (or its last node that way).
    public static func bearing(from index: Int, step: Int, in piece: [OSMNode]) -> Double {
        let start = piece[index]
        var travelled = 0.0
        var previous = start
        var target = start
        var position = index + step
        while position >= 0, position < piece.count {
            let node = piece[position]
            let length = Geodesic.distance(latitude: previous.latitude, longitude: previous.longitude, toLatitude: node.latitude, longitude: node.longitude)
            if travelled + length >= legBearingDistance, length > 0 {
                // The point on this segment legBearingDistance from the start, by its fraction.
                let fraction = (legBearingDistance - travelled) / length
                let latitude = previous.latitude + (node.latitude - previous.latitude) * fraction
                let longitude = previous.longitude + (node.longitude - previous.longitude) * fraction
                return initialBearing(from: start, toLatitude: latitude, longitude: longitude)
            }
            travelled += length
            previous = node
            target = node
            position += step
        }
        return initialBearing(from: start, toLatitude: target.latitude, longitude: target.longitude)
    }

    /// The initial great-circle bearing from `node` to a point, degrees in 0 ..< 360 (0 when they coincide).
    public static func initialBearing(from node: OSMNode, toLatitude latitude: Double, longitude: Double) -> Double {
        Compass.bearing(fromLatitude: node.latitude, longitude: node.longitude, toLatitude: latitude, longitude: longitude)
    }
}
