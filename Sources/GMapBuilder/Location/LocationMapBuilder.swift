import GMap

/// What `gmap build --osm` made and counted.
public struct LocationMapSummary: Sendable {
    /// Streets written (one line feature per name and class, ways joined at shared ends; a street of
    /// which the extract holds single nodes only is left out).
    public var roads = 0
    /// Named highway ways those streets were made of.
    public var roadWays = 0
    /// Named areas, places, addresses and intersections written (main intersections among them).
    public var areas = 0, places = 0, addresses = 0, intersections = 0, mainIntersections = 0
    /// Settlement nodes written (`place=city`, `town`, `village`, `suburb`, `quarter`, `neighbourhood`).
    public var settlements = 0
    /// Ways that reference nodes absent from the extract (kept in their present pieces), and those references.
    public var waysWithAbsentNodes = 0, absentNodeReferences = 0
    /// Multipolygon relations skipped because members are missing or rings do not close.
    public var incompleteRelations = 0
    /// Bytes of each layer's sections, in file order.
    public var layerBytes: [(layer: String, bytes: Int)] = []
    /// The file's length.
    public var byteCount = 0

    /// An empty summary.
    public init() {}
}

/// Builds a location map (format 3.1) from OpenStreetMap data: layers `areas` (polygons), `roads`
/// (lines), `places`, `addresses`, `postcodes`, `intersections` and `settlements` (points), named
/// as ``MapLocationSource`` reads them.
///
/// Ids and properties are all strings; a feature's name is its id where no `name` property is
/// written, and `name:LL` properties hold its names in the languages of `languages` (nil: every
/// one). A layer with nothing in it is left out (a map always has `roads`). Positions are stored
/// at 1e-7° (about 1 cm). What each layer's features hold:
/// Docs/Internals.md#the-layers-of-a-location-map.
public enum LocationMapBuilder {
    /// The map's bytes and what it holds. `includePaths` keeps footways, cycleways, paths and
    /// steps as roads too; `profile` says which roads a walker is offered (``RoadProfile``);
    /// `metadata` goes to the map's `META` section (source file, licence).
    public static func build(_ data: OSMData, includePaths: Bool = false, profile: RoadProfile = .pedestrian, languages: Set<String>? = [],
                             metadata: [(key: String, value: String)] = []) throws -> (bytes: [UInt8], summary: LocationMapSummary) {
        var absent = (ways: 0, references: 0)
        for way in data.ways {
            let count = data.absentReferences(of: way)
            if count > 0 {
                absent.ways += 1
                absent.references += count
            }
        }
        return try build(network: StreetNetwork(data, includePaths: includePaths, profile: profile), places: OSMPlaces(data, profile: profile), absent: absent,
                         includePaths: includePaths, profile: profile, languages: languages, metadata: metadata + extractMetadata(data.boundingBox))
    }

    /// The `extract` entry of a map's metadata: the box its PBF's header gives (south, west, north,
    /// east, in degrees), the region an extract tool cut, where the map knows every way and node;
    /// none when the header has no box. A ``MapStack`` of region maps asks the one whose extract
    /// holds a point first (``GMap/extractBounds``).
    static func extractMetadata(_ box: (west: Double, south: Double, east: Double, north: Double)?) -> [(key: String, value: String)] {
        guard let box, box.west.isFinite, box.south.isFinite, box.east.isFinite, box.north.isFinite, box.west <= box.east, box.south <= box.north else { return [] }
        func text(_ degrees: Double) -> String { String((degrees * 1e7).rounded() / 1e7) }
        return [(key: GMap.extractKey, value: [box.south, box.west, box.north, box.east].map(text).joined(separator: ","))]
    }

