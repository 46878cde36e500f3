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
}
