/// Walks one tile record in `TILE`: its features, each with its corner bit and its runs of edges.
///
/// Every byte read is checked against the end of `TILE`, every vertex against the valid
/// coordinate range, and every count against the bytes left, so a corrupt record ends the walk
/// early ("no answer") instead of reading out of bounds.
///
/// Runs are decoded as the file's major version says: version 1 stores every vertex delta as a
/// pair of zig-zag varints; version 2 stores the first vertex as varints and the deltas bit-packed
/// at a fixed width per run (see Spec/FORMAT.md, "Tile records").
@usableFromInline
struct TileRecordReader {
    @usableFromInline var cursor: VarintCursor
    @usableFromInline let bounds: TileBounds
    @usableFromInline let featureCount: Int
    @usableFromInline let limitX: Int64
    @usableFromInline let limitY: Int64
    @usableFromInline let packedRuns: Bool
    /// The end of the whole file: packed deltas are read eight bytes at a time while that stays inside it.
    @usableFromInline let fileEnd: Int
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
        packedRuns = storage.layout.packedRuns
        fileEnd = storage.count
    }

    /// What made a run unreadable.
    @usableFromInline enum RunProblem {
        case badVertexCount, badWidths, endsEarly, outsideWorld
    }

    /// Reads one run and calls `edge(ax, ay, bx, by)` for each of its edges, in order.
    /// Returns nil when the run was read whole, or what was wrong with it.
    ///
    /// With `checkingVertices`, every vertex must lie in the world (the verifier and surveys ask
    /// for this). Lookups skip that check: a corrupt vertex can then only give a wrong answer, never
    /// a trap or a read out of bounds, because the arithmetic wraps and no read depends on it.
    @inlinable mutating func readRun(checkingVertices: Bool = true, _ edge: (Int64, Int64, Int64, Int64) -> Void) -> RunProblem? {
        packedRuns ? readPackedRun(checkingVertices: checkingVertices, edge) : readVarintRun(edge)
    }

    /// Version 1: vertex count, then every vertex as a zig-zag varint delta pair (the first from the tile's south-west corner).
    @inlinable mutating func readVarintRun(_ edge: (Int64, Int64, Int64, Int64) -> Void) -> RunProblem? {
        guard let vertexCount = cursor.readVarint(), vertexCount >= 2,
              vertexCount <= UInt64(cursor.remaining) / 2 + 1 else { return .badVertexCount }
        var x = bounds.west, y = bounds.south
        guard let firstX = cursor.readSigned(), let firstY = cursor.readSigned() else { return .endsEarly }
        x = x &+ firstX
        y = y &+ firstY
        guard isInWorld(x, y) else { return .outsideWorld }
        for _ in 1..<vertexCount {
            guard let deltaX = cursor.readSigned(), let deltaY = cursor.readSigned() else { return .endsEarly }
            let nextX = x &+ deltaX, nextY = y &+ deltaY
            guard isInWorld(nextX, nextY) else { return .outsideWorld }
            edge(x, y, nextX, nextY)
            x = nextX
            y = nextY
        }
        return nil
    }

    /// Version 2: vertex count, first vertex as zig-zag varints from the tile's south-west corner,
    /// one byte each for the bit widths of the x and y deltas, then the deltas bit-packed
    /// (x then y, zig-zag, least significant bit first), padded to a whole byte.
    @inlinable mutating func readPackedRun(checkingVertices: Bool, _ edge: (Int64, Int64, Int64, Int64) -> Void) -> RunProblem? {
        guard let vertexCount = cursor.readVarint(), vertexCount >= 2,
              vertexCount - 1 <= UInt64(cursor.remaining) &* 8 else { return .badVertexCount }
        guard let firstX = cursor.readSigned(), let firstY = cursor.readSigned() else { return .endsEarly }
        guard cursor.remaining >= 2 else { return .endsEarly }
        let widthX = UInt64(cursor.base.load(fromByteOffset: cursor.position, as: UInt8.self))
        let widthY = UInt64(cursor.base.load(fromByteOffset: cursor.position &+ 1, as: UInt8.self))
        guard widthX <= PackedRun.maximumWidth, widthY <= PackedRun.maximumWidth else { return .badWidths }
        cursor.position &+= 2
        let pairWidth = widthX &+ widthY
        // At most 8 × remaining × 66 bits: no overflow in 64 bits, and checked before it becomes an Int.
        let packedBytes = ((vertexCount &- 1) &* pairWidth &+ 7) / 8
        guard packedBytes <= UInt64(cursor.remaining) else { return .endsEarly }
        let byteCount = Int(packedBytes)
        let start = cursor.position
        cursor.position &+= byteCount
        let maskX = (UInt64(1) &<< widthX) &- 1, maskY = (UInt64(1) &<< widthY) &- 1
        var x = bounds.west &+ firstX, y = bounds.south &+ firstY
        if checkingVertices, !isInWorld(x, y) { return .outsideWorld }
        var bit: UInt64 = 0
        // start + byteCount ≤ the end of TILE ≤ fileEnd, so the difference cannot overflow.
        if pairWidth <= 56, fileEnd &- start &- byteCount >= 8 {
            // Common case: one unaligned eight-byte load holds both deltas of a vertex.
            for _ in 1..<vertexCount {
                let word = UInt64(littleEndian: cursor.base.loadUnaligned(fromByteOffset: start &+ Int(bit &>> 3), as: UInt64.self)) &>> (bit & 7)
                bit &+= pairWidth
                let nextX = x &+ ZigZag.decode(word & maskX), nextY = y &+ ZigZag.decode((word &>> widthX) & maskY)
                if checkingVertices, !isInWorld(nextX, nextY) { return .outsideWorld }
                edge(x, y, nextX, nextY)
                x = nextX
                y = nextY
            }
            return nil
        }
        for _ in 1..<vertexCount {
            let zigX = bits(at: bit, from: start, byteCount: byteCount) & maskX
            bit &+= widthX
            let zigY = bits(at: bit, from: start, byteCount: byteCount) & maskY
            bit &+= widthY
            let nextX = x &+ ZigZag.decode(zigX), nextY = y &+ ZigZag.decode(zigY)
            if checkingVertices, !isInWorld(nextX, nextY) { return .outsideWorld }
            edge(x, y, nextX, nextY)
            x = nextX
            y = nextY
        }
        return nil
    }

    /// The bits of the packed run from bit `bit` on (least significant first), as far as the
    /// run's bytes go (zero past its end): at least 33 bits, read one byte at a time.
    @inlinable func bits(at bit: UInt64, from start: Int, byteCount: Int) -> UInt64 {
        let byte = Int(bit >> 3), shift = bit & 7
        var word: UInt64 = 0
        var index = 0
        while index < 8, byte &+ index < byteCount {
            word |= UInt64(cursor.base.load(fromByteOffset: start &+ byte &+ index, as: UInt8.self)) &<< UInt64(index &* 8)
            index &+= 1
        }
        return word &>> shift
    }

    @inlinable func isInWorld(_ x: Int64, _ y: Int64) -> Bool {
        x >= -limitX && x <= limitX && y >= -limitY && y <= limitY
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
                let problem = readRun(checkingVertices: false) { ax, ay, bx, by in
                    if EvenOddRule.flipsParity(pointX: px, pointY: py, east: east, south: south, ax: ax, ay: ay, bx: bx, by: by) {
                        inside.toggle()
                    }
                }
                guard problem == nil else { isSound = false; return }
            }
            if inside, !body(Int(featureIndex)) { return }
        }
    }
}

/// Constants of version 2's bit-packed runs.
public enum PackedRun {
    /// The widest delta a run stores, in bits: zig-zag of a longitude difference of up to 360°
    /// at 1e-7° needs 33 bits.
    public static let maximumWidth: UInt64 = 33
}
