/// What a map says about one place, across all its layers: the familiar fields of a geocoder's
/// placemark, filled from layers by name, and every layer's raw answer.
///
/// Which layer fills which field (by layer name, ASCII case aside), how far a town, street or
/// address may be, and which layers count as the country, state, time-zone, marine and town layers:
/// Docs/Library.md#how-a-placemark-is-filled. Distances are geodesic (WGS 84); ties go to the
/// lower feature index. ``MapStack`` answers with several maps, each field from the most detailed map.
public struct Placemark: Sendable {
    /// One layer's answer: every feature of the layer containing the point, smallest area first;
    /// for a layer of lines or points (which contain no point), the features that gave a field.
    public struct LayerAnswer: Sendable {
        /// The layer's name.
        public var layer: String
        /// A layer of polygons: the features containing the point, smallest area first (empty when
        /// none does). A layer of lines or points: the features that filled a field of the
        /// placemark (the street of ``Placemark/thoroughfare``, the address of its
        /// ``Placemark/subThoroughfare``, the postcode, the place of the ``Placemark/name``, the
        /// settlements or town of ``Placemark/locality`` and ``Placemark/subLocality``), else empty.
        public var features: [Feature]
        /// The position in ``MapStack/maps`` of the map whose layer this is (0 for one map's placemark).
        public var map: Int = 0
    }

    /// The point asked about, in degrees.
    public var latitude: Double
    /// The point asked about, in degrees.
    public var longitude: Double
    /// ISO 3166-1 alpha-2 code of the country, such as `US`.
    public var isoCountryCode: String?
    /// The country's name.
    public var country: String?
    /// The state, province or region's name.
    public var administrativeArea: String?
    /// The state, province or region's code, such as `US-TX`.
    public var administrativeAreaCode: String?
    /// The county or other second-level region, such as `Santa Clara County` (the town layer's `admin2`).
    public var subAdministrativeArea: String?
    /// The IANA time zone, such as `America/Chicago`.
    public var timeZone: String?
    /// At sea, the ocean or sea, such as `North Atlantic Ocean` (the marine layer).
    public var ocean: String?
    /// The lake, lagoon or river, such as `Caspian Sea` (the marine layer, where it has one).
    public var inlandWater: String?
    /// The town of the point's own country the locality rule picks (``localityRadius``, ``localityPreference``, ``townReach(population:)``), such as `Kehl` (the town layer).
    public var locality: String?
    /// The geodesic distance to ``locality``, in metres (0 when an area of that name contains the point).
    public var localityDistance: Double?
    /// The suburb, quarter or neighbourhood, such as `Kluuvi` (location maps).
    public var subLocality: String?
    /// The street, such as `Mannerheimintie` (location maps).
    public var thoroughfare: String?
    /// The house number on ``thoroughfare``, such as `5` (location maps).
    public var subThoroughfare: String?
    /// The postal code, such as `00100` (location maps).
    public var postalCode: String?
    /// The name of the place: the smallest named area around the point or a place beside it (location maps).
    public var name: String?
    /// The named areas around the point, smallest first (location maps).
    public var areasOfInterest: [String] = []
    /// Every layer's answer, in the file's layer order.
    ///
    /// (A list rather than a dictionary, so that building a placemark needs no hashing seed on
    /// devices without a source of randomness; ``features(in:)`` looks a layer up by name.)
    public var answers: [LayerAnswer]

    /// The storage of the towns the locality rule reads, kept between the points a placemark is
    /// filled for (``MapStack/placemark(latitude:longitude:into:)``) so that reading them allocates nothing.
    var townCandidates: [CompactTown] = []
    /// The storage of the state and county texts of an earlier point, kept while the fields are
    /// nil (at sea) so that the next state written into them allocates nothing.
    var spareTexts = ReusedTexts()
    /// How near what gave each location-map field was, for a ``MapStack`` of region maps.
    var ranks = FieldRanks()

