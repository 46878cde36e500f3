// The edges of layers of polygons, tile by tile: what `gmap export` and `gmap render` read.

/// One edge of one feature in a tile record, in grid units.
public struct TileEdge: Sendable, Equatable {
    /// The index of the feature the edge belongs to.
    public var featureIndex: Int
    /// Whether the feature contains the tile's south-east corner (the record's corner bit; with
    /// several parity groups, that of the edge's group).
    public var cornerInside: Bool
    /// Format 3.2: the position of the edge's slot among its feature's slots in the record (0 for
    /// the first). The reference writer puts a feature's parity group `g` in its slot `g` in every
    /// record, so this is the edge's parity group: the polygons of one group do not overlap, those
    /// of different groups may (Spec/FORMAT.md 8.8). 0 for every other file.
    public var part: Int = 0
    /// Whether the edge is the first of its run. Within a run each edge follows the one before it
    /// in its ring, so an edge that does not start a run has the previous edge given as its ring
    /// predecessor; a run starts where the ring's previous edge does not touch the tile, or at the
    /// ring's first edge.
    public var startsRun: Bool
    /// The edge's start.
    public var startX: Int64, startY: Int64
    /// The edge's end.
    public var endX: Int64, endY: Int64
}

extension GMap {
    /// Calls `body` with each edge of each feature in a record tile, in file order (runs in record
    /// order; an edge shared by several features, stored once in format 3, is given once for each
    /// of them, smallest area first, all in its stored direction). Returns false when the record is
    /// corrupt; the edges before the damage have been given. A tile that is not a record has no
    /// edges and returns true. On a layer of lines or points (format 3.1), whose records this reader
    /// does not read, a record gives no edges and returns false.
    @discardableResult
    public func forEachEdge(in tile: LeafTile, _ body: (TileEdge) -> Void) -> Bool {
        guard tile.kind == .record else { return true }
        guard layout.kind == .polygons else { return false }
        var reader = TileRecordReader(storage: storage, entry: tile.entry, bounds: tile.bounds)
        var slots: [RecordSlot] = []
        var parts: [Int] = []
        var window = (first: 0, mask: UInt64(0))
        var edges: [(Int64, Int64, Int64, Int64)] = []
        // A run's edges are given feature by feature, so that each feature's edges of the run follow each other.
        func flush() {
            var pending = window.mask
            while pending != 0 {
                let index = window.first + pending.trailingZeroBitCount
                pending &= pending - 1
                guard index < slots.count else { continue }
                for (position, edge) in edges.enumerated() {
                    body(TileEdge(featureIndex: slots[index].featureIndex, cornerInside: slots[index].cornerInside, part: parts[index],
                                  startsRun: position == 0, startX: edge.0, startY: edge.1, endX: edge.2, endY: edge.3))
                }
            }
            edges.removeAll(keepingCapacity: true)
        }
        let sound = reader.walk(slot: { slot in
            // A slot repeating the previous slot's feature (3.2) is that feature's next part.
            parts.append(slots.last?.featureIndex == slot.featureIndex ? parts[parts.count - 1] + 1 : 0)
            slots.append(slot)
        }, run: { first, mask in
            flush()
            window = (first, mask)
        }, edge: { ax, ay, bx, by in
            edges.append((ax, ay, bx, by))
        })
        flush()
        return sound
    }
}
