import GMap

/// Builds a layer of lines (format 3.1): streets, rivers, routes; answered by
/// `GMap.nearestLines(latitude:longitude:within:limit:)`. Add it to a ``LayeredMapBuilder``.
///
/// ```swift
/// var roads = try LineLayerBuilder(options: BuildOptions())
/// try roads.add(SourceLineFeature(id: "Main Street", lines: [[(24.94, 60.17), (24.95, 60.17)]]))
/// var map = LayeredMapBuilder()
/// try map.addLayer(named: "roads", roads)
/// let (bytes, _) = try map.finish()
/// ```
public struct LineLayerBuilder: Sendable {
    /// The options in force (quantization, tile size, items per tile, splits).
    public let options: BuildOptions
    var geometry = OpenGeometrySet(kind: .lines)
    var metadata: [(String, String)] = []
    /// Features read but not kept because they are not lines, by GeoJSON type (filled by ``GeoJSONImport``).
    public var skippedGeometries: [String: Int] = [:]

    /// A builder with these options (checked as ``BuildOptions/validate()`` does).
    public init(options: BuildOptions = BuildOptions()) throws {
        try options.validate()
        self.options = options
    }

    /// Adds one feature. Positions outside [-180, 180] × [-90, 90] or not finite are an error; a
    /// feature whose every line shrinks below two positions at the map's precision is left out.
    public mutating func add(_ feature: SourceLineFeature) throws {
        try geometry.append(id: feature.id, properties: feature.properties, parts: feature.lines, quantizer: options.quantizer)
    }

    /// Records a fact about the build in the map's `META` section (used when this is the first layer).
    public mutating func addMetadata(key: String, value: String) {
        metadata.append((key, value))
    }

    /// Features kept so far.
    public var featureCount: Int { geometry.featureCount }
}

/// Builds a layer of points (format 3.1): places, addresses, intersections; answered by
/// `GMap.nearestPoints(latitude:longitude:within:limit:)`. Add it to a ``LayeredMapBuilder``.
public struct PointLayerBuilder: Sendable {
    /// The options in force (quantization, tile size, items per tile, splits).
    public let options: BuildOptions
    /// Whether the layer gets label points and a name index (`LABL`, `NAME`) when the map writes
    /// them: true by default; false saves 8 bytes and about 12 bytes per feature for points that
    /// are never searched by name (addresses), which `find` then does not find.
    public var writesIndexes = true
    /// Whether the layer is written as compact points (format 3.4, Spec/FORMAT.md 5.12): each
    /// feature a record of a few bytes in a point table instead of `FEAT`, `PROP` and `LABL`
    /// records (about 100 bytes), and a name index of 4 bytes a key over the ids only. Every
    /// feature must have exactly one point, and its id is its only name.
    public var compact = false
    var geometry = OpenGeometrySet(kind: .points)
    var metadata: [(String, String)] = []
    /// Features read but not kept because they are not points, by GeoJSON type (filled by ``GeoJSONImport``).
    public var skippedGeometries: [String: Int] = [:]

    /// A builder with these options (checked as ``BuildOptions/validate()`` does).
    public init(options: BuildOptions = BuildOptions()) throws {
        try options.validate()
        self.options = options
    }

    /// Adds one feature. Positions outside [-180, 180] × [-90, 90] or not finite are an error; a
    /// feature without points is left out.
    public mutating func add(_ feature: SourcePointFeature) throws {
        try geometry.append(id: feature.id, properties: feature.properties, parts: [feature.points], quantizer: options.quantizer,
                            otherNames: feature.otherNames)
    }

    /// Records a fact about the build in the map's `META` section (used when this is the first layer).
    public mutating func addMetadata(key: String, value: String) {
        metadata.append((key, value))
    }

    /// Features kept so far.
    public var featureCount: Int { geometry.featureCount }
}

extension LineLayerBuilder: LayerKindBuilder {
    static var kind: GeometryKind { .lines }

    /// Adds a feature's lines; a feature of another geometry is counted in ``skippedGeometries``.
    public mutating func add(_ feature: GeoJSONFeature) throws {
        guard case .lines(let lines) = feature.geometry else { return skip(feature) }
        try GeoJSONImport.adding(feature, options: options) { id, properties in
            try add(SourceLineFeature(id: id, properties: properties, lines: lines.map { line in line.map { (longitude: $0.longitude, latitude: $0.latitude) } }))
        }
    }

