/// One leaf tile of a map's grid: a top-level tile that is not split, or a part of a split tile
/// that is not split further.
public struct LeafTile: Sendable, Equatable {
    /// What a leaf tile holds.
    public enum Kind: Sendable, Equatable {
        /// No feature touches the tile.
        case empty
        /// One feature covers the whole tile: the feature's index.
        case covered(featureIndex: Int)
        /// A tile record: features with their edges (see ``GMap/forEachEdge(in:_:)``), or in a
        /// layer of lines or points their segments or points (``GMap/forEachSegment(in:_:)``,
        /// ``GMap/forEachPoint(in:_:)``).
        case record
    }

    /// The tile's extent in grid units (west and south inclusive).
    public let bounds: TileBounds
    /// How many splits lead to the tile: 0 for a top-level tile.
    public let depth: Int
    /// What the tile holds.
    public let kind: Kind
    /// The directory entry the tile was read from.
    let entry: UInt32
}

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
    /// Calls `body` with every leaf tile of the grid: top-level tiles row by row from the south-west,
    /// and the parts of a split tile in the same order, depth first.
    ///
    /// Walks the whole directory, so it takes time in proportion to the file. Returns how many
    /// directory entries could not be read or pointed where they must not (0 for a sound file);
    /// those tiles are skipped.
    @discardableResult
    public func forEachLeafTile(_ body: (LeafTile) -> Void) -> Int {
        let featureCount = layout.features.count
        var unreadable = 0
        // swift-format-ignore: OnlyOneTrailingClosureArgument
        DirectoryWalker(storage: storage).walk(problem: { _ in unreadable += 1 }) { leaf in
            switch TileEntry.kind(of: leaf.entry) {
            case TileEntry.emptyKind:
                body(LeafTile(bounds: leaf.bounds, depth: leaf.depth, kind: .empty, entry: leaf.entry))
            case TileEntry.coveredKind:
                let index = Int(TileEntry.payload(of: leaf.entry))
                guard index < featureCount else { unreadable += 1; return }
                body(LeafTile(bounds: leaf.bounds, depth: leaf.depth, kind: .covered(featureIndex: index), entry: leaf.entry))
            default:
                body(LeafTile(bounds: leaf.bounds, depth: leaf.depth, kind: .record, entry: leaf.entry))
            }
        }
        return unreadable
    }

    /// The absolute byte offset of a record tile's record in the file (nil for other tiles): how the
    /// verifier's mutation tests find the bytes of one record.
    @_spi(Testing) public func recordOffset(of tile: LeafTile) -> Int? {
        guard tile.kind == .record else { return nil }
        return layout.tilesOffset + Int(TileEntry.payload(of: tile.entry))
    }

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
