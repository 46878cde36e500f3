/// What a ``GeocodeMatch`` is, in the order matches are ranked: an address before a street, a
/// street before a place, and so on.
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
    /// A town (the world map's `towns`).
    case town = 5
    /// A country (the world map's `countries`).
    case country = 6
    /// A time zone (the world map's `timezones`), found by its IANA name or its city.
    case timeZone = 7

    /// `address`, `street`, `place`, `area`, `postcode`, `town`, `country` or `time zone`.
    public var name: String {
        switch self {
        case .address: return "address"
        case .street: return "street"
        case .place: return "place"
        case .area: return "area"
        case .postcode: return "postcode"
        case .town: return "town"
        case .country: return "country"
        case .timeZone: return "time zone"
        }
    }

    /// Earlier kinds rank first.
    public static func < (lhs: GeocodeKind, rhs: GeocodeKind) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One answer of ``GMap/geocode(_:near:limit:)``: what the text named, where it is, and the fields
/// of a placemark that the match itself gives.
public struct GeocodeMatch: Sendable {
    /// What was found.
    public var kind: GeocodeKind
    /// What was found as the map writes it: `Mannerheimintie 5`, `Mannerheimintie`, `Amos Rex`, `Finland`.
    public var name: String
    /// Where it is, in degrees: an address's point; a street's middle vertex (its label point);
    /// a place's point; a point inside an area, a country or a time zone (its label point).
    public var latitude: Double
    /// Where it is, in degrees east.
    public var longitude: Double
    /// Its extent in degrees: the feature's bounding box (a point's box is the point).
    public var boundingBox: (west: Double, south: Double, east: Double, north: Double)
    /// The feature found (for a street known only from its addresses, the address nearest its middle).
    public var feature: Feature
    /// The street: of an address, or the street itself.
    public var thoroughfare: String?
    /// The house number of an address, as the map holds it (`12a`, `12-14`).
    public var subThoroughfare: String?
    /// The postal code of an address (from the layer of postal codes), or the code itself.
    public var postalCode: String?
    /// The ISO 3166-1 alpha-2 code of a country or of a town's country.
    public var isoCountryCode: String?
    /// What a place or area is, as the map's `category` property says (`amenity=restaurant`).
    public var category: String?
    /// How the name matched: ``NameMatch/exact`` for every address, street and name found whole;
    /// ``NameMatch/prefix`` or ``NameMatch/words`` only when nothing matched whole.
    public var match: NameMatch
    /// The geodesic distance in metres from the point asked to be near, when one was.
    public var distance: Double?
    /// The parts of the text (between commas) that the map knows nothing of and that were left
    /// aside: a city that a map of one suburb does not hold, or a country on a location map.
    public var unmatched: [String]

    /// The whole placemark of ``latitude``, ``longitude`` (``GMap/placemark(latitude:longitude:)``
    /// on the match's map): the areas around it, the nearest street and postal code; on the world
    /// map the country, the time zone and the nearest town.
    public var placemark: Placemark {
        feature.map.placemark(latitude: latitude, longitude: longitude)
    }
}

extension GMap {
    /// The most words a geocoding text may have; a longer one matches nothing.
    public static let geocodeWordLimit = 24

    /// Forward geocoding: the features of this file that `text` names, best first, at most `limit`.
    ///
    /// The text is an address (`Mannerheimintie 5`, `5 Mannerheimintie`, `Mannerheimintie 12a`,
    /// `Mannerheimintie 12-14`), a street, a place or area, a postal code, a town, a country or a
    /// time zone, optionally followed or preceded by parts that say where it is (`, 00100`,
    /// `, Helsinki`, `, Finland`), in any order, compared as the name index compares names
    /// (case, accents and punctuation aside: ``NameFolding/normalized(_:)``). Every layer of the
    /// file is searched; layers are recognised by name as ``Placemark`` does (a location map's
    /// `addresses`, `roads`, `places`, `areas`, `postcodes`; the world map's `countries`, `towns`,
    /// `timezones`, `marine`).
    ///
    /// * A street and a house number match an address when the street's key equals a street of the
    ///   layer of addresses and the number's key (``NameFolding/houseNumberKey(_:)``) equals the
    ///   address's, or is the first number of its range or list (`12` finds `12-14`), or the last of
    ///   a range of two (`14` finds `12-14`). A number the street does not have gives the street, as a
    ///   ``GeocodeKind/street`` match, never another street's address. A word ending in a full stop
    ///   (`Mannerheimint.`, `Aleksanterink.`) may stand for the one street of the map whose name
    ///   starts with it; when several do, nothing is guessed.
    /// * A name matches when it equals a whole key of a feature (5.10): its id or a name property.
    ///   Only when nothing matches so, and the text holds no number, are names that start with the
    ///   text or have words starting with its words given (``GeocodeMatch/match``).
    /// * Every other part must be a postal code (the address has it; another match is within
    ///   300 m of its points), a locality (a `place=city`, `town`, `village`, `suburb`, … of the
    ///   places or areas, or a town of the world map, near enough for its kind: 30 km for a city,
    ///   3 km for a suburb; a locality is in no locality of lower rank), another place or area
    ///   (an address or a street within 300 m of it: `Aleksanterinkatu 52, Stockmann`) or a country (containing
    ///   the match; a country or a time zone is in nothing). A part the map does not know at all is
    ///   left aside and listed in ``GeocodeMatch/unmatched``, but only when no match explains it;
    ///   one it knows elsewhere rules the match out. Without commas every word must be explained.
    ///
    /// Matches are ranked by kind (``GeocodeKind``: an address whose whole number matches, then one
    /// matching a range's number, a street, a place, …), then the fewest unmatched parts, then the
    /// most words explained by the match itself, then the earliest (the first part names the thing,
    /// later ones where it is), then the distance from `near` when given (else a town's population,
    /// a place's rank as a city, town, … suburb), then the file's order. Addresses of one street
    /// and number at several points are all given, the index's first (the most central) first.
    ///
    /// With an address index (`ADDR`, format 3.3: every location map gmap builds) an address is a
    /// few binary searches; a location map built before it is scanned, which gives the same
    /// answers more slowly. An empty text, one of more than ``geocodeWordLimit`` words, or
    /// `limit` below 1 match nothing.
    public func geocode(_ text: String, near: (latitude: Double, longitude: Double)? = nil, limit: Int = 10) -> [GeocodeMatch] {
        guard limit > 0 else { return [] }
        let (words, parts) = NameFolding.queryWords(text)
        guard !words.isEmpty, words.count <= Self.geocodeWordLimit else { return [] }
        var geocoder = Geocoder(map: self, words: words, parts: parts, near: near)
        return geocoder.matches(limit: limit)
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
}
#endif

/// The search behind ``GMap/geocode(_:near:limit:)``: the query's words, the file's layers by role,
/// and what each run of words names, found once.
struct Geocoder {
    /// What a layer searched by name holds.
    enum Role {
        case streets, places, areas, water, postcodes, towns, countries, timeZones