    /// The features of the layer named `layer` that contain the point, smallest first; empty when none or no such layer.
    public func features(in layer: String) -> [Feature] {
        answers.first { $0.layer == layer }?.features ?? []
    }

    /// Whether no layer has an answer and no street field, ``locality`` or ``subLocality`` is filled.
    public var isEmpty: Bool {
        answers.allSatisfy { $0.features.isEmpty } && thoroughfare == nil && postalCode == nil && name == nil && locality == nil
            && subLocality == nil
    }

    /// How far the nearest town may be to be the ``locality``, in metres: 50 km.
    public static let localityRadius = 50_000.0

    /// How much farther than the nearest town a more populous town may be and still be the
    /// ``locality``: 1.25, so 25 % farther ("nearly as near": a city centre 2.4 km away rather than
    /// a hamlet 2 km away).
    public static let localityPreference = 1.25

    /// How far a town's own reach goes, in metres: 1 km for 10,000 people, growing with the square
    /// root of its population (4 km for 160,000, 10 km for a million), at most 15 km. Within it a
    /// town is the ``locality`` though a smaller place (a neighbourhood of GeoNames' list, "Sol"
    /// in Madrid) is nearer.
    public static func townReach(population: Int) -> Double {
        min(15_000, 1_000 * (Double(max(0, population)) / 10_000).squareRoot())
    }
}

extension GMap {
    /// Every layer's answer for the point, and the familiar fields filled from them (see ``Placemark``).
    /// Every layer's features are empty when the coordinates are not valid.
    ///
    /// Which layer fills which field is found on the first call and kept with the map's bytes for
    /// every later call, from any thread. A ``MapStack`` of the map (`MapStack([map])`) answers the
    /// same placemarks and also keeps its polygon layers' texts, for the fewest instructions a point.
    public func placemark(latitude: Double, longitude: Double) -> Placemark {
        guard let roles = rootStorage.cached({ PlacemarkLayers(layers: unretainedLayers, keepingTexts: true) }) else {
            return PlacemarkLayers(self).placemark(latitude: latitude, longitude: longitude, needsLocality: true)
        }
        var placemark = roles.placemark(latitude: latitude, longitude: longitude, needsLocality: true)
        // The kept roles read views that do not keep the map alive: what is handed out gets the map's own layers.
        for position in placemark.answers.indices where !placemark.answers[position].features.isEmpty {
            guard let layer = layer(at: position) else { continue }
            for index in placemark.answers[position].features.indices {
                placemark.answers[position].features[index] = Feature(map: layer, index: placemark.answers[position].features[index].index)
            }
        }
        return placemark
    }
}

/// Which layer of a map's file fills which placemark fields, found once by name (a ``MapStack``
/// keeps one per map, so that a placemark neither opens the layers nor compares their names).
/// A class, so that passing the roles to each step of a placemark retains one object rather than
/// copying their dozen fields.
final class PlacemarkLayers: Sendable {
    /// Every layer of the file, in file order, and their names.
    let layers: [GMap], names: [String]
    /// The positions in ``layers`` of the polygon layers read by name (``Placemark``'s table).
    let country: Int?, state: Int?, timeZone: Int?, marine: Int?
    /// The town layer, when it is a layer of points.
    let town: Int?
    /// A location map's layers (``MapLocationSource/LayerName``), each when of the right geometry.
    let roads: Int?, addresses: Int?, postcodes: Int?, areas: Int?, places: Int?, settlements: Int?
    /// The settlements of a small `settlements` layer, read once (``Placemark/settlementPoints(of:)``).
    let settlementPoints: [Placemark.SettlementPoint]?
    /// Where the town layer keeps the values the locality rule reads, found once.
    let townValues: Placemark.TownValues?
    /// With `keepingTexts`: for each polygon layer that fills fields (country, state, time zone,
    /// marine) of at most ``textsLimit`` features, every feature's texts; nil for the others.
    let texts: [[Placemark.FeatureTexts]?]

