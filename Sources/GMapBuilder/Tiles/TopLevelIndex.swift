import GMap

/// The top-level grid and, for each of its tiles, the edges that meet it and the features whose
/// tile corner is inside: everything the tile encoder starts from.
struct TopLevelIndex {
    let grid: GridInfo
    /// Edge ids per tile, in compressed rows: tile `t` has `edgeIds[edgeStarts[t]..<edgeStarts[t+1]]`.
    var edgeStarts: [Int]
    var edgeIds: [UInt32]
    /// Per tile, the slot keys (feature ranks, or parity groups in rank order) whose south-east tile
    /// corner is inside them (sorted).
    var cornerInside: [[UInt32]]

    /// The tile number of a column and row.
    @inline(__always) func tile(column: Int64, row: Int64) -> Int { Int(row * grid.columns + column) }

    /// The bounds of a top-level tile.
    func bounds(column: Int64, row: Int64) -> TileBounds {
        let west = grid.originX + column * grid.tileWidth, south = grid.originY + row * grid.tileHeight
        return TileBounds(west: west, south: south, east: west + grid.tileWidth, north: south + grid.tileHeight)
    }

    /// Lays the grid over `extent` (the union of the boxes of features with rings) and fills the index.
    /// `key` gives the slot key of the ring of a vertex: its feature's rank, or with parity groups
    /// (``PartGroups``) the rank-ordered number of its feature's group.
    init(polygons: PolygonSet, key: (Int) -> UInt32, options: BuildOptions, extent: TileBounds, tileSize: Int64) {
        let q = options.quantizer
        let originX = -q.halfTurn + ((extent.west + q.halfTurn) / tileSize) * tileSize
        let originY = -q.quarterTurn + ((extent.south + q.quarterTurn) / tileSize) * tileSize
        grid = GridInfo(
            originX: originX, originY: originY, tileWidth: tileSize, tileHeight: tileSize,
            columns: (extent.east - originX) / tileSize + 1, rows: (extent.north - originY) / tileSize + 1,
            splitFactor: Int64(options.splitFactor), maximumDepth: 0, subdirectoryCount: 0
        )
        let tileCount = Int(grid.columns * grid.rows)
        edgeStarts = []
        edgeIds = []
        cornerInside = Array(repeating: [], count: tileCount)
        bucketEdges(polygons)
        markInsideCorners(polygons, key: key)
    }

    /// Calls `body` with every tile whose closed rectangle the edge from vertex `index` meets.
    private func forEachTile(touchedByEdgeAt index: Int, _ polygons: PolygonSet, _ body: (Int) -> Void) {
        let ax = Int64(polygons.xs[index]), ay = Int64(polygons.ys[index])
        let bx = Int64(polygons.xs[index + 1]), by = Int64(polygons.ys[index + 1])
        let w = grid.tileWidth, h = grid.tileHeight
        // Columns whose closed x-range meets the edge's x-range.
        func range(_ low: Int64, _ high: Int64, origin: Int64, size: Int64, count: Int64) -> ClosedRange<Int64> {
            var first = (low - origin) / size
            if (low - origin) % size == 0, first > 0 { first -= 1 }
            let last = min(count - 1, (high - origin) / size)
            return first...max(first, last)
        }
        let columns = range(min(ax, bx), max(ax, bx), origin: grid.originX, size: w, count: grid.columns)
        for column in columns {
            // The edge's y-range inside this column's closed x-range, with a unit of slack.
            let west = grid.originX + column * w, east = west + w
            var low = min(ay, by), high = max(ay, by)
            if ax != bx {
                let t0 = Double(max(west, min(ax, bx)) - ax) / Double(bx - ax)
                let t1 = Double(min(east, max(ax, bx)) - ax) / Double(bx - ax)
                let y0 = Double(ay) + t0 * Double(by - ay), y1 = Double(ay) + t1 * Double(by - ay)
                low = max(low, Int64(min(y0, y1).rounded(.down)) - 1)
                high = min(high, Int64(max(y0, y1).rounded(.up)) + 1)
            }
            for row in range(low, high, origin: grid.originY, size: h, count: grid.rows) {
                if Geometry.segment(ax, ay, bx, by, touches: bounds(column: column, row: row)) {
                    body(tile(column: column, row: row))
                }
            }
        }
    }

