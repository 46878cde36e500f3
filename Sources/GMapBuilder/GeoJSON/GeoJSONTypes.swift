import GMap

// Public value types produced by `GeoJSONReader`.

/// A JSON value kept from a feature's properties (or its `id`).
public enum JSONValue: Sendable, Equatable {
    /// A string, with all escapes decoded. Invalid UTF-8 bytes in the source are replaced by U+FFFD.
    case string(String)
    /// A number: its text exactly as written in the source, e.g. `"-99"`, `"1.5e3"`.
    case number(String)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null
    /// An array or object: its compact JSON text re-serialised without whitespace, keys in source order.
    /// Strings inside are re-escaped minimally (`\"`, `\\`, and control characters); numbers keep their source text.
    case other(String)
}

/// One position, as written in GeoJSON: longitude first.
public struct GeoJSONPosition: Sendable, Equatable {
    /// Longitude in degrees, within [-180, 180].
    public var longitude: Double
    /// Latitude in degrees, within [-90, 90].
    public var latitude: Double

    /// Creates a position from a longitude and a latitude in degrees.
    public init(longitude: Double, latitude: Double) {
        self.longitude = longitude
        self.latitude = latitude
    }
}

/// The geometry of a feature.
public enum GeoJSONGeometry: Sendable, Equatable {
    /// Polygon -> one element; MultiPolygon -> one per polygon. Each polygon is [outer ring, holes...];
    /// each ring is a list of positions as written (not closed or deduplicated by the reader).
    case polygons([[[GeoJSONPosition]]])
    /// LineString -> one line; MultiLineString -> one per line. Each line is a list of positions as
    /// written (a line of fewer than two distinct positions is the builder's to drop).
    case lines([[GeoJSONPosition]])
    /// Point -> one position; MultiPoint -> its positions.
    case points([GeoJSONPosition])
    /// Any other geometry type (GeometryCollection), by its "type" string; or "null" for a null geometry.
    case unsupported(String)

    /// What the geometry is a kind of: polygons, lines or points; nil for ``unsupported(_:)``.
    public var kind: GeometryKind? {
        switch self {
        case .polygons: return .polygons
        case .lines: return .lines
        case .points: return .points
        case .unsupported: return nil
        }
    }
}

extension GeoJSONGeometry {
    /// The name a geometry is counted under when it is skipped: its GeoJSON type (a
    /// MultiLineString of one line counts as a LineString, a MultiPoint of one point as a Point).
    var typeName: String {
        switch self {
        case .polygons(let polygons): return GeometryKind.polygons.geoJSONType(parts: polygons.count)
        case .lines(let lines): return GeometryKind.lines.geoJSONType(parts: lines.count)
        case .points(let points): return GeometryKind.points.geoJSONType(parts: points.count)
        case .unsupported(let type): return type
        }
    }
}

extension GeometryKind {
    /// The GeoJSON geometry types of features of this kind: of one part ("Polygon", "LineString",
    /// "Point") and of several ("MultiPolygon", "MultiLineString", "MultiPoint"). A build keeps
    /// both, and an export writes a feature as one or the other.
    public var geoJSONTypes: (single: String, multiple: String) {
        switch self {
        case .polygons: return ("Polygon", "MultiPolygon")
        case .lines: return ("LineString", "MultiLineString")
        case .points: return ("Point", "MultiPoint")
        }
    }

    /// The GeoJSON type of a feature of this kind of `parts` parts (polygons, lines or points):
    /// the single type for one part, the multiple type for any other number.
    public func geoJSONType(parts: Int) -> String {
        parts == 1 ? geoJSONTypes.single : geoJSONTypes.multiple
    }
}

/// One feature of a FeatureCollection.
public struct GeoJSONFeature: Sendable {
    /// 0-based position of the feature in the collection's "features" array.
    public var index: Int
    /// The Feature's own "id" member (a `.string` or `.number`), if any; `nil` when absent or `null`.
    public var id: JSONValue?
    /// The members of "properties", in source order; empty if "properties" is null or absent.
    public var properties: [(key: String, value: JSONValue)]
    /// The feature's geometry.
    public var geometry: GeoJSONGeometry

    /// Creates a feature from its parts.
    public init(index: Int, id: JSONValue?, properties: [(key: String, value: JSONValue)], geometry: GeoJSONGeometry) {
        self.index = index
        self.id = id
        self.properties = properties
        self.geometry = geometry
    }
}

/// What went wrong while reading GeoJSON, and where.
public struct GeoJSONError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, e.g. "expected ',' or ']' in coordinates" or "longitude 200.5 is outside [-180, 180]".
    public var message: String
    /// The 0-based index of the feature being read when it failed, if any.
    public var featureIndex: Int?
    /// The byte offset in the input where it failed (0 for errors opening the input).
    public var byteOffset: Int
    /// The 1-based line number where it failed.
    public var line: Int
    /// What kind of failure it is.
    public var kind: Kind

    /// What kind of failure a ``GeoJSONError`` is.
    public enum Kind: Sendable, Equatable {
        /// The input is not valid GeoJSON (or cannot be opened).
        case syntax
        /// A piece of the input is larger than one of the ``InputLimits``.
        case limit
        /// The bytes could not be read: a read error, or compressed data that is corrupt. The message
        /// is the byte source's error.
        case source
    }

    /// Creates an error.
    public init(message: String, featureIndex: Int? = nil, byteOffset: Int = 0, line: Int = 1, kind: Kind = .syntax) {
        self.message = message
        self.featureIndex = featureIndex
        self.byteOffset = byteOffset
        self.line = line
        self.kind = kind
    }

    /// The error with its location, e.g. "feature 12, line 3, byte 48213: expected ',' or ']' in coordinates";
    /// a source's error as it is (it says where in the compressed data).
    public var description: String {
        if kind == .source { return message }
        if let featureIndex {
            return "feature \(featureIndex), line \(line), byte \(byteOffset): \(message)"
        }
        return "line \(line), byte \(byteOffset): \(message)"
    }
}
