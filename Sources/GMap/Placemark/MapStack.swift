/// Several maps that answer as one: a city's location map (`gmap build --osm`) over the world
/// map, a map of states over both. ``placemark(latitude:longitude:)`` takes each field from the
/// most detailed map that fills it, and lists every map's layers.
///
/// ``maps`` holds the maps most detailed first: location maps (those with a layer of lines named
/// `roads`) before the others, and otherwise in the order given. Each field, or group of fields
/// that belong together, comes from the first map in that order that fills it; a later map never
/// overrides it. Only the maps near the point are asked, which gives the fields of asking every
/// map; ``Placemark/answers`` lists every layer of every map asked, in stack order. The fields one
/// by one, and how near is near: Docs/Library.md#how-a-stack-fills-a-placemark. A stack is an
/// immutable `Sendable` value, as its maps are.
public struct MapStack: Sendable {
    /// The maps, most detailed first (see the type's description).
    public let maps: [GMap]

    /// A stack of `maps`, reordered most detailed first: location maps (a layer of lines named
    /// `roads`) before the others, each group in the given order.
    public init(_ maps: [GMap]) {
        let detailed = maps.filter(Self.isLocationMap)
        self.maps = detailed + maps.filter { !Self.isLocationMap($0) }
        let roles = self.maps.map { PlacemarkLayers($0, keepingTexts: true) }
        self.roles = roles
        reaches = roles.map(Reach.init)
        isLocation = self.maps.map(Self.isLocationMap)
        extracts = self.maps.map { $0.extractBounds }
        bounds = zip(self.maps, reaches).map { map, reach in reach.isEverywhere ? nil : map.featureBounds ?? map.bounds }
        index = StackIndex(bounds: bounds, margin: Self.indexMargin)
    }

    /// Each map's layers and their roles, found once.
    let roles: [PlacemarkLayers]
    /// How far from its bounds each map's placemark fields search.
    let reaches: [Reach]
    /// Whether each map is a location map (``isLocationMap(_:)``).
    let isLocation: [Bool]
    /// Each map's extract box (``GMap/extractBounds``), in the order of ``maps``: where a region map
    /// knows every way and node.
    public let extracts: [MapBounds?]
    /// Which maps may answer near a point.
    let index: StackIndex

    /// Each map's bounds (``GMap/featureBounds``, else ``GMap/bounds``), in the order of ``maps``;
    /// nil for a map asked for every point: one with a town layer (its locality and state searches
    /// reach 1,350 km) or without tiles.
    public let bounds: [MapBounds?]

    /// The farthest, in metres, that the stack's index of bounds serves: a search of a wider
    /// radius asks every map.
    public static let indexMargin = 10_000.0

    /// The farthest a settlement of each field may be (``Placemark/settlementRadii``): 10 km for
    /// the locality (a city), 2 km for the subLocality (a suburb).
    static let settlementReach: (locality: Double, subLocality: Double) = {
        var reach = (locality: 0.0, subLocality: 0.0)
        for entry in Placemark.settlementRadii {
            switch Placemark.settlementKind(entry.place.utf8)?.group {
            case .locality?: reach.locality = max(reach.locality, entry.metres)
            case .subLocality?: reach.subLocality = max(reach.subLocality, entry.metres)
            case nil: break
            }
        }
        return reach
    }()

    /// The farthest a placemark field of a map with bounds searches (a settlement's radius).
    static let placemarkReach = max(Placemark.settlementRadii.map { $0.metres }.max() ?? 0, Placemark.postcodeDistance)

    /// How far a map's placemark fields search beyond what its polygons contain, in metres.
    struct Reach: Sendable {
        /// The streets', addresses', postal codes' and places' (0 for a map without such layers).
        let near: Double
        /// The settlements' (0 for a map without a `settlements` layer).
        let settlements: Double
        /// Whether the map has a town layer: its searches have no bound worth indexing.
        let isEverywhere: Bool

        init(_ roles: PlacemarkLayers) {
            let fields: [Int?] = [roles.roads, roles.addresses, roles.postcodes, roles.places]
            near = fields.contains { $0 != nil }
                ? max(Placemark.streetDistance, Placemark.addressDistance, Placemark.postcodeDistance, Placemark.placeDistance) : 0
            settlements = roles.settlements == nil ? 0 : Placemark.settlementRadii.map { $0.metres }.max() ?? 0
            isEverywhere = roles.town != nil
        }
    }

    /// How a map is asked for a point.
    enum Ask {
        /// Not at all: it could fill no field.
        case none
        /// Its whole placemark (the point is within its bounds or its near fields' reach).
        case whole
        /// Only its settlements: the point is beyond its other fields' reach, and a settlement of
        /// it could still be the locality or subLocality.
        case settlements
    }

