/// A ``LocationSource`` that answers from a map built by `gmap build --osm`: its layers `roads`
/// (lines), `intersections`, `places` and `addresses` (points) and `areas` (polygons).
public struct MapLocationSource: LocationSource {
    /// The layer names a location map uses.
    public enum LayerName {
        /// Streets: one line feature per street (name and class).
        public static let roads = "roads"
        /// Named areas: buildings, parks, squares, land use (polygons).
        public static let areas = "areas"
        /// Named places (points).
        public static let places = "places"
        /// Addresses (points): the street as the id, the house number as a property.
        public static let addresses = "addresses"
        /// Postal codes (points): one feature per code, at the points of the addresses that carry it.
        public static let postcodes = "postcodes"
        /// Intersections (points): the streets that meet and whether it is a main one.
        public static let intersections = "intersections"
        /// Settlements (points): OSM's `place=city|town|village|suburb|quarter|neighbourhood` nodes,
        /// the name as the id, the `place` value as a property (the placemark's locality and subLocality).
        public static let settlements = "settlements"
        /// The property of `settlements` and `areas` features that holds OSM's `place` value.
        public static let place = "place"
        /// The property of `areas` features that marks inland water, and its value.
        public static let water = "water", inland = "inland"
    }

    /// What joins the street names in an intersection's id: `Kaivokatu / Keskuskatu`.
    public static let streetSeparator = " / "

    /// The road layer.
    public let roadLayer: GMap
    /// The other layers, nil when the map lacks them (their questions then have no answers).
    public let areaLayer: GMap?, placeLayer: GMap?, addressLayer: GMap?, intersectionLayer: GMap?

    /// A source over `map`'s layers (any of its layers: the file's are looked up by name). The
    /// `roads` layer is required; each other layer the map lacks leaves its questions unanswered
    /// (``missingLayers`` names them).
    ///
    /// - Throws: ``LocationMapError`` when the map has no layer of lines named `roads` (a map not
    ///   built by `gmap build --osm`), saying which layers it has.
    public init(map: GMap) throws(LocationMapError) {
        guard let roads = map.layer(named: LayerName.roads) else { throw .noRoadLayer(layers: map.layerNames) }
        guard roads.layout.kind == .lines else { throw .roadLayerNotLines(kind: roads.geometryKind) }
        roadLayer = roads
        areaLayer = map.layer(named: LayerName.areas)
        placeLayer = map.layer(named: LayerName.places)
        addressLayer = map.layer(named: LayerName.addresses)
        intersectionLayer = map.layer(named: LayerName.intersections)
    }

    /// The optional layers the map lacks, in the order areas, places, addresses, intersections:
    /// what this source cannot answer (empty for a map built by `gmap build --osm`).
    public var missingLayers: [String] {
        let layers: [(String, GMap?)] = [(LayerName.areas, areaLayer), (LayerName.places, placeLayer),
                                         (LayerName.addresses, addressLayer), (LayerName.intersections, intersectionLayer)]
        return layers.compactMap { $0.1 == nil ? $0.0 : nil }
    }

    public func roads(latitude: Double, longitude: Double, within radius: Double) -> [RoadMatch] {
        // A road's identity is its name: of several features of one name (classes), the nearest.
        var matches: [RoadMatch] = []
        for line in roadLayer.nearestLines(latitude: latitude, longitude: longitude, within: radius) {
            let name = line.feature.property("name") ?? line.feature.id
            guard !matches.contains(where: { $0.name == name }) else { continue }
            let bearing = line.distance > 0 ? Compass.bearing(fromLatitude: latitude, longitude: longitude, toLatitude: line.latitude, longitude: line.longitude) : 0
            var match = RoadMatch(name: name, roadClass: line.feature.property("class") ?? "", distance: line.distance, direction: line.direction,
                                  bearing: bearing, latitude: line.latitude, longitude: line.longitude)
            match.featureIndex = line.feature.index
            matches.append(match)
        }
        return matches
    }

