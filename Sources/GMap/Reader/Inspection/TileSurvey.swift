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
    /// What the layer's features are (nil for a kind this reader does not know).
    public var geometry: GeometryKind?
    /// A layer of lines or points (format 3.1): its distinct records (tiles may share one) and
    /// their bytes; nil for polygons.
    public var openRecords: (count: Int, bytes: Int)?
    /// Edges per non-empty leaf tile, sorted ascending: in a layer of lines its segments, in a
    /// layer of points its points.
    public var edgesPerTile: [Int] = []
    /// Features per non-empty leaf tile, sorted ascending.
    public var featuresPerTile: [Int] = []
    /// Format 3: the bytes of the directory and the records by what they hold; nil for older files.
    public var bytes: TileBytes?

    /// The value at fraction `q` (0…1) of a sorted list, or 0 when empty.
    public static func percentile(_ sorted: [Int], _ q: Double) -> Int {
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * q + 0.5))]
    }

    /// Surveys every tile of `map`.
    public init(of map: GMap) {
        var recordEntries: [UInt32] = []
        var recordBytes = RecordBits()
        let grid = map.grid
        geometry = map.geometryKind
        let readsRecords = map.storage.layout.kind == .polygons
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
                guard readsRecords else {
                    // A layer of lines or points (format 3.1).
                    let (features, items, sound) = Self.countOpen(map, tile)
                    if !sound { unreadableRecords += 1 }
                    recordEntries.append(tile.entry)
                    edgesPerTile.append(items)
                    featuresPerTile.append(features)
                    return
                }
                var reader = TileRecordReader(storage: map.storage, entry: tile.entry, bounds: tile.bounds)
                let (features, edges) = reader.count()
                if map.layout.usesNodes { recordEntries.append(tile.entry) }
                if !reader.isSound { unreadableRecords += 1 }
                edgesPerTile.append(edges)
                featuresPerTile.append(features)
            }
        }
        unreadableRecords += unreadableEntries
        splitTiles = Int(grid.subdirectoryCount)
        if !readsRecords { openRecords = Self.measureOpen(map, entries: recordEntries) }
        if map.layout.usesNodes, readsRecords {
            // Each distinct record once (tiles may share one).
            recordEntries.sort()
            var previous: UInt32?
            for entry in recordEntries where entry != previous {
                previous = entry
                var measuring = TileRecordReader(storage: map.storage, entry: entry, bounds: TileBounds(west: 0, south: 0, east: 0, north: 0))
                if let sizes = measuring.measureShared() { recordBytes.add(sizes) }
            }
            let layout = map.layout
            let gridLength = map.sections.first { $0.offset == UInt64(layout.directoryOffset - FormatLayout.Grid.directory) }?.length ?? 0
            // Everything in TILE that no record holds is directory nodes.
            bytes = TileBytes(directoryBytes: Int(gridLength) + (layout.tilesEnd - layout.tilesOffset) - recordBytes.totalBytes, records: recordBytes)
        }
        edgesPerTile.sort()
        featuresPerTile.sort()
    }

    /// The features, and the segments or points, of one record of a layer of lines or points, and
    /// whether it could be read to its end.
    private static func countOpen(_ map: GMap, _ tile: LeafTile) -> (features: Int, items: Int, sound: Bool) {
        var reader = TileRecordReader(storage: map.storage, entry: tile.entry, bounds: tile.bounds)
        var features = 0, items = 0
        let sound: Bool
        if map.storage.layout.kind == .lines {
            sound = reader.walkLines(slot: { _ in features += 1 }, segment: { mask, _, _, _, _ in items += mask.nonzeroBitCount })
        } else if map.storage.layout.kind == .points {
            sound = reader.walkPoints(slot: { _ in features += 1 }, point: { _, _, _ in items += 1 })
        } else {
            sound = false
        }
        return (features, items, sound && reader.isSound)
    }

    /// The distinct records among `entries` of a layer of lines or points, and their bytes (each
    /// read to its end; a damaged one counts up to the damage).
    private static func measureOpen(_ map: GMap, entries: [UInt32]) -> (count: Int, bytes: Int) {
        let lines = map.storage.layout.kind == .lines
        var count = 0, bytes = 0
        var previous: UInt32?
        for entry in entries.sorted() where entry != previous {
            previous = entry
            count += 1
            // The bounds only place the vertices, which are not kept: any tile will do.
            var reader = TileRecordReader(storage: map.storage, entry: entry, bounds: TileBounds(west: 0, south: 0, east: 0, north: 0))
            let start = reader.cursor.position
            if lines {
                reader.walkLines(checkingVertices: false, slot: { _ in }, segment: { _, _, _, _, _ in })
            } else {
                reader.walkPoints(checkingVertices: false, slot: { _ in }, point: { _, _, _ in })
            }
            bytes += reader.cursor.position - start
        }
        return (count, bytes)
    }
}

