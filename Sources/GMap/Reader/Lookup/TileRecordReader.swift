/// One feature slot of a tile record: the feature, and whether it contains the tile's south-east corner.
struct RecordSlot: Equatable {
    /// The feature's index in the layer's feature table.
    var featureIndex: Int
    /// The slot's corner bit.
    var cornerInside: Bool
}

/// What is wrong with a tile record: the absolute offset of the damaged part, and what it is.
struct RecordProblem: Error {
    /// The absolute byte offset where the damaged structure starts.
    var offset: Int
    /// What is wrong, as a phrase ("run 3 ends early").
    var reason: String
}

/// The one reader of tile records, for every format version.
///
/// A record lists feature *slots* (a feature index and a corner bit each) and *runs* of edges, each
/// run counting for a set of slots given as a 64-bit mask over a window of slots. Format 3 records
/// (Spec/FORMAT.md, "Records with shared edges") have up to 64 slots and one mask per run; a
/// format 1 or 2 record is read as one slot per feature entry whose runs have the mask `1` at that
/// slot. ``walk(checkingVertices:slot:run:edge:)`` gives all of it to survey, export, render,
/// nearby search and verify; ``evaluate(point:_:)`` is the lookup's allocation-free form.
///
/// Every byte read is checked against the end of `TILE` and every count against the bytes left, so a corrupt record
/// ends the walk early ("no answer") instead of reading out of bounds. Vertices are checked against the world where
/// asked; lookups skip that check (the arithmetic wraps, so a corrupt vertex can only give a wrong answer).
@usableFromInline
struct TileRecordReader {
    @usableFromInline var cursor: VarintCursor
    @usableFromInline let bounds: TileBounds
    @usableFromInline let featureCount: Int
    @usableFromInline let limitX: Int64
    @usableFromInline let limitY: Int64
    @usableFromInline let packedRuns: Bool
    @usableFromInline let sharedEdges: Bool
    /// Format 3.2 and later: consecutive slots may repeat a feature (one slot per parity group).
    @usableFromInline let repeatsSlots: Bool
    /// A layer of banded polygons (3.5): a band byte follows each run's vertex count (``RunBand``).
    @usableFromInline let runBands: Bool
    /// The end of the whole file: packed deltas are read eight bytes at a time while that stays inside it.
    @usableFromInline let fileEnd: Int
    /// False once the record turned out to be corrupt.
    @usableFromInline var isSound = true
    /// A layer of compact points (3.4): where its point table lies (offset −1 for other layers),
    /// whose preamble ``walkPoints(checkingVertices:slot:point:problem:)`` reads again (checked on
    /// open). Two words, not the table itself, so that a lookup's reader stays small.
    @usableFromInline let compactPointsSection: (offset: Int, length: Int)

    @inlinable init(storage: MapStorage, entry: UInt32, bounds: TileBounds) {
        let tilesOffset = storage.layout.tilesOffset, tilesEnd = storage.layout.tilesEnd
        // The payload (< 2^30) is added only when it lies inside TILE, so no sum can overflow a 32-bit Int.
        let payload = Int(TileEntry.payload(of: entry))
        let start = payload <= tilesEnd - tilesOffset ? tilesOffset + payload : tilesEnd
        cursor = VarintCursor(base: storage.base, position: start, end: tilesEnd)
        self.bounds = bounds
        featureCount = storage.layout.features.count
        limitX = storage.layout.quantizer.halfTurn
        limitY = storage.layout.quantizer.quarterTurn
        packedRuns = storage.layout.packedRuns
        sharedEdges = storage.layout.usesNodes
        repeatsSlots = storage.layout.usesNodes && storage.layout.minorVersion >= FormatLayout.minorVersionWithPartGroups
        runBands = storage.layout.runBands
        fileEnd = storage.count
        compactPointsSection = storage.layout.compactPointsSection
    }

    /// What made a run unreadable.
    @usableFromInline enum RunProblem: Error {
        case badVertexCount, badWidths, endsEarly, outsideWorld, emptyMask

        /// The problem as a phrase for messages.
        var phrase: String {
            switch self {
            case .badVertexCount: return "has a bad vertex count"
            case .badWidths: return "has delta widths above \(PackedRun.maximumWidth) bits"
            case .endsEarly: return "ends early"
            case .outsideWorld: return "has a vertex outside the world"
            case .emptyMask: return "counts for no slot (its mask is zero)"
            }
        }
    }

