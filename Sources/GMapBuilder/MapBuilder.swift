import GMapCodecs
import GMap

/// What a build made and counted.
public struct BuildReport: Sendable {
    /// What the layer's features are.
    public var geometry = GeometryKind.polygons
    /// Features written.
    public var featureCount = 0
    /// A layer of lines: the lines written (each of two positions or more).
    public var lineCount = 0
    /// A layer of lines or points: features left out because no line of two distinct positions,
    /// or no point, was left of them at the map's precision.
    public var droppedFeatures = 0
    /// Rings written (after dropping rings with fewer than three distinct quantized vertices).
    public var ringCount = 0
    /// Vertices written, closing vertices included.
    public var vertexCount = 0
    /// Features skipped because their geometry is not the layer's (Polygon or MultiPolygon for a
    /// layer of polygons), by GeoJSON geometry type.
    public var skippedGeometries: [String: Int] = [:]
    /// The top-level grid.
    public var grid = GridInfo(originX: 0, originY: 0, tileWidth: 0, tileHeight: 0, columns: 0, rows: 0,
                               splitFactor: 0, maximumDepth: 0, subdirectoryCount: 0)
    /// Leaf tiles by kind.
    public var emptyTiles = 0, coveredTiles = 0, recordTiles = 0, splitTiles = 0
    /// Edges per non-empty leaf tile: median, 99th percentile and maximum.
    public var edgesPerTile: (median: Int, p99: Int, maximum: Int) = (0, 0, 0)
    /// Bytes of each section.
    public var sectionSizes: [(tag: String, bytes: Int)] = []
    /// The file's length.
    public var byteCount = 0
    /// What `--simplify` did, when it was asked for; the counts above are then of the simplified rings.
    public var simplification: SimplificationReport?
    /// Format 3: the bytes of the directory and the records by what they hold (as `gmap info`
    /// measures them from the file); nil for format 2.
    public var tileBytes: TileBytes?
    /// The features whose polygons overlap each other (a proper crossing of their boundaries, or a
    /// vertex or an edge piece of one strictly inside another), in source order: the id, how many of its polygons
    /// overlap another of its polygons, and how many polygons it has. Format 3 answers such a
    /// feature as the union of its polygons (parity groups); format 2 by the even-odd rule over all
    /// its rings, so that the overlaps are outside.
    public var overlappingParts: [(id: String, overlapping: Int, polygons: Int)] = []
    /// Whether some record repeats a feature in consecutive slots (parity groups): the file is then 3.2.
    public var repeatsSlots = false
    /// How the layer is written (`GRID` byte 26); its ``LayerEncoding/minorVersion`` is the least the file can be.
    public var encoding = LayerEncoding.polygons
    /// Whether the layer is of banded polygons (each run with a band byte, Spec/FORMAT.md 8.5.1).
    public var runBands: Bool { encoding == .bandedPolygons }
    /// Whether the layer is of compact points (a point table, Spec/FORMAT.md 5.12), named or not.
    public var compactPoints: Bool { encoding == .compactPoints || encoding == .namedCompactPoints }
    /// Whether the layer is of named compact points (a lexicon of its features' every name, Spec/FORMAT.md 5.13).
    public var lexicon: Bool { encoding == .namedCompactPoints }
    /// A layer of named compact points: how many other names its features have, in all.
    public var otherNameCount = 0
    /// A layer of compact points: every coordinate is a multiple of this many units (the greatest
    /// common divisor of the points' coordinates, so that nothing is rounded).
    public var pointStep: Int64 = 1
}

/// Builds a `.gmap` map from features, one feature at a time.
///
/// ```swift
/// var builder = try MapBuilder(options: BuildOptions())
/// try builder.add(SourceFeature(id: "A", polygons: [[[(0, 0), (1, 0), (1, 1), (0, 1)]]]))
/// let (bytes, report) = try builder.finish()
/// ```
public struct MapBuilder {
    /// The options in force.
    public let options: BuildOptions
    private var polygons = PolygonSet()
    private var metadata: [(String, String)] = []
    /// Counts of skipped geometry types, filled by the GeoJSON reader.
    public var skippedGeometries: [String: Int] = [:]

    /// A builder with these options.
    public init(options: BuildOptions) throws {
        try options.validate()
        self.options = options
    }

    /// Records a fact about the build (source file, options) in the map's `META` section.
    public mutating func addMetadata(key: String, value: String) {
        metadata.append((key, value))
    }

