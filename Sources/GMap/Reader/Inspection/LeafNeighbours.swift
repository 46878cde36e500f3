/// The leaf tiles around a leaf: the other leaves whose closed rectangles meet the leaf's, along
/// its four sides and at its four corners, found by locating the unit cells just outside it.
///
/// A leaf is whole units wide, so a leaf meets the closed rectangle `[W, E] × [S, N]` exactly when it
/// holds one of the cells in the columns `W − 1` and `E` (rows `S − 1 … N`) or the rows `S − 1` and
/// `N` (columns `W … E − 1`). Each walk along such a column or row jumps over the leaf it found, so
/// the cost is one ``DirectoryWalker/locate(_:in:)`` per neighbour. Cells outside the grid have no
/// leaf; a cell whose directory cannot be read is skipped to the next top-level tile.
enum LeafNeighbours {
    /// The distinct leaves around `bounds` (the leaf itself left out) whose closed rectangles meet
    /// the closed box `meeting` (a box of grid points, not empty), in no particular order.
    static func of(_ bounds: TileBounds, meeting box: TileBounds, in storage: MapStorage) -> [LocatedTile] {
        let grid = storage.layout.grid
        let gridEast = grid.originX + grid.columns * grid.tileWidth, gridNorth = grid.originY + grid.rows * grid.tileHeight
        var found: [LocatedTile] = []
        func add(_ leaf: LocatedTile) {
            guard leaf.bounds != bounds, !found.contains(where: { $0.bounds == leaf.bounds }) else { return }
            found.append(leaf)
        }
        // A cell [c, c + 1] meets the box's [low, high] when low − 1 ≤ c ≤ high.
        let firstRow = max(bounds.south - 1, grid.originY, box.south - 1), lastRow = min(bounds.north, gridNorth - 1, box.north)
        let firstColumn = max(bounds.west, grid.originX, box.west - 1), lastColumn = min(bounds.east - 1, gridEast - 1, box.east)
        /// The cells of column `x` from `firstRow` to `lastRow`.
        func walkColumn(_ x: Int64) {
            guard x >= grid.originX, x < gridEast, x >= box.west - 1, x <= box.east else { return }
            var y = firstRow
            while y <= lastRow {
                if let leaf = DirectoryWalker.locate(GridPoint(x: x, y: y), in: storage), leaf.bounds.north > y {
                    add(leaf)
                    y = leaf.bounds.north
                } else {
                    y = grid.originY + ((y - grid.originY) / grid.tileHeight + 1) * grid.tileHeight
                }
            }
        }
        /// The cells of row `y` from `firstColumn` to `lastColumn`.
        func walkRow(_ y: Int64) {
            guard y >= grid.originY, y < gridNorth, y >= box.south - 1, y <= box.north else { return }
            var x = firstColumn
            while x <= lastColumn {
                if let leaf = DirectoryWalker.locate(GridPoint(x: x, y: y), in: storage), leaf.bounds.east > x {
                    add(leaf)
                    x = leaf.bounds.east
                } else {
                    x = grid.originX + ((x - grid.originX) / grid.tileWidth + 1) * grid.tileWidth
                }
            }
        }
        walkColumn(bounds.west - 1)
        walkColumn(bounds.east)
        walkRow(bounds.south - 1)
        walkRow(bounds.north)
        return found
    }
}