    /// The map of the PBF file at `path` ("-" for standard input), read streamed (``LocationInput``):
    /// the same bytes as ``build(_:includePaths:profile:languages:metadata:)`` of ``OSMPBFReader/read(path:)``, in
    /// memory proportional to what the map needs, not to the file. The kept nodes and relations are
    /// freed once the places are made, the node positions and kept ways once the street network is,
    /// each layer's features once the layer is built (``LayeredMapBuilder/finishReleasingLayers()``).
    /// Errors: ``FileReadError``, ``OSMPBFError``, ``BuildError`` (a limit, or no roads).
    public static func build(pbfPath path: String, includePaths: Bool = false, profile: RoadProfile = .pedestrian, languages: Set<String>? = [],
                             limits: LocationInput.Limits = LocationInput.Limits(),
                             metadata: [(key: String, value: String)] = []) throws -> (bytes: [UInt8], summary: LocationMapSummary, counts: LocationInput.Counts) {
        var (data, counts) = try LocationInput.read(path: path, includePaths: includePaths, limits: limits)
        let metadata = metadata + extractMetadata(data.boundingBox)
        // The places first: then the kept nodes and relations, which only they read, are freed
        // before the street network is made, and the peak is the lower.
        let places = OSMPlaces(data, profile: profile)
        data.nodes = []
        data.relations = []
        MemoryRelease.trim()
        let network = StreetNetwork(data, includePaths: includePaths, profile: profile)
        data = OSMData()
        MemoryRelease.trim()  // the positions and kept ways
        let (bytes, summary) = try build(network: consume network, places: consume places, absent: (counts.waysWithAbsentNodes, counts.absentNodeReferences),
                                         includePaths: includePaths, profile: profile, languages: languages, metadata: metadata)
        return (bytes, summary, counts)
    }