    @inlinable func isInWorld(_ x: Int64, _ y: Int64) -> Bool {
        x >= -limitX && x <= limitX && y >= -limitY && y <= limitY
    }

    // MARK: Runs of formats 1 and 2

    /// Reads one format 1 or 2 run and calls `edge(ax, ay, bx, by)` for each of its edges, in order.
    /// Returns nil when the run was read whole, or what was wrong with it.
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
        var run = PackedRunHead()
        if let problem = readPackedRunHead(into: &run) { return problem }
        return decode(run, checkingVertices: checkingVertices, edge)
    }

    /// Reads the head of a version 2 run (``readPackedRun(checkingVertices:_:)``) into `run`, and
    /// moves the cursor past the run. Returns nil when the head was read whole, or what was wrong.
    @inlinable mutating func readPackedRunHead(into run: inout PackedRunHead) -> RunProblem? {
        guard let vertexCount = cursor.readVarint(), vertexCount >= 2,
              vertexCount - 1 <= UInt64(cursor.remaining) &* 8 else { return .badVertexCount }
        guard let firstX = cursor.readSigned(), let firstY = cursor.readSigned() else { return .endsEarly }
        guard cursor.remaining >= 2 else { return .endsEarly }
        let widthX = UInt64(cursor.base.load(fromByteOffset: cursor.position, as: UInt8.self))
        let widthY = UInt64(cursor.base.load(fromByteOffset: cursor.position &+ 1, as: UInt8.self))
        guard widthX <= PackedRun.maximumWidth, widthY <= PackedRun.maximumWidth else { return .badWidths }
        cursor.position &+= 2
        // At most 8 × remaining × 66 bits: no overflow in 64 bits, and checked before it becomes an Int.
        let packedBytes = ((vertexCount &- 1) &* (widthX &+ widthY) &+ 7) / 8
        guard packedBytes <= UInt64(cursor.remaining) else { return .endsEarly }
        run.mask = 1
        run.start = cursor.position
        run.byteCount = Int(packedBytes)
        run.firstBit = 0
        run.pairs = vertexCount &- 1
        run.widthX = widthX
        run.widthY = widthY
        run.x = bounds.west &+ firstX
        run.y = bounds.south &+ firstY
        cursor.position &+= Int(packedBytes)
        return nil
    }

    /// Decodes `pairs` packed zig-zag delta pairs from stream bit `bit` on, starting at vertex
    /// `(x, y)`, and calls `edge` for each edge: the vertex loop of format 2 and 3 runs.
    @inlinable func decodePairs(_ fields: BitFields, from bit: UInt64, pairs: UInt64, widthX: UInt64, widthY: UInt64,
                                x startX: Int64, y startY: Int64, checkingVertices: Bool,
                                _ edge: (Int64, Int64, Int64, Int64) -> Void) -> RunProblem? {
        var x = startX, y = startY
        if checkingVertices, !isInWorld(x, y) { return .outsideWorld }
        let pairWidth = widthX &+ widthY
        let maskX = BitFields.mask(widthX), maskY = BitFields.mask(widthY)
        var bit = bit
        // start + byteCount ≤ the end of TILE ≤ fileEnd, so the difference cannot overflow.
        if pairWidth <= 56, fileEnd &- fields.start &- fields.byteCount >= 8 {
            // Common case: one unaligned eight-byte load holds both deltas of a vertex.
            for _ in 0..<pairs {
                let word = UInt64(littleEndian: fields.base.loadUnaligned(fromByteOffset: fields.start &+ Int(truncatingIfNeeded: bit &>> 3),
                                                                          as: UInt64.self)) &>> (bit & 7)
                bit &+= pairWidth
                let nextX = x &+ ZigZag.decode(word & maskX), nextY = y &+ ZigZag.decode((word &>> widthX) & maskY)
                if checkingVertices, !isInWorld(nextX, nextY) { return .outsideWorld }
                edge(x, y, nextX, nextY)
                x = nextX
                y = nextY
            }
            return nil
        }
        for _ in 0..<pairs {
            let zigX = fields.field(at: bit, width: widthX)
            let zigY = fields.field(at: bit &+ widthX, width: widthY)
            bit &+= pairWidth
            let nextX = x &+ ZigZag.decode(zigX), nextY = y &+ ZigZag.decode(zigY)
            if checkingVertices, !isInWorld(nextX, nextY) { return .outsideWorld }
            edge(x, y, nextX, nextY)
            x = nextX
            y = nextY
        }
        return nil
    }

    /// Whether `point` crosses an odd number of the edges of a packed run (format 2 or 3) whose head
    /// was read: the lookup's form of ``decode(_:checkingVertices:_:)``.
    ///
    /// Only an edge whose ends lie on different sides of the line `y = point.y` or of the tile's
    /// east side can cross the path ``EvenOddRule`` counts, so each vertex is compared with those
    /// two lines once, and the exact test runs only for an edge whose ends compare differently.
    @inlinable func crossingParity(_ run: PackedRunHead, point: GridPoint, east: Int64, south: Int64) -> Bool {
        let fields = BitFields(base: cursor.base, start: run.start, byteCount: run.byteCount, spanEnd: fileEnd)
        let widthX = run.widthX, widthY = run.widthY, pairs = run.pairs, startX = run.x, startY = run.y
        let pairWidth = widthX &+ widthY
        // start + byteCount ≤ the end of TILE ≤ fileEnd, so the difference cannot overflow.
        guard pairWidth <= 56, fileEnd &- fields.start &- fields.byteCount >= 8 else {
            var odd = false
            _ = decodePairs(fields, from: run.firstBit, pairs: pairs, widthX: widthX, widthY: widthY, x: startX, y: startY,
                            checkingVertices: false) { ax, ay, bx, by in
                if EvenOddRule.flipsParity(point: point, east: east, south: south, ax: ax, ay: ay, bx: bx, by: by) { odd.toggle() }
            }
            return odd
        }
        let maskX = BitFields.mask(widthX), maskY = BitFields.mask(widthY), py = point.y
        var x = startX, y = startY, bit = run.firstBit, odd = false
        var above = y > py, beyond = x > east
        for _ in 0..<pairs {
            // One unaligned eight-byte load holds both deltas of a vertex.
            let word = UInt64(littleEndian: fields.base.loadUnaligned(fromByteOffset: fields.start &+ Int(truncatingIfNeeded: bit &>> 3),
                                                                      as: UInt64.self)) &>> (bit & 7)
            bit &+= pairWidth
            let nextX = x &+ ZigZag.decode(word & maskX), nextY = y &+ ZigZag.decode((word &>> widthX) & maskY)
            let nextAbove = nextY > py, nextBeyond = nextX > east
            if nextAbove != above || nextBeyond != beyond,
               EvenOddRule.flipsParity(point: point, east: east, south: south, ax: x, ay: y, bx: nextX, by: nextY) {
                odd.toggle()
            }
            x = nextX
            y = nextY
            above = nextAbove
            beyond = nextBeyond
        }
        return odd
    }

    // MARK: Format 3: slots, then runs with masks

    /// The fixed part of a format 3 record, read by ``readSharedHeader()``.
    @usableFromInline struct SharedHeader {
        @usableFromInline var slotCount: UInt64
        /// Where the slots' feature index varints start.
        @usableFromInline var featuresStart: Int
        @usableFromInline var corners: UInt64
        @usableFromInline var runCount: UInt64
        @usableFromInline var firstWidthX: UInt64
        @usableFromInline var firstWidthY: UInt64

        @inlinable init(slotCount: UInt64, featuresStart: Int, corners: UInt64, runCount: UInt64, firstWidthX: UInt64, firstWidthY: UInt64) {
            self.slotCount = slotCount
            self.featuresStart = featuresStart
            self.corners = corners
            self.runCount = runCount
            self.firstWidthX = firstWidthX
            self.firstWidthY = firstWidthY
        }
    }

    /// Reads slot count, feature indexes (skipped), corner bits, run count and first-vertex widths.
    @inlinable mutating func readSharedHeader() -> SharedHeader? {
        guard let slotCount = cursor.readVarint(), slotCount >= 1, slotCount <= UInt64(FormatLayout.SharedRecord.maximumSlots) else { return nil }
        let featuresStart = cursor.position
        for _ in 0..<slotCount {
            guard cursor.readVarint() != nil else { return nil }
        }
        let cornerBytes = Int(slotCount &+ 7) / 8
        guard cursor.remaining >= cornerBytes else { return nil }
        var corners: UInt64 = 0
        if fileEnd &- cursor.position >= 8 {
            // One load holds every corner byte (at most 8); the bytes after them are masked off.
            corners = UInt64(littleEndian: cursor.base.loadUnaligned(fromByteOffset: cursor.position, as: UInt64.self))
                & BitFields.mask(UInt64(cornerBytes &* 8))
        } else {
            for index in 0..<cornerBytes {
                corners |= UInt64(cursor.base.load(fromByteOffset: cursor.position &+ index, as: UInt8.self)) &<< UInt64(index &* 8)
            }
        }
        cursor.position &+= cornerBytes
        guard let runCount = cursor.readVarint(), runCount <= UInt64(cursor.remaining) else { return nil }
        var widthX: UInt64 = 0, widthY: UInt64 = 0
        if runCount > 0 {
            guard cursor.remaining >= 2 else { return nil }
            widthX = UInt64(cursor.base.load(fromByteOffset: cursor.position, as: UInt8.self))
            widthY = UInt64(cursor.base.load(fromByteOffset: cursor.position &+ 1, as: UInt8.self))
            guard widthX <= PackedRun.maximumWidth, widthY <= PackedRun.maximumWidth else { return nil }
            cursor.position &+= 2
        }
        return SharedHeader(slotCount: slotCount, featuresStart: featuresStart, corners: corners, runCount: runCount,
                            firstWidthX: widthX, firstWidthY: widthY)
    }

    /// The head of one packed run, read by ``readSharedRun(_:into:)`` (format 3) or
    /// ``readPackedRunHead(into:)`` (format 2): its mask, and where and how its vertices are
    /// stored. ``decode(_:checkingVertices:_:)`` then walks its edges.
    @usableFromInline struct PackedRunHead {
        /// The slots the run counts for (bit `i`: slot `i`; format 2: 1); never zero once read.
        @usableFromInline var mask: UInt64 = 0
        /// Where the run's bit stream starts, and its length in whole bytes.
        @usableFromInline var start = 0
        @usableFromInline var byteCount = 0
        /// The stream bit of the first delta pair, after the head.
        @usableFromInline var firstBit: UInt64 = 0
        /// The number of delta pairs: the run's vertices minus one.
        @usableFromInline var pairs: UInt64 = 0
        @usableFromInline var widthX: UInt64 = 0
        @usableFromInline var widthY: UInt64 = 0
        /// The first vertex.
        @usableFromInline var x: Int64 = 0
        @usableFromInline var y: Int64 = 0
        /// The run's band byte (``RunBand``); without bands, one that no lookup skips (rows 0 to 7, column 3).
        @usableFromInline var band: UInt8 = PackedRunHead.unbanded

        /// The band of a run stored without one: it spans every row and column, so no lookup skips it.
        @usableFromInline static let unbanded: UInt8 = 0xF8

        /// A run not read yet.
        @inlinable init() {}
    }

    /// Reads a format 3 run's vertex count and bit-stream head into `run`, and moves the cursor
    /// past the run. Returns nil when the head was read whole, or what was wrong with it.
    ///
    /// The run is filled in place rather than returned, so that the lookup's loop over runs keeps
    /// it in one place instead of copying a result through memory for every run.
    @inlinable mutating func readSharedRun(_ header: SharedHeader, into run: inout PackedRunHead) -> RunProblem? {
        guard let vertexCount = cursor.readVarint(), vertexCount >= 2,
              vertexCount - 1 <= UInt64(cursor.remaining) &* 8 else { return .badVertexCount }
        if runBands {
            guard cursor.remaining >= 1 else { return .endsEarly }
            run.band = cursor.base.load(fromByteOffset: cursor.position, as: UInt8.self)
            cursor.position &+= 1
        }
        let maskBits = header.slotCount > 1 ? header.slotCount : 0
        let widthBits = FormatLayout.SharedRecord.widthFieldBits
        let headBits = maskBits &+ header.firstWidthX &+ header.firstWidthY &+ 2 &* widthBits
        guard (headBits &+ 7) / 8 <= UInt64(cursor.remaining) else { return .endsEarly }
        let available = cursor.remaining
        let mask: UInt64, firstX: Int64, firstY: Int64, widthX: UInt64, widthY: UInt64
        var bit = maskBits
        if fileEnd &- cursor.position >= Int(truncatingIfNeeded: (headBits &+ 7) / 8) &+ 8 {
            // Common case: eight bytes can be loaded from every field's first byte. The mask starts
            // at bit 0, so one load holds all of its up to 64 bits; every other field is at most 33
            // bits wide, and a load shifted by up to 7 bits still holds 57.
            let start = cursor.position, base = cursor.base
            func word(at bit: UInt64) -> UInt64 {
                UInt64(littleEndian: base.loadUnaligned(fromByteOffset: start &+ Int(truncatingIfNeeded: bit &>> 3), as: UInt64.self)) &>> (bit & 7)
            }
            mask = maskBits > 0 ? word(at: 0) & BitFields.mask(maskBits) : 1
            firstX = ZigZag.decode(word(at: bit) & BitFields.mask(header.firstWidthX))
            bit &+= header.firstWidthX
            firstY = ZigZag.decode(word(at: bit) & BitFields.mask(header.firstWidthY))
            bit &+= header.firstWidthY
            let widths = word(at: bit)
            widthX = widths & BitFields.mask(widthBits)
            widthY = (widths &>> widthBits) & BitFields.mask(widthBits)
        } else {
            let head = BitFields(base: cursor.base, start: cursor.position, byteCount: available, spanEnd: fileEnd)
            mask = maskBits > 0 ? head.field(at: 0, width: maskBits) : 1
            firstX = ZigZag.decode(head.field(at: bit, width: header.firstWidthX))
            bit &+= header.firstWidthX
            firstY = ZigZag.decode(head.field(at: bit, width: header.firstWidthY))
            bit &+= header.firstWidthY
            widthX = head.field(at: bit, width: widthBits)
            widthY = head.field(at: bit &+ widthBits, width: widthBits)
        }
        guard mask != 0 else { return .emptyMask }
        bit &+= 2 &* widthBits
        guard widthX <= PackedRun.maximumWidth, widthY <= PackedRun.maximumWidth else { return .badWidths }
        // At most 64 + 66 + 12 + 8 × remaining × 66 bits: no overflow in 64 bits.
        let byteCount = (bit &+ (vertexCount &- 1) &* (widthX &+ widthY) &+ 7) / 8
        guard byteCount <= UInt64(available) else { return .endsEarly }
        run.mask = mask
        run.start = cursor.position
        run.byteCount = Int(byteCount)
        run.firstBit = bit
        run.pairs = vertexCount &- 1
        run.widthX = widthX
        run.widthY = widthY
        run.x = bounds.west &+ firstX
        run.y = bounds.south &+ firstY
        cursor.position &+= Int(byteCount)
        return nil
    }

    /// Calls `edge` for each edge of a packed run whose head was read.
    @inlinable func decode(_ run: PackedRunHead, checkingVertices: Bool, _ edge: (Int64, Int64, Int64, Int64) -> Void) -> RunProblem? {
        let fields = BitFields(base: cursor.base, start: run.start, byteCount: run.byteCount, spanEnd: fileEnd)
        return decodePairs(fields, from: run.firstBit, pairs: run.pairs, widthX: run.widthX, widthY: run.widthY,
                           x: run.x, y: run.y, checkingVertices: checkingVertices, edge)
    }

    // MARK: Lookup

    /// Calls `body` with each feature of the record that contains `point`, smallest area first,
    /// until `body` returns false. Allocates nothing.
    @inlinable mutating func evaluate(point: GridPoint, _ body: (Int) -> Bool) {
        if sharedEdges {
            evaluateShared(point: point, body)
        } else {
            evaluateEntries(point: point, body)
        }
    }

    /// Format 3: parity per slot in one word; slots are answered as soon as no later run can change them.
    @inlinable mutating func evaluateShared(point: GridPoint, _ body: (Int) -> Bool) {
        let east = bounds.east, south = bounds.south
        guard let header = readSharedHeader() else { isSound = false; return }
        var parity = header.corners & BitFields.mask(header.slotCount)
        var answers = SlotFeatures(base: cursor.base, position: header.featuresStart, end: cursor.end, featureCount: featureCount)
        var settled: UInt64 = 0
        var run = PackedRunHead()
        // Without bands every run has the band that spans the tile, which no query skips.
        let bands = runBands && header.runCount > 0 ? RunBandQuery(point: point, bounds: bounds) : RunBandQuery()
        for _ in 0..<header.runCount {
            guard readSharedRun(header, into: &run) == nil else { isSound = false; return }
            // Runs come by their lowest slot: every slot below it is final.
            let lowest = UInt64(run.mask.trailingZeroBitCount)
            if lowest > settled {
                let ready = parity & BitFields.mask(lowest) & ~BitFields.mask(settled)
                guard answers.report(ready, to: body) else { isSound = answers.isSound; return }
                settled = lowest
            }
            // A run whose band lies off the point's path has no edge that crosses it (8.5.1).
            if !bands.skips(run.band), crossingParity(run, point: point, east: east, south: south) { parity ^= run.mask }
        }
        _ = answers.report(parity & ~BitFields.mask(settled), to: body)
        isSound = answers.isSound
    }

    /// Formats 1 and 2: one entry per feature, its corner bit and its own runs.
    @inlinable mutating func evaluateEntries(point: GridPoint, _ body: (Int) -> Bool) {
        let east = bounds.east, south = bounds.south
        guard let entryCount = cursor.readVarint(), entryCount <= UInt64(cursor.remaining) else { isSound = false; return }
        var featureIndex: UInt64 = 0
        var run = PackedRunHead()
        for _ in 0..<entryCount {
            guard let head = cursor.readVarint(), let runCount = cursor.readVarint(),
                  runCount <= UInt64(cursor.remaining) else { isSound = false; return }
            featureIndex = featureIndex &+ (head >> 1)
            guard featureIndex < UInt64(featureCount) else { isSound = false; return }
            var inside = (head & 1) == 1
            for _ in 0..<runCount {
                if packedRuns {
                    guard readPackedRunHead(into: &run) == nil else { isSound = false; return }
                    if crossingParity(run, point: point, east: east, south: south) { inside.toggle() }
                } else {
                    let problem = readVarintRun { ax, ay, bx, by in
                        if EvenOddRule.flipsParity(point: point, east: east, south: south, ax: ax, ay: ay, bx: bx, by: by) {
                            inside.toggle()
                        }
                    }
                    guard problem == nil else { isSound = false; return }
                }
            }
            if inside, !body(Int(featureIndex)) { return }
        }
    }
}