    /// How the map at `position` is asked for the point, given what `result` already has.
    func ask(_ position: Int, latitude: Double, longitude: Double, given result: Placemark) -> Ask {
        let reach = reaches[position]
        if index.mayAnswer(position, latitude: latitude, longitude: longitude, within: reach.near) { return .whole }
        guard reach.settlements > 0 else { return .none }
        // Its settlements can give a field still missing, or one that a farther settlement gave;
        // never one that an area gave (the point is outside its areas).
        func limit(_ field: String?, _ rank: FieldRank?, _ radius: Double) -> Double {
            if field == nil { return radius }
            guard let rank, rank.kind == 1 else { return 0 }
            return min(rank.value, radius)
        }
        let farthest = max(limit(result.locality, result.ranks.locality, Self.settlementReach.locality),
                           limit(result.subLocality, result.ranks.subLocality, Self.settlementReach.subLocality))
        return farthest > 0 && index.mayAnswer(position, latitude: latitude, longitude: longitude, within: farthest) ? .settlements : .none
    }

    /// The positions in ``maps``, in order, of the maps that may have a feature, line or point
    /// within `radius` metres of the point: those whose ``bounds`` come that near (and those
    /// without bounds). Found through the index of bounds, whatever the number of maps.
    public func maps(near latitude: Double, longitude: Double, within radius: Double) -> [Int] {
        index.candidates(latitude: latitude, longitude: longitude, within: radius).compactMap { candidate in
            let position = Int(candidate)
            return index.mayAnswer(position, latitude: latitude, longitude: longitude, within: radius) ? position : nil
        }
    }

    /// Whether `map`'s file has a layer of lines named `roads` (`gmap build --osm` makes one).
    public static func isLocationMap(_ map: GMap) -> Bool {
        map.layer(named: MapLocationSource.LayerName.roads)?.geometryKind == .lines
    }

    /// The placemark of the point from every map, each field from the most detailed map that
    /// fills it (see the type's description). Every layer's features are empty when the
    /// coordinates are not valid.
    public func placemark(latitude: Double, longitude: Double) -> Placemark {
        // One map: its placemark as is (merging it into an empty one gives the same).
        if roles.count == 1, let map = roles.first { return map.placemark(latitude: latitude, longitude: longitude, needsLocality: true) }
        var result = Placemark(latitude: latitude, longitude: longitude), regions = 0
        for candidate in index.candidates(latitude: latitude, longitude: longitude, within: Self.placemarkReach) {
            let position = Int(candidate)
            switch ask(position, latitude: latitude, longitude: longitude, given: result) {
            case .none: continue
            case .whole: add(position, to: &result, regions: &regions)
            case .settlements: addSettlements(of: position, to: &result, regions: &regions)
            }
        }
        return finished(result, regions: regions)
    }

    /// Adds the placemark of the map at `position` to `result`: a location map after another
    /// (`regions` counts them) joins it field by field, the nearer source winning; any other map
    /// fills what is still missing.
    func add(_ position: Int, to result: inout Placemark, regions: inout Int) {
        var one = roles[position].placemark(latitude: result.latitude, longitude: result.longitude, needsLocality: result.locality == nil)
        for index in one.answers.indices { one.answers[index].map = position }
        if isLocation[position] {
            if regions > 0 {
                result.join(one)
            } else {
                // The first location map: no map before it gave a location-map field.
                result.merge(one)
                result.ranks = one.ranks
            }
            regions += 1
        } else {
            result.merge(one)
        }
    }

    /// Adds the settlements of the location map at `position` to `result`: its nearest settlement
    /// of each kind within its radius (``Placemark/settlementRadii``) becomes the locality or
    /// subLocality where there is none yet or a settlement farther away gave it (as ``add(_:to:regions:)``
    /// would take them from its whole placemark, which has no other field this far out).
    func addSettlements(of position: Int, to result: inout Placemark, regions: inout Int) {
        let roles = self.roles[position]
        guard let index = roles.settlements else { return }
        let layer = roles.layers[index], (latitude, longitude) = (result.latitude, result.longitude)
        var nearest: (locality: (feature: Feature, distance: Double)?, subLocality: (feature: Feature, distance: Double)?)
        if let points = roles.settlementPoints {
            nearest = Placemark.nearestSettlements(scanning: points, of: layer, latitude: latitude, longitude: longitude)
        } else {
            nearest.locality = Placemark.nearestSettlement(in: layer, .locality, latitude: latitude, longitude: longitude).map { ($0.feature, $0.distance) }
            nearest.subLocality = Placemark.nearestSettlement(in: layer, .subLocality, latitude: latitude, longitude: longitude).map { ($0.feature, $0.distance) }
        }
        func nearer(_ field: String?, _ rank: FieldRank?, _ distance: Double) -> Bool {
            guard field != nil else { return true }
            guard let rank else { return false }
            return FieldRank(1, distance) < rank
        }
        if let match = nearest.locality, nearer(result.locality, result.ranks.locality, match.distance) {
            (result.locality, result.localityDistance, result.ranks.locality) = (match.feature.id, match.distance, FieldRank(1, match.distance))
        }
        if let match = nearest.subLocality, nearer(result.subLocality, result.ranks.subLocality, match.distance) {
            (result.subLocality, result.ranks.subLocality) = (match.feature.id, FieldRank(1, match.distance))
        }
        regions += 1
    }

