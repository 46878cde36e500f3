/// What the features of a layer are: format 3 records it in `GRID` byte 26 of each layer.
///
/// Format 3.0 stores polygons. Lines (streets) and points (places) are defined so that they can be
/// added in 3.1 without another format break; a reader refuses a layer whose kind it does not know.
///
/// A map's layout reads the kind once, when the map is opened (``GMap/geometryKind``). The facts
/// that differ by kind are here, each one switch; the code that differs by kind is in a folder per
/// kind, reached through one conformance per kind that one switch picks (`GeometryKind.withRecords`
/// in the reader, `GeometryKind.builder` in the builder). A new kind is a case here and a case in
/// each switch over it, which the compiler lists: none of them has a `default`. The folders and
/// the switches: "Layer kinds" in Docs/Internals.md#layout.
public enum GeometryKind: UInt8, Sendable, CaseIterable {
    /// Polygons answered by containment (the even-odd rule).
    case polygons = 0
    /// Open polylines (3.1): records hold open runs and no corner bits.
    case lines = 1
    /// Single points (3.1): records hold points.
    case points = 2

    /// Whether this reader answers queries for layers of this kind (format 3.1: all three).
    public var isReadable: Bool { true }

    /// The encodings this reader reads, as the refusal of another one names them
    /// (``GMapError/unsupportedGeometry(layer:kind:)``): ``LayerEncoding/readableNames``.
    public static var readableKinds: String { LayerEncoding.readableNames }

    /// The kind's name for messages: "polygons", "lines" or "points".
    public var name: String {
        switch self {
        case .polygons: return "polygons"
        case .lines: return "lines"
        case .points: return "points"
        }
    }

    /// One part of a feature of this kind, for messages: "polygon", "line" or "point".
    public var partName: String {
        switch self {
        case .polygons: return "polygon"
        case .lines: return "line"
        case .points: return "point"
        }
    }

    /// What a tile record stores of the features, one of them: "edge", "segment" or "point".
    public var itemName: String {
        switch self {
        case .polygons: return "edge"
        case .lines: return "segment"
        case .points: return "point"
        }
    }

    /// What a tile record stores of the features: "edges", "segments" or "points" (`gmap info`
    /// and `gmap build` count them per tile).
    public var itemsName: String { itemName + "s" }

    /// Whether the features enclose areas: a point is answered by the features that contain it
    /// (lookups, nearby searches, placemarks), a tile may be covered whole by one feature, the
    /// features are ordered by their areas, and their label points lie inside them. Features of
    /// the other kinds have no area: they are answered by the nearest ones
    /// (``GMap/nearestLines(latitude:longitude:within:limit:)``,
    /// ``GMap/nearestPoints(latitude:longitude:within:limit:)``).
    public var answersContainment: Bool {
        switch self {
        case .polygons: return true
        case .lines, .points: return false
        }
    }

    /// Whether a part's consecutive vertices are joined (a polygon's rings, a line's segments) or
    /// stand alone (points): what the builder and the reader of lines and points ask, rather than
    /// naming one kind and letting every other take the other branch.
    public var joinsVertices: Bool {
        switch self {
        case .polygons, .lines: return true
        case .points: return false
        }
    }

    /// The minor version of format 3 that defines the kind: a file with a layer of this kind is
    /// at least 3.`minorVersion` (Spec/FORMAT.md 8.7).
    public var minorVersion: UInt16 { plainEncoding.minorVersion.rawValue }

    /// The kind's first encoding, with neither bands nor a point table: `GRID` byte 26 is its raw value.
    public var plainEncoding: LayerEncoding {
        switch self {
        case .polygons: return .polygons
        case .lines: return .lines
        case .points: return .points
        }
    }
}