    public func intersections(latitude: Double, longitude: Double, within radius: Double) -> [IntersectionMatch] {
        guard let layer = intersectionLayer else { return [] }
        return layer.nearestPoints(latitude: latitude, longitude: longitude, within: radius).map { point in
            let names = Self.streetNames(of: point.feature.id)
            return IntersectionMatch(streetNames: names, distance: point.distance, bearing: point.bearing,
                                     isMain: point.feature.property("main") == "yes", latitude: point.latitude, longitude: point.longitude)
        }
    }

    /// The street names in an intersection's id, split at ``streetSeparator``.
    static func streetNames(of id: String) -> [String] {
        var names: [String] = [], current: [UInt8] = []
        let separator = Array(streetSeparator.utf8), bytes = Array(id.utf8)
        var index = 0
        while index < bytes.count {
            if bytes[index...].starts(with: separator) {
                names.append(String(decoding: current, as: UTF8.self))
                current = []
                index += separator.count
            } else {
                current.append(bytes[index])
                index += 1
            }
        }
        names.append(String(decoding: current, as: UTF8.self))
        return names.filter { !$0.isEmpty }
    }

    public func places(latitude: Double, longitude: Double, within radius: Double, limit: Int) -> [NearbyPlace] {
        guard let layer = placeLayer else { return [] }
        func place(_ point: PointMatch) -> NearbyPlace {
            NearbyPlace(name: point.feature.property("name") ?? point.feature.id, category: point.feature.property("category") ?? "",
                        distance: point.distance, bearing: point.bearing, latitude: point.latitude, longitude: point.longitude)
        }
        // The nearest alone: leaves nearest first, nothing allocated per feature.
        if limit == 1 { return layer.nearestPoint(latitude: latitude, longitude: longitude, within: radius).map { [place($0)] } ?? [] }
        return layer.nearestPoints(latitude: latitude, longitude: longitude, within: radius, limit: limit).map(place)
    }

    public func areas(latitude: Double, longitude: Double) -> [NearbyPlace] {
        guard let layer = areaLayer else { return [] }
        return layer.lookupAll(latitude: latitude, longitude: longitude).map { feature in
            NearbyPlace(name: feature.property("name") ?? feature.id, category: feature.property("category") ?? "", distance: 0, bearing: 0)
        }
    }

    /// Walks the intersections in planar order and measures on the ellipsoid only those that pass
    /// the cheap tests (planar bearing within a degree of the angle, the `main` flag, the road's
    /// name in the id): the answer of the default implementation, without building every match.
    public func intersectionAhead(on road: String, latitude: Double, longitude: Double, within radius: Double,
                                  direction: Double, angle: Double) -> IntersectionMatch? {
        guard let layer = intersectionLayer, layer.geometryKind == .points, Quantizer.isValid(latitude: latitude, longitude: longitude),
              radius.isFinite, radius >= 0 else { return nil }
        let candidates = layer.pointCandidates(plane: LocalPlane(latitude: latitude, longitude: longitude), within: radius)
        var found: [IntersectionMatch] = []
        let roadBytes = Array(road.utf8), slack = GMap.planarSlack(latitude: latitude, radius: radius)
        for candidate in candidates {
            if let best = found.first, candidate.squared.squareRoot() > best.distance * slack + 0.05 { break }
            let planarBearing = Compass.normalised(Trigonometry.atan2(candidate.east, candidate.north) * 180 / Double.pi)
            guard candidate.squared < 1 || Compass.difference(planarBearing, direction) <= angle + 1 else { continue }
            let feature = Feature(map: layer, index: candidate.feature)
            guard let main = feature.propertyValueBytes(forKey: "main"), main.elementsEqual("yes".utf8),
                  Self.streetNames(of: feature.idBytes).contains(roadBytes) else { continue }
            let match = layer.pointMatch(candidate, from: latitude, longitude)
            guard match.distance <= radius, Compass.difference(match.bearing, direction) <= angle else { continue }
            found.append(IntersectionMatch(streetNames: Self.streetNames(of: feature.id), distance: match.distance, bearing: match.bearing, isMain: true,
                                           latitude: match.latitude, longitude: match.longitude))
            found.sort { ($0.distance, $0.streetNames.joined(separator: "\u{1}")) < ($1.distance, $1.streetNames.joined(separator: "\u{1}")) }
        }
        return found.first
    }

