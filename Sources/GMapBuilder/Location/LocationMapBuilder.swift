import GMap

/// What `gmap build --osm` made and counted.
public struct LocationMapSummary: Sendable {
    /// Streets written (one line feature per name and class, ways joined at shared ends).
    public var roads = 0
    /// Named highway ways those streets were made of.
    public var roadWays = 0
    /// Named areas, places, addresses and intersections written (main intersections among them).
    public var areas = 0, places = 0, addresses = 0, intersections = 0, mainIntersections = 0
    /// Ways that reference nodes absent from the extract (kept in their present pieces), and those references.
    public var waysWithAbsentNodes = 0, absentNodeReferences = 0
    /// Multipolygon relations skipped because members are missing or rings do not close.
    public var incompleteRelations = 0
    /// Bytes of each layer's sections, in file order.
    public var layerBytes: [(layer: String, bytes: Int)] = []
    /// The file's length.
    public var byteCount = 0

    /// An empty summary.
    public init() {}
}

/// Builds a location map (format 3.1) from OpenStreetMap data: layers `areas` (polygons), `roads`
/// (lines), `places`, `addresses` and `intersections` (points), named as ``MapLocationSource`` reads them.
public enum LocationMapBuilder {
    /// The map's bytes and what it holds. `includePaths` keeps footways, cycleways, paths and
    /// steps as roads too; `metadata` goes to the map's `META` section (source file, licence).
    public static func build(_ data: OSMData, includePaths: Bool = false,
                             metadata: [(key: String, value: String)] = []) throws -> (bytes: [UInt8], summary: LocationMapSummary) {
        throw BuildError("location maps are not built yet")
    }
}
