import GMap

/// Something features read from an input (``MapInput``, ``GeoJSONImport``) can be added to.
public protocol FeatureSink {
    /// The options that choose each feature's id and kept properties.
    var options: BuildOptions { get }
    /// Adds one feature read from the input (or counts it as skipped).
    mutating func add(_ feature: GeoJSONFeature) throws
}

/// Which geometry a build keeps from an input that may hold several (`gmap build --geometry`).
public enum GeometryChoice: String, Sendable, CaseIterable {
    /// The input's own: polygons when it has any, else lines or points, whichever it holds.
    case automatic
    /// Polygon and MultiPolygon features.
    case polygons
    /// LineString and MultiLineString features.
    case lines
    /// Point and MultiPoint features.
    case points

    /// The one kind kept (the kind of that ``GeometryKind/name``), or nil for ``automatic``.
    public var kind: GeometryKind? { GeometryKind.allCases.first { $0.name == rawValue } }
}

/// Why a build cannot choose a layer's geometry: the kind asked for, or the input's only kinds,
/// have no feature to build from.
public struct GeometryChoiceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The sentence shown to the user.
    public let description: String
}

/// Reads the features of one input, whatever their geometry, and builds the layer of the kind
/// chosen (``GeometryChoice``): with ``GeometryChoice/automatic`` the input's polygons when it
/// has any (its lines and points then counted as skipped), else its lines or its points.
///
/// Reading keeps every kind the choice may take (polygons, lines and points for an automatic
/// choice), so an input of mixed geometries is held in memory once per kind it holds.
public struct InputLayerBuilder: FeatureSink {
    /// The options in force.
    public let options: BuildOptions
    /// The geometry asked for.
    public let choice: GeometryChoice
    /// The features read so far into a layer of each kind, in the order of ``GeometryKind/allCases``.
    private var layers: [any LayerKindBuilder]
    /// Whether a layer of points is written as compact points (``PointLayerBuilder/compact``, format 3.4).
    public var compactPoints: Bool {
        get { (layers[Self.position(of: .points)] as? PointLayerBuilder)?.compact ?? false }
        set {
            guard var points = layers[Self.position(of: .points)] as? PointLayerBuilder else { return }
            points.compact = newValue
            layers[Self.position(of: .points)] = points
        }
    }
    /// Features read, by the kind of their geometry (Polygon and MultiPolygon, LineString and
    /// MultiLineString, Point and MultiPoint).
    public private(set) var featuresRead: [GeometryKind: Int] = [:]

    /// A builder with these options (checked as ``BuildOptions/validate()`` does) keeping `choice`.
    public init(options: BuildOptions, choice: GeometryChoice = .automatic) throws {
        self.options = options
        self.choice = choice
        layers = try GeometryKind.allCases.map { try $0.builder.init(options: options) }
    }

    /// Where the layer of `kind` is in ``layers``.
    private static func position(of kind: GeometryKind) -> Int {
        GeometryKind.allCases.firstIndex(of: kind) ?? 0
    }

    /// Records a fact about the build in the map's `META` section (used when this is the first layer).
    public mutating func addMetadata(key: String, value: String) {
        for index in layers.indices { layers[index].addMetadata(key: key, value: value) }
    }

    /// Adds the feature to the layer of its kind, when the choice may keep that kind; else counts
    /// it as skipped in every layer.
    public mutating func add(_ feature: GeoJSONFeature) throws {
        let kind = feature.geometry.kind
        if let kind { featuresRead[kind, default: 0] += 1 }
        let keeps = choice == .automatic || (kind != nil && kind == choice.kind)
        guard keeps else {
            for index in layers.indices { layers[index].skip(feature) }
            return
        }
        // Each layer keeps its own kind and counts the others as skipped.
        for index in layers.indices { try layers[index].add(feature) }
    }

    /// The kind of layer to build: the one chosen, or for an automatic choice polygons when any
    /// were read (the kind whose features enclose areas), else the one other kind that was read.
    /// Throws when the chosen kind has no feature, or when an input without polygons holds
    /// features of several kinds (lines and points).
    public func resolvedKind() throws(GeometryChoiceError) -> GeometryKind {
        let read = GeometryKind.allCases.map { (kind: $0, count: featuresRead[$0] ?? 0) }
        let found = "it holds \(Self.list(read.map { "\($0.count) \($0.kind.partName)" })) features"
        if let kind = choice.kind {
            guard featuresRead[kind] ?? 0 > 0 else {
                let types = kind.geoJSONTypes
                throw GeometryChoiceError(description: "--geometry \(kind.name): no \(types.single) or \(types.multiple) features to build a map from (\(found))")
            }
            return kind
        }
        let present = read.filter { $0.count > 0 }
        if let areas = present.first(where: { $0.kind.answersContainment }) { return areas.kind }
        if present.count > 1 {
            throw GeometryChoiceError(description: "the input holds \(Self.list(present.map { "\($0.count) \($0.kind.partName)" })) features and no polygons; "
                                      + "choose which to build with \(present.map { "--geometry \($0.kind.name)" }.joined(separator: " or "))")
        }
        return present.first?.kind ?? .polygons  // nothing to build: the polygon builder's error says so
    }

    /// The layer of the kind to build (``resolvedKind()``), its features of other kinds counted as skipped.
    func resolvedLayer() throws(GeometryChoiceError) -> any LayerKindBuilder {
        let kind = try resolvedKind()
        return layers[Self.position(of: kind)]
    }

    /// "a", "a and b", "a, b and c".
    private static func list(_ items: [String]) -> String {
        items.count < 2 ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
    }
}
