/// The band byte of a run in a layer of banded polygons (format 3.5, `GRID` byte 26 = 4;
/// Spec/FORMAT.md 8.5.1): where in its leaf tile a run's vertices lie, coarsely, so that a lookup
/// can skip a run that cannot cross its path without decoding its edges.
///
/// The tile `[W, E] × [S, N]` is cut into 8 rows and 4 columns. The byte holds the row of the
/// run's lowest vertex (`low`, bits 0–2), the row of its highest vertex (`high`, bits 3–5; 7 when
/// an edge of the run crosses the tile's east side `x = E`) and the column of its easternmost
/// vertex (`reach`, bits 6–7). A vertex outside the tile counts in the nearest row or column.
public struct RunBand: Sendable, Hashable, CustomStringConvertible {
    /// `GRID` byte 26 of a layer of banded polygons: polygons whose runs carry a band byte.
    public static let geometry: UInt8 = LayerEncoding.bandedPolygons.rawValue
    /// Rows of a tile, south to north.
    public static let rows: Int64 = 8
    /// Columns of a tile, west to east.
    public static let columns: Int64 = 4

    /// The byte as stored.
    public var byte: UInt8

    /// A band from its stored byte.
    @inlinable public init(byte: UInt8) { self.byte = byte }

    /// The band of a run from the extremes of its vertices, and whether one of its edges crosses
    /// the east side (one end `x ≤ E`, the other `x > E`).
    @inlinable public init(lowestY: Int64, highestY: Int64, eastmostX: Int64, crossesEastSide: Bool, in bounds: TileBounds) {
        let low = RunBand.row(of: lowestY, in: bounds)
        let high = crossesEastSide ? UInt8(RunBand.rows - 1) : RunBand.row(of: highestY, in: bounds)
        let reach = RunBand.column(of: eastmostX, in: bounds)
        byte = low | high << 3 | reach << 6
    }

    /// The row of the vertex with the run's lowest `y`.
    @inlinable public var low: UInt8 { byte & 7 }
    /// The row of the vertex with the run's highest `y`, or 7 when the run crosses the east side.
    @inlinable public var high: UInt8 { (byte >> 3) & 7 }
    /// The column of the run's easternmost vertex.
    @inlinable public var reach: UInt8 { byte >> 6 }

    /// The band in words, for messages: "rows 1–3, column 2".
    public var description: String { "rows \(low)–\(high), column \(reach)" }

    /// The row of `y` in `bounds`: `⌊8·(y − S) / (N − S)⌋`, clamped to 0 … 7.
    @inlinable public static func row(of y: Int64, in bounds: TileBounds) -> UInt8 {
        part(of: y &- bounds.south, length: bounds.north &- bounds.south, count: rows)
    }

    /// The column of `x` in `bounds`: `⌊4·(x − W) / (E − W)⌋`, clamped to 0 … 3.
    @inlinable public static func column(of x: Int64, in bounds: TileBounds) -> UInt8 {
        part(of: x &- bounds.west, length: bounds.east &- bounds.west, count: columns)
    }

    /// `⌊count·offset / length⌋`, clamped to `0 … count − 1` (0 when the length is not positive).
    @inlinable static func part(of offset: Int64, length: Int64, count: Int64) -> UInt8 {
        guard offset > 0, length > 0 else { return 0 }
        guard offset < length else { return UInt8(count &- 1) }
        // offset < length ≤ 2^33 in a sound file; a corrupt one can only give a wrong band.
        return UInt8(truncatingIfNeeded: (offset &* count) / length)
    }
}

/// Where a query point lies in its leaf tile's rows and columns (``RunBand``), computed once per
/// record: it says which runs a lookup may skip.
@usableFromInline
struct RunBandQuery {
    /// The row and column of the point's whole units.
    @usableFromInline let row: UInt8
    @usableFromInline let column: UInt8

    /// Row and column 0, which skip no run stored without a band (``TileRecordReader/PackedRunHead/unbanded``).
    @inlinable init() {
        row = 0
        column = 0
    }

    /// The row and column of `point` (its whole units, rounded down) in `bounds`.
    @inlinable init(point: GridPoint, bounds: TileBounds) {
        row = RunBand.row(of: point.y, in: bounds)
        column = RunBand.column(of: point.x, in: bounds)
    }

    /// Whether no edge of a run with this band byte can cross the point's path (Spec/FORMAT.md
    /// 11.3): all its vertices lie north of the point; or all south of it and no edge crosses the
    /// east side; or all west of it.
    @inlinable func skips(_ band: UInt8) -> Bool {
        row < band & 7 || row > (band >> 3) & 7 || column > band >> 6
    }
}

/// The extremes of a run's vertices, gathered edge by edge, from which its band is computed
/// (``RunBand``): the builder writes it, the verifier compares the stored band with it.
public struct RunExtent: Sendable {
    /// The lowest and highest `y` and the largest `x` of the vertices added so far.
    public private(set) var lowestY: Int64
    public private(set) var highestY: Int64
    public private(set) var eastmostX: Int64
    /// Whether an edge added so far crosses the east side.
    public private(set) var crossesEastSide = false

    /// The extent of a run's first vertex alone.
    public init(x: Int64, y: Int64) {
        lowestY = y
        highestY = y
        eastmostX = x
    }

    /// Adds the edge `a → b` of the run, whose `a` was added before; `east` is the tile's east side.
    public mutating func add(_ ax: Int64, _ ay: Int64, _ bx: Int64, _ by: Int64, east: Int64) {
        lowestY = min(lowestY, by)
        highestY = max(highestY, by)
        eastmostX = max(eastmostX, bx)
        if (ax > east) != (bx > east) { crossesEastSide = true }
    }

    /// The run's band in `bounds`.
    public func band(in bounds: TileBounds) -> RunBand {
        RunBand(lowestY: lowestY, highestY: highestY, eastmostX: eastmostX, crossesEastSide: crossesEastSide, in: bounds)
    }
}
