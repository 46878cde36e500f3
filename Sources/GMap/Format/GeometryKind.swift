/// What the features of a layer are: format 3 records it in `GRID` byte 26 of each layer.
///
/// Format 3.0 stores polygons. Lines (streets) and points (places) are defined so that they can be
/// added in 3.1 without another format break; a reader refuses a layer whose kind it does not know.
///
/// A map's layout reads the kind once, when the map is opened (``GMap/geometryKind``). The facts
/// that differ by kind are here, each one switch. The code that differs by kind is in a folder
/// per kind (`Reader/Polygons` and `Reader/LinesAndPoints` in the reader, `Polygons` and
/// `LinesAndPoints` in the builder), reached through one conformance per kind that one switch
/// picks: the reader's records (`LayerRecords`, read whole by the survey and the verifier;
/// `GeometryKind.withRecords`) and the builder's layers (`LayerKindBuilder`: building, GeoJSON in
/// and out, the summaries' counts; `GeometryKind.builder`). The renderer sorts the layers it
/// draws by kind in one switch (`OpenLayerPainter`), geocoding gives each kind a role in one
/// switch, and the builder names each kind's GeoJSON types in one (`GeometryKind.geoJSONTypes`).
/// A new kind is a case here and a case in each of those switches, which the compiler lists:
/// none of them has a `default`.
public enum GeometryKind: UInt8, Sendable, CaseIterable {
    /// Polygons answered by containment (the even-odd rule).
    case polygons = 0
    /// Open polylines (3.1): records hold open runs and no corner bits.
    case lines = 1
    /// Single points (3.1): records hold points.
    case points = 2

    /// Whether this reader answers queries for layers of this kind (format 3.1: all three).
    public var isReadable: Bool { true }

    /// The kinds this reader reads, as the refusal of another one names them
    /// (``GMapError/unsupportedGeometry(layer:kind:)``); compact points (format 3.4) are points,
    /// banded polygons (3.5) polygons, named compact points (3.6) points.
    public static let readableKinds = "polygons, banded polygons, lines, points, compact points and named compact points"

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

    /// The minor version of format 3 that defines the kind: a file with a layer of this kind is
    /// at least 3.`minorVersion` (Spec/FORMAT.md 8.7).
    public var minorVersion: UInt16 {
        switch self {
        case .polygons: return FormatLayout.minorVersion
        case .lines, .points: return FormatLayout.minorVersionWithLinesAndPoints
        }
    }
}