        var kind: GeocodeKind {
            switch self {
            case .streets: return .street
            case .places: return .place
            case .areas, .water: return .area
            case .postcodes: return .postcode
            case .towns: return .town
            case .countries: return .country
            case .timeZones: return .timeZone
            }
        }
    }

    /// A layer searched by name, and its role.
    struct NamedLayer {
        var map: GMap
        var role: Role
    }

    /// A feature whose whole key equals a run of the query's words.
    struct NameHit {
        /// The position of its layer in ``layers``.
        var layer: Int
        var feature: Int
    }

    /// A feature that a run of words names as where the match is.
    struct ContextHit {
        enum Kind {
            /// A postal code: an address must have it, anything else be within ``postcodeDistance`` of its points.
            case postcode
            /// A locality given by a point: the match within `radius` metres.
            case localityPoint(radius: Double)
            /// A locality given by an area: the match within ``areaDistance`` of its box.
            case localityArea
            /// A country: the match inside it (or, for a town, of its country code).
            case country
            /// Any other place or area (a department store, a square): an address or a street within ``landmarkDistance`` of its box.
            case landmark
        }
        var layer: Int
        var feature: Int
        var kind: Kind
        /// A place's or area's rank as a locality (``placeProminence(_:)``): a place is in a locality of no lower rank.
        var rank = 0.0
    }

    /// What the words around a match were found to be.
    struct Resolution {
        /// The contexts, each a list of features of which one must hold the match.
        var contexts: [[ContextHit]]
        /// The parts of the text left aside (the map knows nothing of them).
        var unmatched: [Int]
    }

    /// One possible answer, with what ranks it.
    struct Candidate {
        var kind: GeocodeKind
        /// The kind's rank, with an address by a range's number after one by its whole number.
        var rank: Int
        /// The file's layer index and the feature.
        var layer: Int
        var feature: Int
        var match: NameMatch
        var unmatched: [Int]
        /// The words of the query that the match itself explains (street and number, or name).
        var consumed: Int
        var latitude: Double, longitude: Double
        var box: (west: Double, south: Double, east: Double, north: Double)
        var prominence: Double
        /// The first word of the match itself: the first part names the thing, later ones where it is.
        var start = 0
        var distance: Double?
        /// A street known only from its addresses: the street's key.
        var addressStreet: Bool = false
    }

    static let maximumStreetWords = 6, maximumNumberWords = 6, maximumContextWords = 4, maximumNameWords = 8
    /// How far a match may be from the points of a postal code named in the text, in metres.
    static let postcodeDistance = 300.0
    /// How far a match may be from the box of an area named as its locality, in metres.
    static let areaDistance = 500.0
    /// How far a match may be from the box of a place or area named beside it that is not a locality, in metres.
    static let landmarkDistance = 300.0

    let root: GMap
    let words: [NameFolding.QueryWord]
    let parts: [String]
    let near: (latitude: Double, longitude: Double)?
    let count: Int
    /// The layers searched by name, in file order.
    var layers: [NamedLayer] = []
    /// The position in ``layers`` of the streets (`roads`), if any.
    var streets: Int?
    /// The layer of addresses, its index (nil: scanned), and the layer of postal codes.
    var addresses: GMap?
    var index: AddressIndexReader?
    var postcodes: GMap?
    /// The first and last word of each part.
    var partRanges: [(start: Int, end: Int)] = []
    /// Found once per run of words (`start * (count + 1) + end`).
    private var nameMemo: [[NameHit]?]
    private var contextMemo: [[ContextHit]?]
    private var streetMemo: [(key: [UInt8], addresses: StreetAddresses)??]
    private var resolutionMemo: [Resolution??]
    /// For a map without an address index: the street key of every address feature, made once.
    private var scannedStreetKeys: [[UInt8]]?
    var candidates: [Candidate] = []

