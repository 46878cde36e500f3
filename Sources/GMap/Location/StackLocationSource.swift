/// A ``LocationSource`` over the location maps of a ``MapStack`` (region maps built one by one
/// with `gmap build --osm`): each question goes to the maps whose bounds come within its radius
/// (``MapStack/maps(near:within:)``), and their answers are joined as one map of the whole area
/// would give them. Near a seam between regions:
/// - a road is one road: of the matches of one name from several maps, the nearest;
/// - an intersection split by the seam is one: the matches of several maps at the same position
///   are one match, with the streets of all of them, and main when any says so;
/// - places and areas found by two maps (a region's extract keeps every way it touches whole, so
///   its neighbour has them too) are listed once.
///
/// On a stack of one location map it answers exactly as that map's ``MapLocationSource``.
public struct StackLocationSource: LocationSource {
    /// The stack the maps come from.
    public let stack: MapStack
    /// Each map's location source, in the order of ``MapStack/maps``; nil for a map without a layer
    /// of lines named `roads` (the world map).
    public let sources: [MapLocationSource?]
    /// The only location source, when the stack has one: its answers are given as they are.
    let single: MapLocationSource?

    /// A source over the stack's location maps.
    ///
    /// - Throws: ``LocationMapError/noRoadLayer(layers:)`` when no map of the stack has a road layer.
    public init(stack: MapStack) throws(LocationMapError) {
        self.stack = stack
        let sources = stack.maps.map { try? MapLocationSource(map: $0) }
        self.sources = sources
        let found = sources.compactMap { $0 }
        guard !found.isEmpty else { throw .noRoadLayer(layers: stack.layerNames) }
        single = found.count == 1 ? found[0] : nil
    }

    /// The location sources that may answer within `radius` metres of the point, with their
    /// positions: the one whose extract (``MapStack/extracts``) holds the whole circle alone, as
    /// it knows every way and node there; else every map whose bounds come that near.
    func near(latitude: Double, longitude: Double, within radius: Double) -> [(position: Int, source: MapLocationSource)] {
        for candidate in stack.index.candidates(latitude: latitude, longitude: longitude, within: radius) {
            let position = Int(candidate)
            guard let source = sources[position], let extract = stack.extracts[position], extract.holds(latitude: latitude, longitude: longitude) else { continue }
            if extract.holds(latitude: latitude, longitude: longitude, within: radius) { return [(position, source)] }
            break
        }
        return stack.maps(near: latitude, longitude: longitude, within: radius).compactMap { position in sources[position].map { (position, $0) } }
    }

    public func roads(latitude: Double, longitude: Double, within radius: Double) -> [RoadMatch] {
        if let single { return single.roads(latitude: latitude, longitude: longitude, within: radius) }
        var matches: [RoadMatch] = []
        for (position, source) in near(latitude: latitude, longitude: longitude, within: radius) {
            for var road in source.roads(latitude: latitude, longitude: longitude, within: radius) {
                road.mapPosition = position
                if let kept = matches.firstIndex(where: { $0.name == road.name }) {
                    if road.distance < matches[kept].distance { matches[kept] = road }
                } else {
                    matches.append(road)
                }
            }
        }
        return Self.nearestFirst(matches) { $0.distance }
    }

    public func intersections(latitude: Double, longitude: Double, within radius: Double) -> [IntersectionMatch] {
        if let single { return single.intersections(latitude: latitude, longitude: longitude, within: radius) }
        var matches: [IntersectionMatch] = []
        for (_, source) in near(latitude: latitude, longitude: longitude, within: radius) {
            for match in source.intersections(latitude: latitude, longitude: longitude, within: radius) {
                Self.join(match, into: &matches)
            }
        }
        return matches.sorted { ($0.distance, $0.streetNames.joined(separator: "\u{1}")) < ($1.distance, $1.streetNames.joined(separator: "\u{1}")) }
    }

    public func places(latitude: Double, longitude: Double, within radius: Double, limit: Int) -> [NearbyPlace] {
        if let single { return single.places(latitude: latitude, longitude: longitude, within: radius, limit: limit) }
        var found: [NearbyPlace] = []
        for (_, source) in near(latitude: latitude, longitude: longitude, within: radius) {
            for place in source.places(latitude: latitude, longitude: longitude, within: radius, limit: limit)
            where !found.contains(where: { Self.isSame($0, place) }) {
                found.append(place)
            }
        }
        return Array(Self.nearestFirst(found) { $0.distance }.prefix(max(0, limit)))
    }