    /// The map of a street network and places; `absent` counts the ways that reference absent nodes, and those references.
    /// The network and places are freed before the file is finished (what the summary needs of them is taken first).
    static func build(network: consuming StreetNetwork, places: consuming OSMPlaces, absent: (ways: Int, references: Int), includePaths: Bool,
                      profile: RoadProfile, languages: Set<String>?, metadata: [(key: String, value: String)]) throws -> (bytes: [UInt8], summary: LocationMapSummary) {
        guard !network.streets.isEmpty else {
            throw BuildError("the OSM data has no named \(includePaths ? "roads or paths" : "roads") (highway ways with a name or ref), so there is no road layer to build")
        }
        var options = BuildOptions()
        options.quantizer = .standard
        var summary = LocationMapSummary()
        var map = LayeredMapBuilder()
        typealias Kind = MapLocationSource.LayerName
        func string(_ key: String, _ value: String) -> SourceFeature.KeptProperty { .init(key: key, value: value) }
        func degrees(_ node: OSMNode) -> (longitude: Double, latitude: Double) { (node.longitude, node.latitude) }
        // Names in other languages, those asked for, by key; one that is the name itself is left out.
        func localNames(_ names: [String: String], of name: String) -> [SourceFeature.KeptProperty] {
            names.keys.sorted().filter { key in languages.map { $0.contains(String(key.dropFirst(5))) } ?? true }
                .compactMap { key in names[key].flatMap { $0 == name ? nil : string(key, $0) } }
        }

        // Areas first: a 3.0 reader then still opens the file and answers them.
        var areas = try MapBuilder(options: options)
        for area in places.areas {
            // The placemark's kinds: a settlement's `place` value, and inland water.
            var kinds: [SourceFeature.KeptProperty] = []
            if let settlement = area.settlement { kinds.append(string(Kind.place, settlement)) }
            if area.isWater { kinds.append(string(Kind.water, Kind.inland)) }
            try areas.add(SourceFeature(id: "\(area.source.kind.name)/\(area.source.id)",
                                        properties: [string("name", area.name), string("category", area.category)] + kinds + localNames(area.localNames, of: area.name),
                                        polygons: area.polygons.map { $0.map { $0.map(degrees) } }))
        }
        var roads = try LineLayerBuilder(options: options)
        // Each intersection's index in the intersections layer: they are added below in this order,
        // one feature each (a point is always kept).
        var intersectionIndex: [Int64: Int] = [:]
        for (index, intersection) in network.intersections.enumerated() { intersectionIndex[intersection.node.id] = index }
        // Where each street lands in the roads layer (a street without a line of two positions is left out).
        var roadIndex: [Int?] = []
        for street in network.streets {
            var properties = [string("name", street.name), string("class", street.highwayClass)]
            if let ref = street.ref { properties.append(string("ref", ref)) }
            if let order = Self.intersectionOrder(of: street, index: intersectionIndex) { properties.append(string("intersections", order)) }
            properties += localNames(street.localNames, of: street.name)
            let before = roads.featureCount
            try roads.add(SourceLineFeature(id: street.name, properties: properties, lines: street.lines.map { $0.map(degrees) }))
            roadIndex.append(roads.featureCount > before ? before : nil)
        }
        var placeLayer = try PointLayerBuilder(options: options)
        for place in places.places {
            try placeLayer.add(SourcePointFeature(id: place.name, properties: [string("category", place.category)] + localNames(place.localNames, of: place.name),
                                                  points: [(place.longitude, place.latitude)]))
        }
        var addresses = try PointLayerBuilder(options: options)
        addresses.writesIndexes = false
        var pointsByCode: [String: [(longitude: Double, latitude: Double)]] = [:]
        // In the address index's order (by street, then house number), which the index's ranges need.
        let indexed = places.addresses.map {
            AddressIndexWriter.Address(street: $0.street, number: $0.houseNumber, latitude: $0.latitude, longitude: $0.longitude)
        }
        let order = AddressIndexWriter.order(indexed)
        for position in order {
            let address = places.addresses[position]
            // The street as the id: one string shared with the road of that name.
            try addresses.add(SourcePointFeature(id: address.street ?? address.houseNumber, properties: [string("housenumber", address.houseNumber)],
                                                 points: [(address.longitude, address.latitude)]))
            if let code = address.postalCode { pointsByCode[code, default: []].append((address.longitude, address.latitude)) }
        }
        var postcodes = try PointLayerBuilder(options: options)
        for code in pointsByCode.keys.sorted() {
            try postcodes.add(SourcePointFeature(id: code, points: pointsByCode[code, default: []]))
        }
        // The settlement nodes again, apart: the placemark's nearest locality is then a search over these few points.
        var settlements = try PointLayerBuilder(options: options)
        settlements.writesIndexes = false  // their names are found in places
        for place in places.places where place.source.kind == .node {
            guard let kind = place.settlement else { continue }
            try settlements.add(SourcePointFeature(id: place.name, properties: [string(Kind.place, kind)], points: [(place.longitude, place.latitude)]))
        }
        var intersections = try PointLayerBuilder(options: options)
        intersections.writesIndexes = false
        for intersection in network.intersections {
            let names = Set(intersection.legs.map { network.streets[$0.street].name }).sorted()
            let legs = intersection.legs.compactMap { leg in
                roadIndex[leg.street].map { "\($0):\(Int(Compass.normalised(leg.bearing.rounded())) % 360)" }
            }
            var properties = [string("legs", legs.joined(separator: ";"))]
            if intersection.isMain { properties.insert(string("main", "yes"), at: 0) }
            try intersections.add(SourcePointFeature(id: names.joined(separator: MapLocationSource.streetSeparator), properties: properties,
                                                     points: [degrees(intersection.node)]))
            if intersection.isMain { summary.mainIntersections += 1 }
        }
        guard intersections.featureCount == network.intersections.count else {
            throw BuildError("\(network.intersections.count) intersections found but \(intersections.featureCount) written; the roads' intersection lists would be wrong")
        }
        for (key, value) in metadata {
            areas.addMetadata(key: key, value: value)
            roads.addMetadata(key: key, value: value)
        }
        typealias Name = MapLocationSource.LayerName
        if !places.areas.isEmpty { try map.addLayer(named: Name.areas, areas) }
        try map.addLayer(named: Name.roads, roads)
        if placeLayer.featureCount > 0 { try map.addLayer(named: Name.places, placeLayer) }
        if addresses.featureCount > 0 {
            try map.addLayer(named: Name.addresses, addresses)
            // Every address is a feature (a point is always kept), so the index's ranges are the layer's.
            guard addresses.featureCount == indexed.count else {
                throw BuildError("\(indexed.count) addresses found but \(addresses.featureCount) written; the address index would be wrong")
            }
            map.addressIndex = (Name.addresses, pointsByCode.isEmpty ? nil : Name.postcodes, order.map { indexed[$0] })
        }
        if postcodes.featureCount > 0 { try map.addLayer(named: Name.postcodes, postcodes) }
        if intersections.featureCount > 0 { try map.addLayer(named: Name.intersections, intersections) }
        // Last, so that the layers before keep their places in the file.
        if settlements.featureCount > 0 { try map.addLayer(named: Name.settlements, settlements) }
        // From here only the map holds the layers' features, so that it frees each once it is built.
        let written = (roads: roads.featureCount, places: placeLayer.featureCount, addresses: addresses.featureCount,
                       postcodes: postcodes.featureCount, intersections: intersections.featureCount, settlements: settlements.featureCount)
        areas = try MapBuilder(options: options)
        roads = try LineLayerBuilder(options: options)
        (placeLayer, addresses, postcodes, intersections) = (try PointLayerBuilder(options: options), try PointLayerBuilder(options: options),
                                                             try PointLayerBuilder(options: options), try PointLayerBuilder(options: options))
        settlements = try PointLayerBuilder(options: options)
        summary.roadWays = network.streets.reduce(0) { $0 + $1.wayIDs.count }
        summary.areas = places.areas.count
        summary.incompleteRelations = places.incompleteRelations
        _ = consume network
        _ = consume places
        let (bytes, reports) = try map.finishReleasingLayers()

        summary.roads = written.roads
        summary.places = written.places
        summary.addresses = written.addresses
        summary.intersections = written.intersections
        summary.settlements = written.settlements
        summary.waysWithAbsentNodes = absent.ways
        summary.absentNodeReferences = absent.references
        let names = [Name.areas, Name.roads, Name.places, Name.addresses, Name.postcodes, Name.intersections, Name.settlements]
        let kept = [summary.areas > 0, true, written.places > 0, written.addresses > 0, written.postcodes > 0, written.intersections > 0, written.settlements > 0]
        let layerNames = zip(names, kept).filter(\.1).map(\.0)
        // The first report also counts the file-wide sections (LAYR, META, STRS): leave those out.
        let shared: Set<String> = ["LAYR", "META", "STRS"]
        summary.layerBytes = zip(layerNames, reports).map { name, report in
            (name, report.sectionSizes.filter { !shared.contains($0.tag) }.reduce(0) { $0 + $1.bytes })
        }
        summary.byteCount = bytes.count
        return (bytes, summary)
    }
}

extension LocationMapBuilder {
    /// The `intersections` property of a street's road feature: the indices in the intersections
    /// layer of the intersections along each of its lines, in order along the line, joined by `,`;
    /// the lines' lists joined by `;` in the order of the feature's lines (`4,17,23;;56`: none on
    /// the second line). Nil when the street has no intersection.
    static func intersectionOrder(of street: Street, index: [Int64: Int]) -> String? {
        var any = false
        // Only the lines the road layer keeps (two or more distinct positions at 1e-7°), so the
        // lists line up with the feature's lines.
        let quantizer = Quantizer.standard
        let kept = street.lines.filter { line in
            guard let first = line.first else { return false }
            return line.contains { quantizer.units($0.latitude) != quantizer.units(first.latitude) || quantizer.units($0.longitude) != quantizer.units(first.longitude) }
        }
        let lines = kept.map { line -> String in
            let found = line.compactMap { index[$0.id] }
            any = any || !found.isEmpty
            return found.map(String.init).joined(separator: ",")
        }
        return any ? lines.joined(separator: ";") : nil
    }
}
