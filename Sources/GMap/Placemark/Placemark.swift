/// What a map says about one place, across all its layers: the familiar fields of a geocoder's
/// placemark, filled from layers by name, and every layer's raw answer.
///
/// The fields are filled by this mapping (layer names compared without regard to ASCII case):
///
/// | Field | From |
/// |---|---|
/// | ``isoCountryCode`` | the *country layer*: of its answers, smallest first, the first with a property `iso_a2`, `ISO_A2`, `iso_3166_1` or `iso_a2_eh` that is two letters A–Z, or else whose id is; failing that, the first two letters of ``administrativeAreaCode`` |
/// | ``country`` | the answer that gave ``isoCountryCode`` (or the country layer's first answer): property `name`, `NAME`, `name_en`, `admin` or `ADMIN` |
/// | ``administrativeAreaCode`` | the *state layer*'s first answer's id; without a state layer, the first answer of the country layer whose id looks like ISO 3166-2 (`US-TX`) |
/// | ``administrativeArea`` | that same answer's name property (as for ``country``), or its id |
/// | ``timeZone`` | the *time-zone layer*'s first answer: property `tzid`, or its id |
/// | ``ocean`` | at sea (no feature of the country layer contains the point): the *marine layer*'s first answer whose property `water` is not `inland`: property `name`, or its id |
/// | ``inlandWater`` | the *marine layer*'s first answer whose property `water` is `inland` (a lake, lagoon or river): its `name`, or its id |
/// | ``locality``, ``localityDistance`` | the nearest point of the *town layer* within ``localityRadius`` (50 km): its id (property `name` if it has one) and geodesic distance; when the point has an ``isoCountryCode``, only towns whose `country_code` (or `iso_a2`) is that code count, so a town across a border is never given |
/// | ``administrativeArea`` | only from a real polygon layer (the state layer, or a country layer with ISO 3166-2 ids), never from a town's codes |
/// | ``thoroughfare`` | a location map (`gmap build --osm`): the `roads` layer's nearest street within 20 m (its `name`), else the street of the nearest address within 30 m |
/// | ``subThoroughfare`` | the house number (`housenumber`) of the nearest address within 30 m on that street |
/// | ``postalCode`` | the nearest point of the `postcodes` layer within 100 m (the nearest address's code) |
/// | ``name`` | the smallest named area of the `areas` layer containing the point, else the nearest place (`places`) within 30 m |
/// | ``areasOfInterest`` | every named area containing the point, smallest first |
///
/// The country layer is the layer named `country` or `countries`, or, in a map with a single
/// layer not named as one of the layers below, that layer. The state layer is named `state`, `states`, `region`, `regions`,
/// `province`, `admin1` or `subdivision`. The time-zone layer is named `timezone`, `timezones`,
/// `time_zone` or `tz`. The marine layer is named `marine`, `ocean`, `oceans`, `sea` or `seas`
/// (polygons). The town layer is named `towns`, `town`, `cities`, `city`, `localities` or
/// `locality` (points). A map without one of these layers leaves its fields nil: the shipped map
/// has all but the state layer, so ``administrativeArea`` stays nil there.
public struct Placemark: Sendable {
    /// One layer's answer: every feature of the layer containing the point, smallest area first.
    public struct LayerAnswer: Sendable {
        /// The layer's name.
        public var layer: String
        /// The features containing the point, smallest area first (empty when none does).
        public var features: [Feature]
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
    /// The IANA time zone, such as `America/Chicago`.
    public var timeZone: String?
    /// At sea, the ocean or sea, such as `North Atlantic Ocean` (the marine layer).
    public var ocean: String?
    /// The lake, lagoon or river, such as `Caspian Sea` (the marine layer, where it has one).
    public var inlandWater: String?
    /// The nearest town within ``localityRadius`` in the point's own country, such as `Kehl` (the town layer).
    public var locality: String?
    /// The geodesic distance to ``locality``, in metres.
    public var localityDistance: Double?
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
    /// The position in ``answers`` of the town layer, if any.
    var townLayer: Int?

