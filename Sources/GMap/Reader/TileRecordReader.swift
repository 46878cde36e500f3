/// Walks one tile record in `TILE`: its features, each with its corner bit and its runs of edges.
///
/// Every byte read is checked against the end of `TILE`, every vertex against the valid
/// coordinate range, and every count against the bytes left, so a corrupt record ends the walk
/// early ("no answer") instead of reading out of bounds.
@usableFromInline
struct TileRecordReader {
    @usableFromInline var cursor: VarintCursor
    @usableFromInline let bounds: TileBounds
    @usableFromInline let featureCount: Int
    @usableFromInline let limitX: Int64
    @usableFromInline let limitY: Int64
    /// False once the record turned out to be corrupt.
    @usableFromInline var isSound = true

    @inlinable init(storage: MapStorage, entry: UInt32, bounds: TileBounds) {
        let tilesOffset = storage.layout.tilesOffset, tilesEnd = storage.layout.tilesEnd
        // The payload (< 2^30) is added only when it lies inside TILE, so no sum can overflow a 32-bit Int.
        let payload = Int(TileEntry.payload(of: entry))
        let start = payload <= tilesEnd - tilesOffset ? tilesOffset + payload : tilesEnd
        let end = tilesEnd
        cursor = VarintCursor(base: storage.base, position: start, end: end)
        self.bounds = bounds
        featureCount = storage.layout.featureCount
        limitX = storage.layout.quantizer.halfTurn
        limitY = storage.layout.quantizer.quarterTurn
    }

    /// Reads one vertex delta and applies it, or returns false when the record is corrupt.
    @inlinable mutating func step(_ x: inout Int64, _ y: inout Int64) -> Bool {
        guard let deltaX = cursor.readSigned(), let deltaY = cursor.readSigned() else { return false }
        x = x &+ deltaX
        y = y &+ deltaY
        return x >= -limitX && x <= limitX && y >= -limitY && y <= limitY
    }

    /// Calls `body` with each feature of the record that contains `point`, in record order
    /// (smallest area first), until `body` returns false.
    @inlinable mutating func evaluate(point: GridPoint, _ body: (Int) -> Bool) {
        let px = point.x, py = point.y, east = bounds.east, south = bounds.south
        guard let entryCount = cursor.readVarint(), entryCount <= UInt64(cursor.remaining) else { isSound = false; return }
        var featureIndex: UInt64 = 0
        for _ in 0..<entryCount {
            guard let head = cursor.readVarint(), let runCount = cursor.readVarint(),
                  runCount <= UInt64(cursor.remaining) else { isSound = false; return }
            featureIndex = featureIndex &+ (head >> 1)
            guard featureIndex < UInt64(featureCount) else { isSound = false; return }
            var inside = (head & 1) == 1
            for _ in 0..<runCount {
                guard let vertexCount = cursor.readVarint(), vertexCount >= 2,
                      vertexCount <= UInt64(cursor.remaining) / 2 + 1 else { isSound = false; return }
                var x = bounds.west, y = bounds.south
                guard step(&x, &y) else { isSound = false; return }
                for _ in 1..<vertexCount {
                    var nextX = x, nextY = y
                    guard step(&nextX, &nextY) else { isSound = false; return }
                    if EvenOddRule.flipsParity(pointX: px, pointY: py, east: east, south: south,
                                               ax: x, ay: y, bx: nextX, by: nextY) {
                        inside.toggle()
                    }
                    x = nextX
                    y = nextY
                }
            }
            if inside, !body(Int(featureIndex)) { return }
        }
    }
}