    /// The most features of a layer whose texts a ``MapStack`` keeps (a world's states, 4,596, are well within).
    static let textsLimit = 20_000

    /// The kept texts of `feature` of the layer at `layer`, or nil when they are not kept.
    func keptTexts(of feature: Feature, inLayer layer: Int) -> Placemark.FeatureTexts? {
        guard layer < texts.count, let kept = texts[layer], feature.index >= 0, feature.index < kept.count else { return nil }
        return kept[feature.index]
    }
    /// Whether each layer's features may contain a point (``GeometryKind/answersContainment``:
    /// polygons; lines and points contain none).
    let containsPoints: [Bool]

    /// The roles of `map`'s layers; with `keepingTexts`, the texts of their features too (a
    /// ``MapStack`` keeps them: reading them costs about 5 million instructions, 1–2 ms, once on
    /// the shipped map, and saves every placemark its property searches and strings).
    convenience init(_ map: GMap, keepingTexts: Bool = false) {
        self.init(layers: map.layers, keepingTexts: keepingTexts)
    }

    /// The roles of `layers`, every layer of one file in file order.
    init(layers: [GMap], keepingTexts: Bool = false) {
        self.layers = layers
        let names = layers.map { $0.layerName }
        self.names = names
        let folded = names.map { String(decoding: NameFolding.fold($0), as: UTF8.self) }
        let kinds = layers.map { $0.geometryKind }
        containsPoints = kinds.map { $0?.answersContainment ?? true }
        func named(_ list: [String]) -> Int? { folded.firstIndex(where: list.contains) }
        func exactly(_ name: String, _ kind: GeometryKind) -> Int? {
            names.firstIndex(of: name).flatMap { kinds[$0] == kind ? $0 : nil }
        }
        let otherLayers = Placemark.stateLayers + Placemark.timeZoneLayers + Placemark.marineLayers + Placemark.townLayers
        country = named(Placemark.countryLayers) ?? (layers.count == 1 && !otherLayers.contains(folded[0]) ? 0 : nil)
        // A layer of states that are points (the world map's, for geocoding) holds no point.
        state = named(Placemark.stateLayers).flatMap { kinds[$0]?.answersContainment ?? true ? $0 : nil }
        timeZone = named(Placemark.timeZoneLayers)
        marine = named(Placemark.marineLayers)
        town = named(Placemark.townLayers).flatMap { kinds[$0] == .points ? $0 : nil }
        typealias Name = MapLocationSource.LayerName
        roads = exactly(Name.roads, .lines)
        addresses = exactly(Name.addresses, .points)
        postcodes = exactly(Name.postcodes, .points)
        areas = exactly(Name.areas, .polygons)
        places = exactly(Name.places, .points)
        settlements = exactly(Name.settlements, .points)
        settlementPoints = settlements.flatMap { Placemark.settlementPoints(of: layers[$0]) }
        townValues = town.map { Placemark.TownValues(layers[$0]) }
        let textLayers = [country, state, timeZone, marine], polygons = containsPoints
        texts = layers.indices.map { index in
            let layer = layers[index]
            guard keepingTexts, textLayers.contains(index), polygons[index], layer.featureCount <= Self.textsLimit else { return nil }
            return (0..<layer.featureCount).map { Placemark.FeatureTexts(Feature(map: layer, index: $0)) }
        }
    }

    /// The placemark of the point from these layers; without `needsLocality` the town layer is not
    /// searched (a more detailed map of a ``MapStack`` gave the locality), so it neither fills
    /// ``Placemark/locality`` nor answers.
    func placemark(latitude: Double, longitude: Double, needsLocality: Bool) -> Placemark {
        var placemark = Placemark(latitude: latitude, longitude: longitude)
        fill(&placemark, latitude: latitude, longitude: longitude, needsLocality: needsLocality)
        return placemark
    }

