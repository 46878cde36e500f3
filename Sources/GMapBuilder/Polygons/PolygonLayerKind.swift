import GMap

// Layers of polygons: `MapBuilder` is the builder of their kind.

extension MapBuilder: FeatureSink {
    /// Adds a feature's polygons; a feature of another geometry is counted in ``skippedGeometries``.
    public mutating func add(_ feature: GeoJSONFeature) throws {
        guard case .polygons(let polygons) = feature.geometry else { return skip(feature) }
        try GeoJSONImport.adding(feature, options: options) { id, properties in
            try add(SourceFeature(id: id, properties: properties, polygons: polygons.map { polygon in
                polygon.map { ring in ring.map { (longitude: $0.longitude, latitude: $0.latitude) } }
            }))
        }
    }
}

extension MapBuilder: LayerKindBuilder {
    static var kind: GeometryKind { .polygons }

    static func counts(_ report: BuildReport) -> String {
        "features \(report.featureCount), rings \(report.ringCount), vertices \(report.vertexCount)"
    }

    static func write(_ map: GMap, by export: GeoJSONExport, report: ExportReport, to output: ([UInt8]) throws -> Void) throws -> ExportReport {
        try export.writePolygons(map, report: report, to: output)
    }

    static func counts(_ report: ExportReport) -> String {
        "features \(report.featureCount), polygons \(report.polygonCount), rings \(report.ringCount), vertices \(report.vertexCount)"
    }
}

extension LayeredMapBuilder {
    /// Adds a layer of polygons. Names must be non-empty, distinct and at most 255 bytes; every
    /// layer must use the first layer's quantization; a file holds at most
    /// ``FormatLayout/maximumLayerCount`` layers.
    public mutating func addLayer(named name: String, _ builder: MapBuilder) throws {
        try add(name, builder)
    }
}
