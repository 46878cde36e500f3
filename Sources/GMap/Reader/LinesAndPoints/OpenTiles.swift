// The segments and points of layers of lines and points (format 3.1), tile by tile: what
// `gmap info`, `export` and `render` read.

/// One segment of a line feature in a tile record, in grid units, in the direction it is stored.
///
/// A segment is stored whole in every leaf tile whose closed rectangle it meets, so a segment that
/// crosses tiles is given once for each of them.
public struct TileSegment: Sendable, Equatable {
    /// The index of the feature the segment belongs to.
    public var featureIndex: Int
    /// Whether the segment is the first of its run. Within a run each segment follows the one
    /// before it on its line (its start is the previous segment's end).
    public var startsRun: Bool
    /// The segment's start.
    public var startX: Int64, startY: Int64
    /// The segment's end.
    public var endX: Int64, endY: Int64
}

/// One point of a point feature in a tile record, in grid units. A point is stored in exactly
/// one leaf tile.
public struct TilePoint: Sendable, Equatable {
    /// The index of the feature the point belongs to.
    public var featureIndex: Int
    /// The point.
    public var x: Int64, y: Int64
}

extension GMap {
    /// Calls `body` with each segment of each line feature in a record tile of a layer of lines
    /// (format 3.1), in file order: runs in record order, a run's segments along its line, each
    /// run once for every feature its mask names, smallest slot first. Returns false when the
    /// record is corrupt (the segments before the damage have been given) or the layer is not a
    /// layer of lines; a tile that is not a record has no segments and returns true.
    ///
    /// Every byte read is bounds-checked; vertices outside the world end the walk as damage.
    @discardableResult
    public func forEachSegment(in tile: LeafTile, _ body: (TileSegment) -> Void) -> Bool {
        guard tile.kind == .record else { return true }
        guard layout.kind == .lines else { return false }
        var reader = TileRecordReader(storage: storage, entry: tile.entry, bounds: tile.bounds)
        var slots: [Int] = []
        var runMask: UInt64 = 0
        var run: [(Int64, Int64, Int64, Int64)] = []
        // A run's segments are given feature by feature, so that each feature's segments of the run follow each other.
        func flush() {
            var pending = runMask
            while pending != 0 {
                let slot = pending.trailingZeroBitCount
                pending &= pending &- 1
                guard slot < slots.count else { continue }
                for (position, segment) in run.enumerated() {
                    body(TileSegment(featureIndex: slots[slot], startsRun: position == 0,
                                     startX: segment.0, startY: segment.1, endX: segment.2, endY: segment.3))
                }
            }
            run.removeAll(keepingCapacity: true)
            runMask = 0
        }
        let sound = reader.walkLines(slot: { slots.append($0) }, run: flush, segment: { mask, ax, ay, bx, by in
            runMask = mask
            run.append((ax, ay, bx, by))
        })
        flush()
        return sound
    }

    /// Calls `body` with each point of a record tile of a layer of points (format 3.1), in record
    /// order. Returns false when the record is corrupt (the points before the damage have been
    /// given) or the layer is not a layer of points; a tile that is not a record returns true.
    ///
    /// Every byte read is bounds-checked; a point outside the world ends the walk as damage.
    @discardableResult
    public func forEachPoint(in tile: LeafTile, _ body: (TilePoint) -> Void) -> Bool {
        guard tile.kind == .record else { return true }
        guard layout.kind == .points else { return false }
        var reader = TileRecordReader(storage: storage, entry: tile.entry, bounds: tile.bounds)
        var slots: [Int] = []
        var sound = true
        let read = reader.walkPoints(slot: { slots.append($0) }, point: { slot, x, y in
            guard slot < slots.count else { sound = false; return }
            body(TilePoint(featureIndex: slots[slot], x: x, y: y))
        })
        return read && sound
    }
}