    var metadataPairs: [(String, String)] { metadata }

    func buildLayer(tags: LayerSectionTags, indexes: Bool, strings: inout StringPool) throws -> MapBuilder.BuiltLayer {
        try geometry.buildLayer(tags: tags, indexes: indexes, strings: &strings, options: options, skipped: skippedGeometries)
    }

    static func counts(_ report: BuildReport) -> String {
        "lines: features \(report.featureCount), lines \(report.lineCount), vertices \(report.vertexCount)"
    }

    static func counts(_ report: ExportReport) -> String {
        "features \(report.featureCount), lines \(report.lineCount), vertices \(report.vertexCount)"
    }
}

extension PointLayerBuilder: LayerKindBuilder {
    static var kind: GeometryKind { .points }

    /// Adds a feature's points; a feature of another geometry is counted in ``skippedGeometries``.
    public mutating func add(_ feature: GeoJSONFeature) throws {
        guard case .points(let points) = feature.geometry else { return skip(feature) }
        try GeoJSONImport.adding(feature, options: options) { id, properties, otherNames in
            try add(SourcePointFeature(id: id, properties: properties, points: points.map { (longitude: $0.longitude, latitude: $0.latitude) },
                                       otherNames: otherNames))
        }
    }

    var metadataPairs: [(String, String)] { metadata }

    /// The layer's sections; its label points and name index only when the map writes them and
    /// ``writesIndexes`` is true.
    func buildLayer(tags: LayerSectionTags, indexes: Bool, strings: inout StringPool) throws -> MapBuilder.BuiltLayer {
        try geometry.buildLayer(tags: tags, indexes: indexes && writesIndexes, strings: &strings, options: options,
                                skipped: skippedGeometries, compact: compact)
    }

    static func counts(_ report: BuildReport) -> String {
        "points: features \(report.featureCount), points \(report.vertexCount)"
            + (report.compactPoints ? ", compact (step \(report.pointStep) units)" : "")
            + (report.lexicon ? ", \(report.otherNameCount) other names (format 3.6)" : "")
    }

    static func counts(_ report: ExportReport) -> String {
        "features \(report.featureCount), points \(report.pointCount)"
    }
}

extension LayeredMapBuilder {
    /// Adds a layer of lines (format 3.1), under the same rules as a layer of polygons.
    public mutating func addLayer(named name: String, _ builder: LineLayerBuilder) throws {
        try add(name, builder)
    }

    /// Adds a layer of points (format 3.1), under the same rules as a layer of polygons.
    public mutating func addLayer(named name: String, _ builder: PointLayerBuilder) throws {
        try add(name, builder)
    }
}