    public func areas(latitude: Double, longitude: Double) -> [NearbyPlace] {
        if let single { return single.areas(latitude: latitude, longitude: longitude) }
        // Smallest first over every map: by each feature's area, the maps' own order within one.
        var found: [(place: NearbyPlace, area: Double)] = []
        for (_, source) in near(latitude: latitude, longitude: longitude, within: 0) {
            guard let layer = source.areaLayer else { continue }
            for feature in layer.lookupAll(latitude: latitude, longitude: longitude) {
                let place = NearbyPlace(name: feature.property("name") ?? feature.id, category: feature.property("category") ?? "", distance: 0, bearing: 0)
                guard !found.contains(where: { $0.place == place && abs($0.area - feature.area) <= 1e-9 * max(1, abs(feature.area)) }) else { continue }
                found.append((place, feature.area))
            }
        }
        return found.enumerated().sorted { ($0.element.area, $0.offset) < ($1.element.area, $1.offset) }.map { $0.element.place }
    }

    public func hasIntersection(latitude: Double, longitude: Double, within radius: Double) -> Bool {
        near(latitude: latitude, longitude: longitude, within: radius).contains { $0.source.hasIntersection(latitude: latitude, longitude: longitude, within: radius) }
    }

    public func intersectionAhead(on road: String, latitude: Double, longitude: Double, direction: Double, cone: AheadCone) -> IntersectionMatch? {
        if let single { return single.intersectionAhead(on: road, latitude: latitude, longitude: longitude, direction: direction, cone: cone) }
        let candidates = near(latitude: latitude, longitude: longitude, within: cone.radius)
        let found = candidates.compactMap { $0.source.intersectionAhead(on: road, latitude: latitude, longitude: longitude, direction: direction, cone: cone) }
        return joinedAhead(found, candidates: candidates)
    }