/// Format 3's tile bytes by what they hold, as ``TileSurvey`` measures them (`gmap info`) and the
/// builder counts them (its build report).
public struct TileBytes: Sendable, Equatable {
    /// `GRID` and the directory nodes in `TILE` (everything in `TILE` that no record holds).
    public var directory: Int
    /// Record heads: slot counts, feature indexes, corner bits, run counts, first-vertex widths.
    public var recordHeads: Int
    /// The runs' slot masks.
    public var masks: Int
    /// The runs' vertex counts and first vertices.
    public var firstVertices: Int
    /// The runs' 6-bit delta widths.
    public var widths: Int
    /// The packed deltas, with each run's padding bits.
    public var deltas: Int

    /// The breakdown of `directoryBytes` of directory and the records whose parts `records` counts.
    package init(directoryBytes: Int, records: RecordBits) {
        directory = directoryBytes
        recordHeads = records.headBytes
        masks = (records.maskBits + 7) / 8
        firstVertices = records.vertexCountBytes + (records.firstVertexBits + 7) / 8
        widths = (records.widthBits + 7) / 8
        deltas = records.totalBytes - recordHeads - masks - firstVertices - widths
    }
}

/// Bit counts of format 3 records, summed over distinct records.
package struct RecordBits: Sendable, Equatable {
    /// Whole records.
    package var totalBytes = 0
    /// Heads: slot count, features, corners, run count, first-vertex widths.
    package var headBytes = 0
    /// The runs' vertex count varints.
    package var vertexCountBytes = 0
    /// The runs' masks.
    package var maskBits = 0
    /// The runs' first vertices.
    package var firstVertexBits = 0
    /// The runs' 6-bit delta widths.
    package var widthBits = 0

    /// Counts of no record.
    package init() {}

    /// Counts from their parts.
    package init(totalBytes: Int, headBytes: Int, vertexCountBytes: Int, maskBits: Int, firstVertexBits: Int, widthBits: Int) {
        self.totalBytes = totalBytes
        self.headBytes = headBytes
        self.vertexCountBytes = vertexCountBytes
        self.maskBits = maskBits
        self.firstVertexBits = firstVertexBits
        self.widthBits = widthBits
    }

    /// Adds another record's counts.
    package mutating func add(_ other: RecordBits) {
        totalBytes += other.totalBytes
        headBytes += other.headBytes
        vertexCountBytes += other.vertexCountBytes
        maskBits += other.maskBits
        firstVertexBits += other.firstVertexBits
        widthBits += other.widthBits
    }
}

extension TileRecordReader {
    /// The sizes of the parts of a format 3 record, or nil when it cannot be read to its end.
    mutating func measureShared() -> RecordBits? {
        let start = cursor.position
        guard let header = readSharedHeader() else { return nil }
        var bits = RecordBits()
        bits.headBytes = cursor.position - start
        let maskBits = header.slotCount > 1 ? Int(header.slotCount) : 0
        for _ in 0..<header.runCount {
            let runStart = cursor.position
            _ = cursor.readVarint()
            bits.vertexCountBytes += cursor.position - runStart
            cursor.position = runStart
            var run = PackedRunHead()
            guard readSharedRun(header, into: &run) == nil else { return nil }
            bits.maskBits += maskBits
            bits.firstVertexBits += Int(header.firstWidthX + header.firstWidthY)
            bits.widthBits += 2 * Int(FormatLayout.SharedRecord.widthFieldBits)
        }
        bits.totalBytes = cursor.position - start
        return bits
    }
}