    /// Makes `placemark` the placemark of the point from these layers, as
    /// ``placemark(latitude:longitude:needsLocality:)`` gives it, reusing the storage of its
    /// answers: when it was filled from these layers before, its arrays are emptied and filled
    /// again without allocating.
    func fill(_ placemark: inout Placemark, latitude: Double, longitude: Double, needsLocality: Bool) {
        // Taken out, so that the arrays are not shared while they are refilled.
        var answers: [Placemark.LayerAnswer] = []
        swap(&answers, &placemark.answers)
        if answers.count != layers.count || !answers.indices.allSatisfy({ answers[$0].layer == names[$0] }) {
            answers = names.map { Placemark.LayerAnswer(layer: $0, features: []) }
        }
        let point = layers.first?.quantizer.queryPoint(latitude: latitude, longitude: longitude)
        for index in answers.indices {
            answers[index].map = 0
            answers[index].features.removeAll(keepingCapacity: true)
            guard containsPoints[index] else { continue }
            let layer = layers[index]
            // Each layer of a file shares its quantizer, so one query point serves every layer.
            guard let point = layer.quantizer == layers[0].quantizer ? point : layer.quantizer.queryPoint(latitude: latitude, longitude: longitude)
            else { continue }
            layer.visitFeatures(containing: point) { found in
                answers[index].features.append(Feature(map: layer, index: found))
                return true
            }
        }
        // An empty placemark (nothing to copy) given the arrays and the town's name to reuse, taken
        // out of the old one so that they are its own and the locality rule changes them in place.
        var fresh = Placemark(latitude: latitude, longitude: longitude), locality: String?
        var states = Placemark.ReusedTexts()
        swap(&states, &placemark.spareTexts)
        swap(&fresh.answers, &answers)
        swap(&fresh.townCandidates, &placemark.townCandidates)
        swap(&locality, &placemark.locality)
        // A text of the point before replaces the spare one (which is freed with the old placemark).
        if placemark.administrativeArea != nil { swap(&states.state, &placemark.administrativeArea) }
        if placemark.administrativeAreaCode != nil { swap(&states.code, &placemark.administrativeAreaCode) }
        if placemark.subAdministrativeArea != nil { swap(&states.county, &placemark.subAdministrativeArea) }
        swap(&placemark, &fresh)
        placemark.fillPolygonFields(from: self)
        placemark.fillStreetFields(from: self)
        // The town layer gives the locality (unless a more detailed map of a stack gave one) and the state.
        placemark.fillLocality(from: self, reusing: locality, states: &states, wantsLocality: needsLocality)
        // The texts not written into are kept for the next point.
        swap(&placemark.spareTexts, &states)
    }
}

#if !hasFeature(Embedded)
extension GMap {
    /// For code written with `CLGeocoder.reverseGeocodeLocation` in mind: the placemarks for a
    /// point, here at most one (none when no layer has an answer). Lookups take microseconds and
    /// never touch the network, so this only wraps ``placemark(latitude:longitude:)``.
    public func reverseGeocode(latitude: Double, longitude: Double) async -> [Placemark] {
        let placemark = placemark(latitude: latitude, longitude: longitude)
        return placemark.isEmpty ? [] : [placemark]
    }
}
#endif

/// What gave a location-map field, ranked: the kind of source (0 before 1: a street before an
/// address, an area containing the point before a point near it), then its distance in metres or,
/// for an area, its size; smaller first.
struct FieldRank: Sendable, Comparable {
    var kind: Int
    var value: Double

    init(_ kind: Int, _ value: Double) {
        self.kind = kind
        self.value = value
    }

    static func < (a: FieldRank, b: FieldRank) -> Bool { (a.kind, a.value) < (b.kind, b.value) }
}

/// The ranks of a placemark's location-map fields (nil: the field was not filled by a location map).
struct FieldRanks: Sendable {
    var thoroughfare: FieldRank?, subThoroughfare: FieldRank?, postalCode: FieldRank?, name: FieldRank?
    var locality: FieldRank?, subLocality: FieldRank?, inlandWater: FieldRank?
}
