import GMap

/// Something features read from an input (``MapInput``, ``GeoJSONImport``) can be added to.
public protocol FeatureSink {
    /// The options that choose each feature's id and kept properties.
    var options: BuildOptions { get }
    /// Adds one feature read from the input (or counts it as skipped).
    mutating func add(_ feature: GeoJSONFeature) throws
}

extension MapBuilder: FeatureSink {
    /// Adds a feature's polygons; a feature of another geometry is counted in ``skippedGeometries``.
    public mutating func add(_ feature: GeoJSONFeature) throws {
        try GeoJSONImport.add(feature, to: &self)
    }
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

    /// The one kind kept, or nil for ``automatic``.
    public var kind: GeometryKind? {
        switch self {
        case .automatic: return nil
        case .polygons: return .polygons
        case .lines: return .lines
        case .points: return .points
        }
    }
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
    /// The features read so far into each kind of layer.
    var polygonLayer: MapBuilder
    var lineLayer: LineLayerBuilder
    var pointLayer: PointLayerBuilder
    /// Whether a layer of points is written as compact points (``PointLayerBuilder/compact``, format 3.4).
    public var compactPoints: Bool {
        get { pointLayer.compact }
        set { pointLayer.compact = newValue }
    }
    /// Features read, by the kind of their geometry (Polygon and MultiPolygon, LineString and
    /// MultiLineString, Point and MultiPoint).
    public private(set) var featuresRead: [GeometryKind: Int] = [:]

    /// A builder with these options (checked as ``BuildOptions/validate()`` does) keeping `choice`.
    public init(options: BuildOptions, choice: GeometryChoice = .automatic) throws {
        self.options = options
        self.choice = choice
        polygonLayer = try MapBuilder(options: options)
        lineLayer = try LineLayerBuilder(options: options)
        pointLayer = try PointLayerBuilder(options: options)
    }

    /// Records a fact about the build in the map's `META` section (used when this is the first layer).
    public mutating func addMetadata(key: String, value: String) {
        polygonLayer.addMetadata(key: key, value: value)
        lineLayer.addMetadata(key: key, value: value)
        pointLayer.addMetadata(key: key, value: value)
    }

    /// Adds the feature to the layer of its kind, when the choice may keep that kind; else counts
    /// it as skipped in every layer.
    public mutating func add(_ feature: GeoJSONFeature) throws {
        let kind = feature.geometry.kind
        if let kind { featuresRead[kind, default: 0] += 1 }
        let keeps = choice == .automatic || (kind != nil && kind == choice.kind)
        guard keeps else {
            let name = GeoJSONImport.typeName(of: feature.geometry)
            polygonLayer.skippedGeometries[name, default: 0] += 1
            lineLayer.skippedGeometries[name, default: 0] += 1
            pointLayer.skippedGeometries[name, default: 0] += 1
            return
        }
        // Each layer keeps its own kind and counts the others as skipped.
        try GeoJSONImport.add(feature, to: &polygonLayer)
        try GeoJSONImport.add(feature, to: &lineLayer)
        try GeoJSONImport.add(feature, to: &pointLayer)
    }

    /// The kind of layer to build: the one chosen, or for an automatic choice polygons when any
    /// were read, else lines or points, whichever were read. Throws when the chosen kind has no
    /// feature, or when an input without polygons holds both lines and points.
    public func resolvedKind() throws(GeometryChoiceError) -> GeometryKind {
        let polygons = featuresRead[.polygons] ?? 0, lines = featuresRead[.lines] ?? 0, points = featuresRead[.points] ?? 0
        let found = "it holds \(polygons) polygon, \(lines) line and \(points) point features"
        switch choice {
        case .polygons:
            guard polygons > 0 else { throw GeometryChoiceError(description: "--geometry polygons: no Polygon or MultiPolygon features to build a map from (\(found))") }
            return .polygons
        case .lines:
            guard lines > 0 else { throw GeometryChoiceError(description: "--geometry lines: no LineString or MultiLineString features to build a map from (\(found))") }
            return .lines
        case .points:
            guard points > 0 else { throw GeometryChoiceError(description: "--geometry points: no Point or MultiPoint features to build a map from (\(found))") }
            return .points
        case .automatic:
            if polygons > 0 { return .polygons }
            if lines > 0, points > 0 {
                throw GeometryChoiceError(description: "the input holds \(lines) line and \(points) point features and no polygons; choose which to build with --geometry lines or --geometry points")
            }
            if lines > 0 { return .lines }
            if points > 0 { return .points }
            return .polygons  // nothing to build: the polygon builder's error says so
        }
    }
}