    init(map: GMap, words: [NameFolding.QueryWord], parts: [String], near: (latitude: Double, longitude: Double)?) {
        root = map.layer(at: 0) ?? map
        self.words = words
        self.parts = parts
        self.near = near
        count = words.count
        let runs = (count + 1) * (count + 1)
        nameMemo = Array(repeating: nil, count: runs)
        contextMemo = Array(repeating: nil, count: runs)
        streetMemo = Array(repeating: nil, count: runs)
        resolutionMemo = Array(repeating: nil, count: runs)
        for part in 0..<parts.count {
            let start = words.firstIndex { $0.part == part } ?? count
            let end = words.lastIndex { $0.part == part }.map { $0 + 1 } ?? count
            partRanges.append((start, end))
        }
        let all = root.layers
        let folded = all.map { String(decoding: NameFolding.fold($0.layerName), as: UTF8.self) }
        index = AddressIndexReader(map: root)
        addresses = index?.addresses ?? folded.firstIndex(of: MapLocationSource.LayerName.addresses).map { all[$0] }
        if let layer = index?.table.postcodesLayer, layer < all.count {
            postcodes = all[layer]
        } else {
            postcodes = folded.firstIndex(of: MapLocationSource.LayerName.postcodes).map { all[$0] }
        }
        let known = Placemark.stateLayers + Placemark.timeZoneLayers + Placemark.marineLayers + Placemark.townLayers
        for (position, layer) in all.enumerated() {
            let name = folded[position]
            if addresses.map({ $0.layerIndex == layer.layerIndex }) ?? false { continue }
            let role: Role?
            switch name {
            case MapLocationSource.LayerName.roads: role = .streets
            case MapLocationSource.LayerName.places: role = .places
            case MapLocationSource.LayerName.areas: role = .areas
            case MapLocationSource.LayerName.postcodes: role = .postcodes
            case MapLocationSource.LayerName.intersections: role = nil
            default:
                if Placemark.countryLayers.contains(name) || (all.count == 1 && !known.contains(name) && layer.geometryKind?.answersContainment == true) {
                    role = .countries
                } else if Placemark.townLayers.contains(name) {
                    role = .towns
                } else if Placemark.timeZoneLayers.contains(name) {
                    role = .timeZones
                } else if Placemark.marineLayers.contains(name) {
                    role = .water
                } else {
                    switch layer.geometryKind {
                    case .lines?: role = .streets
                    case .points?: role = .places
                    case .polygons?, nil: role = .areas
                    }
                }
            }
            if let role {
                if role == .streets && streets == nil && name == MapLocationSource.LayerName.roads { streets = layers.count }
                layers.append(NamedLayer(map: layer, role: role))
            }
        }
    }

    // MARK: Ranking

    /// The candidates found, ranked, each feature once, at most `limit`, as matches.
    mutating func matches(limit: Int) -> [GeocodeMatch] {
        findAddresses(anyNumber: false)
        if candidates.count < limit {
            // A house number that is not a number (`Keskuskatu 5` as OSM's addr:housenumber) only
            // when no address was found otherwise: an exact street and number, still.
            if candidates.isEmpty { findAddresses(anyNumber: true) }
            findStreetsOfAbsentNumbers()
            findNames()
            if candidates.isEmpty && !words.contains(where: { $0.startsWithDigit }) { findLooseNames() }
        }
        // A part is left aside only when no match explains it.
        if let fewest = candidates.map({ $0.unmatched.count }).min() {
            candidates.removeAll { $0.unmatched.count > fewest }
        }
        if let near {
            for position in candidates.indices {
                candidates[position].distance = Geodesic.distance(latitude: near.latitude, longitude: near.longitude,
                                                                  toLatitude: candidates[position].latitude, longitude: candidates[position].longitude)
            }
        }
        candidates.sort(by: Self.precedes)
        var kept: [Candidate] = []
        for candidate in candidates where !kept.contains(where: { $0.layer == candidate.layer && $0.feature == candidate.feature && $0.kind == candidate.kind }) {
            kept.append(candidate)
            if kept.count >= limit { break }
        }
        return kept.map(match)
    }

    /// The ranking order of ``GMap/geocode(_:near:limit:)``.
    static func precedes(_ a: Candidate, _ b: Candidate) -> Bool {
        if a.match != b.match { return a.match < b.match }
        if a.rank != b.rank { return a.rank < b.rank }
        if a.unmatched.count != b.unmatched.count { return a.unmatched.count < b.unmatched.count }
        if a.consumed != b.consumed { return a.consumed > b.consumed }
        if a.start != b.start { return a.start < b.start }
        if let da = a.distance, let db = b.distance, da != db { return da < db }
        if a.prominence != b.prominence { return a.prominence > b.prominence }
        if a.layer != b.layer { return a.layer < b.layer }
        return a.feature < b.feature
    }