extension OpenGeometrySet {
    /// Builds the layer's sections (format 3.1): `GRID` with this kind, `TILE`, `FEAT` and `PROP`
    /// with the features in the order added (area 0), and with `indexes` `LABL` and `NAME`.
    func buildLayer(tags: LayerSectionTags, indexes: Bool, strings: inout StringPool, options: BuildOptions,
                    skipped: [String: Int] = [:], compact: Bool = false) throws -> MapBuilder.BuiltLayer {
        guard options.formatMajorVersion >= 3 else { throw BuildError("a layer of \(kind.name) needs format 3.1; it cannot be written in format \(options.formatMajorVersion)") }
        guard featureCount > 0 else { throw BuildError("no feature has \(kind.joinsVertices ? "a line of two or more distinct positions" : "a point") to build a layer from") }
        var grid = OpenTileEncoder.grid(for: self, options: options)
        var encoder = OpenTileEncoder(set: self, options: options)
        encoder.compact = compact
        let buckets = OpenTileEncoder.bucket(self, grid: grid)
        var directory: [UInt32] = []
        directory.reserveCapacity(buckets.count)
        for row in 0..<grid.rows {
            for column in 0..<grid.columns {
                let west = grid.originX + column * grid.tileWidth, south = grid.originY + row * grid.tileHeight
                let bounds = TileBounds(west: west, south: south, east: west + grid.tileWidth, north: south + grid.tileHeight)
                directory.append(try encoder.encodeTopLevel(bounds: bounds, items: buckets[Int(row * grid.columns + column)]))
            }
        }
        grid.maximumDepth = Int64(encoder.counts.deepestSplit)
        grid.subdirectoryCount = Int64(encoder.nodeCount)
        grid.topForm = TopDirectoryWriter.form(for: options.topDirectory, tiles: directory.count, tileBytes: encoder.blob.count)
        if compact { try CompactPointWriter.check(self) }
        // Compact points with other names are named compact points (3.6): a lexicon for a name index.
        let named = compact && indexes && otherNames.contains { !$0.isEmpty }
        if named, !options.writesLexicons {
            throw BuildError("its features have other names, which format 3.6 keeps (a lexicon) and readers of 3.0 to 3.5 do not read; build it without --format \(options.newestMinorVersion.text), or without --other-names")
        }
        if !compact, let feature = otherNames.firstIndex(where: { !$0.isEmpty }) {
            throw BuildError("feature \(feature) (\(InputExcerpt.text(ids[feature]))) has other names, which only a layer of compact points keeps (--compact-points)")
        }
        let order = Array(0..<featureCount)
        var sections: [(tag: UInt32, bytes: [UInt8])] = []
        let encoding: LayerEncoding = named ? .namedCompactPoints : compact ? .compactPoints : kind.plainEncoding
        sections.append((tags.grid, GridSectionWriter.bytes(grid, directory: directory, subdirectories: [], nodes: true, encoding: encoding)))
        sections.append((tags.tiles, encoder.blob))
        var report = BuildReport()
        report.encoding = encoding
        if compact {
            let step = CompactPointWriter.step(of: self)
            let table = try CompactPointWriter.sections(self, order: encoder.compactOrder, step: step, indexes: indexes && !named, strings: &strings)
            sections.append((tags.features, table.points))
            sections.append((tags.properties, table.properties))
            if let names = table.names { sections.append((tags.names, names)) }
            if named {
                let lexicon = try LexiconWriter.section(ids: ids, otherNames: otherNames, order: encoder.compactOrder)
                sections.append((tags.names, lexicon.bytes))
                report.otherNameCount = lexicon.otherNames
            }
            report.pointStep = step
        } else {
        let tables = try FeatureTableWriter.sections(ids: ids, properties: properties, boxes: boxes,
                                                     areas: Array(repeating: 0, count: featureCount), order: order, strings: &strings)
        sections.append((tags.features, tables.features))
        sections.append((tags.properties, tables.properties))
        if indexes {
            var labelBytes: [UInt8] = []
            labelBytes.appendLittleEndian(UInt32(featureCount))
            labelBytes.appendLittleEndian(UInt32(FormatLayout.LabelRecord.length))
            for label in labels {
                labelBytes.appendLittleEndian(Int32(label.x))
                labelBytes.appendLittleEndian(Int32(label.y))
            }
            sections.append((tags.labels, labelBytes))
            sections.append((tags.names, try NameIndexWriter.section(ids: ids, properties: properties, order: order, strings: &strings)))
        }
        }
        report.geometry = kind
        report.featureCount = featureCount
        report.vertexCount = vertexCount
        report.lineCount = kind.joinsVertices ? continues.reduce(0) { $0 + ($1 ? 0 : 1) } : 0
        report.droppedFeatures = droppedFeatures
        report.skippedGeometries = skipped
        report.grid = grid
        report.emptyTiles = encoder.counts.emptyTiles
        report.recordTiles = encoder.counts.recordTiles
        report.splitTiles = encoder.counts.splitTiles
        let sorted = encoder.counts.edgesPerLeaf.sorted()
        if !sorted.isEmpty {
            report.edgesPerTile = (sorted[sorted.count / 2], sorted[min(sorted.count - 1, sorted.count * 99 / 100)], sorted[sorted.count - 1])
        }
        report.sectionSizes = sections.map { (SectionTag.name(of: $0.tag), $0.bytes.count) }
        return MapBuilder.BuiltLayer(sections: sections, report: report)
    }
}
