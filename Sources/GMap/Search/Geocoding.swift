/// What a ``GeocodeMatch`` is. Matches of a location map's kinds rank in this order (an address
/// before a street, a street before a place, …), then a country, then towns and states together
/// (by population), then a time zone.
public enum GeocodeKind: Int, Sendable, Hashable, Comparable, CaseIterable {
    /// A house number on a street (a location map's `addresses` layer).
    case address = 0
    /// A street (a location map's `roads`, or a street known only from its addresses).
    case street = 1
    /// A named place (a location map's `places`: a café, a station, a suburb).
    case place = 2
    /// A named area (a location map's `areas`: a building, a park, a square; the world map's seas and lakes).
    case area = 3
    /// A postal code (a location map's `postcodes`).
    case postcode = 4
    /// A country (the world map's `countries`).
    case country = 5
    /// A town (the world map's `towns`).
    case town = 6
    /// A state, province or other first-level region (the world map's `states`).
    case state = 7
    /// A time zone (the world map's `timezones`), found by its IANA name or its city.
    case timeZone = 8
    /// A latitude and longitude typed as such ("60.1690, 24.9396"): the point itself.
    case coordinates = 9

    /// `address`, `street`, `place`, `area`, `postcode`, `country`, `town`, `state`, `time zone` or `coordinates`.
    public var name: String {
        switch self {
        case .address: return "address"
        case .street: return "street"
        case .place: return "place"
        case .area: return "area"
        case .postcode: return "postcode"
        case .country: return "country"
        case .town: return "town"
        case .state: return "state"
        case .timeZone: return "time zone"
        case .coordinates: return "coordinates"
        }
    }

    /// In declaration order.
    public static func < (lhs: GeocodeKind, rhs: GeocodeKind) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One answer of ``GMap/geocode(_:near:limit:)``: what the text named, where it is, and the fields
/// of a placemark that the match itself gives.
public struct GeocodeMatch: Sendable {
    /// What was found.
    public var kind: GeocodeKind
    /// What was found as the map writes it: `Mannerheimintie 5`, `Mannerheimintie`, `Amos Rex`,
    /// `Finland`, `New York City` (a town by its main name, whichever name matched).
    public var name: String
    /// Where it is, in degrees: an address's point; a street's middle vertex (its label point);
    /// a place's point; a point inside an area, a country or a time zone (its label point).
    public var latitude: Double
    /// Where it is, in degrees east.
    public var longitude: Double
    /// Its extent in degrees: the feature's bounding box (a point's box is the point).
    public var boundingBox: (west: Double, south: Double, east: Double, north: Double)
    /// The feature found (for a street known only from its addresses, the address nearest its
    /// middle; for ``GeocodeKind/coordinates``, the first feature the point's placemark answers with).
    public var feature: Feature
    /// The street: of an address, or the street itself.
    public var thoroughfare: String?
    /// The house number of an address, as the map holds it (`12a`, `12-14`).
    public var subThoroughfare: String?
    /// The postal code of an address (from the layer of postal codes), or the code itself.
    public var postalCode: String?
    /// The ISO 3166-1 alpha-2 code of a country or of a town's or state's country.
    public var isoCountryCode: String?
    /// A town's or a state's state as ``Placemark/administrativeArea`` gives it (`CA`, `Bavaria`).
    public var administrativeArea: String?
    /// A town's or a state's state code (`US-CA`; ``Placemark/administrativeAreaCode``).
    public var administrativeAreaCode: String?
    /// A town's county (``Placemark/subAdministrativeArea``).
    public var subAdministrativeArea: String?
    /// What a place or area is, as the map's `category` property says (`amenity=restaurant`).
    public var category: String?
    /// How the name matched: ``NameMatch/exact`` for every address, street and name found whole;
    /// ``NameMatch/prefix`` or ``NameMatch/words`` only when nothing matched whole;
    /// ``NameMatch/typo`` for a name within an edit or two of the words (``TypoRule``), only when
    /// nothing matched whole.
    public var match: NameMatch
    /// The other name that matched, as the map spells it (`Nueva York` for New York City, a town
    /// of named compact points found by one of its other names); nil when its own name did.
    public var matchedName: String?
    /// The geodesic distance in metres from the point asked to be near, when one was.
    public var distance: Double?
    /// The parts of the text (between commas) that the map knows nothing of and that were left
    /// aside: a city that a map of one suburb does not hold, or a country on a location map.
    public var unmatched: [String]