    /// The intersection ahead on `road` (see ``LocationSource``), measured along the road: the
    /// first main intersection that the walker's own line of the road reaches in `direction`
    /// (the road's `intersections` list, in order along the line, from the line's piece that
    /// holds the point), so that a curving street keeps its next junction; and, on the road's
    /// other lines (the other carriageway of a dual carriageway), the best inside `cone` widened
    /// to ``AheadCone/carriageway`` metres to the side. Of the two, the lower
    /// ``AheadCone/rank(distance:offset:)`` wins (a junction on the walker's line ranks by its
    /// distance along the line). A road whose line the map does not place at the point (a map
    /// without `intersections` lists) is searched with `cone` alone, as
    /// ``intersectionAhead(on:latitude:longitude:within:direction:angle:)`` searches.
    public func intersectionAhead(on road: String, latitude: Double, longitude: Double, direction: Double, cone: AheadCone) -> IntersectionMatch? {
        intersectionAhead(on: road, feature: nil, latitude: latitude, longitude: longitude, direction: direction, cone: cone)
    }

    /// ``intersectionAhead(on:latitude:longitude:direction:cone:)`` from the road's nearest point,
    /// on the road feature the match names.
    public func intersectionAhead(along road: RoadMatch, latitude: Double, longitude: Double, direction: Double, cone: AheadCone) -> IntersectionMatch? {
        let feature = road.featureIndex.flatMap { $0 >= 0 && $0 < roadLayer.featureCount ? Feature(map: roadLayer, index: $0) : nil }
        return intersectionAhead(on: road.name, feature: feature, latitude: road.latitude ?? latitude, longitude: road.longitude ?? longitude,
                                 direction: direction, cone: cone)
    }

    /// The intersection ahead on `road`, whose feature at the point is `feature` when known.
    func intersectionAhead(on road: String, feature: Feature?, latitude: Double, longitude: Double, direction: Double, cone: AheadCone) -> IntersectionMatch? {
        guard let layer = intersectionLayer, layer.geometryKind == .points, Quantizer.isValid(latitude: latitude, longitude: longitude),
              cone.radius.isFinite, cone.radius >= 0, direction.isFinite else { return nil }
        let plane = LocalPlane(latitude: latitude, longitude: longitude)
        let roadBytes = Array(road.utf8)
        let onRoad = feature ?? roadLayer.nearestLines(latitude: latitude, longitude: longitude, within: 3)
            .first(where: { ($0.feature.property("name") ?? $0.feature.id) == road })?.feature
        let lines = onRoad.map { intersections(along: $0).map { $0.map { feature in feature.index } }.filter { !$0.isEmpty } } ?? []
        guard let own = aheadOnOwnLine(lines: lines, plane: plane, direction: direction, radius: cone.radius, layer: layer) else {
            let candidates = layer.pointCandidates(plane: plane, within: cone.radius)
            return inCone(candidates, cone: cone, road: roadBytes, excluding: [], latitude: latitude, longitude: longitude, direction: direction, layer: layer)?.match
        }
        // A road of one line has no other carriageway.
        if lines.count == 1, own.match != nil { return own.match }
        // The other lines' junctions: only those that could rank before the own line's (every
        // point ranks at least its distance × cos(angle)) are read.
        let floor = Trigonometry.cos(min(89, cone.angle + 1) * Double.pi / 180) / GMap.planarSlack(latitude: latitude, radius: cone.radius)
        let reach = min(cone.radius, (own.match?.distance ?? cone.radius) / floor + 1)
        var wide = cone
        wide.lateral = max(cone.lateral, cone.carriageway)
        let other = inCone(layer.pointCandidates(plane: plane, within: reach), cone: wide, road: roadBytes, excluding: own.line,
                           latitude: latitude, longitude: longitude, direction: direction, layer: layer)
        switch (own.match, other) {
        case let (mine?, theirs?): return theirs.rank < mine.distance ? theirs.match : mine
        case let (mine?, nil): return mine
        case let (nil, theirs?): return theirs.match
        case (nil, nil): return nil
        }
    }


