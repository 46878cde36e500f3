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

    /// Adds one feature to `builder` (a ``MapBuilder``, ``LineLayerBuilder``,
    /// ``PointLayerBuilder`` or ``InputLayerBuilder``), its id and kept properties chosen as the
    /// builder's options say; a feature the builder does not keep is counted in its skipped
    /// geometries.
    public static func add<Builder: FeatureSink>(_ feature: GeoJSONFeature, to builder: inout Builder) throws {
        try builder.add(feature)
    }

    /// Calls `add` with the feature's id and kept properties, chosen as `options` say: how each
    /// kind's builder adds a GeoJSON feature of its kind. A ``BuildError`` of `add` names the feature.
    static func adding(_ feature: GeoJSONFeature, options: BuildOptions,
                       _ add: (_ id: String, _ properties: [SourceFeature.KeptProperty]) throws -> Void) throws {
        try adding(feature, options: options) { id, properties, otherNames in
            // Only a layer of compact points keeps other names (its lexicon).
            if let first = otherNames.first, let key = options.otherNamesProperty {
                throw BuildError("it has other names (\"\(key)\": \(InputExcerpt.text(first)), …), which only a layer of points written as compact points keeps (--compact-points); keep them here as name properties (name:de, alt_name) instead")
            }
            try add(id, properties)
        }
    }

    /// As ``adding(_:options:_:)``, also with the feature's other names (``otherNames(of:id:options:)``).
    static func adding(_ feature: GeoJSONFeature, options: BuildOptions,
                       _ add: (_ id: String, _ properties: [SourceFeature.KeptProperty], _ otherNames: [String]) throws -> Void) throws {
        let id = try identifier(of: feature, options: options)
        let otherNames = try otherNames(of: feature, id: id, options: options)
        do {
            try add(id, keptProperties(of: feature, options: options), otherNames)
        } catch let error as BuildError {
            throw BuildError("feature \(feature.index): \(error.description)")
        }
    }

    /// The feature's other names (``BuildOptions/otherNamesProperty``): the strings of that
    /// property's array, or its one string, each once, empty ones and its id left out; none when
    /// the options name no such property or the feature lacks it (or it is null). Any other
    /// value is an error naming the feature.
    static func otherNames(of feature: GeoJSONFeature, id: String, options: BuildOptions) throws -> [String] {
        guard let key = options.otherNamesProperty, let value = feature.properties.first(where: { $0.key == key })?.value else { return [] }
        var names: [String]
        switch value {
        case .null: return []
        case .string(let text): names = [text]
        case .other(let json):
            guard let list = JSONStringArray.strings(json) else {
                throw BuildError("feature \(feature.index): its other names \"\(key)\" are not an array of strings: \(InputExcerpt.text(json))")
            }
            names = list
        default:
            throw BuildError("feature \(feature.index): its other names \"\(key)\" are not an array of strings: \(text(of: value).0)")
        }
        var kept: [String] = []
        for name in names where !name.isEmpty && name != id && !kept.contains(name) { kept.append(name) }
        return kept
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
        var chosen: [(key: String, value: JSONValue)]
        if let names = options.keptProperties {
            chosen = names.compactMap { name in feature.properties.first { $0.key == name } }
        } else {
            chosen = feature.properties
        }
        // The other names are kept as names, never as a property.
        if let other = options.otherNamesProperty { chosen.removeAll { $0.key == other } }
        return chosen.map { pair in
            let (value, kind) = text(of: pair.value)
            return SourceFeature.KeptProperty(key: pair.key, value: value, kind: kind)
        }
    }
}
