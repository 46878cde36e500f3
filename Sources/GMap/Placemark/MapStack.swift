/// Several maps that answer as one: a city's location map (`gmap build --osm`) over the world
/// map, a map of states over both. ``placemark(latitude:longitude:)`` takes each field from the
/// most detailed map that fills it, and lists every map's layers.
///
/// **Order.** ``maps`` holds the maps most detailed first: location maps (those with a layer of
/// lines named `roads`) before the others, and otherwise in the order given. The world map given
/// last therefore always comes last.
///
/// **Precedence.** Each field, or group of fields that belong together, comes from the first map
/// in that order that fills it; a later map never overrides it:
///
/// | Fields | From the first map (in ``maps``' order) that has |
/// |---|---|
/// | ``Placemark/isoCountryCode`` | a country code (of its country layer, or the first letters of a state's code) |
/// | ``Placemark/country`` | a country name, and no country code other than the stack's |
/// | ``Placemark/administrativeArea``, ``Placemark/administrativeAreaCode``, ``Placemark/subAdministrativeArea`` | either of the first two (all three from that map) |
/// | ``Placemark/timeZone`` | a time zone |
/// | ``Placemark/thoroughfare``, ``Placemark/subThoroughfare`` | a thoroughfare (both from that map: a house number is never taken from another map's street) |
/// | ``Placemark/postalCode`` | a postal code |
/// | ``Placemark/name`` | a name |
/// | ``Placemark/locality``, ``Placemark/localityDistance`` | a locality (both from that map): a city map's OSM settlement before the world map's nearest town (which is then not searched for) |
/// | ``Placemark/subLocality`` | a subLocality |
/// | ``Placemark/inlandWater`` | inland water: a city map's OSM water area before the world map's lake |
/// | ``Placemark/ocean`` | an ocean, and only when no map puts the point in a country |
/// | ``Placemark/areasOfInterest`` | at least one area |
///
/// ``Placemark/answers`` lists every layer of every map, in stack order, each with its map's
/// position in ``maps`` (``Placemark/LayerAnswer/map``); ``Placemark/features(in:)`` finds the
/// first layer of a name. A stack is an immutable `Sendable` value, as its maps are.
public struct MapStack: Sendable {
    /// The maps, most detailed first (see the type's description).
    public let maps: [GMap]

    /// A stack of `maps`, reordered most detailed first: location maps (a layer of lines named
    /// `roads`) before the others, each group in the given order.
    public init(_ maps: [GMap]) {
        let detailed = maps.filter(Self.isLocationMap)
        self.maps = detailed + maps.filter { !Self.isLocationMap($0) }
        roles = self.maps.map { PlacemarkLayers($0, keepingTexts: true) }
    }

    /// Each map's layers and their roles, found once.
    let roles: [PlacemarkLayers]

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
        var result = Placemark(latitude: latitude, longitude: longitude)
        for (position, map) in roles.enumerated() {
            var one = map.placemark(latitude: latitude, longitude: longitude, needsLocality: result.locality == nil)
            for index in one.answers.indices { one.answers[index].map = position }
            result.merge(one)
        }
        if result.isoCountryCode != nil || result.country != nil { result.ocean = nil }
        return result
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