    /// For a ``StackLocationSource``, which walks the own line across its maps itself: whether
    /// this map has a line of `road` at the point (the walker's own line), and the best main
    /// intersection of the road inside the cone off that line (its other carriageway, widened as
    /// ``intersectionAhead(on:latitude:longitude:direction:cone:)`` widens it, and only when it
    /// could rank before `ownDistance`), or, without the own line, inside the cone itself; with its rank.
    func aheadOffOwnLine(on road: String, feature: Feature?, latitude: Double, longitude: Double, direction: Double, cone: AheadCone,
                         ownDistance: Double?) -> (hasOwnLine: Bool, other: (match: IntersectionMatch, rank: Double)?) {
        guard let layer = intersectionLayer, layer.geometryKind == .points, Quantizer.isValid(latitude: latitude, longitude: longitude),
              cone.radius.isFinite, cone.radius >= 0, direction.isFinite else { return (false, nil) }
        let plane = LocalPlane(latitude: latitude, longitude: longitude)
        let roadBytes = Array(road.utf8)
        let onRoad = feature ?? roadLayer.nearestLines(latitude: latitude, longitude: longitude, within: 3)
            .first(where: { ($0.feature.property("name") ?? $0.feature.id) == road })?.feature
        let lines = onRoad.map { intersections(along: $0).map { $0.map { feature in feature.index } }.filter { !$0.isEmpty } } ?? []
        guard let own = ownLineOrder(lines: lines, plane: plane, direction: direction, layer: layer) else {
            let candidates = layer.pointCandidates(plane: plane, within: cone.radius)
            return (false, inCone(candidates, cone: cone, road: roadBytes, excluding: [], latitude: latitude, longitude: longitude, direction: direction, layer: layer))
        }
        if lines.count == 1, ownDistance != nil { return (true, nil) }
        let floor = Trigonometry.cos(min(89, cone.angle + 1) * Double.pi / 180) / GMap.planarSlack(latitude: latitude, radius: cone.radius)
        let reach = min(cone.radius, (ownDistance ?? cone.radius) / floor + 1)
        var wide = cone
        wide.lateral = max(cone.lateral, cone.carriageway)
        return (true, inCone(layer.pointCandidates(plane: plane, within: reach), cone: wide, road: roadBytes, excluding: own.line,
                             latitude: latitude, longitude: longitude, direction: direction, layer: layer))
    }

    /// The first main intersection ahead on the walker's own line, with the features of that
    /// line's intersections; `lines` are the intersections of the road feature that passes within
    /// 3 m of the point (``intersections(along:)``), nil when there are none. Positions are the
    /// intersections' own (metres east and north of the point in `plane`); the search ends at
    /// `radius` metres along the line.
    func aheadOnOwnLine(lines: [[Int]], plane: LocalPlane, direction: Double, radius: Double, layer: GMap) -> (match: IntersectionMatch?, line: [Int])? {
        guard let walk = ownLineOrder(lines: lines, plane: plane, direction: direction, layer: layer) else { return nil }
        for (k, distance) in walk.order {
            guard distance <= radius, walk.points[k] != nil else { break }
            let junction = Feature(map: layer, index: walk.line[k])
            guard let main = junction.propertyValueBytes(forKey: "main"), main.elementsEqual("yes".utf8) else { continue }
            let box = junction.boundingBox
            let bearing = Compass.bearing(fromLatitude: plane.latitude, longitude: plane.longitude, toLatitude: box.south, longitude: box.west)
            return (IntersectionMatch(streetNames: Self.streetNames(of: junction.id), distance: distance, bearing: bearing, isMain: true,
                                      latitude: box.south, longitude: box.west), walk.line)
        }
        return (nil, walk.line)
    }