/// The feature indexes of a format 3 record's slots, read forward as slots are answered.
@usableFromInline
struct SlotFeatures {
    @usableFromInline var cursor: VarintCursor
    @usableFromInline let featureCount: Int
    @usableFromInline var nextSlot = 0
    @usableFromInline var featureIndex: UInt64 = 0
    /// The feature reported last (none yet: `UInt64.max`), so that a feature with several slots is reported once.
    @usableFromInline var reported: UInt64 = .max
    @usableFromInline var isSound = true

    @inlinable init(base: UnsafeRawPointer, position: Int, end: Int, featureCount: Int) {
        cursor = VarintCursor(base: base, position: position, end: end)
        self.featureCount = featureCount
    }

    /// Calls `body` with the feature of each slot set in `slots` (ascending, each above the slots
    /// reported before), once per feature: slots that repeat a feature (3.2) are ORed; false when
    /// `body` asked to stop or a feature index is bad.
    @inlinable mutating func report(_ slots: UInt64, to body: (Int) -> Bool) -> Bool {
        var pending = slots
        while pending != 0 {
            let slot = pending.trailingZeroBitCount
            pending &= pending &- 1
            while nextSlot <= slot {
                guard let delta = cursor.readVarint() else { isSound = false; return false }
                featureIndex = featureIndex &+ delta
                nextSlot &+= 1
            }
            guard featureIndex < UInt64(featureCount) else { isSound = false; return false }
            // Slots of one feature (parity groups, 3.2) are consecutive: the feature is in if any is.
            guard featureIndex != reported else { continue }
            reported = featureIndex
            if !body(Int(featureIndex)) { return false }
        }
        return true
    }
}

/// Constants of the bit-packed runs of formats 2 and 3.
public enum PackedRun {
    /// The widest delta a run stores, in bits: zig-zag of a longitude difference of up to 360°
    /// at 1e-7° needs 33 bits.
    public static let maximumWidth: UInt64 = 33
}
