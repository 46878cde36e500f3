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
        var walk = LeafWalk(map: map)
        if let kind = map.layout.kind {
            kind.withRecords(&walk)
        } else {
            walk.use(UnknownRecords.self)
        }
        self = walk.survey
    }

    /// A survey of nothing yet.
    private init() {}

    /// Counts every leaf tile of `map`, each record as `records` reads it, then measures the
    /// distinct records.
    private mutating func count<Records: LayerRecords>(_ map: GMap, _ records: Records.Type) {
        var recordEntries: [UInt32] = []
        let grid = map.grid
        geometry = map.geometryKind
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
                let (features, items, sound) = Records.count(&reader)
                if !sound { unreadableRecords += 1 }
                recordEntries.append(tile.entry)
                edgesPerTile.append(items)
                featuresPerTile.append(features)
            }
        }
        unreadableRecords += unreadableEntries
        splitTiles = Int(grid.subdirectoryCount)
        Records.measure(recordEntries, of: map, into: &self)
        edgesPerTile.sort()
        featuresPerTile.sort()
    }

    /// The survey's walk, written once for every kind's records.
    private struct LeafWalk: LayerRecordsUser {
        let map: GMap
        var survey = TileSurvey()

        mutating func use<Records: LayerRecords>(_ records: Records.Type) {
            survey.count(map, records)
        }
    }

    /// Calls `body` with a reader at each distinct record among `entries` (tiles may share one;
    /// `entries` in any order), in file order. The reader's bounds only place the vertices, which
    /// a measure does not keep: any tile will do.
    static func forEachDistinctRecord(_ entries: [UInt32], of map: GMap, _ body: (inout TileRecordReader) -> Void) {
        var previous: UInt32?
        for entry in entries.sorted() where entry != previous {
            previous = entry
            var reader = TileRecordReader(storage: map.storage, entry: entry, bounds: TileBounds(west: 0, south: 0, east: 0, north: 0))
            body(&reader)
        }
    }
}

/// A later layer of a kind this reader does not know (a first layer of one is refused on open):
/// its records are not read, each is counted unreadable. (The survey has always measured their
/// bytes as those of points, up to the first damage; ``TileSurvey/openRecords`` still does.)
private enum UnknownRecords: LayerRecords {
    static var comparesNeighbours: Bool { false }

    static func count(_ reader: inout TileRecordReader) -> (features: Int, items: Int, sound: Bool) { (0, 0, false) }

    static func measure(_ entries: [UInt32], of map: GMap, into survey: inout TileSurvey) {
        PointRecords.measure(entries, of: map, into: &survey)
    }

    /// Not called: the verifier reports such a layer's kind and reads none of its records.
    static func check(_ reader: inout TileRecordReader, into record: inout DecodedRecord, holders: inout [UInt8],
                      problem: (RecordProblem) -> Void) -> (items: Int, sound: Bool) { (0, false) }
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
    /// The runs' band bytes (banded polygons, 3.5; 0 in other layers).
    public var bands: Int = 0
    /// The packed deltas, with each run's padding bits.
    public var deltas: Int

    /// The breakdown of `directoryBytes` of directory and the records whose parts `records` counts.
    package init(directoryBytes: Int, records: RecordBits) {
        directory = directoryBytes
        recordHeads = records.headBytes
        masks = (records.maskBits + 7) / 8
        firstVertices = records.vertexCountBytes + (records.firstVertexBits + 7) / 8
        widths = (records.widthBits + 7) / 8
        bands = records.bandBytes
        deltas = records.totalBytes - recordHeads - masks - firstVertices - widths - bands
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
    /// The runs' band bytes (banded polygons, 3.5).
    package var bandBytes = 0

    /// Counts of no record.
    package init() {}

    /// Counts from their parts.
    package init(totalBytes: Int, headBytes: Int, vertexCountBytes: Int, maskBits: Int, firstVertexBits: Int, widthBits: Int, bandBytes: Int = 0) {
        self.totalBytes = totalBytes
        self.headBytes = headBytes
        self.vertexCountBytes = vertexCountBytes
        self.maskBits = maskBits
        self.firstVertexBits = firstVertexBits
        self.widthBits = widthBits
        self.bandBytes = bandBytes
    }

    /// Adds another record's counts.
    package mutating func add(_ other: RecordBits) {
        totalBytes += other.totalBytes
        headBytes += other.headBytes
        vertexCountBytes += other.vertexCountBytes
        maskBits += other.maskBits
        firstVertexBits += other.firstVertexBits
        widthBits += other.widthBits
        bandBytes += other.bandBytes
    }
}