    /// The walker's own line and the intersections ahead on it, in order, each an index into
    /// `line` with its distance along the line from the point (see ``aheadOnOwnLine(lines:plane:direction:radius:layer:)``);
    /// `points` are the line's intersections' positions in `plane` (nil for one out of range).
    func ownLineOrder(lines: [[Int]], plane: LocalPlane, direction: Double, layer: GMap)
        -> (order: [(index: Int, distance: Double)], line: [Int], points: [(east: Double, north: Double)?])? {
        guard !lines.isEmpty else { return nil }
        func position(_ index: Int) -> (east: Double, north: Double)? {
            guard index >= 0, index < layer.featureCount else { return nil }
            let box = Feature(map: layer, index: index).boundingBox
            let p = plane.project(latitude: box.south, longitude: box.west)
            return (p.x, p.y)
        }
        // Each intersection's position, read once.
        let positions = lines.map { $0.map(position) }
        // The walker's place: the line, the chord (i, i + 1) nearest the point, and how far along it (metres from i).
        var best: (line: Int, chord: Int, along: Double, length: Double, distance: Double)?
        for (number, line) in positions.enumerated() {
            if line.count == 1, let a = line[0] {
                let distance = (a.east * a.east + a.north * a.north).squareRoot()
                if distance < (best?.distance ?? .infinity) { best = (number, 0, 0, 0, distance) }
            }
            for chord in 0..<max(0, line.count - 1) {
                guard let a = line[chord], let b = line[chord + 1] else { continue }
                let dx = b.east - a.east, dy = b.north - a.north, length = (dx * dx + dy * dy).squareRoot()
                guard length > 0 else { continue }
                var t = (-a.east * dx - a.north * dy) / (length * length)
                // Before the line's first or past its last intersection, the point is on an end piece.
                if chord > 0 { t = max(0, t) }
                if chord < line.count - 2 { t = min(1, t) }
                let clamped = (east: a.east + min(1, max(0, t)) * dx, north: a.north + min(1, max(0, t)) * dy)
                let distance = (clamped.east * clamped.east + clamped.north * clamped.north).squareRoot()
                if distance < (best?.distance ?? .infinity) { best = (number, chord, t * length, length, distance) }
            }
        }
        guard let place = best else { return nil }
        let line = lines[place.line], points = positions[place.line]
        let radians = direction * Double.pi / 180
        let way = (east: Trigonometry.sin(radians), north: Trigonometry.cos(radians))
        // Which way along the line the walker goes: the chord's direction, or for a lone intersection, towards it.
        var forward = true
        if line.count == 1 {
            if let a = points[0], a.east * way.east + a.north * way.north < -1 { return ([], line, points) }
        } else if let a = points[place.chord], let b = points[place.chord + 1] {
            forward = (b.east - a.east) * way.east + (b.north - a.north) * way.north >= 0
        }
        // The intersections ahead in order, with the distance along the line to each.
        var order: [(index: Int, distance: Double)] = []
        if line.count == 1 {
            order = [(0, place.distance)]
        } else {
            // The chord's near end when the walker is (within 1 m) before it, then its far end
            // unless passed (the walker on the end piece beyond it), then on along the line.
            let step = forward ? 1 : -1
            let near = forward ? place.chord : place.chord + 1
            let toNear = forward ? -place.along : place.along - place.length
            if toNear >= -1 { order.append((near, max(0, toNear))) }
            var distance = forward ? place.length - place.along : place.along
            var k = near + step
            if distance >= -1 { order.append((k, max(0, distance))) }
            while k + step >= 0, k + step < line.count, let a = points[k], let b = points[k + step] {
                distance += ((b.east - a.east) * (b.east - a.east) + (b.north - a.north) * (b.north - a.north)).squareRoot()
                k += step
                order.append((k, distance))
            }
        }
        return (order, line, points)
    }

