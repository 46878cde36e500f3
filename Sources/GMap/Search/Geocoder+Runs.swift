extension Geocoder {
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
}
