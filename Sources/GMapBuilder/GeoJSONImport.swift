import GMap

/// Reads a GeoJSON FeatureCollection into a ``MapBuilder``, one feature at a time, choosing each
/// feature's id and kept properties as the options say.
public enum GeoJSONImport {
    /// Reads every feature of the file at `path` ("-" for standard input) into `builder`.
    /// Returns the number of features read, skipped ones included.
    @discardableResult
    public static func read(path: String, into builder: inout MapBuilder) throws -> Int {
        var reader = try GeoJSONReader(path: path)
        return try read(&reader, into: &builder)
    }

    /// Reads every feature from `reader` into `builder`.
    @discardableResult
    public static func read(_ reader: inout GeoJSONReader, into builder: inout MapBuilder) throws -> Int {
        try reader.forEachFeature { feature in
            try add(feature, to: &builder)
        }
    }

    /// Adds one feature to `builder`, its id and kept properties chosen as the builder's options say;
    /// a feature whose geometry is not polygons is counted in ``MapBuilder/skippedGeometries``.
    public static func add(_ feature: GeoJSONFeature, to builder: inout MapBuilder) throws {
        let options = builder.options
        switch feature.geometry {
        case .unsupported(let type):
            builder.skippedGeometries[type, default: 0] += 1
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
