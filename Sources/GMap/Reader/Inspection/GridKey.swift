/// Grid points, tiles and undirected edges as integers that sort, for the checks that match
/// what neighbouring records store (``TileConsistencyCheck``, ``RecordRingCheck``).
///
/// A point inside the grid has both coordinates within 32 bits (the grid lies within 200° of the
/// origin, at most 2·10^9 units), so it packs into one `Int64` ordered by x, then y.
enum GridKey {
    /// The point `(x, y)` as one integer ordered by x, then y.
    static func point(_ x: Int64, _ y: Int64) -> Int64 {
        Int64(truncatingIfNeeded: x) << 32 | Int64(UInt32(truncatingIfNeeded: y) ^ 0x8000_0000)
    }

    /// The point of ``point(_:_:)``.
    static func coordinates(_ key: Int64) -> (x: Int64, y: Int64) {
        (key >> 32, Int64(Int32(bitPattern: UInt32(truncatingIfNeeded: key) ^ 0x8000_0000)))
    }

    /// A leaf by its south-west corner (leaves do not overlap).
    static func tile(_ bounds: TileBounds) -> Int64 { point(bounds.west, bounds.south) }

    /// An edge without direction: its two ends, the lower key first.
    static func edge(_ edge: DecodedRecord.Edge) -> (low: Int64, high: Int64) {
        let a = point(edge.ax, edge.ay), b = point(edge.bx, edge.by)
        return a < b ? (a, b) : (b, a)
    }
}