    /// Adds one feature. Coordinates outside [-180, 180] × [-90, 90] or not finite are an error.
    public mutating func add(_ feature: SourceFeature) throws {
        for (polygonIndex, polygon) in feature.polygons.enumerated() {
            for (ringIndex, ring) in polygon.enumerated() {
                for position in ring where !Quantizer.isValid(latitude: position.latitude, longitude: position.longitude) {
                    throw BuildError("feature \(polygons.featureCount) (\(InputExcerpt.text(feature.id))): ring \(ringIndex) of polygon \(polygonIndex) has the position [\(position.longitude), \(position.latitude)] outside [-180, 180] × [-90, 90]")
                }
            }
        }
        guard polygons.featureCount < Int(TileEntry.maximumPayload) else { throw BuildError("too many features") }
        polygons.append(feature, quantizer: options.quantizer)
        guard polygons.vertexCount < Int(UInt32.max) else { throw BuildError("more than 4 billion vertices") }
    }

    /// Builds the map: its bytes and a report. The map is one layer named ``LayeredMapBuilder/defaultLayerName``
    /// (format 2.1), or a plain 2.0 file when ``BuildOptions/writesLayerIndexes`` is false.
    public func finish() throws -> (bytes: [UInt8], report: BuildReport) {
        var layered = LayeredMapBuilder()
        try layered.addLayer(named: LayeredMapBuilder.defaultLayerName, self)
        let result = try layered.finish()
        var report = result.reports[0]
        report.byteCount = result.bytes.count
        return (result.bytes, report)
    }

    /// The metadata recorded so far.
    var metadataPairs: [(String, String)] { metadata }

    /// One layer's sections, built into a shared string pool.
    struct BuiltLayer {
        var sections: [(tag: UInt32, bytes: [UInt8])]
        var report: BuildReport
    }

    /// Builds this builder's features as one layer whose sections have the tags `tags`; the label
    /// points and name index only when `indexes` is true.
    func buildLayer(tags: LayerSectionTags, indexes: Bool, strings: inout StringPool) throws -> BuiltLayer {
        guard let simplification = options.simplification, polygons.ringCount > 0 else {
            return try buildLayer(tags: tags, indexes: indexes, strings: &strings, simplification: nil)
        }
        var simplified = self
        let (polygons, report) = self.polygons.simplified(simplification, quantizer: options.quantizer)
        simplified.polygons = polygons
        return try simplified.buildLayer(tags: tags, indexes: indexes, strings: &strings, simplification: report)
    }