    /// A match from its parts (the optional fields nil).
    public init(kind: GeocodeKind, name: String, latitude: Double, longitude: Double,
                boundingBox: (west: Double, south: Double, east: Double, north: Double), feature: Feature, match: NameMatch,
                distance: Double? = nil, unmatched: [String] = []) {
        self.kind = kind
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.boundingBox = boundingBox
        self.feature = feature
        self.match = match
        self.distance = distance
        self.unmatched = unmatched
    }

    /// The whole placemark of ``latitude``, ``longitude`` (``GMap/placemark(latitude:longitude:)``
    /// on the match's map): the areas around it, the nearest street and postal code; on the world
    /// map the country, the time zone and the nearest town.
    public var placemark: Placemark {
        feature.map.placemark(latitude: latitude, longitude: longitude)
    }
}

/// A region to prefer, as CLGeocoder's `inRegion:`: a circle. Matches in it rank before matches of
/// the same kind and standing outside it.
public struct GeocodeRegion: Sendable, Hashable {
    /// Its centre, in degrees.
    public var latitude: Double
    public var longitude: Double
    /// Its radius, in metres.
    public var radius: Double

    /// A circle of `radius` metres around a point.
    public init(latitude: Double, longitude: Double, radius: Double) {
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
    }
}

extension GMap {
    /// The most words a geocoding text may have; a longer one matches nothing.
    public static let geocodeWordLimit = 24

    /// Forward geocoding: the features of this file that `text` names, best first, at most `limit`.
    ///
    /// `text` is an address (`Mannerheimintie 5`), a street, a place or area, a postal code, a town,
    /// a state, a country or a time zone, optionally with parts that say where it is (`, 00100`,
    /// `, Helsinki`, `TX`, `, Finland`), or a latitude and longitude (`60.1690, 24.9396`). An empty
    /// text, one of more than ``geocodeWordLimit`` words, or `limit` below 1 match nothing. How the
    /// parts match and how matches rank: Docs/Location.md#how-geocode-matches-and-ranks.
    public func geocode(_ text: String, near: (latitude: Double, longitude: Double)? = nil, limit: Int = 10) -> [GeocodeMatch] {
        GMap.geocode(text, in: [self], near: near, region: nil, limit: limit)
    }

    /// ``geocode(_:near:limit:)`` preferring matches in `region` (CLGeocoder's `inRegion:`): they
    /// rank before the matches of the same kind and standing outside it, nearest first.
    public func geocode(_ text: String, near: (latitude: Double, longitude: Double)? = nil, region: GeocodeRegion?, limit: Int = 10) -> [GeocodeMatch] {
        GMap.geocode(text, in: [self], near: near, region: region, limit: limit)
    }

    /// How much an other name counts for less than a town's own when towns are ranked by
    /// population (``geocode(_:near:limit:)``): a town found only by an other name ranks as one
    /// of this many times fewer people, unless its own name also starts with the words.
    public static var otherNameDiscount: Double { Geocoder.otherNameDiscount }

    /// How many times fewer people a state ranks as than its towns have in all
    /// (``geocode(_:near:limit:)``): so "New York" is the city, "California" the state.
    public static var stateDiscount: Double { Geocoder.stateDiscount }

    /// The search of ``geocode(_:near:limit:)`` over the files of `maps`, in their order.
    static func geocode(_ text: String, in maps: [GMap], near: (latitude: Double, longitude: Double)?, region: GeocodeRegion?,
                        limit: Int) -> [GeocodeMatch] {
        guard limit > 0 else { return [] }
        if let point = TypedCoordinates.parse(text) { return TypedCoordinates.matches(point, in: maps) }
        let (words, parts) = NameFolding.queryWords(text)
        guard !words.isEmpty, words.count <= Self.geocodeWordLimit else { return [] }
        var geocoder = Geocoder(maps: maps, words: words, parts: parts, near: near, region: region)
        return geocoder.matches(limit: limit)
    }
}

extension MapStack {
    /// Forward geocoding over every map of the stack as one (``GMap/geocode(_:near:limit:)``),
    /// most detailed first: a city's location map answers the street and the house number, the
    /// world map the town, the state and the country that say where it is
    /// (`Mannerheimintie 1, Helsinki, Finland`).
    public func geocode(_ text: String, near: (latitude: Double, longitude: Double)? = nil, limit: Int = 10) -> [GeocodeMatch] {
        GMap.geocode(text, in: maps, near: near, region: nil, limit: limit)
    }

