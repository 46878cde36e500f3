/// A leaf tile found for a point: its directory entry and its bounds.
@usableFromInline
struct LocatedTile {
    @usableFromInline var entry: UInt32
    @usableFromInline var bounds: TileBounds
    @usableFromInline var depth: Int

    @inlinable init(entry: UInt32, bounds: TileBounds, depth: Int) {
        self.entry = entry
        self.bounds = bounds
        self.depth = depth
    }
}

/// Finds the leaf tile for a point: one directory read per level, at most `maximumDepth` levels.
@usableFromInline
enum TileLocator {
    /// The leaf tile holding `point`, or nil when the point lies outside the grid or the directory is corrupt.
    @inlinable static func locate(_ point: GridPoint, in storage: MapStorage) -> LocatedTile? {
        let span = ByteSpan(base: storage.base, count: storage.count)
        let grid = storage.layout.grid
        let directoryOffset = storage.layout.directoryOffset, subdirectoryOffset = storage.layout.subdirectoryOffset
        let dx = point.x - grid.originX, dy = point.y - grid.originY
        guard dx >= 0, dy >= 0 else { return nil }
        let column = dx / grid.tileWidth, row = dy / grid.tileHeight
        guard column < grid.columns, row < grid.rows else { return nil }
        let west = grid.originX + column * grid.tileWidth
        let south = grid.originY + row * grid.tileHeight
        var bounds = TileBounds(west: west, south: south, east: west + grid.tileWidth, north: south + grid.tileHeight)
        guard var entry = span.getUInt32(at: directoryOffset + Int(row * grid.columns + column) * 4) else { return nil }
        var depth = 0
        let factor = grid.splitFactor
        while TileEntry.kind(of: entry) == TileEntry.splitKind {
            depth += 1
            guard depth <= Int(grid.maximumDepth) else { return nil }
            let subdirectory = Int64(TileEntry.payload(of: entry))
            guard subdirectory < grid.subdirectoryCount, bounds.width >= factor, bounds.height >= factor else { return nil }
            let partColumn = TileBounds.partIndex(offset: point.x - bounds.west, length: bounds.width, factor: factor)
            let partRow = TileBounds.partIndex(offset: point.y - bounds.south, length: bounds.height, factor: factor)
            let slot = subdirectory * factor * factor + partRow * factor + partColumn
            guard let next = span.getUInt32(at: subdirectoryOffset + Int(slot) * 4) else { return nil }
            bounds = bounds.part(column: partColumn, row: partRow, factor: factor)
            entry = next
        }
        return LocatedTile(entry: entry, bounds: bounds, depth: depth)
    }
}
