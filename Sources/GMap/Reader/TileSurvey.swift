/// Counts over every tile of a map: how many of each kind, and how many edges a lookup may test.
///
/// Unlike opening, a survey walks the whole grid and every tile record, so it takes time in
/// proportion to the file. `gmap info` prints one.
public struct TileSurvey: Sendable {
    /// Top-level tiles.
    public var topLevelTiles = 0
    /// Leaf tiles that no feature touches.
    public var emptyTiles = 0
    /// Leaf tiles wholly inside one feature.
    public var coveredTiles = 0
    /// Leaf tiles with a record (edges, or several covering features).
    public var recordTiles = 0
    /// Tiles that are split into parts.
    public var splitTiles = 0
    /// The deepest split level reached.
    public var deepestLevel = 0
    /// Records that could not be read to their end.
    public var unreadableRecords = 0
    /// Edges per non-empty leaf tile, sorted ascending.
    public var edgesPerTile: [Int] = []
    /// Features per non-empty leaf tile, sorted ascending.
    public var featuresPerTile: [Int] = []

    /// The value at fraction `q` (0…1) of a sorted list, or 0 when empty.
    public static func percentile(_ sorted: [Int], _ q: Double) -> Int {
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * q + 0.5))]
    }

    /// Surveys every tile of `map`.
    public init(of map: GMap) {
        let layout = map.layout, span = map.span, grid = layout.grid
        topLevelTiles = Int(grid.columns * grid.rows)
        for row in 0..<grid.rows {
            for column in 0..<grid.columns {
                guard let entry = span.getUInt32(at: layout.directoryOffset + Int(row * grid.columns + column) * 4) else {
                    unreadableRecords += 1
                    continue
                }
                let west = grid.originX + column * grid.tileWidth, south = grid.originY + row * grid.tileHeight
                visit(entry: entry, bounds: TileBounds(west: west, south: south, east: west + grid.tileWidth, north: south + grid.tileHeight),
                      depth: 0, storage: map.storage)
            }
        }
        edgesPerTile.sort()
        featuresPerTile.sort()
    }

    private mutating func visit(entry: UInt32, bounds: TileBounds, depth: Int, storage: MapStorage) {
        let layout = storage.layout, span = ByteSpan(base: storage.base, count: storage.count)
        deepestLevel = max(deepestLevel, depth)
        switch TileEntry.kind(of: entry) {
        case TileEntry.emptyKind:
            emptyTiles += 1
        case TileEntry.coveredKind:
            coveredTiles += 1
            edgesPerTile.append(0)
            featuresPerTile.append(1)
        case TileEntry.recordKind:
            recordTiles += 1
            var reader = TileRecordReader(storage: storage, entry: entry, bounds: bounds)
            let (features, edges) = reader.count()
            if !reader.isSound { unreadableRecords += 1 }
            edgesPerTile.append(edges)
            featuresPerTile.append(features)
        default:
            splitTiles += 1
            // A sound file visits each sub-directory once; more visits mean entries loop back.
            guard Int64(splitTiles) <= layout.grid.subdirectoryCount else {
                unreadableRecords += 1
                return
            }
            let factor = layout.grid.splitFactor
            let subdirectory = Int64(TileEntry.payload(of: entry))
            guard depth < Int(layout.grid.maximumDepth), subdirectory < layout.grid.subdirectoryCount,
                  bounds.width >= factor, bounds.height >= factor else {
                unreadableRecords += 1
                return
            }
            for row in 0..<factor {
                for column in 0..<factor {
                    let slot = subdirectory * factor * factor + row * factor + column
                    guard let child = span.getUInt32(at: layout.subdirectoryOffset + Int(slot) * 4) else {
                        unreadableRecords += 1
                        continue
                    }
                    visit(entry: child, bounds: bounds.part(column: column, row: row, factor: factor), depth: depth + 1, storage: storage)
                }
            }
        }
    }
}

extension TileRecordReader {
    /// Walks the record without a point: the number of features and of edges in it.
    mutating func count() -> (features: Int, edges: Int) {
        guard let entryCount = cursor.readVarint(), entryCount <= UInt64(cursor.remaining) else { isSound = false; return (0, 0) }
        var edges = 0
        for _ in 0..<entryCount {
            guard let _ = cursor.readVarint(), let runCount = cursor.readVarint(), runCount <= UInt64(cursor.remaining) else {
                isSound = false
                return (0, edges)
            }
            for _ in 0..<runCount {
                guard readRun({ _, _, _, _ in edges += 1 }) == nil else { isSound = false; return (0, edges) }
            }
        }
        return (Int(entryCount), edges)
    }
}
