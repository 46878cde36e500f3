extension Geocoder {
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