    /// The public match of a candidate.
    func match(_ candidate: Candidate) -> GeocodeMatch {
        let map = root.layer(at: candidate.layer) ?? root
        let feature = Feature(map: map, index: candidate.feature)
        var result = GeocodeMatch(kind: candidate.kind, name: "", latitude: candidate.latitude, longitude: candidate.longitude,
                                  boundingBox: candidate.box, feature: feature, match: candidate.match, distance: candidate.distance,
                                  unmatched: candidate.unmatched.map { $0 < parts.count ? parts[$0] : "" })
        switch candidate.kind {
        case .address:
            let street = feature.id
            let number = map.houseNumberText(ofFeature: candidate.feature).map { String(decoding: $0, as: UTF8.self) } ?? ""
            result.name = street + " " + number
            result.thoroughfare = street
            result.subThoroughfare = number
            result.postalCode = postalCode(latitude: candidate.latitude, longitude: candidate.longitude)
        case .street:
            let name = candidate.addressStreet ? feature.id : (feature.property("name") ?? feature.id)
            result.name = name
            result.thoroughfare = name
        case .place, .area:
            result.name = feature.property("name") ?? feature.id
            result.category = feature.property("category")
        case .postcode:
            result.name = feature.id
            result.postalCode = feature.id
        case .town:
            result.name = feature.property("name") ?? feature.id
            result.isoCountryCode = Self.townCountryCode(feature)
        case .country:
            result.name = Placemark.name(of: feature) ?? feature.id
            result.isoCountryCode = Placemark.countryCode(of: feature)
        case .timeZone:
            result.name = feature.property("tzid") ?? feature.id
        }
        return result
    }

    /// The postal code at an address's point: the code of the layer of postal codes with a point there.
    func postalCode(latitude: Double, longitude: Double) -> String? {
        postcodes?.nearestPoint(latitude: latitude, longitude: longitude, within: 1)?.feature.id
    }

    static func townCountryCode(_ feature: Feature) -> String? {
        for key in ["country_code", "iso_a2"] {
            if let code = feature.property(key), Placemark.isAlpha2(code) { return code }
        }
        return nil
    }

    // MARK: Runs of words

    /// The memo slot of the run `start..<end`.
    private func slot(_ start: Int, _ end: Int) -> Int { start * (count + 1) + end }

    /// The key of the run: its words joined by single spaces.
    func key(_ start: Int, _ end: Int) -> [UInt8] {
        var key: [UInt8] = []
        for position in start..<end {
            if position > start { key.append(0x20) }
            key += words[position].bytes
        }
        return key
    }

    /// The features of every layer searched by name whose whole key equals the run's key.
    mutating func names(_ start: Int, _ end: Int) -> [NameHit] {
        let at = slot(start, end)
        if let known = nameMemo[at] { return known }
        let key = self.key(start, end)
        var hits: [NameHit] = []
        for (position, layer) in layers.enumerated() {
            for feature in Self.exactFeatures(in: layer.map, key: key) { hits.append(NameHit(layer: position, feature: feature)) }
        }
        nameMemo[at] = hits
        return hits
    }

    /// The features of `layer` whose whole key (5.10) is `key`: by the name index, checked against
    /// the features' names; a layer without one is scanned.
    static func exactFeatures(in layer: GMap, key: [UInt8]) -> [Int] {
        var candidates: [Int] = []
        if layer.layout.names.count > 0 {
            NameIndexReader(map: layer).forEachExact(key) { feature in
                if feature < layer.featureCount && !candidates.contains(feature) { candidates.append(feature) }
            }
            candidates.sort()
        } else {
            candidates = Array(0..<layer.featureCount)
        }
        return candidates.filter { index in
            let feature = Feature(map: layer, index: index)
            return NameFolding.wholeKeys(id: feature.id, names: feature.nameTexts).contains(key)
        }
    }

    /// What the run names as where a match is: postal codes, localities, countries.
    mutating func contexts(_ start: Int, _ end: Int) -> [ContextHit] {
        let at = slot(start, end)
        if let known = contextMemo[at] { return known }
        var hits: [ContextHit] = []
        for hit in names(start, end) {
            let layer = layers[hit.layer]
            let feature = Feature(map: layer.map, index: hit.feature)
            switch layer.role {
            case .postcodes:
                hits.append(ContextHit(layer: hit.layer, feature: hit.feature, kind: .postcode))
            case .places, .areas:
                guard let radius = Self.localityRadius(feature.property("category")) else {
                    hits.append(ContextHit(layer: hit.layer, feature: hit.feature, kind: .landmark))
                    continue
                }
                let area = layer.map.geometryKind?.answersContainment == true
                hits.append(ContextHit(layer: hit.layer, feature: hit.feature, kind: area ? .localityArea : .localityPoint(radius: radius),
                                       rank: Self.placeProminence(feature.property("category"))))
            case .towns:
                hits.append(ContextHit(layer: hit.layer, feature: hit.feature, kind: .localityPoint(radius: Self.townRadius)))
            case .countries:
                hits.append(ContextHit(layer: hit.layer, feature: hit.feature, kind: .country))
            case .streets, .water, .timeZones:
                continue
            }
        }
        contextMemo[at] = hits
        return hits
    }