    public func intersectionAhead(along road: RoadMatch, latitude: Double, longitude: Double, direction: Double, cone: AheadCone) -> IntersectionMatch? {
        if let single { return single.intersectionAhead(along: road, latitude: latitude, longitude: longitude, direction: direction, cone: cone) }
        let from = (latitude: road.latitude ?? latitude, longitude: road.longitude ?? longitude)
        guard Quantizer.isValid(latitude: from.latitude, longitude: from.longitude), cone.radius.isFinite, cone.radius >= 0, direction.isFinite else { return nil }
        let candidates = near(latitude: from.latitude, longitude: from.longitude, within: cone.radius)
        // The road's own feature in the map the match came from; the others find their line of it within 3 m.
        func feature(in position: Int, _ source: MapLocationSource) -> Feature? {
            guard road.mapPosition == position, let index = road.featureIndex, index >= 0, index < source.roadLayer.featureCount else { return nil }
            return Feature(map: source.roadLayer, index: index)
        }
        let extracts = stack.extracts
        func holds(_ position: Int, _ latitude: Double, _ longitude: Double) -> Bool {
            extracts[position]?.holds(latitude: latitude, longitude: longitude) ?? false
        }
        // The map that speaks for a point: the one whose extract holds it (it knows every way and
        // node there), else the one the road came from.
        let first = candidates.first { holds($0.position, from.latitude, from.longitude) } ?? candidates.first { $0.position == road.mapPosition }
        // The walker's own line, walked by the map that speaks for each stretch: its intersections
        // inside its extract count; at the first outside it (or where its line ends) the walk goes
        // on in the map of the next region, from that map's line of the road nearest the last
        // intersection counted (an extract keeps a crossing way whole, so the line goes on there).
        var junctions: [Junction] = []
        var used = Set<Int>(), current = first, point = from, offset = 0.0, onward = direction
        var ownLine = false
        while let (position, source) = current {
            used.insert(position)
            current = nil
            let own = offset == 0 ? feature(in: position, source) : nil
            guard let walk = source.junctionsAhead(on: road.name, feature: own, latitude: point.latitude, longitude: point.longitude,
                                                   direction: onward, radius: cone.radius - offset) else { break }
            if offset == 0 { ownLine = true }
            var crossed: (latitude: Double, longitude: Double)?
            var last = (latitude: point.latitude, longitude: point.longitude, distance: offset)
            for (junction, distance) in walk {
                let box = junction.boundingBox
                if extracts[position] != nil, !holds(position, box.south, box.west) {
                    // Behind, in a region already walked: that region's map counted it.
                    if used.contains(where: { holds($0, box.south, box.west) }) { continue }
                    crossed = (box.south, box.west)
                    break
                }
                let main = junction.propertyValueBytes(forKey: "main").map { $0.elementsEqual("yes".utf8) } ?? false
                junctions.append(Junction(latitude: box.south, longitude: box.west, distance: offset + distance, isMain: main,
                                          streetNames: MapLocationSource.streetNames(of: junction.id)))
                if last.distance < offset + distance {
                    onward = Compass.bearing(fromLatitude: last.latitude, longitude: last.longitude, toLatitude: box.south, longitude: box.west)
                }
                last = (box.south, box.west, offset + distance)
            }
            if junctions.contains(where: { $0.isMain }) { break }
            // A line that cannot leave this map's extract within the radius has no more junctions.
            if crossed == nil, let extract = extracts[position], extract.holds(latitude: last.latitude, longitude: last.longitude, within: cone.radius - last.distance) { break }
            // The next region: the one whose extract holds the first intersection outside, else any
            // map (not yet walked) whose line of the road lies ahead of the last one counted.
            var next: (position: Int, source: MapLocationSource, seed: (latitude: Double, longitude: Double), distance: Double)?
            for (other, otherSource) in candidates where !used.contains(other) {
                if let crossed, !holds(other, crossed.latitude, crossed.longitude), extracts.contains(where: { $0 != nil }) { continue }
                guard let line = otherSource.roadLayer.nearestLines(latitude: last.latitude, longitude: last.longitude, within: cone.radius - last.distance)
                    .first(where: { ($0.feature.property("name") ?? $0.feature.id) == road.name }) else { continue }
                let bearing = Compass.bearing(fromLatitude: last.latitude, longitude: last.longitude, toLatitude: line.latitude, longitude: line.longitude)
                guard line.distance < 1 || Compass.difference(bearing, onward) <= 90, line.distance < (next?.distance ?? .infinity) else { continue }
                next = (other, otherSource, (line.latitude, line.longitude), line.distance)
            }
            guard let next else { break }
            current = (next.position, next.source)
            point = next.seed
            offset = last.distance + next.distance
        }
        let mine = junctions.sorted { $0.distance < $1.distance }.first { $0.isMain && $0.distance <= cone.radius }.map { junction in
            IntersectionMatch(streetNames: junction.streetNames, distance: junction.distance,
                              bearing: Compass.bearing(fromLatitude: from.latitude, longitude: from.longitude, toLatitude: junction.latitude, longitude: junction.longitude),
                              isMain: true, latitude: junction.latitude, longitude: junction.longitude)
        }
        // Off the own line: the other carriageway, in the map that speaks for the walker; without
        // an own line in any map, the cone of every map.
        var theirs: (match: IntersectionMatch, rank: Double)?
        for (position, source) in candidates where ownLine ? position == first?.position : true {
            let part = source.aheadOffOwnLine(on: road.name, feature: feature(in: position, source), latitude: from.latitude, longitude: from.longitude,
                                              direction: direction, cone: cone, ownDistance: mine?.distance)
            if let other = part.other, other.rank < (theirs?.rank ?? .infinity) { theirs = other }
        }
        let chosen: IntersectionMatch?
        switch (mine, theirs) {
        case let (mine?, theirs?): chosen = theirs.rank < mine.distance ? theirs.match : mine
        case let (mine?, nil): chosen = mine
        case let (nil, theirs?): chosen = theirs.match
        case (nil, nil): chosen = nil
        }
        return joinedAhead(chosen.map { [$0] } ?? [], candidates: candidates)
    }

    /// An intersection on the walker's own line, joined from the maps that know it.
    struct Junction {
        var latitude: Double, longitude: Double
        var distance: Double
        var isMain: Bool
        var streetNames: [String]
    }

