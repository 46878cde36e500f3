import GMap

/// What the builder does with one kind of layer: build it (``LayeredMapBuilder``), read it from
/// GeoJSON (``FeatureSink``, ``InputLayerBuilder``), write it back as GeoJSON (``GeoJSONExport``)
/// and count it in the build's and the export's summaries.
///
/// One conformance per kind, in the kind's folder: ``MapBuilder`` (`Polygons/`),
/// ``LineLayerBuilder`` and ``PointLayerBuilder`` (`LinesAndPoints/`). ``GeometryKind/builder``
/// is the one switch that picks it; the code around it is written once for every kind.
protocol LayerKindBuilder: FeatureSink {
    /// The kind of layer built.
    static var kind: GeometryKind { get }

    /// An empty builder with these options (checked as ``BuildOptions/validate()`` does).
    init(options: BuildOptions) throws

    /// Features read but not kept because they are not of this kind, by GeoJSON type.
    var skippedGeometries: [String: Int] { get set }

    /// The build facts recorded for the map's `META` section (used when this is the first layer).
    var metadataPairs: [(String, String)] { get }

    /// Records a fact about the build in the map's `META` section (used when this is the first layer).
    mutating func addMetadata(key: String, value: String)

    /// Builds the features as one layer whose sections have the tags `tags`; its label points and
    /// name index only when `indexes` is true.
    func buildLayer(tags: LayerSectionTags, indexes: Bool, strings: inout StringPool) throws -> MapBuilder.BuiltLayer

    /// The counts of a built layer for `gmap build`'s summary: "features 242, rings 1632, vertices 99613".
    static func counts(_ report: BuildReport) -> String

    /// Writes every feature of `map`, a layer of this kind, as GeoJSON by `export`'s rules,
    /// continuing `report` (which holds the checksum problems found so far).
    static func write(_ map: GMap, by export: GeoJSONExport, report: ExportReport, to output: ([UInt8]) throws -> Void) throws -> ExportReport

    /// The counts of an export of this kind for `gmap export`'s summary: "features 242, polygons 1580, rings 1632, vertices 99613".
    static func counts(_ report: ExportReport) -> String
}

extension LayerKindBuilder {
    /// Counts a feature this builder does not keep (not of its kind) under its GeoJSON type.
    mutating func skip(_ feature: GeoJSONFeature) {
        skippedGeometries[feature.geometry.typeName, default: 0] += 1
    }
}

extension GeometryKind {
    /// The builder of layers of this kind: the one place the builder goes from a kind to the code
    /// of that kind.
    var builder: any LayerKindBuilder.Type {
        switch self {
        case .polygons: return MapBuilder.self
        case .lines: return LineLayerBuilder.self
        case .points: return PointLayerBuilder.self
        }
    }
}

extension BuildReport {
    /// The layer's counts for `gmap build`'s summary, in the words of its kind:
    /// "features 242, rings 1632, vertices 99613", "lines: features 98, lines 125, vertices 1760",
    /// "points: features 1508, points 1508".
    public var counts: String { geometry.builder.counts(self) }
}

extension ExportReport {
    /// The counts of an export of a layer of `kind` for `gmap export`'s summary, in the words of
    /// the kind: "features 242, polygons 1580, rings 1632, vertices 99613" (also for a layer of a
    /// kind this reader does not know, which exports as polygons).
    public func counts(of kind: GeometryKind?) -> String { (kind ?? .polygons).builder.counts(self) }
}
