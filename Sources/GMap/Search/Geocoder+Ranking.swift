extension Geocoder {
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
}