    private func buildLayer(tags: LayerSectionTags, indexes: Bool, strings: inout StringPool,
                            simplification: SimplificationReport?) throws -> BuiltLayer {
        guard polygons.featureCount > 0 else { throw BuildError("no Polygon or MultiPolygon features to build a map from") }
        // Smallest area first; ties keep source order.
        let order = (0..<polygons.featureCount).sorted {
            polygons.areas[$0] != polygons.areas[$1] ? polygons.areas[$0] < polygons.areas[$1] : $0 < $1
        }
        var rank = [UInt32](repeating: 0, count: order.count)
        for (position, source) in order.enumerated() { rank[source] = UInt32(position) }

        guard polygons.ringCount > 0 else { throw BuildError("no feature has a ring with three or more distinct positions") }
        var extent = TileBounds(west: .max, south: .max, east: .min, north: .min)
        for (box, rings) in zip(polygons.boxes, polygons.ringCounts) where rings > 0 {
            extent.west = min(extent.west, box.west); extent.east = max(extent.east, box.east)
            extent.south = min(extent.south, box.south); extent.north = max(extent.north, box.north)
        }
        let tileSize = options.tileSize ?? BuildOptions.automaticTileSize(for: extent, quantizer: options.quantizer)
        // Format 3: overlapping polygons of one feature go into parity groups, each its own slot
        // (Spec/FORMAT.md 8.8); format 2 keeps the even-odd rule over every ring and only reports them.
        let groups = try PartGroups(polygons, grouping: options.formatMajorVersion >= 3)
        // Slot keys: the feature ranks, or with groups each feature's groups numbered in rank order.
        var featureOfKey: [UInt32] = []
        var firstKeyOfRank: [UInt32] = []
        var groupOfVertex: [UInt16] = []
        if groups.hasGroups {
            firstKeyOfRank.reserveCapacity(order.count)
            for source in order {
                firstKeyOfRank.append(UInt32(featureOfKey.count))
                featureOfKey.append(contentsOf: repeatElement(rank[source], count: groups.groupCounts[source]))
            }
            guard featureOfKey.count < Int(UInt32.max) else { throw BuildError("too many parity groups") }
            groupOfVertex.reserveCapacity(polygons.vertexCount)
            var ring = 0
            for index in 0..<polygons.vertexCount {
                groupOfVertex.append(groups.groupOfRing[ring])
                if polygons.isRingEnd[index] { ring += 1 }
            }
        }
        let key: (Int) -> UInt32 = groups.hasGroups
            ? { [polygons, rank, firstKeyOfRank, groupOfVertex] vertex in
                firstKeyOfRank[Int(rank[Int(polygons.featureOfVertex[vertex])])] + UInt32(groupOfVertex[vertex]) }
            : { [polygons, rank] vertex in rank[Int(polygons.featureOfVertex[vertex])] }
        let index = TopLevelIndex(polygons: polygons, key: key, options: options, extent: extent, tileSize: tileSize)
        var directory: [UInt32]
        var grid = index.grid
        var sections: [(tag: UInt32, bytes: [UInt8])] = []
        let counts: TileCounts
        var tileBytes: TileBytes?
        let encoding: LayerEncoding = options.formatMajorVersion >= 3 && options.writesRunBands ? .bandedPolygons : .polygons
        if options.formatMajorVersion >= 3 {
            var encoder = SharedTileEncoder(polygons: polygons, distinct: DistinctEdges(polygons), options: options, featureOfKey: featureOfKey)
            directory = try encodeDirectory(with: &encoder, index: index, key: key)
            counts = encoder.counts
            grid.maximumDepth = Int64(counts.deepestSplit)
            grid.subdirectoryCount = Int64(encoder.nodeCount)
            grid.topForm = TopDirectoryWriter.form(for: options.topDirectory, tiles: directory.count, tileBytes: encoder.blob.count)
            let gridBytes = GridSectionWriter.bytes(grid, directory: directory, subdirectories: [], nodes: true, encoding: encoding)
            sections.append((tags.grid, gridBytes))
            sections.append((tags.tiles, encoder.blob))
            tileBytes = encoder.breakdown(gridBytes: gridBytes.count)
        } else {
            var encoder = TileEncoder(polygons: polygons, options: options)
            directory = try encodeDirectory(with: &encoder, index: index, key: key)
            counts = encoder.counts
            grid.maximumDepth = Int64(counts.deepestSplit)
            grid.subdirectoryCount = Int64(encoder.subdirectoryCount)
            sections.append((tags.grid, GridSectionWriter.bytes(grid, directory: directory, subdirectories: encoder.subdirectories, nodes: false, encoding: .polygons)))
            sections.append((tags.tiles, encoder.records))
        }
        let (featureBytes, propertyBytes) = try FeatureTableWriter.sections(ids: polygons.ids, properties: polygons.properties, boxes: polygons.boxes, areas: polygons.areas, order: order, strings: &strings)
        sections.append((tags.features, featureBytes))
        sections.append((tags.properties, propertyBytes))
        if indexes {
            sections.append((tags.labels, labelSection(order: order)))
            sections.append((tags.names, try NameIndexWriter.section(ids: polygons.ids, properties: polygons.properties, order: order, strings: &strings)))
        }

        var report = BuildReport()
        report.featureCount = polygons.featureCount
        report.ringCount = polygons.ringCount
        report.vertexCount = polygons.vertexCount
        report.skippedGeometries = skippedGeometries
        report.simplification = simplification
        report.grid = grid
        report.emptyTiles = counts.emptyTiles
        report.coveredTiles = counts.coveredTiles
        report.recordTiles = counts.recordTiles
        report.splitTiles = counts.splitTiles
        report.tileBytes = tileBytes
        report.overlappingParts = groups.overlaps.map { (polygons.ids[$0.feature], $0.overlapping, $0.polygons) }
        report.repeatsSlots = groups.hasGroups
        report.encoding = encoding
        let sorted = counts.edgesPerLeaf.sorted()
        if !sorted.isEmpty {
            report.edgesPerTile = (sorted[sorted.count / 2], sorted[min(sorted.count - 1, sorted.count * 99 / 100)], sorted[sorted.count - 1])
        }
        report.sectionSizes = sections.map { (SectionTag.name(of: $0.tag), $0.bytes.count) }
        return BuiltLayer(sections: sections, report: report)
    }

