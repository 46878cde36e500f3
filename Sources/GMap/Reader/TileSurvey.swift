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
        let grid = map.grid
        topLevelTiles = Int(grid.columns * grid.rows)
        let unreadableEntries = map.forEachLeafTile { tile in
            deepestLevel = max(deepestLevel, tile.depth)
            switch tile.kind {
            case .empty:
                emptyTiles += 1
            case .covered:
                coveredTiles += 1
                edgesPerTile.append(0)
                featuresPerTile.append(1)
            case .record:
                recordTiles += 1
                var reader = TileRecordReader(storage: map.storage, entry: tile.entry, bounds: tile.bounds)
                let (features, edges) = reader.count()
                if !reader.isSound { unreadableRecords += 1 }
                edgesPerTile.append(edges)
                featuresPerTile.append(features)
            }
        }
        unreadableRecords += unreadableEntries
        splitTiles = Int(grid.subdirectoryCount)
        edgesPerTile.sort()
        featuresPerTile.sort()
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