    /// How far a match may be from a town of the world map named as its locality, in metres.
    static let townRadius = 30_000.0

    /// The radius in metres within which a place of this `category` (`place=VALUE`) is the
    /// locality of a match; nil for a category that is not a locality (a square, a city block, a café).
    static func localityRadius(_ category: String?) -> Double? {
        switch category {
        case "place=city"?: return 30_000
        case "place=town"?, "place=municipality"?: return 15_000
        case "place=village"?, "place=borough"?, "place=island"?: return 5_000
        case "place=suburb"?: return 3_000
        case "place=quarter"?: return 2_000
        case "place=neighbourhood"?: return 1_500
        case "place=hamlet"?, "place=locality"?, "place=islet"?: return 1_000
        case "place=isolated_dwelling"?, "place=farm"?: return 500
        default: return nil
        }
    }

    /// How prominent a place of this category is, to rank places of one name without a point to be near.
    static func placeProminence(_ category: String?) -> Double {
        switch category {
        case "place=city"?: return 9
        case "place=town"?: return 8
        case "place=municipality"?: return 7
        case "place=borough"?: return 6
        case "place=village"?: return 5
        case "place=suburb"?: return 4
        case "place=quarter"?, "place=island"?: return 3
        case "place=neighbourhood"?: return 2
        case "place=hamlet"?, "place=locality"?: return 1
        default: return 0
        }
    }

    /// What the words `start..<end` around a match are: contexts, or parts left aside. Nil when some
    /// words are neither (words in the match's own part that name nothing, or a part that names
    /// only some of its words).
    mutating func resolve(_ start: Int, _ end: Int) -> Resolution? {
        let at = slot(start, end)
        if let known = resolutionMemo[at] { return known }
        var resolution = Resolution(contexts: [], unmatched: [])
        var failed = false
        var position = start
        while position < end, !failed {
            // The piece of the segment in one part.
            let part = words[position].part
            var pieceEnd = position
            while pieceEnd < end, words[pieceEnd].part == part { pieceEnd += 1 }
            if let contexts = decompose(position, pieceEnd) {
                resolution.contexts += contexts
            } else if part < partRanges.count, partRanges[part].start == position, partRanges[part].end == pieceEnd, isUnknown(part: part) {
                resolution.unmatched.append(part)
            } else {
                failed = true
            }
            position = pieceEnd
        }
        let result: Resolution? = failed ? nil : resolution
        resolutionMemo[at] = .some(result)
        return result
    }

    /// Whether the map knows nothing of any run of the part's words: no name, no street.
    mutating func isUnknown(part: Int) -> Bool {
        let range = partRanges[part]
        for start in range.start..<range.end {
            for end in (start + 1)...min(range.end, start + Self.maximumNameWords) {
                if !names(start, end).isEmpty || street(start, end) != nil { return false }
            }
        }
        return true
    }

    /// The words `start..<end` as consecutive runs that each name a context, or nil.
    mutating func decompose(_ start: Int, _ end: Int) -> [[ContextHit]]? {
        guard start < end else { return [] }
        var previous = [Int](repeating: -1, count: end - start + 1)
        previous[0] = start
        for from in start..<end where previous[from - start] >= 0 {
            for to in (from + 1)...min(end, from + Self.maximumContextWords) where previous[to - start] < 0 {
                if !contexts(from, to).isEmpty { previous[to - start] = from }
            }
        }
        guard previous[end - start] >= 0 else { return nil }
        var runs: [[ContextHit]] = []
        var to = end
        while to > start {
            let from = previous[to - start]
            runs.append(contexts(from, to))
            to = from
        }
        return runs.reversed()
    }

    /// Whether a context of this kind can say where a match of `kind` is: a place or area that is
    /// not a locality (a landmark) where an address or a street is; a postal code where an address,
    /// a street, a place or an area is; a locality or a country where anything but a country or a
    /// time zone is (a country is in no town, a time zone in no country).
    static func applies(_ context: ContextHit.Kind, to kind: GeocodeKind) -> Bool {
        switch context {
        case .landmark: return kind <= .street
        case .postcode: return kind <= .area
        case .localityPoint, .localityArea, .country: return kind <= .town
        }
    }

    /// Whether the match of `kind` at this point (a street: anywhere in its box) lies where every context says.
    /// A place or area that is a locality (`rank` above 0) is only in a locality of no lower rank.
    func satisfies(_ resolution: Resolution, kind: GeocodeKind, latitude: Double, longitude: Double,
                   box: (west: Double, south: Double, east: Double, north: Double), countryCode: String?, rank: Double = 0) -> Bool {
        let isAddress = kind == .address
        for context in resolution.contexts {
            var any = false
            for hit in context where !any && Self.applies(hit.kind, to: kind) && (rank == 0 || hit.rank == 0 || hit.rank >= rank) {
                let layer = layers[hit.layer].map
                let feature = Feature(map: layer, index: hit.feature)
                switch hit.kind {
                case .postcode:
                    if isAddress {
                        any = layer.nearestPoint(latitude: latitude, longitude: longitude, within: 1) { $0 == hit.feature } != nil
                    } else {
                        any = Self.gap(box, feature.boundingBox) <= Self.postcodeDistance
                    }
                case .localityPoint(let radius):
                    let point = Self.point(of: feature)
                    any = Self.distance(from: point, to: box) <= radius
                case .localityArea:
                    any = Self.gap(box, feature.boundingBox) <= Self.areaDistance
                case .landmark:
                    any = Self.gap(box, feature.boundingBox) <= Self.landmarkDistance
                case .country:
                    if let countryCode, Placemark.countryCode(of: feature) == countryCode {
                        any = true
                    } else {
                        var inside = false
                        if let query = layer.quantizer.queryPoint(latitude: latitude, longitude: longitude) {
                            layer.visitFeatures(containing: query) { found in
                                inside = found == hit.feature
                                return !inside
                            }
                        }
                        any = inside
                    }
                }
            }
            if !any { return false }
        }
        return true
    }