    /// The top-level directory: each top-level tile's entry, row by row from the south-west.
    private func encodeDirectory<Encoder: TopLevelTileEncoder>(with encoder: inout Encoder, index: TopLevelIndex, key: (Int) -> UInt32) throws -> [UInt32] {
        var directory: [UInt32] = []
        directory.reserveCapacity(Int(index.grid.columns * index.grid.rows))
        for row in 0..<index.grid.rows {
            for column in 0..<index.grid.columns {
                directory.append(try encoder.encodeTopLevel(bounds: index.bounds(column: column, row: row),
                                                            shares: shares(of: index.tile(column: column, row: row), index: index, key: key)))
            }
        }
        return directory
    }

    /// `LABL`: a point inside each feature, in file order.
    private func labelSection(order: [Int]) -> [UInt8] {
        let points = LabelPoints.compute(polygons, quantizer: options.quantizer)
        var bytes: [UInt8] = []
        bytes.appendLittleEndian(UInt32(order.count))
        bytes.appendLittleEndian(UInt32(FormatLayout.LabelRecord.length))
        for source in order {
            let point = points[source]
            bytes.appendLittleEndian(point?.x ?? FormatLayout.LabelRecord.none)
            bytes.appendLittleEndian(point?.y ?? FormatLayout.LabelRecord.none)
        }
        return bytes
    }

    /// The features (or parity groups) present in a top-level tile, with their corner bits and edges, by slot key.
    private func shares(of tile: Int, index: TopLevelIndex, key: (Int) -> UInt32) -> [TileShare] {
        var byRank: [UInt32: TileShare] = [:]
        for position in index.edgeStarts[tile]..<index.edgeStarts[tile + 1] {
            let edge = index.edgeIds[position]
            let featureRank = key(Int(edge))
            byRank[featureRank, default: TileShare(rank: featureRank, cornerInside: false, edges: [])].edges.append(edge)
        }
        for featureRank in index.cornerInside[tile] {
            byRank[featureRank, default: TileShare(rank: featureRank, cornerInside: false, edges: [])].cornerInside = true
        }
        return byRank.values.sorted { $0.rank < $1.rank }.map { share in
            var share = share
            share.edges.sort()
            return share
        }
    }

    /// `META`: the recorded facts, then the options; `simplifications` are the layers' simplification
    /// summaries (name and text; the name is empty for a single-layer map).
    func metadataSection(strings: inout StringPool, grid: GridInfo, simplifications: [(layer: String, summary: String)]) throws -> [UInt8] {
        try MetadataWriter.section(pairs: metadata, options: options, grid: grid, simplifications: simplifications, strings: &strings)
    }
}

/// `META`: key-value pairs of text about the build.
enum MetadataWriter {
    /// The recorded `pairs`, then the options that shaped the file.
    static func section(pairs recorded: [(String, String)], options: BuildOptions, grid: GridInfo,
                        simplifications: [(layer: String, summary: String)], strings: inout StringPool) throws -> [UInt8] {
        let q = options.quantizer
        var pairs = recorded
        pairs.append(("precision", "\(1.0 / Double(q.unitsPerDegree))°, maximum position error \(formatMetres(q.maximumPositionError))"))
        for (layer, summary) in simplifications {
            pairs.append((layer.isEmpty ? "simplify" : "simplify \(layer)", summary))
        }
        pairs.append(("tile-size", "\(Double(grid.tileWidth) / Double(q.unitsPerDegree))°"))
        pairs.append(("max-edges", "\(options.maximumEdgesPerTile)"))
        pairs.append(("split", "\(options.splitFactor)×\(options.splitFactor), at most \(options.maximumDepth) levels"))
        var bytes: [UInt8] = []
        bytes.appendLittleEndian(UInt32(pairs.count))
        bytes.appendLittleEndian(UInt32(FormatLayout.MetadataRecord.length))
        for (key, value) in pairs {
            let k = try strings.intern(key), v = try strings.intern(value)
            bytes.appendLittleEndian(k.offset)
            bytes.appendLittleEndian(k.length)
            bytes.appendLittleEndian(v.offset)
            bytes.appendLittleEndian(v.length)
        }
        return bytes
    }

    private static func formatMetres(_ metres: Double) -> String {
        let centimetres = (metres * 1000).rounded() / 10
        return "\(centimetres) cm"
    }
}