    /// The features of the layer named `layer` that contain the point, smallest first; empty when none or no such layer.
    public func features(in layer: String) -> [Feature] {
        answers.first { $0.layer == layer }?.features ?? []
    }

    /// Whether no layer has an answer and no street field or ``locality`` is filled.
    public var isEmpty: Bool {
        answers.allSatisfy { $0.features.isEmpty } && thoroughfare == nil && postalCode == nil && name == nil && locality == nil
    }

    /// How far the nearest town may be to be the ``locality``, in metres: 50 km, within which
    /// 83.7 % of GeoNames' 170,391 places of at least 1,000 people have a town of the shipped map
    /// in their own country (README, "The shipped world map").
    public static let localityRadius = 50_000.0

    /// Fills ``locality`` from the town layer of `map`: the nearest town within ``localityRadius``,
    /// in the point's own country when ``isoCountryCode`` is known.
    mutating func fillLocality(from layers: [GMap]) {
        guard let index = townLayer, index < layers.count, layers[index].geometryKind == .points else { return }
        let towns = layers[index]
        let code = isoCountryCode
        let match = towns.nearestPoint(latitude: latitude, longitude: longitude, within: Self.localityRadius) { index in
            guard let code else { return true }
            let feature = Feature(map: towns, index: index)
            return (feature.property("country_code") ?? feature.property("iso_a2")) == code
        }
        if let match {
            locality = match.feature.property("name") ?? match.feature.id
            localityDistance = match.distance
        }
    }


    /// How far a street may be to be the ``thoroughfare``, an address to give the house number,
    /// a postcode point to give the code and a place to be the ``name``, in metres.
    static let streetDistance = 20.0, addressDistance = 30.0, postcodeDistance = 100.0, placeDistance = 30.0

    /// Fills the location-map fields from the layers of `map` that a location map has.
    mutating func fillStreetFields(from map: GMap) {
        typealias Name = MapLocationSource.LayerName
        if let roads = map.layer(named: Name.roads),
           let street = roads.nearestLines(latitude: latitude, longitude: longitude, within: Self.streetDistance, limit: 1).first {
            thoroughfare = street.feature.property("name") ?? street.feature.id
        }
        if let addresses = map.layer(named: Name.addresses) {
            let near = addresses.nearestPoints(latitude: latitude, longitude: longitude, within: Self.addressDistance)
            if thoroughfare == nil, let nearest = near.first { thoroughfare = nearest.feature.id }
            if let onStreet = near.first(where: { $0.feature.id == thoroughfare }) {
                subThoroughfare = onStreet.feature.property("housenumber")
            }
        }
        if let codes = map.layer(named: Name.postcodes) {
            postalCode = codes.nearestPoints(latitude: latitude, longitude: longitude, within: Self.postcodeDistance, limit: 1).first?.feature.id
        }
        if let areas = map.layer(named: Name.areas), areas.geometryKind == .polygons {
            areasOfInterest = areas.lookupAll(latitude: latitude, longitude: longitude).map { $0.property("name") ?? $0.id }
        }
        name = areasOfInterest.first
        if name == nil, let places = map.layer(named: Name.places) {
            name = places.nearestPoints(latitude: latitude, longitude: longitude, within: Self.placeDistance, limit: 1).first?.feature.id
        }
    }

    static let countryLayers = ["country", "countries"]
    static let stateLayers = ["state", "states", "region", "regions", "province", "admin1", "subdivision"]
    static let timeZoneLayers = ["timezone", "timezones", "time_zone", "tz"]
    static let marineLayers = ["marine", "ocean", "oceans", "sea", "seas"]
    static let townLayers = ["towns", "town", "cities", "city", "localities", "locality"]
    static let codeProperties = ["iso_a2", "ISO_A2", "iso_3166_1", "iso_a2_eh"]
    static let nameProperties = ["name", "NAME", "name_en", "admin", "ADMIN"]