    // MARK: Geometry

    /// A feature's point: its label point, else the middle of its box.
    static func point(of feature: Feature) -> (latitude: Double, longitude: Double) {
        if let label = feature.labelPoint { return label }
        let box = feature.boundingBox
        return ((box.south + box.north) / 2, (box.west + box.east) / 2)
    }

    /// The geodesic distance from a point to the nearest point of a box, in metres.
    static func distance(from point: (latitude: Double, longitude: Double), to box: (west: Double, south: Double, east: Double, north: Double)) -> Double {
        let latitude = min(max(point.latitude, box.south), box.north)
        let longitude = min(max(point.longitude, box.west), box.east)
        return Geodesic.distance(latitude: point.latitude, longitude: point.longitude, toLatitude: latitude, longitude: longitude)
    }

    /// The distance between two boxes in metres (0 when they meet), measured between their nearest points.
    static func gap(_ a: (west: Double, south: Double, east: Double, north: Double), _ b: (west: Double, south: Double, east: Double, north: Double)) -> Double {
        let latitudeA = min(max(b.south, a.south), a.north), longitudeA = min(max(b.west, a.west), a.east)
        let latitudeB = min(max(latitudeA, b.south), b.north), longitudeB = min(max(longitudeA, b.west), b.east)
        return Geodesic.distance(latitude: latitudeA, longitude: longitudeA, toLatitude: latitudeB, longitude: longitudeB)
    }

    /// The candidate for a feature of a layer searched by name.
    func candidate(_ hit: NameHit, match: NameMatch, consumed: Int, start: Int, resolution: Resolution) -> Candidate? {
        let layer = layers[hit.layer]
        let feature = Feature(map: layer.map, index: hit.feature)
        let point = Self.point(of: feature), box = feature.boundingBox
        let kind = layer.role.kind
        var prominence = 0.0
        var code: String?
        switch layer.role {
        case .towns:
            prominence = Double(feature.property("population").flatMap { Int($0) } ?? 0)
            code = Self.townCountryCode(feature)
        case .places, .areas:
            prominence = Self.placeProminence(feature.property("category"))
        default:
            break
        }
        // A street is where any of it is; anything else is where its point is.
        let extent = kind == .street ? box : (point.longitude, point.latitude, point.longitude, point.latitude)
        let rank = layer.role == .places || layer.role == .areas ? prominence : 0
        guard satisfies(resolution, kind: kind, latitude: point.latitude, longitude: point.longitude, box: extent, countryCode: code, rank: rank) else { return nil }
        return Candidate(kind: kind, rank: 2 * kind.rawValue, layer: layer.map.layerIndex, feature: hit.feature, match: match,
                         unmatched: resolution.unmatched, consumed: consumed, latitude: point.latitude, longitude: point.longitude,
                         box: box, prominence: prominence, start: start)
    }

    // MARK: Addresses and streets

    /// The address features of the street whose key is the run's (or, for a run ending in an
    /// abbreviation, of the one street whose key starts with it), with that key; nil when none.
    mutating func street(_ start: Int, _ end: Int) -> (key: [UInt8], addresses: StreetAddresses)? {
        let at = slot(start, end)
        if let known = streetMemo[at] { return known }
        var key = self.key(start, end)
        var found = streetAddresses(key)
        if found == nil, let expanded = expansion(start, end) {
            key = expanded
            found = streetAddresses(key)
        }
        let result = found.map { (key, $0) }
        streetMemo[at] = .some(result)
        return result
    }

    /// The one street key of the map (addresses and roads) that starts with the run's key, when
    /// its last word is followed by a full stop and has at least three bytes; nil when none or several.
    mutating func expansion(_ start: Int, _ end: Int) -> [UInt8]? {
        let last = words[end - 1]
        guard last.isAbbreviated, last.bytes.count >= 3, !last.startsWithDigit else { return nil }
        let prefix = key(start, end)
        var keys: [[UInt8]] = []
        func add(_ key: [UInt8]) { if key.count > prefix.count && !keys.contains(key) { keys.append(key) } }
        if let index {
            for key in index.keys(withPrefix: prefix, limit: 3) { add(key) }
        } else if let addresses {
            for key in scannedKeys(addresses) where key.starts(with: prefix) { add(key) }
        }
        if let streets, layers[streets].map.layout.names.count > 0 {
            for key in NameIndexReader(map: layers[streets].map).keys(withPrefix: prefix, limit: 3) { add(key) }
        }
        return keys.count == 1 ? keys[0] : nil
    }