    /// The intersections ahead on the walker's own line of `road` (the line of `feature` when
    /// known, else the road's line within 3 m of the point), in order along it, each with its
    /// distance along the line, up to `radius` metres: what ``intersectionAhead(along:latitude:longitude:direction:cone:)``
    /// walks, every intersection and not only main ones (a ``StackLocationSource`` joins several
    /// maps' walks); nil when no line of the road is known at the point.
    func junctionsAhead(on road: String, feature: Feature?, latitude: Double, longitude: Double, direction: Double, radius: Double)
        -> [(feature: Feature, distance: Double)]? {
        guard let layer = intersectionLayer, layer.geometryKind == .points, Quantizer.isValid(latitude: latitude, longitude: longitude),
              radius.isFinite, radius >= 0, direction.isFinite else { return nil }
        let onRoad = feature ?? roadLayer.nearestLines(latitude: latitude, longitude: longitude, within: 3)
            .first(where: { ($0.feature.property("name") ?? $0.feature.id) == road })?.feature
        let lines = onRoad.map { intersections(along: $0).map { $0.map { feature in feature.index } }.filter { !$0.isEmpty } } ?? []
        guard let walk = ownLineOrder(lines: lines, plane: LocalPlane(latitude: latitude, longitude: longitude), direction: direction, layer: layer) else { return nil }
        var found: [(feature: Feature, distance: Double)] = []
        for (k, distance) in walk.order {
            guard distance <= radius, walk.points[k] != nil else { break }
            found.append((Feature(map: layer, index: walk.line[k]), distance))
        }
        return found
    }

    /// The best main intersection on `road` inside `cone`, other than the features `excluding`,
    /// with its rank: walks `candidates` in planar order and measures on the ellipsoid only those
    /// that pass the cheap tests, as ``intersectionAhead(on:latitude:longitude:within:direction:angle:)`` does.
    func inCone(_ candidates: [PointCandidate], cone: AheadCone, road roadBytes: [UInt8],
                excluding: [Int], latitude: Double, longitude: Double, direction: Double, layer: GMap) -> (match: IntersectionMatch, rank: Double)? {
        var found: (match: IntersectionMatch, rank: Double)?
        // A looser cone for the planar pre-test (a degree and half a metre wider).
        var loose = cone
        loose.angle += 1
        loose.lateral += 0.5
        let slack = GMap.planarSlack(latitude: latitude, radius: cone.radius)
        loose.radius = cone.radius * slack + 0.05
        let floor = Trigonometry.cos(min(89, loose.angle) * Double.pi / 180) / slack
        for candidate in candidates where !excluding.contains(candidate.feature) {
            let planar = candidate.squared.squareRoot()
            // Every later candidate ranks at least its distance times cos(angle).
            if let best = found, planar * floor > best.rank + 0.05 { break }
            let planarBearing = Compass.normalised(Trigonometry.atan2(candidate.east, candidate.north) * 180 / Double.pi)
            guard planar < 1 || loose.ahead(distance: planar, offset: Compass.signedDifference(planarBearing, direction)) != nil else { continue }
            let feature = Feature(map: layer, index: candidate.feature)
            guard let main = feature.propertyValueBytes(forKey: "main"), main.elementsEqual("yes".utf8),
                  Self.streetNames(of: feature.idBytes).contains(roadBytes) else { continue }
            let match = layer.pointMatch(candidate, from: latitude, longitude)
            let offset = Compass.signedDifference(match.bearing, direction)
            guard let along = cone.ahead(distance: match.distance, offset: offset), let rank = cone.rank(distance: match.distance, offset: offset) else { continue }
            if let best = found, best.rank <= rank { continue }
            found = (IntersectionMatch(streetNames: Self.streetNames(of: feature.id), distance: along, bearing: match.bearing, isMain: true,
                                       latitude: match.latitude, longitude: match.longitude), rank)
        }
        return found
    }