    /// ``geocode(_:near:limit:)`` preferring matches in `region` (``GMap/geocode(_:near:region:limit:)``).
    public func geocode(_ text: String, near: (latitude: Double, longitude: Double)? = nil, region: GeocodeRegion?, limit: Int = 10) -> [GeocodeMatch] {
        GMap.geocode(text, in: maps, near: near, region: region, limit: limit)
    }
}

#if !hasFeature(Embedded)
extension GMap {
    /// For code written with `CLGeocoder.geocodeAddressString` in mind: ``geocode(_:near:limit:)``
    /// as an `async` call. Searches take microseconds and never touch the network, so this only
    /// wraps it.
    public func geocodeAddressString(_ text: String, near: (latitude: Double, longitude: Double)? = nil, limit: Int = 10) async -> [GeocodeMatch] {
        geocode(text, near: near, limit: limit)
    }

    /// CLGeocoder's `geocodeAddressString(_:in:)`: the placemarks of the matches of `text`, best
    /// first, those in `region` (when given) before the others of the same kind and standing.
    /// Each is the placemark of the match's point (``GMap/placemark(latitude:longitude:)``) with
    /// the fields the match itself gives put first (``Placemark/init(geocoded:)``).
    public func geocodeAddressString(_ text: String, in region: GeocodeRegion?, limit: Int = 10) async -> [Placemark] {
        GMap.geocode(text, in: [self], near: nil, region: region, limit: limit).map(Placemark.init(geocoded:))
    }

    /// CLGeocoder's `geocodePostalAddress(_:)`: the placemarks of a structured address (its
    /// fields as `CNPostalAddress` has them), searched as its fields joined by commas, the street
    /// first and the country last (``PostalAddress/text``).
    public func geocodePostalAddress(_ address: PostalAddress, in region: GeocodeRegion? = nil, limit: Int = 10) async -> [Placemark] {
        GMap.geocode(address.text, in: [self], near: nil, region: region, limit: limit).map(Placemark.init(geocoded:))
    }
}

extension MapStack {
    /// ``GMap/geocodeAddressString(_:in:limit:)`` over every map of the stack.
    public func geocodeAddressString(_ text: String, in region: GeocodeRegion?, limit: Int = 10) async -> [Placemark] {
        GMap.geocode(text, in: maps, near: nil, region: region, limit: limit).map(Placemark.init(geocoded:))
    }

    /// ``GMap/geocodePostalAddress(_:in:limit:)`` over every map of the stack.
    public func geocodePostalAddress(_ address: PostalAddress, in region: GeocodeRegion? = nil, limit: Int = 10) async -> [Placemark] {
        GMap.geocode(address.text, in: maps, near: nil, region: region, limit: limit).map(Placemark.init(geocoded:))
    }
}
#endif

/// An address in fields, as `CNPostalAddress` has them, for ``GMap/geocodePostalAddress(_:in:limit:)``.
public struct PostalAddress: Sendable, Hashable {
    /// The street and house number (`Mannerheimintie 1`).
    public var street: String
    /// The town or city.
    public var city: String
    /// The state or province, by name or code (`California`, `CA`).
    public var state: String
    /// The postal code.
    public var postalCode: String
    /// The country, by name in any language the map has (`Finland`, `Suomi`).
    public var country: String
    /// The ISO 3166-1 alpha-2 code of the country, used when ``country`` is empty.
    public var isoCountryCode: String

    /// An address from its fields (each may be empty).
    public init(street: String = "", city: String = "", state: String = "", postalCode: String = "", country: String = "",
                isoCountryCode: String = "") {
        self.street = street
        self.city = city
        self.state = state
        self.postalCode = postalCode
        self.country = country
        self.isoCountryCode = isoCountryCode
    }

    /// The text searched: the non-empty fields joined by commas, street, postal code, city,
    /// state, then the country (or its code).
    public var text: String {
        let country = self.country.isEmpty ? isoCountryCode : self.country
        return [street, postalCode, city, state, country].filter { !$0.allSatisfy { $0 == " " } }.joined(separator: ", ")
    }
}