    private mutating func bucketEdges(_ polygons: PolygonSet) {
        let tileCount = Int(grid.columns * grid.rows)
        var counts = [Int](repeating: 0, count: tileCount + 1)
        for index in 0..<polygons.vertexCount where polygons.hasEdge(at: index) {
            forEachTile(touchedByEdgeAt: index, polygons) { counts[$0 + 1] += 1 }
        }
        for tile in 0..<tileCount { counts[tile + 1] += counts[tile] }
        edgeStarts = counts
        var next = counts
        var ids = [UInt32](repeating: 0, count: counts[tileCount])
        for index in 0..<polygons.vertexCount where polygons.hasEdge(at: index) {
            forEachTile(touchedByEdgeAt: index, polygons) { tile in
                ids[next[tile]] = UInt32(index)
                next[tile] += 1
            }
        }
        edgeIds = ids
    }

    /// For every row boundary, runs the even-odd rule for each tile's south-east corner at once:
    /// an edge crossing the boundary east of a corner flips that corner's parity.
    private mutating func markInsideCorners(_ polygons: PolygonSet, key: (Int) -> UInt32) {
        // (feature rank, first column whose corner is NOT west of the crossing) per row boundary.
        var crossings = [[(rank: UInt32, column: Int32)]](repeating: [], count: Int(grid.rows))
        let w = grid.tileWidth, h = grid.tileHeight
        for index in 0..<polygons.vertexCount where polygons.hasEdge(at: index) {
            let ax = Int64(polygons.xs[index]), ay = Int64(polygons.ys[index])
            let bx = Int64(polygons.xs[index + 1]), by = Int64(polygons.ys[index + 1])
            guard ay != by else { continue }
            let low = min(ay, by), high = max(ay, by)
            // Rows whose south edge y satisfies low <= y < high.
            var row = max(0, (low - grid.originY + h - 1) / h)
            while row < grid.rows {
                let south = grid.originY + row * h
                if south >= high { break }
                // Find the first column c whose corner (east_c, south) is not crossed (east_c >= crossing x).
                let crossingX = Double(ax) + Double(south - ay) * Double(bx - ax) / Double(by - ay)
                var column = Int64(((crossingX - Double(grid.originX)) / Double(w)).rounded(.down)) - 1
                column = min(max(column, 0), grid.columns)
                while column > 0, !EvenOddRule.crossesEastRay(pointX: grid.originX + column * w, pointY: south, ax: ax, ay: ay, bx: bx, by: by) {
                    column -= 1
                }
                while column < grid.columns, EvenOddRule.crossesEastRay(pointX: grid.originX + (column + 1) * w, pointY: south, ax: ax, ay: ay, bx: bx, by: by) {
                    column += 1
                }
                crossings[Int(row)].append((key(index), Int32(column)))
                row += 1
            }
        }
        for row in 0..<Int(grid.rows) {
            var list = crossings[row]
            if list.isEmpty { continue }
            crossings[row] = []
            list.sort { $0.rank != $1.rank ? $0.rank < $1.rank : $0.column < $1.column }
            var start = 0
            while start < list.count {
                var end = start
                while end < list.count, list[end].rank == list[start].rank { end += 1 }
                // Corner c is inside when an odd number of crossings lie east of it: crossings with column > c.
                var parity = false
                var cursor = end - 1
                for column in stride(from: Int(grid.columns) - 1, through: 0, by: -1) {
                    while cursor >= start, Int(list[cursor].column) > column {
                        parity.toggle()
                        cursor -= 1
                    }
                    if parity { cornerInside[row * Int(grid.columns) + column].append(list[start].rank) }
                }
                start = end
            }
        }
    }
}
