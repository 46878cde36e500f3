import GMap

/// How `gmap build` turns polygons into a map.
public struct BuildOptions: Sendable, Equatable {
    /// The properties tried, in order, for a feature's id when ``idProperty`` is nil.
    public static let automaticIdProperties = ["id", "tzid", "iso_3166_2", "iso_a2", "ISO_A2", "name"]

    /// The property whose value is the feature's id; nil picks, per feature, the first of
    /// ``automaticIdProperties`` that it has, then the Feature's own `"id"` member, then its index.
    public var idProperty: String?
    /// The properties kept in the map; nil keeps every property. The default keeps `name`.
    public var keptProperties: [String]? = ["name"]
    /// The property that lists each feature's other names (another language's name, an old
    /// name, an abbreviation: a JSON array of strings, or one string), or nil for none. A layer
    /// of compact points whose features have some is written as named compact points (3.6,
    /// Spec/FORMAT.md 5.13), whose lexicon finds a feature by every one of its names; the
    /// property itself is not kept. Other layers refuse it (keep other names there as name
    /// properties, such as `name:de`).
    public var otherNamesProperty: String?
    /// Quantization.
    public var quantizer: Quantizer = .standard
    /// Width and height of a top-level tile in units; nil lets the builder choose (see ``automaticTileSize(for:quantizer:)``).
    public var tileSize: Int64?
    /// A tile with more edges than this is split (while ``maximumDepth`` allows): distinct edges in
    /// format 3, edges stored per feature in format 2.
    public var maximumEdgesPerTile: Int = 64
    /// How many parts a split tile is cut into along each axis.
    public var splitFactor: Int = 2
    /// How many times a tile may be split.
    public var maximumDepth: Int = 12
    /// The major format version to write: 3 (the default) or 2 (with ``writesLayerIndexes``
    /// deciding between 2.1 and 2.0), for readers that predate format 3.
    public var formatMajorVersion: UInt16 = FormatLayout.majorVersion
    /// Format 3: the newest minor version the map may need (`gmap build --format 3.N`), for readers
    /// of 3.0 to 3.N. The builder uses no encoding defined later, and refuses a map that needs one.
    public var newestMinorVersion = FormatMinorVersion.newest
    /// Format 3: whether layers of polygons are written as banded polygons (3.5, Spec/FORMAT.md
    /// 8.5.1), each run with a band byte that lets a lookup skip it; setting false asks for 3.4.
    public var writesRunBands: Bool {
        get { newestMinorVersion >= LayerEncoding.bandedPolygons.minorVersion }
        set { newestMinorVersion = newValue ? .newest : min(newestMinorVersion, .compactPoints) }
    }
    /// Format 3: whether a layer of compact points whose features have other names may be written as
    /// named compact points (3.6, Spec/FORMAT.md 5.13); setting false asks for 3.5, which refuses such
    /// a layer rather than lose its other names.
    public var writesLexicons: Bool {
        get { newestMinorVersion >= LayerEncoding.namedCompactPoints.minorVersion }
        set { newestMinorVersion = newValue ? .newest : min(newestMinorVersion, .runBands) }
    }
    /// The tiling options format 2 was tuned for (48 edges, 4 × 4 splits, 6 levels): what
    /// `gmap build --format 2.1` uses unless told otherwise.
    public static let formatTwoTiling = (maximumEdgesPerTile: 48, splitFactor: 4, maximumDepth: 6)
    /// How to simplify borders before building (`--simplify`); nil keeps every vertex.
    public var simplification: Simplification?
    /// Whether to write the layer table, label points and name indexes (format 3 and 2.1). With
    /// format 2, false writes a plain format 2.0 file with one layer (`gmap build --format 2.0`).
    public var writesLayerIndexes: Bool = true
    /// Format 3: how to store the top-level directory (`--top`): UInt32 entries, packed, or
    /// (the default) packed only where the entries would be a large share of the layer.
    public var topDirectory: TopDirectoryChoice = .automatic

    /// The most bytes of one string, number and feature's properties read from GeoJSON input
    /// (`--max-string`, `--max-number`, `--max-properties`).
    public var inputLimits = InputLimits()

    /// The default options.
    public init() {}

    /// Checks the tiling options (``Setting``, in that order): split factor 2…16, depth 0…12, at
    /// least one edge per tile, a tile size above 0 and at most 20°. The first setting out of its
    /// range throws ``BuildError/outOfRange(_:value:range:)``, whose message names the option as a
    /// property, not as the command line's flag (the tool adds that).
    public func validate() throws {
        for setting in Setting.allCases {
            guard let value = setting.value(in: self) else { continue }
            let range = setting.acceptedValues(quantizer: quantizer)
            guard range.contains(value) else {
                throw BuildError.outOfRange(setting, value: value, range: range)
            }
        }
    }

    /// The split factors a build accepts.
    public static let splitFactorRange = 2...16
    /// The split depths a build accepts.
    public static let maximumDepthRange = 0...12
    /// The largest top-level tile a build accepts, in degrees (its width and height).
    public static let largestTileDegrees: Int64 = 20

    /// The candidate tile sizes, in degrees, that the automatic choice picks from.
    public static let candidateTileDegrees: [Double] = [1.0 / 64, 1.0 / 32, 1.0 / 16, 1.0 / 8, 0.25, 0.5, 1, 2, 4, 8, 16]
    /// The most top-level tiles the automatic choice allows.
    public static let automaticTileBudget: Int64 = 65_536

    /// The smallest candidate tile size (in units) whose grid over `bounds` has at most
    /// ``automaticTileBudget`` tiles: 1° for a world map, finer for a small region.
    public static func automaticTileSize(for bounds: TileBounds, quantizer: Quantizer) -> Int64 {
        for degrees in candidateTileDegrees {
            let size = max(1, Int64((degrees * Double(quantizer.unitsPerDegree)).rounded()))
            let columns = bounds.width / size + 1, rows = bounds.height / size + 1
            if columns * rows <= automaticTileBudget { return size }
        }
        return 16 * quantizer.unitsPerDegree
    }
}