    /// The placemark for the answers, filled by the mapping above.
    init(latitude: Double, longitude: Double, answers: [LayerAnswer]) {
        self.latitude = latitude
        self.longitude = longitude
        self.answers = answers
        // Each layer's name folded once (a placemark is asked for millions of times).
        let folded = answers.map { String(decoding: NameFolding.fold($0.layer), as: UTF8.self) }
        func layer(_ names: [String]) -> LayerAnswer? {
            folded.firstIndex(where: names.contains).map { answers[$0] }
        }
        townLayer = folded.firstIndex(where: Self.townLayers.contains)
        let otherLayers = Self.stateLayers + Self.timeZoneLayers + Self.marineLayers + Self.townLayers
        let countryLayer = layer(Self.countryLayers)
            ?? (answers.count == 1 && !otherLayers.contains(folded[0]) ? answers.first : nil)
        var state = layer(Self.stateLayers)?.features.first
        if state == nil, layer(Self.stateLayers) == nil {
            state = countryLayer?.features.first { Self.isSubdivisionCode($0.id) }
        }
        if let state {
            administrativeAreaCode = state.id
            administrativeArea = Self.name(of: state) ?? state.id
        }
        var countryFeature: Feature?
        for feature in countryLayer?.features ?? [] {
            if let code = Self.countryCode(of: feature) {
                isoCountryCode = code
                countryFeature = feature
                break
            }
        }
        if isoCountryCode == nil, let code = administrativeAreaCode, Self.isSubdivisionCode(code) {
            isoCountryCode = String(code.prefix(2))
        }
        if let feature = countryFeature ?? countryLayer?.features.first(where: { !Self.isSubdivisionCode($0.id) }) {
            country = Self.name(of: feature)
        }
        if let zone = layer(Self.timeZoneLayers)?.features.first {
            timeZone = zone.property("tzid") ?? zone.id
        }
        let water = layer(Self.marineLayers)?.features ?? []
        if let inland = water.first(where: { $0.property("water") == "inland" }) {
            inlandWater = Self.name(of: inland) ?? inland.id
        }
        if countryLayer?.features.isEmpty ?? true, let sea = water.first(where: { $0.property("water") != "inland" }) {
            ocean = Self.name(of: sea) ?? sea.id
        }
    }

    static func name(of feature: Feature) -> String? {
        for key in nameProperties {
            if let value = feature.property(key), !value.isEmpty { return value }
        }
        return nil
    }

    static func countryCode(of feature: Feature) -> String? {
        for key in codeProperties {
            if let value = feature.property(key), isAlpha2(value) { return value }
        }
        return isAlpha2(feature.id) ? feature.id : nil
    }

    /// Two ASCII capitals.
    static func isAlpha2(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.count == 2 && bytes.allSatisfy { $0 >= 0x41 && $0 <= 0x5A }
    }

    /// Two ASCII capitals, a hyphen, then one to three ASCII letters or digits (`US-TX`, `FR-75C`).
    static func isSubdivisionCode(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count >= 4, bytes.count <= 6, bytes[2] == 0x2D, isAlpha2(String(decoding: bytes[0..<2], as: UTF8.self)) else { return false }
        return bytes[3...].allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) }
    }
}

extension GMap {
    /// Every layer's answer for the point, and the familiar fields filled from them (see ``Placemark``).
    /// Every layer's features are empty when the coordinates are not valid.
    public func placemark(latitude: Double, longitude: Double) -> Placemark {
        let layers = self.layers
        let answers = layers.map { layer in
            Placemark.LayerAnswer(layer: layer.layerName, features: layer.lookupAll(latitude: latitude, longitude: longitude))
        }
        var placemark = Placemark(latitude: latitude, longitude: longitude, answers: answers)
        placemark.fillStreetFields(from: self)
        placemark.fillLocality(from: layers)
        return placemark
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
