// The one table of format 3's minor versions and layer encodings: `gmap --version`, the
// accepted `--format` values and their help, the reader's decoding of `GRID` byte 26 and the
// builder's choice of minor version all derive from it (Spec/CHANGELOG.md says the same in prose).

/// A minor version of format 3 and what it adds; a file is written as the least minor version
/// that defines everything it holds, and every minor version can hold what the earlier ones may.
public enum FormatMinorVersion: UInt16, CaseIterable, Comparable, Sendable {
    /// 3.0: layers of polygons.
    case polygons = 0
    /// 3.1: layers of lines and of points (Spec/FORMAT.md 8.7).
    case linesAndPoints = 1
    /// 3.2: a polygon record may repeat a feature in consecutive slots, one per parity group (8.8).
    case partGroups = 2
    /// 3.3: an address index, `ADDR` (5.11).
    case addressIndex = 3
    /// 3.4: layers of compact points, whose features live in a point table (5.12).
    case compactPoints = 4
    /// 3.5: layers of banded polygons, each run with a band byte (8.5.1).
    case runBands = 5
    /// 3.6: layers of named compact points, whose name index is a lexicon (5.13).
    case lexicons = 6

    /// The newest minor version: the one the builder writes everything in.
    public static let newest = FormatMinorVersion.allCases.max() ?? .polygons

    /// "3.5".
    public var text: String { "\(FormatLayout.majorVersion).\(rawValue)" }

    /// What the version adds, for messages and `gmap build --help`: "banded polygons (a band byte a run)".
    public var addition: String {
        switch self {
        case .polygons: return "layers of polygons"
        case .linesAndPoints: return "layers of lines and of points"
        case .partGroups: return "features whose polygons overlap, answered as their union"
        case .addressIndex: return "an address index (--osm)"
        case .compactPoints: return "layers of compact points (--compact-points)"
        case .runBands: return "banded polygons: a byte a run that lets lookups skip it"
        case .lexicons: return "compact points with other names (--other-names)"
        }
    }

    /// Orders versions by their numbers.
    public static func < (left: FormatMinorVersion, right: FormatMinorVersion) -> Bool { left.rawValue < right.rawValue }
}

/// How a format 3 layer's features are encoded: `GRID` byte 26 of each layer.
///
/// Each encoding stores features of one ``GeometryKind`` and needs one minor version; a reader
/// refuses a layer whose byte is none of these (``GMapError/unsupportedGeometry(layer:kind:)``).
public enum LayerEncoding: UInt8, CaseIterable, Sendable {
    /// Polygons answered by the even-odd rule (3.0).
    case polygons = 0
    /// Open polylines (3.1): records hold open runs and no corner bits.
    case lines = 1
    /// Single points (3.1): records hold points.
    case points = 2
    /// Points whose leaf records are ranges of a point table (3.4, Spec/FORMAT.md 5.12).
    case compactPoints = 3
    /// Polygons whose runs carry a band byte (3.5, 8.5.1).
    case bandedPolygons = 4
    /// Compact points whose name index is a lexicon of every name (3.6, 5.13).
    case namedCompactPoints = 5

    /// What the features are.
    public var kind: GeometryKind {
        switch self {
        case .polygons, .bandedPolygons: return .polygons
        case .lines: return .lines
        case .points, .compactPoints, .namedCompactPoints: return .points
        }
    }

    /// The minor version that defines the encoding: a file with such a layer is at least this.
    public var minorVersion: FormatMinorVersion {
        switch self {
        case .polygons: return .polygons
        case .lines, .points: return .linesAndPoints
        case .compactPoints: return .compactPoints
        case .bandedPolygons: return .runBands
        case .namedCompactPoints: return .lexicons
        }
    }

    /// The encoding's name in messages: "banded polygons".
    public var name: String {
        switch self {
        case .polygons: return "polygons"
        case .lines: return "lines"
        case .points: return "points"
        case .compactPoints: return "compact points"
        case .bandedPolygons: return "banded polygons"
        case .namedCompactPoints: return "named compact points"
        }
    }

    /// "polygons, banded polygons, lines, points, compact points and named compact points":
    /// every encoding, by kind, as the refusal of an unknown one names them.
    public static let readableNames: String = {
        let names = allCases.sorted { ($0.kind.rawValue, $0.rawValue) < ($1.kind.rawValue, $1.rawValue) }.map { $0.name }
        return names.dropLast().joined(separator: ", ") + (names.count > 1 ? " and " : "") + (names.last ?? "")
    }()
}