    /// The road features (`roads`) of the street of the run: those whose whole key is the run's key,
    /// or, when there are none, the key of the street of its addresses (`street`), or the one street
    /// an abbreviation stands for.
    mutating func roads(_ start: Int, _ end: Int, street: (key: [UInt8], addresses: StreetAddresses)?) -> [NameHit] {
        guard let streets else { return [] }
        var hits = names(start, end).filter { $0.layer == streets }
        if hits.isEmpty, let other = street?.key ?? expansion(start, end), other != key(start, end) {
            hits = Self.exactFeatures(in: layers[streets].map, key: other).map { NameHit(layer: streets, feature: $0) }
        }
        return hits
    }

    /// The address features whose street key is `key`: a range of the index, or those a scan finds.
    mutating func streetAddresses(_ key: [UInt8]) -> StreetAddresses? {
        if let index {
            guard let record = index.street(key), let range = index.range(at: record), !range.isEmpty else { return nil }
            return StreetAddresses(features: Array(range), sorted: true)
        }
        guard let addresses else { return nil }
        let keys = scannedKeys(addresses)
        let features = keys.indices.filter { keys[$0] == key }
        return features.isEmpty ? nil : StreetAddresses(features: features, sorted: false)
    }

    /// The street key of every address feature (a map without an address index), made once.
    mutating func scannedKeys(_ addresses: GMap) -> [[UInt8]] {
        if let keys = scannedStreetKeys { return keys }
        let keys = (0..<addresses.featureCount).map { index -> [UInt8] in
            // A feature without a house number, or whose id is its house number, has no street.
            let feature = Feature(map: addresses, index: index)
            guard let number = addresses.houseNumberText(ofFeature: index), !feature.idBytes.elementsEqual(number) else { return [] }
            return NameFolding.normalized(feature.id)
        }
        scannedStreetKeys = keys
        return keys
    }

    /// Adds the addresses that a street of `start..<end` and a number of `numberStart..<numberEnd` name.
    /// `anyNumber` lets the number start with a word that is not a number (`Keskuskatu 5` as a house number).
    mutating func findAddresses(anyNumber: Bool) {
        guard addresses != nil else { return }
        for start in 0..<count {
            for end in (start + 1)...min(count, start + Self.maximumStreetWords) {
                guard let street = street(start, end) else { continue }
                if end < count, anyNumber || words[end].startsWithDigit {
                    for numberEnd in (end + 1)...min(count, end + Self.maximumNumberWords) {
                        addAddresses(street, start: start, end: end, number: end..<numberEnd)
                    }
                }
                if start > 0 {
                    for numberStart in max(0, start - Self.maximumNumberWords)..<start where anyNumber || words[numberStart].startsWithDigit {
                        addAddresses(street, start: start, end: end, number: numberStart..<start)
                    }
                }
            }
        }
    }

    /// The addresses of `street` with the number of the words `number`, whose other words resolve.
    mutating func addAddresses(_ street: (key: [UInt8], addresses: StreetAddresses), start: Int, end: Int, number: Range<Int>) {
        guard let addresses else { return }
        let low = min(start, number.lowerBound), high = max(end, number.upperBound)
        guard let before = resolve(0, low), let after = resolve(high, count) else { return }
        let resolution = Resolution(contexts: before.contexts + after.contexts, unmatched: before.unmatched + after.unmatched)
        let numberKey = NameFolding.houseNumberKey(normalized: key(number.lowerBound, number.upperBound))
        for (feature, match) in addresses.addresses(on: street.addresses, number: numberKey) {
            let found = Feature(map: addresses, index: feature)
            // The index's answer checked: the feature's own street is the one asked for.
            guard !street.addresses.sorted || NameFolding.normalized(found.id) == street.key else { continue }
            let box = found.boundingBox
            let point = (latitude: (box.south + box.north) / 2, longitude: (box.west + box.east) / 2)
            guard satisfies(resolution, kind: .address, latitude: point.latitude, longitude: point.longitude, box: box, countryCode: nil) else { continue }
            candidates.append(Candidate(kind: .address, rank: match == .whole ? 0 : 1, layer: addresses.layerIndex, feature: feature,
                                        match: .exact, unmatched: resolution.unmatched, consumed: high - low,
                                        latitude: point.latitude, longitude: point.longitude, box: box, prominence: 0, start: low))
        }
    }

    /// For each street and number the map does not have together: the street itself. The number
    /// must look like one: a word starting with a digit, then at most two words each a number or a
    /// single letter (`12`, `12 a`, `12 14`), so that other words are never swallowed as one.
    mutating func findStreetsOfAbsentNumbers() {
        for start in 0..<count {
            for end in (start + 1)...min(count, start + Self.maximumStreetWords) {
                for numberEnd in (end + 1)..<(end + 4) where numberEnd <= count && isNumberLike(end..<numberEnd) {
                    addStreet(start: start, end: end, number: end..<numberEnd)
                }
                for numberStart in max(0, start - 3)..<start where isNumberLike(numberStart..<start) {
                    addStreet(start: start, end: end, number: numberStart..<start)
                }
            }
        }
    }