    /// The placemark once every map has been added: with several location maps, their areas
    /// around the point in one list, smallest first; no ocean where a map gives a country.
    func finished(_ placemark: Placemark, regions: Int) -> Placemark {
        var result = placemark
        // The location maps asked for their whole placemark (those asked for settlements alone list no layers).
        var asked: [Int] = []
        if regions > 1 {
            for answer in result.answers where isLocation[answer.map] && !asked.contains(answer.map) { asked.append(answer.map) }
        }
        if asked.count > 1 {
            // The house number: the nearest address on the street in any of the maps (an address
            // node is in one region's extract; its street may have come from another's).
            if let street = result.thoroughfare, result.ranks.thoroughfare?.kind == 0 {
                var best: (number: String?, distance: Double)?
                for position in asked {
                    guard let found = Placemark.nearestAddress(onStreet: street, in: roles[position], latitude: result.latitude, longitude: result.longitude),
                          found.distance < (best?.distance ?? .infinity) else { continue }
                    best = found
                }
                result.subThoroughfare = best?.number
            }
            var areas: [Feature] = []
            for answer in result.answers where answer.layer == MapLocationSource.LayerName.areas && isLocation[answer.map] { areas += answer.features }
            // Smallest first; an area that two maps hold (the same name and size) once.
            var kept: [(name: String, area: Double)] = []
            for area in areas.enumerated().sorted(by: { ($0.element.area, $0.offset) < ($1.element.area, $1.offset) }).map({ $0.element }) {
                let name = area.property("name") ?? area.id, size = area.area
                if !kept.contains(where: { $0.name == name && $0.area == size }) { kept.append((name, size)) }
            }
            result.areasOfInterest = kept.map { $0.name }
        }
        if result.isoCountryCode != nil || result.country != nil { result.ocean = nil }
        return result
    }

    /// ``maps(near:within:)`` found by testing every map's bounds, without the index's cells: the
    /// oracle that the tests hold the index to.
    package func mapsTestingEveryBound(near latitude: Double, longitude: Double, within radius: Double) -> [Int] {
        maps.indices.filter { index.mayAnswer($0, latitude: latitude, longitude: longitude, within: radius) }
    }

    /// The placemark of the point from every map, each asked (the answer of a stack before it
    /// indexed its maps' bounds): the oracle that the tests hold ``placemark(latitude:longitude:)`` to.
    package func placemarkFromEveryMap(latitude: Double, longitude: Double) -> Placemark {
        var result = Placemark(latitude: latitude, longitude: longitude), regions = 0
        for position in roles.indices { add(position, to: &result, regions: &regions) }
        return finished(result, regions: regions)
    }

    /// Makes `placemark` the placemark of the point, as ``placemark(latitude:longitude:)`` gives it,
    /// reusing its storage: a program asking for many points keeps one placemark (one a thread)
    /// and passes it each time. On a stack of one map, once it has answered for this stack, it is
    /// filled again without allocating: its answers, the towns the locality rule reads and the
    /// town's name are written into the storage they had before, which grows now and then to the
    /// largest yet (as long as nothing else holds a copy of them); a stack of several maps makes a
    /// new placemark.
    public func placemark(latitude: Double, longitude: Double, into placemark: inout Placemark) {
        guard roles.count == 1, let map = roles.first else {
            placemark = self.placemark(latitude: latitude, longitude: longitude)
            return
        }
        map.fill(&placemark, latitude: latitude, longitude: longitude, needsLocality: true)
    }

    /// The names of every map's layers, in stack order (a name may repeat).
    public var layerNames: [String] { maps.flatMap { $0.layerNames } }

    /// The features of every map whose id or kept name matches `text`, as
    /// ``GMap/find(_:layer:matching:limit:)`` finds them in one map: exact matches of every layer
    /// of every map (in stack order) first, then prefix matches, then word matches. `layer`
    /// restricts the search to the layers of that name. At most `limit` features.
    public func find(_ text: String, layer: String? = nil, matching loosest: NameMatch = .words, limit: Int = Int.max) -> [Feature] {
        findMatches(text, layer: layer, matching: loosest, limit: limit).map { $0.feature }
    }