    /// Of the maps' intersections ahead, the nearest (ties by names), with the streets of every
    /// map's intersection at its position: a map whose extract ends there lacks the legs beyond.
    func joinedAhead(_ found: [IntersectionMatch], candidates: [(position: Int, source: MapLocationSource)]) -> IntersectionMatch? {
        guard var best = found.min(by: { ($0.distance, $0.streetNames.joined(separator: "\u{1}")) < ($1.distance, $1.streetNames.joined(separator: "\u{1}")) })
        else { return nil }
        guard candidates.count > 1, let latitude = best.latitude, let longitude = best.longitude else { return best }
        // The map whose extract holds the intersection knows all its streets; else every map may add some.
        let owners = candidates.filter { stack.extracts[$0.position]?.holds(latitude: latitude, longitude: longitude) ?? false }
        for (_, source) in owners.isEmpty ? candidates : owners {
            for match in source.intersections(latitude: latitude, longitude: longitude, within: Self.samePlace) where Self.isSamePlace(match, best) {
                best.streetNames = Array(Set(best.streetNames + match.streetNames)).sorted()
            }
        }
        return best
    }

    /// The name of a road, place or area in `language`, from the first map that has one.
    public func localizedName(_ name: String, language: String) -> String? {
        for case let source? in sources {
            if let local = source.localizedName(name, language: language) { return local }
        }
        return nil
    }

    /// Whether some map of the stack has a name in `language`.
    public func hasNames(in language: String) -> Bool {
        sources.contains { $0?.hasNames(in: language) ?? false }
    }

    /// The places of ``MapLocationSource/placesAround(latitude:longitude:heading:within:category:aheadOnly:limit:)``
    /// from every map near the point, nearest first, each place once.
    public func placesAround(latitude: Double, longitude: Double, heading: Double?, within radius: Double,
                             category: String? = nil, aheadOnly: Bool = false, limit: Int = 10) -> [PlaceAround] {
        if let single {
            return single.placesAround(latitude: latitude, longitude: longitude, heading: heading, within: radius, category: category, aheadOnly: aheadOnly, limit: limit)
        }
        var found: [PlaceAround] = []
        for (_, source) in near(latitude: latitude, longitude: longitude, within: radius) {
            for place in source.placesAround(latitude: latitude, longitude: longitude, heading: heading, within: radius,
                                             category: category, aheadOnly: aheadOnly, limit: limit)
            where !found.contains(where: { $0.name == place.name && $0.category == place.category && abs($0.distance - place.distance) < 0.01 && $0.bearing == place.bearing }) {
                found.append(place)
            }
        }
        return Array(Self.nearestFirst(found) { $0.distance }.prefix(max(0, limit)))
    }

    /// How near, in metres, two maps' intersections must be to be one: the same OSM node, quantized alike.
    static let samePlace = 0.5

    /// Whether two matches are at one place (the same node in two maps).
    static func isSamePlace(_ a: IntersectionMatch, _ b: IntersectionMatch) -> Bool {
        guard let la = a.latitude, let lo = a.longitude, let lb = b.latitude, let ob = b.longitude else { return false }
        return abs(la - lb) < 1e-6 && abs(lo - ob) < 2e-6
    }

    /// Adds `match` to `matches`, or joins it with the match at its place: the streets of both, main when either is.
    static func join(_ match: IntersectionMatch, into matches: inout [IntersectionMatch]) {
        guard let kept = matches.firstIndex(where: { isSamePlace($0, match) }) else {
            matches.append(match)
            return
        }
        matches[kept].streetNames = Array(Set(matches[kept].streetNames + match.streetNames)).sorted()
        matches[kept].isMain = matches[kept].isMain || match.isMain
        matches[kept].distance = min(matches[kept].distance, match.distance)
    }

    /// Whether two maps' places are one: the same name, category and point.
    static func isSame(_ a: NearbyPlace, _ b: NearbyPlace) -> Bool {
        a.name == b.name && a.category == b.category && a.latitude == b.latitude && a.longitude == b.longitude
    }

    /// `items` nearest first; of equal distances, in the order found (the stack's order).
    static func nearestFirst<T>(_ items: [T], distance: (T) -> Double) -> [T] {
        items.enumerated().sorted { (distance($0.element), $0.offset) < (distance($1.element), $1.offset) }.map { $0.element }
    }
}