    /// The intersections along `road`, a feature of the road layer, in order along each of its
    /// lines: one list per line, in the order of the road's lines, each intersection a feature of
    /// the intersections layer (its id names the streets that meet, its `main` property says
    /// whether it is a main one). Empty when the map has no intersections layer or the road no
    /// `intersections` property (a map built before it was written); indices out of range are skipped.
    public func intersections(along road: Feature) -> [[Feature]] {
        guard let layer = intersectionLayer, let list = road.propertyValueBytes(forKey: "intersections") else { return [] }
        var lines: [[Feature]] = [[]]
        var number = 0, digits = 0
        func flush() {
            if digits > 0, digits <= 9, number < layer.featureCount { lines[lines.count - 1].append(Feature(map: layer, index: number)) }
            number = 0
            digits = 0
        }
        for byte in list {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if digits < 10 { number = number * 10 + Int(byte - UInt8(ascii: "0")) }
                digits += 1
            case UInt8(ascii: ","):
                flush()
            case UInt8(ascii: ";"):
                flush()
                lines.append([])
            default:
                digits = 10  // not a number: skipped at the next separator
            }
        }
        flush()
        return lines
    }

    /// The intersections along every road feature named `name` (its `name` property, else its id),
    /// in the road layer's order, each line's in order along it (see ``intersections(along:)``).
    public func intersections(alongRoadNamed name: String) -> [[Feature]] {
        var lines: [[Feature]] = []
        for index in 0..<roadLayer.featureCount {
            let road = Feature(map: roadLayer, index: index)
            guard (road.property("name") ?? road.id) == name else { continue }
            lines += intersections(along: road)
        }
        return lines
    }

    /// The name of the road, place or area called `name` in `language` (its `name:LL` property,
    /// `language` being `sv`, `en`, …): the first feature of that name in the roads, then the
    /// places, then the areas layer that has one; nil when none has (a map built without
    /// `--languages`, or a name OSM gives in no other language). Callouts fall back to `name`.
    public func localizedName(_ name: String, language: String) -> String? {
        let key = "name:" + language
        for layer in [roadLayer, placeLayer, areaLayer] {
            guard let layer else { continue }
            for feature in layer.find(name, matching: .exact, limit: 16) where (feature.property("name") ?? feature.id) == name {
                if let local = feature.property(key), !local.isEmpty { return local }
            }
        }
        return nil
    }

    /// Whether some road, place or area of the map has a name in `language` (its `name:LL` property).
    public func hasNames(in language: String) -> Bool {
        let key = "name:" + language
        for layer in [roadLayer, placeLayer, areaLayer] {
            guard let layer else { continue }
            for index in 0..<layer.featureCount where Feature(map: layer, index: index).property(key) != nil { return true }
        }
        return false
    }

    public func hasIntersection(latitude: Double, longitude: Double, within radius: Double) -> Bool {
        guard let layer = intersectionLayer else { return false }
        return layer.nearestPoint(latitude: latitude, longitude: longitude, within: radius) != nil
    }

    /// The street names in an intersection's id bytes, split at ``streetSeparator``.
    static func streetNames(of id: UnsafeRawBufferPointer) -> [[UInt8]] {
        streetNames(of: String(decoding: id, as: UTF8.self)).map { Array($0.utf8) }
    }
}

extension GMap {
    /// The intersections within `radius` metres, nearest first: the points of the layer named
    /// `intersections` (``MapLocationSource/LayerName/intersections``), as a location map holds them.
    public func intersections(latitude: Double, longitude: Double, within radius: Double, limit: Int = Int.max) -> [PointMatch] {
        nearestPoints(in: MapLocationSource.LayerName.intersections, latitude: latitude, longitude: longitude, within: radius, limit: limit)
    }
}