    /// The features ``find(_:layer:matching:limit:)`` finds, each with how its best name matched
    /// and the other name that gave it, as ``GMap/findMatches(_:layer:matching:limit:)`` gives them.
    public func findMatches(_ text: String, layer: String? = nil, matching loosest: NameMatch = .words, limit: Int = Int.max) -> [FoundFeature] {
        let query = NameQuery(text)
        guard !query.words.isEmpty, limit > 0 else { return [] }
        var searched: [GMap] = []
        for map in maps {
            if let layer {
                if let named = map.layer(named: layer) { searched.append(named) }
            } else {
                searched += map.layers
            }
        }
        return GMap.ranked(query, in: searched, loosest: loosest, limit: limit)
    }
}

#if !hasFeature(Embedded)
extension MapStack {
    /// For code written with `CLGeocoder.reverseGeocodeLocation` in mind: at most one placemark
    /// (none when no map answers), as ``GMap/reverseGeocode(latitude:longitude:)`` gives for one map.
    public func reverseGeocode(latitude: Double, longitude: Double) async -> [Placemark] {
        let placemark = placemark(latitude: latitude, longitude: longitude)
        return placemark.isEmpty ? [] : [placemark]
    }
}
#endif

extension Placemark {
    /// Joins `other`, another location map's placemark (a region map beside this one's): each
    /// location-map field from the nearer source (``FieldRank``), the house number with its street
    /// (or from the nearer address on the same street); the other fields as ``merge(_:)`` takes them.
    mutating func join(_ other: Placemark) {
        func nearer(_ mine: FieldRank?, _ theirs: FieldRank?) -> Bool {
            guard let theirs else { return false }
            return mine.map { theirs < $0 } ?? true
        }
        if nearer(ranks.thoroughfare, other.ranks.thoroughfare) {
            (thoroughfare, subThoroughfare) = (other.thoroughfare, other.subThoroughfare)
            (ranks.thoroughfare, ranks.subThoroughfare) = (other.ranks.thoroughfare, other.ranks.subThoroughfare)
        } else if thoroughfare != nil, thoroughfare == other.thoroughfare, nearer(ranks.subThoroughfare, other.ranks.subThoroughfare) {
            subThoroughfare = other.subThoroughfare
            ranks.subThoroughfare = other.ranks.subThoroughfare
        }
        if nearer(ranks.postalCode, other.ranks.postalCode) { (postalCode, ranks.postalCode) = (other.postalCode, other.ranks.postalCode) }
        if nearer(ranks.name, other.ranks.name) { (name, ranks.name) = (other.name, other.ranks.name) }
        if nearer(ranks.locality, other.ranks.locality) {
            (locality, localityDistance, ranks.locality) = (other.locality, other.localityDistance, other.ranks.locality)
        }
        if nearer(ranks.subLocality, other.ranks.subLocality) { (subLocality, ranks.subLocality) = (other.subLocality, other.ranks.subLocality) }
        if nearer(ranks.inlandWater, other.ranks.inlandWater) { (inlandWater, ranks.inlandWater) = (other.inlandWater, other.ranks.inlandWater) }
        var rest = other
        (rest.thoroughfare, rest.subThoroughfare, rest.postalCode, rest.name, rest.locality, rest.subLocality, rest.inlandWater) = (nil, nil, nil, nil, nil, nil, nil)
        merge(rest)
    }

    /// Takes from `other` (a less detailed map's placemark) each field group this placemark lacks,
    /// and appends its answers.
    mutating func merge(_ other: Placemark) {
        if isoCountryCode == nil { isoCountryCode = other.isoCountryCode }
        // The country's name only from a map that agrees on the code (a map of states knows the
        // code from `FI-18`, but not the name).
        if country == nil, other.isoCountryCode == nil || other.isoCountryCode == isoCountryCode { country = other.country }
        if administrativeArea == nil, administrativeAreaCode == nil {
            administrativeArea = other.administrativeArea
            administrativeAreaCode = other.administrativeAreaCode
            subAdministrativeArea = other.subAdministrativeArea
        }
        if timeZone == nil { timeZone = other.timeZone }
        if thoroughfare == nil {
            thoroughfare = other.thoroughfare
            subThoroughfare = other.subThoroughfare
        }
        if postalCode == nil { postalCode = other.postalCode }
        if name == nil { name = other.name }
        if locality == nil {
            locality = other.locality
            localityDistance = other.localityDistance
        }
        if subLocality == nil { subLocality = other.subLocality }
        if inlandWater == nil { inlandWater = other.inlandWater }
        if ocean == nil { ocean = other.ocean }
        if areasOfInterest.isEmpty { areasOfInterest = other.areasOfInterest }
        answers += other.answers
    }
}
