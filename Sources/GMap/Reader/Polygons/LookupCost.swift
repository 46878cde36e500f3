/// What answering one point costs: how deep its tile lies and how much geometry the tile holds.
///
/// `lookupAll` tests every edge of the tile; `lookup` stops at the first (smallest) feature that
/// contains the point, so it tests at most ``edgeCount`` edges.
public struct LookupCost: Sendable, Hashable {
    /// Split levels walked below the top-level tile (0 for a top-level leaf).
    public var depth: Int
    /// Features listed in the tile (0 for an empty tile, 1 for a covered one).
    public var featureCount: Int
    /// Edges stored in the tile.
    public var edgeCount: Int

    /// A cost from its parts.
    public init(depth: Int, featureCount: Int, edgeCount: Int) {
        self.depth = depth
        self.featureCount = featureCount
        self.edgeCount = edgeCount
    }
}

extension GMap {
    /// The cost of answering the point, or nil when the coordinates are not valid or lie outside the grid.
    ///
    /// For benchmarks and tuning; walks the point's tile record once without testing the point.
    public func lookupCost(latitude: Double, longitude: Double) -> LookupCost? {
        guard storage.layout.kind == .polygons,
              let point = storage.layout.quantizer.queryPoint(latitude: latitude, longitude: longitude),
              let tile = DirectoryWalker.locate(point, in: storage) else { return nil }
        switch TileEntry.kind(of: tile.entry) {
        case TileEntry.coveredKind:
            return LookupCost(depth: tile.depth, featureCount: 1, edgeCount: 0)
        case TileEntry.recordKind:
            var reader = TileRecordReader(storage: storage, entry: tile.entry, bounds: tile.bounds)
            let (features, edges) = reader.count()
            return LookupCost(depth: tile.depth, featureCount: features, edgeCount: edges)
        default:
            return LookupCost(depth: tile.depth, featureCount: 0, edgeCount: 0)
        }
    }

    /// Calls `body` with the map's bytes, as the map reads them (mapped, owned or borrowed).
    ///
    /// The pointer is valid only inside `body`; do not write through it.
    public func withUnsafeBytes<Result, Failure: Error>(_ body: (UnsafeRawBufferPointer) throws(Failure) -> Result) throws(Failure) -> Result {
        try body(UnsafeRawBufferPointer(start: storage.base, count: storage.count))
    }
}
