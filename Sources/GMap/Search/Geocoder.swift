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
            // Nothing whole: names that start so or have words that do, and names within an edit
            // or two (never instead of a whole match that explains every part: a typo in the
            // street of "Manerheimintie 1, Helsinki" is looked for, since the whole match, the
            // place Helsinki, leaves the street aside).
            if candidates.isEmpty && !words.contains(where: { $0.startsWithDigit }) { findLooseNames() }
            if !candidates.contains(where: { $0.match == .exact && $0.unmatched.isEmpty }) { findTypos() }
        }
        // A part is left aside only when no match explains it.
        if let fewest = candidates.map({ $0.unmatched.count }).min() {
            candidates.removeAll { $0.unmatched.count > fewest }
        }
        for position in candidates.indices {
            if let near {
                candidates[position].distance = Geodesic.distance(latitude: near.latitude, longitude: near.longitude,
                                                                  toLatitude: candidates[position].latitude, longitude: candidates[position].longitude)
            }
            if let region, let distance = candidates[position].distance { candidates[position].inRegion = distance <= region.radius }
        }
        rankTownsBeforeTheirStates()
        candidates.sort(by: Self.precedes)
        var kept: [Candidate] = []
        for candidate in candidates where !kept.contains(where: { $0.layer == candidate.layer && $0.feature == candidate.feature && $0.kind == candidate.kind }) {
            kept.append(candidate)
            if kept.count >= limit { break }
        }
        return kept.map(match)
    }

    /// A state named by the same words as a town in it comes after that town (the state is named
    /// after its city: `New York`, `Praha`, `Québec`): it takes a standing just below the town's.
    mutating func rankTownsBeforeTheirStates() {
        for position in candidates.indices where candidates[position].kind == .state {
            let state = candidates[position]
            for town in candidates where town.kind == .town && town.match == state.match && town.start == state.start
                && town.consumed == state.consumed && town.country == state.country && town.state != nil && town.state == state.state {
                candidates[position].prominence = min(candidates[position].prominence, town.prominence.nextDown)
            }
        }
    }

    /// Where a kind ranks: the kinds of a location map first (an address, by its whole number then
    /// by a range's, a street, a place, an area, a postal code), then a country, then towns and
    /// states (ranked among themselves by ``Candidate/prominence``), then a time zone.
    static func rank(of kind: GeocodeKind) -> Int {
        switch kind {
        case .coordinates, .address: return 0
        case .street: return 2
        case .place: return 3
        case .area: return 4
        case .postcode: return 5
        case .country: return 6
        case .town, .state: return 7
        case .timeZone: return 8
        }
    }

    /// The ranking order of ``GMap/geocode(_:near:limit:)``: whole matches first; then, of one
    /// kind's rank, the fewest parts left aside, the most words explained, the earliest; then in
    /// the region asked for, the nearest to the point asked to be near, the most prominent; names
    /// not matched whole (by prefix, by words, by a typo, which rank together) then by how they
    /// matched and the fewest edits.
    static func precedes(_ a: Candidate, _ b: Candidate) -> Bool {
        let wholeA = a.match == .exact, wholeB = b.match == .exact
        if wholeA != wholeB { return wholeA }
        if a.rank != b.rank { return a.rank < b.rank }
        if a.unmatched.count != b.unmatched.count { return a.unmatched.count < b.unmatched.count }
        if a.consumed != b.consumed { return a.consumed > b.consumed }
        if a.start != b.start { return a.start < b.start }
        if let ia = a.inRegion, let ib = b.inRegion, ia != ib { return ia }
        if a.inRegion == nil, let da = a.distance, let db = b.distance, da != db { return da < db }
        if a.prominence != b.prominence { return a.prominence > b.prominence }
        if a.match != b.match { return a.match < b.match }
        if a.edits != b.edits { return a.edits < b.edits }
        if let da = a.distance, let db = b.distance, da != db { return da < db }
        if a.layer != b.layer { return a.layer < b.layer }
        return a.feature < b.feature
    }

    /// The public match of a candidate.
    func match(_ candidate: Candidate) -> GeocodeMatch {
        let map = allLayers[candidate.layer]
        let feature = Feature(map: map, index: candidate.feature)
        var result = GeocodeMatch(kind: candidate.kind, name: "", latitude: candidate.latitude, longitude: candidate.longitude,
                                  boundingBox: candidate.box, feature: feature, match: candidate.match, distance: candidate.distance,
                                  unmatched: candidate.unmatched)
        result.matchedName = candidate.otherName
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
        case .town, .state:
            result.name = feature.property("name") ?? feature.id
            result.isoCountryCode = Self.townCountryCode(feature)
            let admin = TownAdministration(feature)
            result.administrativeArea = candidate.kind == .state ? admin.stateForm(name: result.name) : admin.stateForm()
            result.administrativeAreaCode = admin.code
            if candidate.kind == .town { result.subAdministrativeArea = admin.county }
        case .country:
            result.name = Placemark.name(of: feature) ?? feature.id
            result.isoCountryCode = Placemark.countryCode(of: feature)
        case .timeZone:
            result.name = feature.property("tzid") ?? feature.id
        case .coordinates:
            break
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
    func slot(_ start: Int, _ end: Int) -> Int { start * (count + 1) + end }

    /// The key of the run: its words joined by single spaces.
    func key(_ start: Int, _ end: Int) -> [UInt8] {
        var key: [UInt8] = []
        for position in start..<end {
            if position > start { key.append(0x20) }
            key += words[position].bytes
        }
        return key
    }

    /// Whether the run is one word typed as a code (``NameFolding/QueryWord/isCode``): where the
    /// match is, it names a country or a state by its code, never a town or a place.
    func isCode(_ start: Int, _ end: Int) -> Bool { end == start + 1 && words[start].isCode }

    /// The features of every layer searched by name whose whole key equals the run's key, or the
    /// key with its abbreviated words written out or the other way round (``NameFolding/abbreviationVariants(of:)``:
    /// `st louis` and `saint louis`).
    mutating func names(_ start: Int, _ end: Int) -> [NameHit] {
        let at = slot(start, end)
        if let known = nameMemo[at] { return known }
        var hits: [NameHit] = []
        for key in NameFolding.abbreviationVariants(of: self.key(start, end)) {
            for (position, layer) in layers.enumerated() {
                for found in layer.map.exactNameMatches(key) {
                    // Each feature once, by its own name where one of the keys is its own.
                    if let seen = hits.firstIndex(where: { $0.layer == position && $0.feature == found.feature }) {
                        if found.otherName == nil { hits[seen].otherName = nil }
                        continue
                    }
                    hits.append(NameHit(layer: position, feature: found.feature, otherName: found.otherName))
                }
            }
        }
        nameMemo[at] = hits
        return hits
    }

    /// The features of `layer` whose whole key is `key` (``GMap/exactNameMatches(_:)``).
    static func exactFeatures(in layer: GMap, key: [UInt8]) -> [Int] {
        layer.exactNameMatches(key).map { $0.feature }
    }

    /// What the run names as where a match is: postal codes, localities, states, countries. A run
    /// typed as a code names only countries and states.
    mutating func contexts(_ start: Int, _ end: Int) -> [ContextHit] {
        let at = slot(start, end)
        if let known = contextMemo[at] { return known }
        var hits: [ContextHit] = []
        let code = isCode(start, end)
        let codeText = code ? String(decoding: words[start].bytes.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }, as: UTF8.self) : nil
        defer {
            for index in hits.indices { hits[index].code = codeText }
            contextMemo[at] = hits
        }
        for hit in names(start, end) {
            let layer = layers[hit.layer]
            let feature = Feature(map: layer.map, index: hit.feature)
            switch layer.role {
            case .countries:
                hits.append(ContextHit(layer: hit.layer, feature: hit.feature, kind: .country))
            case .states:
                if layer.map.geometryKind?.answersContainment == true {
                    hits.append(ContextHit(layer: hit.layer, feature: hit.feature, kind: .stateArea))
                } else if let country = Self.townCountryCode(feature), let state = feature.property("admin1_code") {
                    hits.append(ContextHit(layer: hit.layer, feature: hit.feature, kind: .state(country: country, code: state)))
                }
            case _ where code:
                continue
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
            case .streets, .water, .timeZones:
                continue
            }
        }
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
                resolution.unmatched.append(parts[part])
            } else if let split = decomposeLeavingCodes(position, pieceEnd) {
                // Words typed as codes that name no country or state, left aside: `Melbourne VIC`.
                resolution.contexts += split.contexts
                resolution.unmatched += split.codes
            } else {
                failed = true
            }
            position = pieceEnd
        }
        let result: Resolution? = failed ? nil : resolution
        resolutionMemo[at] = .some(result)
        return result
    }

    /// Whether the map knows nothing of any run of the part's words: no name, no street. A part of
    /// one word typed as a code is unknown unless a country or a state has that code.
    mutating func isUnknown(part: Int) -> Bool {
        let range = partRanges[part]
        if isCode(range.start, range.end) { return contexts(range.start, range.end).isEmpty }
        for start in range.start..<range.end {
            for end in (start + 1)...min(range.end, start + Self.maximumNameWords) {
                if !names(start, end).isEmpty || street(start, end) != nil { return false }
            }
        }
        return true
    }

    /// The words `start..<end` as runs that each name a context, where the words typed as codes
    /// that name no country or state may be left aside (each in capitals); nil when there are none
    /// such, or the other words do not decompose.
    mutating func decomposeLeavingCodes(_ start: Int, _ end: Int) -> (contexts: [[ContextHit]], codes: [String])? {
        var contexts: [[ContextHit]] = [], codes: [String] = []
        var runStart = start
        for position in start...end {
            let unknownCode = position < end && isCode(position, position + 1) && self.contexts(position, position + 1).isEmpty
            guard position == end || unknownCode else { continue }
            guard let runs = decompose(runStart, position) else { return nil }
            contexts += runs
            if position < end { codes.append(String(decoding: words[position].bytes.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }, as: UTF8.self)) }
            runStart = position + 1
        }
        return codes.isEmpty ? nil : (contexts, codes)
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
    /// a street, a place or an area is; a locality where anything of a location map or a town is;
    /// a state where those are; a country where those and a state are (a country is in no town or
    /// state, a time zone in no country).
    static func applies(_ context: ContextHit.Kind, to kind: GeocodeKind) -> Bool {
        let local = kind == .address || kind == .street || kind == .place || kind == .area || kind == .postcode
        switch context {
        case .landmark: return kind == .address || kind == .street
        case .postcode: return local && kind != .postcode
        case .localityPoint, .localityArea, .state, .stateArea: return local || kind == .town
        case .country: return local || kind == .town || kind == .state
        }
    }

    /// Whether the match of `kind` at this point (a street: anywhere in its box) lies where every context says:
    /// nil when it does not, else the codes it does not lie in (contexts named by a word typed as a
    /// code, ``ContextHit/code``, left aside). A place or area that is a locality (`rank` above 0)
    /// is only in a locality of no lower rank. `countryCode` and `stateCode` are a town's or a state's own.
    func satisfies(_ resolution: Resolution, kind: GeocodeKind, latitude: Double, longitude: Double,
                   box: (west: Double, south: Double, east: Double, north: Double), countryCode: String?, stateCode: String? = nil,
                   rank: Double = 0) -> [String]? {
        let isAddress = kind == .address
        var setAside: [String] = []
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
                case .state(let country, let code):
                    if let countryCode {
                        // A town or a state of another country is not in it; one of no state, not ruled out.
                        any = countryCode == country && (stateCode.map { $0 == code } ?? true)
                    } else if let nearest = stateOfNearestTown(latitude: latitude, longitude: longitude) {
                        any = nearest.country == country && nearest.code == code
                    } else {
                        any = true  // nothing to tell: not ruled out
                    }
                case .country, .stateArea:
                    if case .country = hit.kind, let countryCode, Placemark.countryCode(of: feature) == countryCode {
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
            if !any {
                guard let code = context.first?.code, context.allSatisfy({ $0.code == code }) else { return nil }
                if !setAside.contains(code) { setAside.append(code) }
            }
        }
        return setAside
    }

    /// Whether the key `name` is the words of `key`, or starts with them and a space (`new york city`
    /// starts with the words `new york`; `aboisso` does not start with the word `abo`).
    static func startsWithWords(_ name: [UInt8], _ key: [UInt8]) -> Bool {
        name == key || (name.count > key.count && name.starts(with: key) && name[key.count] == 0x20)
    }

    /// The country and state code of the town nearest the point (within ``townRadius``), from the
    /// layer of towns: where a point that is not a town is, as the placemark says.
    func stateOfNearestTown(latitude: Double, longitude: Double) -> (country: String, code: String)? {
        guard let towns, let nearest = towns.nearestPoint(latitude: latitude, longitude: longitude, within: Self.townRadius) else { return nil }
        guard let country = Self.townCountryCode(nearest.feature), let code = nearest.feature.property("admin1_code") else { return nil }
        return (country, code)
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

    /// The candidate for a feature of a layer searched by name, matched by the run `start..<start + consumed`.
    func candidate(_ hit: NameHit, match: NameMatch, consumed: Int, start: Int, resolution: Resolution) -> Candidate? {
        let layer = layers[hit.layer]
        let feature = Feature(map: layer.map, index: hit.feature)
        let point = Self.point(of: feature), box = feature.boundingBox
        let kind = layer.role.kind
        var prominence = 0.0
        var code: String?, state: String?
        var rank = Self.rank(of: kind)
        switch layer.role {
        case .towns:
            prominence = Double(feature.property("population").flatMap { Int($0) } ?? 0)
            code = Self.townCountryCode(feature)
            state = feature.property("admin1_code")
            // Found by an other name only, unless its own name starts with the name's words (or,
            // for a typo, is a typo of them too: "Barzelonna" is two edits from Barcelona).
            let own = NameFolding.normalized(feature.id), typed = key(start, start + consumed)
            if hit.otherName != nil, !Self.startsWithWords(own, hit.key ?? typed),
               !(match == .typo && TypoRule.accepts(own, asTypoOf: typed)) {
                prominence /= Self.otherNameDiscount
            }
        case .states:
            prominence = Double(feature.property("population").flatMap { Int($0) } ?? 0) / Self.stateDiscount
            code = Self.townCountryCode(feature)
            state = feature.property("admin1_code")
            // By its code or initials (`SF` is San Francisco before Santa Fe province).
            if hit.otherName != nil { prominence /= Self.otherNameDiscount }
        case .countries where match != .exact:
            // Not found whole: a country ranks with towns and states, by its people (its name in
            // another language counting for less, as a town's other name does).
            rank = Self.rank(of: .town)
            prominence = Double(feature.property("pop_est").flatMap { Double($0) } ?? 0)
            if !Self.isOwnName(of: feature, key: key(start, start + consumed), match: match) { prominence /= Self.otherNameDiscount }
        case .places, .areas:
            prominence = Self.placeProminence(feature.property("category"))
        default:
            break
        }
        // A street is where any of it is; anything else is where its point is.
        let extent = kind == .street ? box : (point.longitude, point.latitude, point.longitude, point.latitude)
        let localityRank = layer.role == .places || layer.role == .areas ? prominence : 0
        guard let setAside = satisfies(resolution, kind: kind, latitude: point.latitude, longitude: point.longitude, box: extent, countryCode: code,
                                       stateCode: state, rank: localityRank) else { return nil }
        var found = Candidate(kind: kind, rank: rank, layer: layer.position, feature: hit.feature, match: match,
                              unmatched: resolution.unmatched + setAside, consumed: consumed, latitude: point.latitude, longitude: point.longitude,
                              box: box, prominence: prominence, start: start, otherName: hit.otherName)
        if kind == .town || kind == .state {
            found.country = code
            found.state = state
        }
        return found
    }

    /// Whether the words `key` match one of the feature's own names (its id, or a name property
    /// that is not another language's: ``NameFolding/isLanguageNameKey(_:)``) as `match` says:
    /// whole, by prefix or by words, or within the edits ``TypoRule`` allows.
    static func isOwnName(of feature: Feature, key: [UInt8], match: NameMatch) -> Bool {
        var own: [String] = []
        for position in 0..<feature.propertyCount {
            guard let property = feature.propertyBytes(at: position), property.kind == .string else { continue }
            let name = String(decoding: property.key, as: UTF8.self)
            guard NameFolding.isNameKey(name), !NameFolding.isLanguageNameKey(name) else { continue }
            own.append(String(decoding: property.value, as: UTF8.self))
        }
        let query = NameQuery(String(decoding: key, as: UTF8.self))
        for whole in NameFolding.wholeKeys(id: feature.id, names: own) {
            if match == .typo {
                if whole == key || TypoRule.accepts(whole, asTypoOf: key) { return true }
            } else if query.match(whole) != nil {
                return true
            }
        }
        return false
    }
}
