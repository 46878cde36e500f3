/// The search behind ``GMap/geocode(_:near:limit:)`` and ``MapStack/geocode(_:near:limit:)``:
/// the query's words, the layers of every map by role, and what each run of words names, found once.
struct Geocoder {
    /// What a layer searched by name holds.
    enum Role {
        case streets, places, areas, water, postcodes, towns, states, countries, timeZones

        var kind: GeocodeKind {
            switch self {
            case .streets: return .street
            case .places: return .place
            case .areas, .water: return .area
            case .postcodes: return .postcode
            case .towns: return .town
            case .states: return .state
            case .countries: return .country
            case .timeZones: return .timeZone
            }
        }

        /// Whether names within an edit or two of a run of words are tried when nothing matches
        /// whole (``TypoRule``): not for postal codes and time zones, which are typed as codes.
        var takesTypos: Bool {
            switch self {
            case .postcodes, .timeZones: return false
            default: return true
            }
        }
    }

    /// A layer searched by name, its role, and its position among every map's layers (``allLayers``).
    struct NamedLayer {
        var map: GMap
        var role: Role
        var position: Int
    }

    /// A feature whose whole key equals a run of the query's words (or is a typo of it).
    struct NameHit {
        /// The position of its layer in ``layers``.
        var layer: Int
        var feature: Int
        /// The feature's other name that has the key (a layer of named compact points), or nil.
        var otherName: String? = nil
        /// The key that matched, when it is not the words' own (a typo's).
        var key: [UInt8]? = nil
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
            /// A country: the match inside it (or, for a town or a state, of its country code).
            case country
            /// A state given by a point of a layer of states (the world map's): a town or a state of its
            /// country and code, anything else where the nearest town is of them (``stateOfNearestTown(latitude:longitude:)``).
            case state(country: String, code: String)
            /// A state given by an area: the match inside it.
            case stateArea
            /// Any other place or area (a department store, a square): an address or a street within ``landmarkDistance`` of its box.
            case landmark
        }
        var layer: Int
        var feature: Int
        var kind: Kind
        /// A place's or area's rank as a locality (``placeProminence(_:)``): a place is in a locality of no lower rank.
        var rank = 0.0
        /// Named by a word typed as a code (`ON`, `WA`), in capitals: codes are short and shared
        /// (`WA` is Washington and Western Australia), so a match that no country or state of the
        /// code holds is not ruled out but has the code left aside (``Candidate/unmatched``).
        var code: String?
    }

    /// What the words around a match were found to be.
    struct Resolution {
        /// The contexts, each a list of features of which one must hold the match.
        var contexts: [[ContextHit]]
        /// The parts of the text left aside (the map knows nothing of them), as typed; a code
        /// word left aside in a part of several words, in capitals.
        var unmatched: [String]
    }

    /// One possible answer, with what ranks it.
    struct Candidate {
        var kind: GeocodeKind
        /// The kind's rank (``rank(of:)``), with an address by a range's number after one by its whole number.
        var rank: Int
        /// The position of the feature's layer in ``allLayers``, and the feature.
        var layer: Int
        var feature: Int
        var match: NameMatch
        var unmatched: [String]
        /// The words of the query that the match itself explains (street and number, or name).
        var consumed: Int
        var latitude: Double, longitude: Double
        var box: (west: Double, south: Double, east: Double, north: Double)
        /// What ranks matches of one kind without a point to be near: a town's population (less
        /// for a town found by an other name only), a state's, a place's rank as a locality.
        var prominence: Double
        /// The first word of the match itself: the first part names the thing, later ones where it is.
        var start = 0
        var distance: Double?
        /// Whether it lies in the region asked for (``GeocodeRegion``); nil without one.
        var inRegion: Bool?
        /// A street known only from its addresses: the street's key.
        var addressStreet: Bool = false
        /// The other name that matched, as the map spells it.
        var otherName: String?
        /// A typo: how many edits the name is from the words.
        var edits = 0
        /// A town or a state: its country and state code.
        var country: String?
        var state: String?
    }

    static let maximumStreetWords = 6, maximumNumberWords = 6, maximumContextWords = 4, maximumNameWords = 8
    /// How far a match may be from the points of a postal code named in the text, in metres.
    static let postcodeDistance = 300.0
    /// How far a match may be from the box of an area named as its locality, in metres.
    static let areaDistance = 500.0
    /// How far a match may be from the box of a place or area named beside it that is not a locality, in metres.
    static let landmarkDistance = 300.0
    /// A town found only by one of its other names ranks as a town of this many times fewer
    /// people: GeoNames lists as other names old names, other languages' and transliterations
    /// that are also the main names of other towns ("Cancun" for Changchun, "Zaragoza" for
    /// Tijuana), and the town whose own name it is comes first unless the other is far larger
    /// ("Roma": Rome, 2.3 million, before Roma, Texas, 10,000).
    static let otherNameDiscount = 50.0
    /// A state ranks as a town of this many times fewer people than its towns have in all: a
    /// city named like its state comes first ("New York"), a small town named like a large state
    /// does not ("California").
    static let stateDiscount = 20.0
    /// The most runs of words tried for typos in one query.
    static let maximumTypoRuns = 8

    /// Every layer of every map, in stack order.
    let allLayers: [GMap]
    let words: [NameFolding.QueryWord]
    let parts: [String]
    let near: (latitude: Double, longitude: Double)?
    let region: GeocodeRegion?
    let count: Int
    /// The layers searched by name, in stack order.
    var layers: [NamedLayer] = []
    /// The position in ``layers`` of the streets (`roads`), if any.
    var streets: Int?
    /// The layer of addresses and its position in ``allLayers``, its index (nil: scanned), and the layer of postal codes.
    var addresses: GMap?
    var addressesPosition = 0
    var index: AddressIndexReader?
    var postcodes: GMap?
    /// The world map's layer of towns (a layer of points in a town role), for the state of a point.
    var towns: GMap?
    /// The first and last word of each part.
    var partRanges: [(start: Int, end: Int)] = []
    /// Found once per run of words (`start * (count + 1) + end`).
    var nameMemo: [[NameHit]?]
    var contextMemo: [[ContextHit]?]
    var streetMemo: [(key: [UInt8], addresses: StreetAddresses)??]
    var resolutionMemo: [Resolution??]
    /// For a map without an address index: the street key of every address feature, made once.
    var scannedStreetKeys: [[UInt8]]?
    var candidates: [Candidate] = []

    /// A search of `maps` (their files' every layer, the first given first) for these words.
    init(maps: [GMap], words: [NameFolding.QueryWord], parts: [String], near: (latitude: Double, longitude: Double)?, region: GeocodeRegion? = nil) {
        self.words = words
        self.parts = parts
        self.near = near ?? region.map { ($0.latitude, $0.longitude) }
        self.region = region
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
        var all: [GMap] = []
        var files: [(root: GMap, first: Int)] = []
        for map in maps {
            let root = map.layer(at: 0) ?? map
            files.append((root, all.count))
            all += root.layers
        }
        allLayers = all
        for file in files {
            let layers = file.root.layers
            let folded = layers.map { String(decoding: NameFolding.fold($0.layerName), as: UTF8.self) }
            // The addresses of the first map that has some (a stack lists location maps first).
            var fileAddresses: GMap?
            if addresses == nil {
                let reader = AddressIndexReader(map: file.root)
                fileAddresses = reader?.addresses ?? folded.firstIndex(of: MapLocationSource.LayerName.addresses).map { layers[$0] }
                if let found = fileAddresses {
                    index = reader
                    addresses = found
                    addressesPosition = file.first + found.layerIndex
                    if let layer = reader?.table.postcodesLayer, layer < layers.count {
                        postcodes = layers[layer]
                    } else {
                        postcodes = folded.firstIndex(of: MapLocationSource.LayerName.postcodes).map { layers[$0] }
                    }
                }
            }
            let known = Placemark.stateLayers + Placemark.timeZoneLayers + Placemark.marineLayers + Placemark.townLayers
            for (position, layer) in layers.enumerated() {
                let name = folded[position]
                if fileAddresses.map({ $0.layerIndex == layer.layerIndex }) ?? false { continue }
                let role: Role?
                switch name {
                case MapLocationSource.LayerName.roads: role = .streets
                case MapLocationSource.LayerName.places: role = .places
                case MapLocationSource.LayerName.areas: role = .areas
                case MapLocationSource.LayerName.postcodes: role = .postcodes
                case MapLocationSource.LayerName.intersections: role = nil
                default:
                    if Placemark.countryLayers.contains(name) || (layers.count == 1 && !known.contains(name) && layer.geometryKind?.answersContainment == true) {
                        role = .countries
                    } else if Placemark.townLayers.contains(name) {
                        role = .towns
                    } else if Placemark.stateLayers.contains(name) {
                        role = .states
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
                guard let role else { continue }
                if role == .streets && streets == nil && name == MapLocationSource.LayerName.roads { streets = self.layers.count }
                if role == .towns, towns == nil, layer.geometryKind == .points { towns = layer }
                self.layers.append(NamedLayer(map: layer, role: role, position: file.first + position))
            }
        }
    }
}
