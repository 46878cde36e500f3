extension Placemark {
    /// Fills ``locality`` from the town layer, in the point's own country when ``isoCountryCode``
    /// is known (only towns whose `country_code`, or `iso_a2`, is that code count, so a town across
    /// a border is never given). When the nearest town lies within ``localityRadius``, the towns
    /// that are *eligible* are those at most ``localityPreference`` times as far as it, and those
    /// within their own ``townReach(population:)``; of these the most populous (property
    /// `population`, a whole number; a town without one counts as 0) is the locality, then the
    /// nearer, then the lower feature index. The town becomes the town layer's answer.
    ///
    /// `previous` is a string whose storage the town's name may be written into (the locality of
    /// the placemark filled before), so that a name longer than 15 bytes needs no new storage.
    mutating func fillLocality(from roles: PlacemarkLayers, reusing previous: String? = nil, states: inout ReusedTexts,
                               wantsLocality: Bool = true) {
        guard let index = roles.town, let values = roles.townValues else { return }
        let towns = roles.layers[index]
        let code = isoCountryCode
        // A layer of compact points without admin1_code has no states to give: no search for them.
        let hasStates = towns.storage.layout.compactPoints == nil || values.stateCodeColumn != nil
        let wantsState = hasStates && code != nil && administrativeArea == nil && administrativeAreaCode == nil
        let wantsLocality = wantsLocality && locality == nil
        guard wantsLocality || wantsState else { return }
        if towns.storage.layout.compactPoints != nil {
            let found = Self.compactLocality(towns, values, code: code, latitude: latitude, longitude: longitude, candidates: &townCandidates)
            if wantsLocality, let (feature, distance, _) = found {
                var name = previous ?? ""
                name.replaceWithUTF8(feature.propertyValueBytes(forKey: "name") ?? feature.idBytes)
                locality = name
                localityDistance = distance
                answer(index, with: feature)
            }
            if wantsState, let code {
                let nearest = found?.nearest ?? Self.nearestCompactTown(towns, values, code: code, latitude: latitude, longitude: longitude,
                                                                        beyond: Self.localityRadius, candidates: &townCandidates)
                if let nearest { fillAdministration(values, record: nearest, country: code, reusing: &states) }
            }
            return
        }
        func inCountry(_ town: Int) -> Bool {
            guard let code else { return true }
            return values.isInCountry(town, code: code)
        }
        // One search usually: the towns within the largest reach, nearest first; the nearest town
        // of the country is the first of them, or, when none is that near, found on its own.
        let reach = Self.townReach(population: .max)
        var candidates = towns.nearestPoints(latitude: latitude, longitude: longitude, within: reach)
        guard let nearest = candidates.first(where: { inCountry($0.feature.index) })
                ?? towns.nearestPoint(latitude: latitude, longitude: longitude, within: Self.localityRadius, where: inCountry) else {
            if wantsState, let code {
                for radius in Self.stateSearchRadii {
                    if let town = towns.nearestPoint(latitude: latitude, longitude: longitude, within: radius, where: inCountry) {
                        fillAdministration(of: town.feature, country: code)
                        break
                    }
                }
            }
            return
        }
        if wantsState, let code { fillAdministration(of: nearest.feature, country: code) }
        guard wantsLocality else { return }
        var chosen = nearest, chosenPopulation = values.population(nearest.feature.index)
        let preferred = nearest.distance * Self.localityPreference
        if preferred > reach { candidates = towns.nearestPoints(latitude: latitude, longitude: longitude, within: preferred) }
        for candidate in candidates where candidate.feature.index != nearest.feature.index {
            let population = values.population(candidate.feature.index)
            guard candidate.distance <= preferred || candidate.distance <= Self.townReach(population: population),
                  population > chosenPopulation || population == chosenPopulation
                    && (candidate.distance, candidate.feature.index) < (chosen.distance, chosen.feature.index),
                  inCountry(candidate.feature.index) else { continue }
            chosen = candidate
            chosenPopulation = population
        }
        locality = chosen.feature.property("name") ?? chosen.feature.id
        localityDistance = chosen.distance
        answer(index, with: chosen.feature)
    }

    /// How far the nearest town of the point's country is looked for, in turn, when none lies
    /// within ``localityRadius``, to give the point's state (``fillAdministration(_:record:country:reusing:)``):
    /// 75, 110, 160, 240, 360, 540, 810 and 1,350 km: the first that holds a town of the country
    /// gives the nearest (steps of 1.5 read the fewest towns on the shipped map).
    public static let stateSearchRadii = [75_000.0, 110_000.0, 160_000.0, 240_000.0, 360_000.0, 540_000.0, 810_000.0, 1_350_000.0]

    /// The storage of a placemark's state and county texts, taken from the placemark filled before
    /// (``MapStack/placemark(latitude:longitude:into:)``) so that writing them allocates nothing.
    /// Each text is taken out (left nil) when it is written into, so that no two strings share storage.
    struct ReusedTexts {
        var state: String?, code: String?, county: String?
    }

    /// Fills ``administrativeArea``, ``administrativeAreaCode`` and ``subAdministrativeArea`` from
    /// a town of the country `country` (the state rule: the nearest town of the point's own
    /// country; Docs/Shipped-map.md): its `admin1_code` after the country's code (`US-CA`), its
    /// state as the code in the United States (USPS: `CA`) and as its `admin1` name elsewhere
    /// (`Bavaria`; the code when it has no name), its `admin2` as the county. Nothing when the
    /// town has no `admin1_code`. Read in place, written into the texts' storage of `reusing`.
    mutating func fillAdministration(_ values: TownValues, record: CompactPointRecord, country: String, reusing: inout ReusedTexts) {
        guard let column = values.stateCodeColumn, let stateCode = values.towns.compactValueBytes(of: record, column: column),
              !stateCode.isEmpty else { return }
        var code = reusing.code.take() ?? ""
        // "US-CA", composed on the stack: the code is written into the reused storage.
        var countryBytes = country
        countryBytes.withUTF8 { countryCode in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: countryCode.count + 1 + stateCode.count) { buffer in
                var at = 0
                for byte in countryCode { buffer[at] = byte; at += 1 }
                buffer[at] = 0x2D
                at += 1
                for byte in stateCode { buffer[at] = byte; at += 1 }
                code.replaceWithUTF8(UnsafeRawBufferPointer(start: buffer.baseAddress, count: at))
            }
        }
        administrativeAreaCode = code
        var state = reusing.state.take() ?? ""
        let name = values.stateNameColumn.flatMap { values.towns.compactValueBytes(of: record, column: $0) }
        let byCode = TownAdministration.namesStatesByCode(country) || (name?.isEmpty ?? true)
        state.replaceWithUTF8(byCode ? stateCode : name ?? stateCode)
        administrativeArea = state
        if let column = values.countyColumn, let county = values.towns.compactValueBytes(of: record, column: column), !county.isEmpty {
            var text = reusing.county.take() ?? ""
            text.replaceWithUTF8(county)
            subAdministrativeArea = text
        }
    }

    /// ``fillAdministration(_:record:country:reusing:)`` from a town of a layer of points
    /// (`admin1_code`, `admin1` and `admin2` properties).
    mutating func fillAdministration(of town: Feature, country: String) {
        var admin = TownAdministration(town)
        admin.country = country
        guard admin.stateCode != nil else { return }
        administrativeAreaCode = admin.code
        administrativeArea = admin.stateForm()
        subAdministrativeArea = admin.county
    }

    /// The nearest town of the country `code` beyond `beyond` metres (none nearer), looked for
    /// within each of ``stateSearchRadii`` in turn: its record, or nil when none is within the
    /// largest.
    static func nearestCompactTown(_ towns: GMap, _ values: TownValues, code: String, latitude: Double, longitude: Double, beyond: Double,
                                   candidates: inout [CompactTown]) -> CompactPointRecord? {
        let plane = LocalPlane(latitude: latitude, longitude: longitude)
        for radius in stateSearchRadii where radius > beyond {
            let slack = GMap.planarSlack(latitude: latitude, radius: radius)
            candidates.removeAll(keepingCapacity: true)
            towns.forEachCompactPoint(around: plane, within: radius, slack: slack) { feature, planar, x, y, record in
                guard values.isInCountry(record, code: code) else { return }
                candidates.append(CompactTown(feature: feature, planar: planar, x: x, y: y, population: 0, record: record))
            }
            // A loop, not map then min: no array made for each point.
            var nearestPlanar = Double.infinity
            for town in candidates where town.planar < nearestPlanar { nearestPlanar = town.planar }
            guard nearestPlanar.isFinite else { continue }
            let unitsPerDegree = Double(towns.quantizer.unitsPerDegree)
            var best: (feature: Int, distance: Double, record: CompactPointRecord)?
            for town in candidates where town.planar <= nearestPlanar * slack + 0.05 {
                let distance = Geodesic.distance(latitude: latitude, longitude: longitude,
                                                 toLatitude: Double(town.y) / unitsPerDegree, longitude: Double(town.x) / unitsPerDegree)
                if distance <= radius, best.map({ (distance, town.feature) < ($0.distance, $0.feature) }) ?? true { best = (town.feature, distance, town.record) }
            }
            if let best { return best.record }
        }
        return nil
    }

    /// A town read in place from a layer of compact points by ``compactLocality(_:_:code:latitude:longitude:candidates:)``.
    struct CompactTown: Sendable {
        var feature: Int
        var planar: Double
        var x: Int64, y: Int64
        var population: Int
        var record: CompactPointRecord
    }

    /// The locality rule on a town layer of compact points: the towns within the largest reach
    /// are read once, in place, and geodesic distances are measured only for the few that can be
    /// the nearest or be chosen. When no town of the country is that near, the towns within
    /// ``localityRadius`` are read; when the nearest is so far that the nearly-as-near range passes
    /// what was read, the towns within that range. The same rule and the same answers as the
    /// general search.
    /// `candidates` is the storage the towns read are kept in (emptied first, its capacity kept).
    static func compactLocality(_ towns: GMap, _ values: TownValues, code: String?, latitude: Double, longitude: Double,
                                candidates: inout [CompactTown]) -> (locality: Feature, distance: Double, nearest: CompactPointRecord)? {
        let reach = townReach(population: .max)
        let plane = LocalPlane(latitude: latitude, longitude: longitude)
        // The planar slack of the radius last read.
        var slack = 1.0
        func collect(within radius: Double) {
            slack = GMap.planarSlack(latitude: latitude, radius: radius)
            candidates.removeAll(keepingCapacity: true)
            towns.forEachCompactPoint(around: plane, within: radius, slack: slack) { feature, planar, x, y, record in
                candidates.append(CompactTown(feature: feature, planar: planar, x: x, y: y, population: values.population(of: record), record: record))
            }
        }
        let unitsPerDegree = Double(towns.quantizer.unitsPerDegree)
        func distance(_ town: CompactTown) -> Double {
            Geodesic.distance(latitude: latitude, longitude: longitude,
                              toLatitude: Double(town.y) / unitsPerDegree, longitude: Double(town.x) / unitsPerDegree)
        }
        func inCountry(_ town: CompactTown) -> Bool { code.map { values.isInCountry(town.record, code: $0) } ?? true }
        // The nearest of the country within `limit` among the towns read: the smallest planar
        // distance, then geodesic distances for those within the planar slack of it.
        func nearestInCountry(within limit: Double) -> (feature: Int, distance: Double, population: Int, record: CompactPointRecord)? {
            var nearestPlanar = Double.infinity
            for town in candidates where town.planar < nearestPlanar && inCountry(town) { nearestPlanar = town.planar }
            var nearest: (feature: Int, distance: Double, population: Int, record: CompactPointRecord)?
            for town in candidates where town.planar <= nearestPlanar * slack + 0.05 && inCountry(town) {
                let d = distance(town)
                guard d <= limit else { continue }
                if nearest.map({ (d, town.feature) < ($0.distance, $0.feature) }) ?? true { nearest = (town.feature, d, town.population, town.record) }
            }
            return nearest
        }
        // The towns within the largest reach; when none of the country is that near, those within
        // the locality radius; when the nearly-as-near range passes what was read, those within it.
        // Without a country (at sea, mostly), where a town within the largest reach is rare, those
        // within the locality radius at once: the answer depends only on exact distances, and the
        // wider reading holds every town the narrower one would.
        var radius = code == nil ? localityRadius : reach
        collect(within: radius)
        var found = nearestInCountry(within: radius)
        if found == nil, radius < localityRadius {
            radius = localityRadius
            collect(within: radius)
            found = nearestInCountry(within: localityRadius)
        }
        guard let nearest = found else { return nil }
        let preferred = nearest.distance * localityPreference
        if preferred > radius { collect(within: preferred) }
        var chosen = (feature: nearest.feature, distance: nearest.distance, population: nearest.population)
        for town in candidates where town.feature != nearest.feature {
            let ownReach = townReach(population: town.population)
            guard town.population >= chosen.population, town.planar <= max(preferred, ownReach) * slack + 1 else { continue }
            let d = distance(town)
            guard d <= preferred || d <= ownReach,
                  town.population > chosen.population || (d, town.feature) < (chosen.distance, chosen.feature),
                  inCountry(town) else { continue }
            chosen = (town.feature, d, town.population)
        }
        return (Feature(map: towns, index: chosen.feature), chosen.distance, nearest.record)
    }

    /// A town's `population` property as a whole number (0 when it has none, or it is not one).
    static func population(of town: Feature) -> Int {
        town.property("population").flatMap { Int($0) } ?? 0
    }

    /// The two values of a town the locality rule reads, its population and its country code,
    /// read in place without making strings in a layer of compact points.
    struct TownValues: Sendable {
        let towns: GMap
        let populationColumn: Int?, countryColumn: Int?, isoColumn: Int?
        /// The columns of the state rule (``Placemark/fillAdministration(_:record:country:reusing:)``).
        let stateCodeColumn: Int?, stateNameColumn: Int?, countyColumn: Int?

        init(_ towns: GMap) {
            self.towns = towns
            populationColumn = towns.compactColumn(named: "population")
            countryColumn = towns.compactColumn(named: "country_code")
            isoColumn = towns.compactColumn(named: "iso_a2")
            stateCodeColumn = towns.compactColumn(named: "admin1_code")
            stateNameColumn = towns.compactColumn(named: "admin1")
            countyColumn = towns.compactColumn(named: "admin2")
        }

        /// A compact record's population as a whole number (0 when it has none, or it is not one).
        func population(of record: CompactPointRecord) -> Int {
            guard let column = populationColumn, let bytes = towns.compactValueBytes(of: record, column: column) else { return 0 }
            return Self.wholeNumber(bytes)
        }

        /// Whether a compact record's `country_code` (or, without one, `iso_a2`) is `code`.
        func isInCountry(_ record: CompactPointRecord, code: String) -> Bool {
            if let column = countryColumn, let bytes = towns.compactValueBytes(of: record, column: column) { return bytes.elementsEqual(code.utf8) }
            if let column = isoColumn, let bytes = towns.compactValueBytes(of: record, column: column) { return bytes.elementsEqual(code.utf8) }
            return false
        }

        /// Decimal digits as a whole number, as `Int(_:)` reads them; 0 for anything else.
        static func wholeNumber(_ bytes: UnsafeRawBufferPointer) -> Int {
            guard !bytes.isEmpty, bytes.count <= 18 else { return 0 }
            var value = 0
            for byte in bytes {
                guard byte >= 0x30, byte <= 0x39 else { return 0 }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }

        /// The town's population as a whole number (0 when it has none, or it is not one).
        func population(_ town: Int) -> Int {
            guard towns.storage.layout.compactPoints != nil else { return Feature(map: towns, index: town).property("population").flatMap { Int($0) } ?? 0 }
            guard let column = populationColumn, let bytes = towns.compactValueBytes(feature: town, column: column) else { return 0 }
            return Self.wholeNumber(bytes)
        }

        /// Whether the town's `country_code` (or, without one, `iso_a2`) is `code`.
        func isInCountry(_ town: Int, code: String) -> Bool {
            guard towns.storage.layout.compactPoints != nil else {
                let feature = Feature(map: towns, index: town)
                return (feature.property("country_code") ?? feature.property("iso_a2")) == code
            }
            if let column = countryColumn, let bytes = towns.compactValueBytes(feature: town, column: column) { return bytes.elementsEqual(code.utf8) }
            if let column = isoColumn, let bytes = towns.compactValueBytes(feature: town, column: column) { return bytes.elementsEqual(code.utf8) }
            return false
        }
    }
}
