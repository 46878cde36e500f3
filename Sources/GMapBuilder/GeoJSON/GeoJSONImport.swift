import GMap

/// Reads a GeoJSON FeatureCollection into a ``MapBuilder``, one feature at a time, choosing each
/// feature's id and kept properties as the options say.
public enum GeoJSONImport {
    /// Reads every feature of the file at `path` ("-" for standard input) into `builder`.
    /// Returns the number of features read, skipped ones included.
    @discardableResult
    public static func read<Builder: FeatureSink>(path: String, into builder: inout Builder) throws -> Int {
        var reader = try GeoJSONReader(path: path)
        return try read(&reader, into: &builder)
    }

    /// Reads every feature from `reader` into `builder`.
    @discardableResult
    public static func read<Builder: FeatureSink>(_ reader: inout GeoJSONReader, into builder: inout Builder) throws -> Int {
        try reader.forEachFeature { feature in
            try builder.add(feature)
        }
    }

    /// The name a skipped geometry is counted under: its GeoJSON type (a MultiLineString of one
    /// line counts as a LineString, a MultiPoint of one point as a Point).
    static func typeName(of geometry: GeoJSONGeometry) -> String {
        switch geometry {
        case .polygons(let polygons): return polygons.count == 1 ? "Polygon" : "MultiPolygon"
        case .lines(let lines): return lines.count == 1 ? "LineString" : "MultiLineString"
        case .points(let points): return points.count == 1 ? "Point" : "MultiPoint"
        case .unsupported(let type): return type
        }
    }

    /// Adds one feature to `builder`, its id and kept properties chosen as the builder's options say;
    /// a feature whose geometry is not polygons is counted in ``MapBuilder/skippedGeometries``.
    public static func add(_ feature: GeoJSONFeature, to builder: inout MapBuilder) throws {
        let options = builder.options
        switch feature.geometry {
        case .unsupported, .lines, .points:
            builder.skippedGeometries[typeName(of: feature.geometry), default: 0] += 1
        case .polygons(let polygons):
            let id = try identifier(of: feature, options: options)
            let source = SourceFeature(
                id: id,
                properties: keptProperties(of: feature, options: options),
                polygons: polygons.map { polygon in
                    polygon.map { ring in ring.map { (longitude: $0.longitude, latitude: $0.latitude) } }
                }
            )
            do {
                try builder.add(source)
            } catch let error as BuildError {
                throw BuildError("feature \(feature.index): \(error.description)")
            }
        }
    }

    /// Adds one feature of lines to `builder`; a feature of another geometry is counted in
    /// ``LineLayerBuilder/skippedGeometries``.
    public static func add(_ feature: GeoJSONFeature, to builder: inout LineLayerBuilder) throws {
        guard case .lines(let lines) = feature.geometry else {
            builder.skippedGeometries[typeName(of: feature.geometry), default: 0] += 1
            return
        }
        let options = builder.options
        let source = SourceLineFeature(id: try identifier(of: feature, options: options), properties: keptProperties(of: feature, options: options),
                                       lines: lines.map { line in line.map { (longitude: $0.longitude, latitude: $0.latitude) } })
        do {
            try builder.add(source)
        } catch let error as BuildError {
            throw BuildError("feature \(feature.index): \(error.description)")
        }
    }

    /// Adds one feature of points to `builder`; a feature of another geometry is counted in
    /// ``PointLayerBuilder/skippedGeometries``.
    public static func add(_ feature: GeoJSONFeature, to builder: inout PointLayerBuilder) throws {
        guard case .points(let points) = feature.geometry else {
            builder.skippedGeometries[typeName(of: feature.geometry), default: 0] += 1
            return
        }
        let options = builder.options
        let source = SourcePointFeature(id: try identifier(of: feature, options: options), properties: keptProperties(of: feature, options: options),
                                        points: points.map { (longitude: $0.longitude, latitude: $0.latitude) })
        do {
            try builder.add(source)
        } catch let error as BuildError {
            throw BuildError("feature \(feature.index): \(error.description)")
        }
    }

    /// The text a JSON value is stored as, and its kind.
    static func text(of value: JSONValue) -> (String, PropertyKind) {
        switch value {
        case .string(let text): return (text, .string)
        case .number(let text): return (text, .number)
        case .bool(let flag): return (flag ? "true" : "false", .boolean)
        case .null: return ("", .null)
        case .other(let json): return (json, .json)
        }
    }

    static func identifier(of feature: GeoJSONFeature, options: BuildOptions) throws -> String {
        if let name = options.idProperty {
            guard let value = feature.properties.first(where: { $0.key == name })?.value else {
                throw BuildError("feature \(feature.index) has no property \"\(name)\" for its id (choose another with --id)")
            }
            guard value != .null else {
                throw BuildError("feature \(feature.index): its id property \"\(name)\" is null (choose another with --id)")
            }
            return text(of: value).0
        }
        for name in BuildOptions.automaticIdProperties {
            if let value = feature.properties.first(where: { $0.key == name })?.value, value != .null {
                return text(of: value).0
            }
        }
        if let id = feature.id, id != .null { return text(of: id).0 }
        return String(feature.index)
    }

    static func keptProperties(of feature: GeoJSONFeature, options: BuildOptions) -> [SourceFeature.KeptProperty] {
        let chosen: [(key: String, value: JSONValue)]
        if let names = options.keptProperties {
            chosen = names.compactMap { name in feature.properties.first { $0.key == name } }
        } else {
            chosen = feature.properties
        }
        return chosen.map { pair in
            let (value, kind) = text(of: pair.value)
            return SourceFeature.KeptProperty(key: pair.key, value: value, kind: kind)
        }
    }
}
