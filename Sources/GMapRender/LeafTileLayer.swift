import Foundation
import GMap
import GMapCodecs

/// The map's leaf tiles as a picture sees them: which tile shade each pixel centre falls in, and
/// the tile outlines to draw.
///
/// A pixel takes the shade of the leaf tile holding its centre (the tile a lookup of that centre
/// reads). An outline is the first column or row of pixels inside a tile along its west or north
/// edge, drawn only where tiles of that edge's depth are at least ``minimumLineSpacing`` pixels
/// wide and high, and coloured by that depth: top-level lines, or the lines that cut a split tile.
struct LeafTileLayer {
    /// Tiles narrower than this many pixels get no outlines.
    static let minimumLineSpacing = 4.0

    /// A stretch of pixels on a tile's edge.
    struct Line {
        /// Vertical (a west edge) or horizontal (a north edge).
        var isVertical: Bool
        /// The column of a vertical line, the row of a horizontal one.
        var position: Int
        /// The rows (or columns) it spans.
        var span: Range<Int>
        /// Whether it cuts a split tile (false: a top-level tile's edge).
        var isSplit: Bool
    }

    /// Per pixel, row by row: a ``TileShade`` code.
    private(set) var shades: [UInt8]
    /// The outlines.
    private(set) var lines: [Line] = []
    /// Leaf tiles walked.
    private(set) var leafTileCount = 0
    /// Directory entries the walk could not read (0 for a sound map).
    private(set) var unreadableEntries = 0

    init(map: GMap, answers: PixelAnswers, window: MapWindow) {
        let width = answers.width
        shades = [UInt8](repeating: TileShade.outside.code, count: width * answers.height)
        let grid = map.grid
        let scale = window.pixelsPerUnit(map.quantizer)
        // The pixel size of a tile at each depth decides which depths get outlines.
        let factor = Double(max(grid.splitFactor, 1))
        let outlinedDepths = (0...Int(max(grid.maximumDepth, 0))).map { depth -> Bool in
            let shrink = pow(factor, Double(depth))
            return Double(grid.tileWidth) / shrink * scale.x >= Self.minimumLineSpacing
                && Double(grid.tileHeight) / shrink * scale.y >= Self.minimumLineSpacing
        }
        let columnX = answers.columnX, rowY = answers.rowY
        var shades = self.shades, lines: [Line] = [], count = 0
        unreadableEntries = map.forEachLeafTile { tile in
            count += 1
            let columns = Self.firstIndex(in: columnX, atLeast: tile.bounds.west)..<Self.firstIndex(in: columnX, atLeast: tile.bounds.east)
            let rows = Self.firstIndex(in: rowY, below: tile.bounds.north)..<Self.firstIndex(in: rowY, below: tile.bounds.south)
            guard !columns.isEmpty, !rows.isEmpty else { return }
            let shade: TileShade
            switch tile.kind {
            case .empty: shade = .empty
            case .covered: shade = .covered
            case .record: shade = tile.depth == 0 ? .mixed : .split(depth: tile.depth)
            }
            let code = shade.code
            for row in rows {
                for column in columns { shades[row * width + column] = code }
            }
            // The tile's west and north edges, when they lie inside the window.
            if columns.lowerBound > 0 {
                let depth = Self.edgeDepth(tile.bounds.west, origin: grid.originX, tileSize: grid.tileWidth, factor: grid.splitFactor, deepest: tile.depth)
                if depth < outlinedDepths.count, outlinedDepths[depth] {
                    lines.append(Line(isVertical: true, position: columns.lowerBound, span: rows, isSplit: depth > 0))
                }
            }
            if rows.lowerBound > 0 {
                let depth = Self.edgeDepth(tile.bounds.north, origin: grid.originY, tileSize: grid.tileHeight, factor: grid.splitFactor, deepest: tile.depth)
                if depth < outlinedDepths.count, outlinedDepths[depth] {
                    lines.append(Line(isVertical: false, position: rows.lowerBound, span: columns, isSplit: depth > 0))
                }
            }
        }
        self.shades = shades
        // Split lines last, so that top-level lines stay whole where they cross.
        self.lines = lines.filter(\.isSplit) + lines.filter { !$0.isSplit }
        leafTileCount = count
    }

    /// The shade at a pixel.
    @inline(__always) func shade(at index: Int) -> TileShade { TileShade(code: shades[index]) }

    /// The first index whose value is at least `value`, in increasing `values`.
    static func firstIndex(in values: [Int64], atLeast value: Int64) -> Int {
        var low = 0, high = values.count
        while low < high {
            let middle = (low + high) / 2
            if values[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The first index whose value is below `value`, in decreasing `values`.
    static func firstIndex(in values: [Int64], below value: Int64) -> Int {
        var low = 0, high = values.count
        while low < high {
            let middle = (low + high) / 2
            if values[middle] >= value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The depth of the shallowest tile boundary at grid coordinate `edge` along one axis: 0 for a
    /// top-level tile's edge, d for an edge that first appears when a tile is split d times (parts
    /// start at ⌈i·w/factor⌉, as ``TileBounds/part(column:row:factor:)`` cuts them).
    static func edgeDepth(_ edge: Int64, origin: Int64, tileSize: Int64, factor: Int64, deepest: Int) -> Int {
        guard tileSize > 0, factor > 0 else { return 0 }
        let offset = edge - origin
        var start = origin + (offset >= 0 ? offset / tileSize : (offset - tileSize + 1) / tileSize) * tileSize
        var length = tileSize
        var depth = 0
        while edge != start, depth < deepest, length >= factor {
            depth += 1
            let part = TileBounds.partIndex(offset: edge - start, length: length, factor: factor)
            let partStart = start + (part * length + factor - 1) / factor
            let partEnd = start + ((part + 1) * length + factor - 1) / factor
            start = partStart
            length = partEnd - partStart
        }
        return depth
    }
}