    /// Whether the words look like a house number: in one part, the first starts with a digit,
    /// the others are numbers of at most four digits (a range: not a postal code) or single letters.
    func isNumberLike(_ range: Range<Int>) -> Bool {
        guard !range.isEmpty, words[range.lowerBound].startsWithDigit else { return false }
        let part = words[range.lowerBound].part
        return range.dropFirst().allSatisfy { position in
            let word = words[position].bytes
            return words[position].part == part && ((word.allSatisfy(NameFolding.isDigit) && word.count <= 4) || word.count == 1)
        }
    }

    /// The street of `start..<end` as a match for a street and a number it does not have.
    mutating func addStreet(start: Int, end: Int, number: Range<Int>) {
        let low = min(start, number.lowerBound), high = max(end, number.upperBound)
        let street = self.street(start, end)
        let roads = self.roads(start, end, street: street)
        guard street != nil || !roads.isEmpty else { return }
        // Not when the number is one of the street's: that is an address.
        if let street, let addresses, !addresses.addresses(on: street.addresses, number: NameFolding.houseNumberKey(normalized: key(number.lowerBound, number.upperBound))).isEmpty {
            return
        }
        guard let before = resolve(0, low), let after = resolve(high, count) else { return }
        let resolution = Resolution(contexts: before.contexts + after.contexts, unmatched: before.unmatched + after.unmatched)
        addStreetCandidates(roads: roads, street: street, consumed: end - start, start: low, resolution: resolution)
    }

    /// Street candidates: the road features, or, for a street known only from its addresses, the
    /// address nearest the middle of their box.
    mutating func addStreetCandidates(roads: [NameHit], street: (key: [UInt8], addresses: StreetAddresses)?, consumed: Int, start: Int, resolution: Resolution) {
        for hit in roads {
            if let found = candidate(hit, match: .exact, consumed: consumed, start: start, resolution: resolution) { candidates.append(found) }
        }
        guard roads.isEmpty, let street, let addresses else { return }
        var box = (west: Double.infinity, south: Double.infinity, east: -Double.infinity, north: -Double.infinity)
        var points: [(feature: Int, latitude: Double, longitude: Double)] = []
        for feature in street.addresses.features {
            let b = Feature(map: addresses, index: feature).boundingBox
            box = (min(box.west, b.west), min(box.south, b.south), max(box.east, b.east), max(box.north, b.north))
            points.append((feature, (b.south + b.north) / 2, (b.west + b.east) / 2))
        }
        let middle = (latitude: (box.south + box.north) / 2, longitude: (box.west + box.east) / 2)
        var best: (feature: Int, latitude: Double, longitude: Double)?
        var bestDistance = Double.infinity
        for point in points {
            let distance = Geodesic.distance(latitude: middle.latitude, longitude: middle.longitude, toLatitude: point.latitude, longitude: point.longitude)
            if distance < bestDistance { (best, bestDistance) = (point, distance) }
        }
        guard let best, satisfies(resolution, kind: .street, latitude: best.latitude, longitude: best.longitude, box: box, countryCode: nil) else { return }
        var found = Candidate(kind: .street, rank: 2 * GeocodeKind.street.rawValue, layer: addresses.layerIndex, feature: best.feature, match: .exact,
                              unmatched: resolution.unmatched, consumed: consumed, latitude: best.latitude, longitude: best.longitude, box: box, prominence: 0,
                              start: start)
        found.addressStreet = true
        candidates.append(found)
    }

    // MARK: Names

    /// Every run of words that is a whole name of a feature, with the other words resolved.
    mutating func findNames() {
        for start in 0..<count {
            for end in (start + 1)...min(count, start + Self.maximumNameWords) {
                let others = names(start, end).filter { $0.layer != streets }
                let street = self.street(start, end)
                let roads = self.roads(start, end, street: street)
                guard !others.isEmpty || !roads.isEmpty || street != nil else { continue }
                guard let before = resolve(0, start), let after = resolve(end, count) else { continue }
                let resolution = Resolution(contexts: before.contexts + after.contexts, unmatched: before.unmatched + after.unmatched)
                for hit in others {
                    if let found = candidate(hit, match: .exact, consumed: end - start, start: start, resolution: resolution) { candidates.append(found) }
                }
                addStreetCandidates(roads: roads, street: street, consumed: end - start, start: start, resolution: resolution)
            }
        }
    }

    /// Names that start with a part's words, or whose words start with them (``NameMatch``), when
    /// nothing matched whole: each part in turn, the others resolved around it.
    mutating func findLooseNames() {
        for part in partRanges.indices {
            let range = partRanges[part]
            guard range.start < range.end, range.end - range.start <= Self.maximumNameWords else { continue }
            guard let before = resolve(0, range.start), let after = resolve(range.end, count) else { continue }
            let resolution = Resolution(contexts: before.contexts + after.contexts, unmatched: before.unmatched + after.unmatched)
            let query = NameQuery(String(decoding: key(range.start, range.end), as: UTF8.self))
            guard !query.words.isEmpty else { continue }
            for (position, layer) in layers.enumerated() {
                for found in layer.map.matches(query, loosest: .words) {
                    if let candidate = candidate(NameHit(layer: position, feature: found.feature), match: found.match,
                                                 consumed: range.end - range.start, start: range.start, resolution: resolution) {
                        candidates.append(candidate)
                    }
                }
            }
        }
    }
}
