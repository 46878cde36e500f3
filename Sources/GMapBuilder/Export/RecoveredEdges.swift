import GMap

/// One edge of a feature's rings as read back from a map, in grid units, with the start of the
/// edge before it in its ring when the tile record says so.
///
/// `previous` equals `start` when the predecessor is unknown: an edge never starts where it ends,
/// so no real predecessor can start there.
struct RecoveredEdge: Sendable, Equatable {
    var startX: Int32, startY: Int32
    var endX: Int32, endY: Int32
    var previousX: Int32, previousY: Int32

    /// Whether the record gave the ring predecessor (the edge did not start a run).
    var hasPrevious: Bool { previousX != startX || previousY != startY }

    /// The order the chainer needs: by start vertex, then edges without a known predecessor, then
    /// by predecessor and end. Depends on the coordinates only, so it is the same for any map
    /// holding the same edges.
    static func precedes(_ a: RecoveredEdge, _ b: RecoveredEdge) -> Bool {
        if a.startX != b.startX { return a.startX < b.startX }
        if a.startY != b.startY { return a.startY < b.startY }
        let aKnown = a.hasPrevious, bKnown = b.hasPrevious
        if aKnown != bKnown { return !aKnown }
        if a.previousX != b.previousX { return a.previousX < b.previousX }
        if a.previousY != b.previousY { return a.previousY < b.previousY }
        if a.endX != b.endX { return a.endX < b.endX }
        return a.endY < b.endY
    }
}

/// Every edge of every feature of one map layer, each exactly once, read in one walk of the grid.
///
/// A record tile stores each of a feature's edges that meets the closed tile (Spec/FORMAT.md 8.4),
/// so an edge is stored in every tile it touches, once per time it occurs in the feature's rings.
/// Counting an edge only in the leaf tile whose half-open rectangle `[W, E) × [S, N)` holds its
/// start vertex counts every occurrence exactly once: the leaf tiles partition the grid, and the
/// edge touches that tile, so that tile stores it. No merging across tiles is needed.
///
/// The predecessor hints come from runs: within a run each edge follows the one before it in its
/// ring. An edge's ring predecessor ends at the edge's start, inside the same tile, so the
/// reference writer stores the two in one run unless the edge is its ring's first. The hints only
/// steer which ring an edge is chained into; any partition into runs gives a correct export.
struct RecoveredEdges: Sendable {
    /// Per feature index, its edges (in tile order until ``RingChainer`` sorts them).
    var edgesByFeature: [[RecoveredEdge]]
    /// Directory entries that could not be read (``GMap/forEachLeafTile(_:)``).
    var unreadableTiles = 0
    /// Record tiles whose record ended in damage (``GMap/forEachEdge(in:_:)`` returned false).
    var corruptRecords = 0
    /// Edges found outside the 32-bit coordinate range (only in a damaged file).
    var edgesOutOfRange = 0

    /// Reads every edge of `map`'s features.
    init(map: GMap) {
        var byFeature = [[RecoveredEdge]](repeating: [], count: map.featureCount)
        var corrupt = 0, outOfRange = 0
        unreadableTiles = map.forEachLeafTile { tile in
            guard tile.kind == .record else { return }
            let bounds = tile.bounds
            var previous: TileEdge?
            let sound = map.forEachEdge(in: tile) { edge in
                defer { previous = edge }
                guard edge.startX >= bounds.west, edge.startX < bounds.east,
                      edge.startY >= bounds.south, edge.startY < bounds.north else { return }
                guard let recovered = Self.recovered(edge, after: edge.startsRun ? nil : previous) else {
                    outOfRange += 1
                    return
                }
                byFeature[edge.featureIndex].append(recovered)
            }
            if !sound { corrupt += 1 }
        }
        edgesByFeature = byFeature
        corruptRecords = corrupt
        edgesOutOfRange = outOfRange
    }

    /// The edge in 32-bit units, its predecessor's start taken from `previous` when that edge of
    /// the same feature ends where this one starts; nil when a coordinate does not fit.
    private static func recovered(_ edge: TileEdge, after previous: TileEdge?) -> RecoveredEdge? {
        guard let startX = Int32(exactly: edge.startX), let startY = Int32(exactly: edge.startY),
              let endX = Int32(exactly: edge.endX), let endY = Int32(exactly: edge.endY) else { return nil }
        var result = RecoveredEdge(startX: startX, startY: startY, endX: endX, endY: endY, previousX: startX, previousY: startY)
        if let previous, previous.featureIndex == edge.featureIndex,
           previous.endX == edge.startX, previous.endY == edge.startY,
           let previousX = Int32(exactly: previous.startX), let previousY = Int32(exactly: previous.startY) {
            result.previousX = previousX
            result.previousY = previousY
        }
        return result
    }
}
