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
/// | ``ocean`` | at sea (no feature of the country layer contains the point, and no state's code gives ``isoCountryCode``): the *marine layer*'s first answer whose property `water` is not `inland`: property `name`, or its id |
/// | ``inlandWater`` | a location map: the smallest area of the `areas` layer containing the point whose property `water` is `inland` (OSM's `natural=water`, `waterway=riverbank`, `landuse=reservoir`); else the *marine layer*'s first answer whose property `water` is `inland` (a lake, lagoon or river): its `name`, or its id |
/// | ``locality``, ``localityDistance`` | a location map: the smallest area of the `areas` layer containing the point whose property `place` is `city`, `town` or `village` (distance 0), else the nearest point of the `settlements` layer of those kinds within its kind's radius (``settlementRadii``: 10, 5 and 2 km) and its distance. Else a point of the *town layer*: the nearest within ``localityRadius`` (50 km), unless a more populous town is nearly as near (``localityPreference``) or its own reach holds the point (``townReach(population:)``), then the most populous of those: its id (property `name` if it has one) and geodesic distance; when the point has an ``isoCountryCode``, only towns whose `country_code` (or `iso_a2`) is that code count, so a town across a border is never given |
/// | ``subLocality`` | a location map: the smallest area containing the point whose `place` is `suburb`, `quarter` or `neighbourhood`, else the nearest settlement of those kinds within its kind's radius (2 km, 1 km, 500 m) |
/// | ``administrativeArea`` | only from a real polygon layer (the state layer, or a country layer with ISO 3166-2 ids), never from a town's codes |
/// | ``thoroughfare`` | a location map (`gmap build --osm`): the `roads` layer's nearest street within 20 m (its `name`), else the street of the nearest address within 30 m that has one (`addr:street` or `addr:place`) |
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
/// has all but the state layer, so ``administrativeArea`` stays nil there. The location-map
/// fields come from the layers named exactly as ``MapLocationSource/LayerName`` says.
///
/// Distances are geodesic (WGS 84) from the point to the feature's stored position (1e-7°); a
/// nearest feature is the one at the smallest distance, ties to the lower feature index.
/// ``MapStack`` answers with several maps, each field from the most detailed map that has it.
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

    /// How far a street may be to be the ``thoroughfare``, an address to give the house number,
    /// a postcode point to give the code and a place to be the ``name``, in metres.
    static let streetDistance = 20.0, addressDistance = 30.0, postcodeDistance = 100.0, placeDistance = 30.0

    /// Fills the location-map fields from the layers a location map has. A layer of lines or
    /// points, which contains no point, answers with the features that gave a field.
    mutating func fillStreetFields(from roles: PlacemarkLayers) {
        let layers = roles.layers
        if let index = roles.roads,
           let street = layers[index].nearestLines(latitude: latitude, longitude: longitude, within: Self.streetDistance, limit: 1).first {
            thoroughfare = street.feature.property("name") ?? street.feature.id
            ranks.thoroughfare = FieldRank(0, street.distance)
            answer(index, with: street.feature)
        }
        if let index = roles.addresses {
            let addresses = layers[index]
            // The nearest address with a street gives the street (where no road is near) and is
            // then also the nearest on it; else the nearest address on the road's street.
            if thoroughfare == nil {
                if let nearest = addresses.nearestPoint(latitude: latitude, longitude: longitude, within: Self.addressDistance,
                                                        where: { Self.hasStreet(Feature(map: addresses, index: $0)) }) {
                    thoroughfare = nearest.feature.id
                    subThoroughfare = nearest.feature.property("housenumber")
                    ranks.thoroughfare = FieldRank(1, nearest.distance)
                    ranks.subThoroughfare = FieldRank(0, nearest.distance)
                    answer(index, with: nearest.feature)
                }
            } else if let street = thoroughfare,
                      let onStreet = addresses.nearestPoint(latitude: latitude, longitude: longitude, within: Self.addressDistance,
                                                            where: { Feature(map: addresses, index: $0).idBytes.elementsEqual(street.utf8) }) {
                subThoroughfare = onStreet.feature.property("housenumber")
                ranks.subThoroughfare = FieldRank(0, onStreet.distance)
                answer(index, with: onStreet.feature)
            }
        }
        if let index = roles.postcodes,
           let code = layers[index].nearestPoint(latitude: latitude, longitude: longitude, within: Self.postcodeDistance) {
            postalCode = code.feature.id
            ranks.postalCode = FieldRank(0, code.distance)
            answer(index, with: code.feature)
        }
        if let index = roles.areas {
            let areas = answers[index].features
            var water: String?
            areasOfInterest = areas.map { $0.property("name") ?? $0.id }
            // The smallest area of each kind: a city, town or village; a suburb, quarter or
            // neighbourhood; water.
            for area in areas {
                if let group = Self.settlementKind(of: area)?.group {
                    if group == .locality, locality == nil {
                        locality = area.property("name") ?? area.id
                        localityDistance = 0
                        ranks.locality = FieldRank(0, area.area)
                    } else if group == .subLocality, subLocality == nil {
                        subLocality = area.property("name") ?? area.id
                        ranks.subLocality = FieldRank(0, area.area)
                    }
                }
                if water == nil, area.property(MapLocationSource.LayerName.water) == MapLocationSource.LayerName.inland {
                    water = area.property("name") ?? area.id
                    ranks.inlandWater = FieldRank(0, area.area)
                }
            }
            // A location map's water area is more detailed than a marine layer's lake.
            if let water { inlandWater = water }
            if let smallest = areas.first { ranks.name = FieldRank(0, smallest.area) }
        }
        name = areasOfInterest.first
        if name == nil, let index = roles.places,
           let place = layers[index].nearestPoint(latitude: latitude, longitude: longitude, within: Self.placeDistance) {
            name = place.feature.id
            ranks.name = FieldRank(1, place.distance)
            answer(index, with: place.feature)
        }
        if let index = roles.settlements, locality == nil || subLocality == nil {
            let settlements = layers[index]
            var nearest: (locality: (feature: Feature, distance: Double)?, subLocality: (feature: Feature, distance: Double)?)
            if let points = roles.settlementPoints {
                nearest = Self.nearestSettlements(scanning: points, of: settlements, latitude: latitude, longitude: longitude)
            } else {
                if locality == nil {
                    nearest.locality = Self.nearestSettlement(in: settlements, .locality, latitude: latitude, longitude: longitude).map { ($0.feature, $0.distance) }
                }
                if subLocality == nil {
                    nearest.subLocality = Self.nearestSettlement(in: settlements, .subLocality, latitude: latitude, longitude: longitude).map { ($0.feature, $0.distance) }
                }
            }
            var used: [Feature] = []
            if locality == nil, let match = nearest.locality {
                locality = match.feature.id
                localityDistance = match.distance
                ranks.locality = FieldRank(1, match.distance)
                used.append(match.feature)
            }
            if subLocality == nil, let match = nearest.subLocality {
                subLocality = match.feature.id
                ranks.subLocality = FieldRank(1, match.distance)
                used.append(match.feature)
            }
            answers[index].features = used
        }
    }

    /// The house number of the nearest address within ``addressDistance`` on `street` in the
    /// `addresses` layer of `roles`, and its distance; nil when there is none.
    static func nearestAddress(onStreet street: String, in roles: PlacemarkLayers, latitude: Double, longitude: Double) -> (number: String?, distance: Double)? {
        guard let index = roles.addresses else { return nil }
        let addresses = roles.layers[index]
        return addresses.nearestPoint(latitude: latitude, longitude: longitude, within: addressDistance,
                                      where: { Feature(map: addresses, index: $0).idBytes.elementsEqual(street.utf8) })
            .map { ($0.feature.property("housenumber"), $0.distance) }
    }

    /// Whether an address of a location map names a street: its id (the street) is not its own
    /// house number (the id of an address without `addr:street`).
    static func hasStreet(_ address: Feature) -> Bool {
        for position in 0..<address.propertyCount {
            guard let property = address.propertyBytes(at: position), property.key.elementsEqual("housenumber".utf8) else { continue }
            return !address.idBytes.elementsEqual(property.value)
        }
        return true
    }

    /// Which placemark field a `place=*` value fills.
    enum SettlementGroup { case locality, subLocality }

    /// How far a `place=*` node of each kind may be to be the ``locality`` or ``subLocality``, in
    /// metres, when no area of those kinds contains the point: city 10 km, town 5 km, village
    /// 2 km (``locality``); suburb 2 km, quarter 1 km, neighbourhood 500 m (``subLocality``).
    public static let settlementRadii: [(place: String, metres: Double)] = [
        ("city", 10_000), ("town", 5_000), ("village", 2_000), ("suburb", 2_000), ("quarter", 1_000), ("neighbourhood", 500),
    ]

    /// The field a `place=*` value (its UTF-8 bytes) fills and its kind's radius, or nil for
    /// another value: the first three kinds of ``settlementRadii`` fill ``locality``, the others
    /// ``subLocality``. Compared as bytes: a placemark asks for every settlement it passes.
    static func settlementKind(_ value: some Collection<UInt8>) -> (group: SettlementGroup, radius: Double)? {
        for (position, entry) in settlementRadii.enumerated() where value.elementsEqual(entry.place.utf8) {
            return (position < 3 ? .locality : .subLocality, entry.metres)
        }
        return nil
    }

    /// The settlement kind of a feature of `settlements` or `areas`: its `place` property's.
    static func settlementKind(of feature: Feature) -> (group: SettlementGroup, radius: Double)? {
        for position in 0..<feature.propertyCount {
            guard let property = feature.propertyBytes(at: position),
                  property.key.elementsEqual(MapLocationSource.LayerName.place.utf8) else { continue }
            return settlementKind(property.value)
        }
        return nil
    }

    /// Up to how many settlements the layer is read feature by feature rather than searched
    /// (a city's few: reading them costs less than two searches of the grid).
    static let settlementScanLimit = 64

    /// A settlement of a small layer, read once: its field, its kind's radius and its point.
    struct SettlementPoint: Sendable {
        var group: SettlementGroup
        var radius: Double
        var latitude: Double, longitude: Double
    }

    /// The settlements of a layer of at most ``settlementScanLimit`` features (nil for a larger one),
    /// in feature order; a feature without a settlement kind has none (radius 0, never within it).
    static func settlementPoints(of layer: GMap) -> [SettlementPoint]? {
        guard layer.featureCount <= settlementScanLimit else { return nil }
        return (0..<layer.featureCount).map { index in
            let feature = Feature(map: layer, index: index), box = feature.boundingBox
            let kind = settlementKind(of: feature)
            // A settlement is one point: its bounding box is that point.
            return SettlementPoint(group: kind?.group ?? .locality, radius: kind?.radius ?? -1, latitude: box.south, longitude: box.west)
        }
    }

    /// The nearest settlement of each group within its kind's radius (ties to the lower feature
    /// index), from every point of a small settlements layer: the same answers as
    /// ``nearestSettlement(in:_:latitude:longitude:)``.
    static func nearestSettlements(scanning points: [SettlementPoint], of layer: GMap, latitude: Double, longitude: Double)
        -> (locality: (feature: Feature, distance: Double)?, subLocality: (feature: Feature, distance: Double)?) {
        var best: (locality: (index: Int, distance: Double)?, subLocality: (index: Int, distance: Double)?)
        let plane = LocalPlane(latitude: latitude, longitude: longitude)
        for (index, point) in points.enumerated() where point.radius >= 0 {
            let planar = plane.project(latitude: point.latitude, longitude: point.longitude)
            // Measured on the ellipsoid only when the plane says it may be within the radius and
            // as near as the group's best so far (within the planar slack of that distance).
            let current = point.group == .locality ? best.locality : best.subLocality
            let limit = min(point.radius, current?.distance ?? point.radius)
            let reach = limit * GMap.planarSlack(latitude: latitude, radius: limit) + 1
            guard planar.x * planar.x + planar.y * planar.y <= reach * reach else { continue }
            let distance = Geodesic.distance(latitude: latitude, longitude: longitude, toLatitude: point.latitude, longitude: point.longitude)
            // Points come in index order: only a strictly nearer one replaces the best.
            guard distance <= point.radius, current.map({ distance < $0.distance }) ?? true else { continue }
            if point.group == .locality { best.locality = (index, distance) } else { best.subLocality = (index, distance) }
        }
        return (best.locality.map { (Feature(map: layer, index: $0.index), $0.distance) },
                best.subLocality.map { (Feature(map: layer, index: $0.index), $0.distance) })
    }

    /// The nearest point of the settlements layer whose `place` is of `group` and lies within its
    /// own kind's radius (ties to the lower feature index), or nil.
    static func nearestSettlement(in layer: GMap, _ group: SettlementGroup, latitude: Double, longitude: Double) -> PointMatch? {
        var reach = 0.0
        for entry in settlementRadii where settlementKind(entry.place.utf8)?.group == group { reach = max(reach, entry.metres) }
        return layer.nearestPoint(latitude: latitude, longitude: longitude, within: reach) { index in
            let feature = Feature(map: layer, index: index)
            guard let kind = settlementKind(of: feature), kind.group == group else { return false }
            let radius = kind.radius
            // A settlement is one point: its bounding box is that point.
            let box = feature.boundingBox
            return Geodesic.distance(latitude: latitude, longitude: longitude, toLatitude: box.south, longitude: box.west) <= radius
        }
    }

    static let countryLayers = ["country", "countries"]
    static let stateLayers = ["state", "states", "region", "regions", "province", "admin1", "subdivision"]
    static let timeZoneLayers = ["timezone", "timezones", "time_zone", "tz"]
    static let marineLayers = ["marine", "ocean", "oceans", "sea", "seas"]
    static let townLayers = ["towns", "town", "cities", "city", "localities", "locality"]
    static let codeProperties = ["iso_a2", "ISO_A2", "iso_3166_1", "iso_a2_eh"]
    static let nameProperties = ["name", "NAME", "name_en", "admin", "ADMIN"]

    /// Fills this empty placemark's polygon layers' fields from its ``answers`` (one per layer of
    /// `roles`, in order) by the mapping above. In place: a placemark made by an initializer and
    /// returned would be copied and destroyed once more, each of its strings retained and released.
    mutating func fillPolygonFields(from roles: PlacemarkLayers) {
        // The features of the layer at `index`, read in place (no copy of its answer).
        func features(_ index: Int?) -> [Feature] {
            guard let index, index < answers.count else { return [] }
            return answers[index].features
        }
        // Each text from the texts the roles keep (a MapStack's), else read from the feature.
        func kept(_ feature: Feature, _ layer: Int?) -> FeatureTexts? { layer.flatMap { roles.keptTexts(of: feature, inLayer: $0) } }
        func id(_ feature: Feature, _ texts: FeatureTexts?) -> String { texts?.id ?? feature.id }
        func name(_ feature: Feature, _ texts: FeatureTexts?) -> String? { texts.map({ $0.name }) ?? Self.name(of: feature) }
        func isSubdivision(_ feature: Feature, _ layer: Int?) -> Bool { kept(feature, layer)?.isSubdivision ?? Self.isSubdivisionCode(feature.id) }
        func isInland(_ feature: Feature, _ layer: Int?) -> Bool { kept(feature, layer)?.isInland ?? (feature.property("water") == "inland") }
        let countries = features(roles.country)
        var state = features(roles.state).first.map { (feature: $0, layer: roles.state) }
        if state == nil, roles.state == nil {
            state = countries.first { isSubdivision($0, roles.country) }.map { ($0, roles.country) }
        }
        if let state {
            let texts = kept(state.feature, state.layer)
            let code = id(state.feature, texts)
            administrativeAreaCode = code
            administrativeArea = name(state.feature, texts) ?? code
        }
        var country: (feature: Feature, texts: FeatureTexts?)?
        for feature in countries {
            let texts = kept(feature, roles.country)
            if let code = texts.map({ $0.code }) ?? Self.countryCode(of: feature) {
                isoCountryCode = code
                country = (feature, texts)
                break
            }
        }
        if isoCountryCode == nil, let code = administrativeAreaCode, Self.isSubdivisionCode(code) {
            isoCountryCode = String(code.prefix(2))
        }
        if country == nil, let feature = countries.first(where: { !isSubdivision($0, roles.country) }) {
            country = (feature, kept(feature, roles.country))
        }
        if let country {
            self.country = name(country.feature, country.texts)
        }
        if let zone = features(roles.timeZone).first {
            timeZone = kept(zone, roles.timeZone).map({ $0.timeZone }) ?? zone.property("tzid") ?? zone.id
        }
        let water = features(roles.marine)
        if let inland = water.first(where: { isInland($0, roles.marine) }) {
            let texts = kept(inland, roles.marine)
            inlandWater = name(inland, texts) ?? id(inland, texts)
        }
        // At sea: no country answers, and no state's code names one (as a ``MapStack`` has it).
        if countries.isEmpty, isoCountryCode == nil, let sea = water.first(where: { !isInland($0, roles.marine) }) {
            let texts = kept(sea, roles.marine)
            ocean = name(sea, texts) ?? id(sea, texts)
        }
    }

    /// The texts of a feature of a polygon layer that a placemark reads, read once by a
    /// ``MapStack`` for the layers it fills fields from (``PlacemarkLayers/keptTexts(of:inLayer:)``),
    /// so that a placemark neither searches properties nor makes these strings again. A class, so
    /// that looking one up retains one object rather than each of its strings.
    final class FeatureTexts: Sendable {
        /// The id.
        let id: String
        /// ``Placemark/name(of:)``.
        let name: String?
        /// ``Placemark/countryCode(of:)``.
        let code: String?
        /// Property `tzid`, else the id.
        let timeZone: String
        /// Whether property `water` is `inland`.
        let isInland: Bool
        /// Whether the id is an ISO 3166-2 code (``Placemark/isSubdivisionCode(_:)``).
        let isSubdivision: Bool

        init(_ feature: Feature) {
            let id = feature.id
            self.id = id
            name = Placemark.name(of: feature)
            code = Placemark.countryCode(of: feature)
            timeZone = feature.property("tzid") ?? id
            isInland = feature.property("water") == "inland"
            isSubdivision = Placemark.isSubdivisionCode(id)
        }
    }

    /// Makes `feature` the one answer of layer `index`, keeping the storage of the layer's array.
    mutating func answer(_ index: Int, with feature: Feature) {
        answers[index].features.removeAll(keepingCapacity: true)
        answers[index].features.append(feature)
    }

    /// An empty placemark of the point, with no answers: for instance one to pass to
    /// ``MapStack/placemark(latitude:longitude:into:)``, which fills it.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
        self.answers = []
    }

    static func name(of feature: Feature) -> String? {
        for key in nameProperties {
            if let value = feature.property(key), !value.isEmpty { return value }
        }
        return nil
    }

    static func countryCode(of feature: Feature) -> String? {
        // One pass over the properties (a placemark asks every country answer): of the code
        // properties whose value is two capitals, the first in `codeProperties` order.
        var best: (slot: Int, value: String)?
        for position in 0..<feature.propertyCount {
            guard let property = feature.propertyBytes(at: position), property.value.count == 2,
                  property.value.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }) else { continue }
            for (slot, key) in codeProperties.enumerated() where slot < (best?.slot ?? Int.max) && property.key.elementsEqual(key.utf8) {
                best = (slot, String(decoding: property.value, as: UTF8.self))
            }
        }
        if let best { return best.value }
        return isAlpha2(feature.id) ? feature.id : nil
    }

    /// Two ASCII capitals.
    static func isAlpha2(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { $0.count == 2 && $0.allSatisfy(isCapital) }
    }

    /// Two ASCII capitals, a hyphen, then one to three ASCII letters or digits (`US-TX`, `FR-75C`).
    static func isSubdivisionCode(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count >= 4, bytes.count <= 6, bytes[2] == 0x2D, isCapital(bytes[0]), isCapital(bytes[1]) else { return false }
            return bytes[3...].allSatisfy { isCapital($0) || ($0 >= 0x30 && $0 <= 0x39) }
        }
    }

    /// An ASCII capital A–Z.
    static func isCapital(_ byte: UInt8) -> Bool { byte >= 0x41 && byte <= 0x5A }
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
