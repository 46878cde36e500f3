/// One leaf tile of a map's grid: a top-level tile that is not split, or a part of a split tile
/// that is not split further.
public struct LeafTile: Sendable, Equatable {
    /// What a leaf tile holds.
    public enum Kind: Sendable, Equatable {
        /// No feature touches the tile.
        case empty
        /// One feature covers the whole tile: the feature's index.
        case covered(featureIndex: Int)
        /// A tile record: features with their edges (see ``GMap/forEachEdge(in:_:)``).
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
    /// Whether the feature contains the tile's south-east corner (the record's corner bit).
    public var cornerInside: Bool
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
        let layout = self.layout, span = self.span, grid = layout.grid
        var walk = LeafTileWalk(storage: storage)
        for row in 0..<grid.rows {
            for column in 0..<grid.columns {
                guard let entry = span.getUInt32(at: layout.directoryOffset + Int(row * grid.columns + column) * 4) else {
                    walk.unreadableEntries += 1
                    continue
                }
                let west = grid.originX + column * grid.tileWidth, south = grid.originY + row * grid.tileHeight
                walk.visit(entry: entry, bounds: TileBounds(west: west, south: south, east: west + grid.tileWidth, north: south + grid.tileHeight),
                           depth: 0, body)
            }
        }
        return walk.unreadableEntries
    }

    /// Calls `body` with each edge of each feature in a record tile, in file order (features
    /// smallest area first, then their runs). Returns false when the record is corrupt; the edges
    /// before the damage have been given. A tile that is not a record has no edges and returns true.
    @discardableResult
    public func forEachEdge(in tile: LeafTile, _ body: (TileEdge) -> Void) -> Bool {
        guard tile.kind == .record else { return true }
        var reader = TileRecordReader(storage: storage, entry: tile.entry, bounds: tile.bounds)
        return reader.edges(body)
    }
}

/// The recursion of ``GMap/forEachLeafTile(_:)``.
private struct LeafTileWalk {
    let storage: MapStorage
    var unreadableEntries = 0
    var splitTilesSeen: Int64 = 0

    init(storage: MapStorage) { self.storage = storage }

    mutating func visit(entry: UInt32, bounds: TileBounds, depth: Int, _ body: (LeafTile) -> Void) {
        let layout = storage.layout, span = ByteSpan(base: storage.base, count: storage.count)
        switch TileEntry.kind(of: entry) {
        case TileEntry.emptyKind:
            body(LeafTile(bounds: bounds, depth: depth, kind: .empty, entry: entry))
        case TileEntry.coveredKind:
            let index = Int(TileEntry.payload(of: entry))
            guard index < layout.featureCount else { unreadableEntries += 1; return }
            body(LeafTile(bounds: bounds, depth: depth, kind: .covered(featureIndex: index), entry: entry))
        case TileEntry.recordKind:
            body(LeafTile(bounds: bounds, depth: depth, kind: .record, entry: entry))
        default:
            // A sound file visits each sub-directory once; more visits mean entries loop back.
            splitTilesSeen += 1
            let factor = layout.grid.splitFactor
            let subdirectory = Int64(TileEntry.payload(of: entry))
            guard splitTilesSeen <= layout.grid.subdirectoryCount, depth < Int(layout.grid.maximumDepth),
                  subdirectory < layout.grid.subdirectoryCount, bounds.width >= factor, bounds.height >= factor else {
                unreadableEntries += 1
                return
            }
            for row in 0..<factor {
                for column in 0..<factor {
                    let slot = subdirectory * factor * factor + row * factor + column
                    guard let child = span.getUInt32(at: layout.subdirectoryOffset + Int(slot) * 4) else {
                        unreadableEntries += 1
                        continue
                    }
                    visit(entry: child, bounds: bounds.part(column: column, row: row, factor: factor), depth: depth + 1, body)
                }
            }
        }
    }
}

extension TileRecordReader {
    /// Walks the record, giving every edge with its feature; false when the record is corrupt.
    mutating func edges(_ body: (TileEdge) -> Void) -> Bool {
        guard let entryCount = cursor.readVarint(), entryCount <= UInt64(cursor.remaining) else { return false }
        var featureIndex: UInt64 = 0
        for _ in 0..<entryCount {
            guard let head = cursor.readVarint(), let runCount = cursor.readVarint(),
                  runCount <= UInt64(cursor.remaining) else { return false }
            featureIndex = featureIndex &+ (head >> 1)
            guard featureIndex < UInt64(featureCount) else { return false }
            let feature = Int(featureIndex), corner = (head & 1) == 1
            for _ in 0..<runCount {
                var first = true
                let problem = readRun { ax, ay, bx, by in
                    body(TileEdge(featureIndex: feature, cornerInside: corner, startsRun: first, startX: ax, startY: ay, endX: bx, endY: by))
                    first = false
                }
                guard problem == nil else { return false }
            }
        }
        return true
    }
}
