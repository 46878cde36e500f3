/// A leaf tile of the directory: its entry, its bounds and how many splits lead to it.
///
/// `entry` is normalised across format versions: kind in the top two bits; for a record its payload
/// is the record's offset from the start of `TILE`, for a covered tile the feature index.
@usableFromInline
struct LocatedTile {
    @usableFromInline var entry: UInt32
    @usableFromInline var bounds: TileBounds
    @usableFromInline var depth: Int

    @inlinable init(entry: UInt32, bounds: TileBounds, depth: Int) {
        self.entry = entry
        self.bounds = bounds
        self.depth = depth
    }
}

/// Something wrong in the directory, found while walking it: where, and what.
struct DirectoryProblem {
    /// The tile, as "tile (column c, row r)" followed by " part (i, j)" for each split.
    var tile: String
    /// The absolute byte offset of the entry or node at fault.
    var offset: Int
    /// What is wrong.
    var reason: String
}

/// The one walker of a map's tile directory, for every format version: the top-level entries in
/// `GRID` (UInt32 entries, or format 3's packed form: ``topEntry(column:row:in:)``), then split
/// tiles through sub-directories of `u32` entries (formats 1 and 2) or through directory nodes in
/// `TILE` (format 3, Spec/FORMAT.md "Directory nodes").
///
/// ``locate(_:in:)`` descends to the one leaf holding a point, in O(depth) reads; ``walk`` visits
/// every leaf meeting a rectangle (all of them for a survey, an export or a verification). Every
/// read is bounds-checked; a directory that points outside its section, too deep, or (format 3)
/// not strictly backwards ends that branch as if empty.
@usableFromInline
struct DirectoryWalker {
    @usableFromInline let storage: MapStorage

    @inlinable init(storage: MapStorage) {
        self.storage = storage
    }

    // MARK: One top-level tile

    /// The entry of top-level tile (`column`, `row`), normalised as in ``LocatedTile``, in either
    /// form of the top-level directory (``TopDirectory``): a UInt32 load, or (packed) its 2-bit kind,
    /// its rank from the block's sample and one bit field. Nil when the tile is outside the grid or
    /// its entry cannot be read inside `GRID`.
    @inlinable
    // Forced inline for the fewest instructions; not in an Embedded build, where the stack counts.
    #if !hasFeature(Embedded)
    @inline(__always)
    #endif
    static func topEntry(column: Int64, row: Int64, in storage: MapStorage) -> UInt32? {
        let layout = storage.layout, grid = layout.grid, top = layout.topDirectory
        guard column >= 0, row >= 0, column < grid.columns, row < grid.rows else { return nil }
        // Below columns × rows, which open checked against GRID's length: no overflow, no trap on 32-bit.
        let tile = row &* grid.columns &+ column
        guard top.isPacked else {
            let offset = top.offset &+ Int(truncatingIfNeeded: tile) &* 4
            return ByteSpan(base: storage.base, count: top.end).getUInt32(at: offset)
        }
        return top.packedEntry(tile: UInt64(truncatingIfNeeded: tile), base: storage.base)
    }

    // MARK: One child of a split tile

    /// The entry of part `slot` of the split tile whose entry is `entry`, normalised as in
    /// ``LocatedTile``, or nil when it cannot be read or points where it must not.
    @inlinable static func child(of entry: UInt32, slot: Int64, in storage: MapStorage) -> UInt32? {
        let layout = storage.layout
        let factor = layout.grid.splitFactor
        let span = ByteSpan(base: storage.base, count: storage.count)
        let payload = TileEntry.payload(of: entry)
        guard layout.usesNodes else {
            let subdirectory = Int64(payload)
            guard subdirectory < layout.grid.subdirectoryCount else { return nil }
            return span.getUInt32(at: layout.subdirectoryOffset + Int(subdirectory * factor * factor + slot) * 4)
        }
        // Format 3: a node at TILE + payload: kinds (2 bits a child), a width byte, packed payloads.
        let tilesOffset = layout.tilesOffset, tilesLength = layout.tilesEnd - layout.tilesOffset
        let node = Int(payload)
        let kindBytes = FormatLayout.DirectoryNode.kindBytes(factor: Int(factor))
        guard node < tilesLength, tilesLength - node > kindBytes else { return nil }
        let start = tilesOffset + node
        let kindByte = Int(slot >> 2), kindShift = UInt8((slot & 3) * 2)
        let kind = UInt32((storage.base.load(fromByteOffset: start + kindByte, as: UInt8.self) >> kindShift) & 3)
        guard kind != TileEntry.emptyKind else { return 0 }
        // Rank: the children before `slot` that have a payload (kind ≠ 0).
        var rank = 0
        for index in 0..<kindByte {
            rank += Self.nonEmptyKinds(storage.base.load(fromByteOffset: start + index, as: UInt8.self))
        }
        let partial = storage.base.load(fromByteOffset: start + kindByte, as: UInt8.self) & ((1 << kindShift) &- 1)
        rank += Self.nonEmptyKinds(partial)
        let width = UInt64(storage.base.load(fromByteOffset: start + kindBytes, as: UInt8.self))
        guard width <= UInt64(FormatLayout.DirectoryNode.maximumPayloadWidth) else { return nil }
        let payloadStart = start + kindBytes + 1
        let bit = UInt64(rank) * width
        let available = tilesLength - node - kindBytes - 1
        guard (bit + width + 7) / 8 <= UInt64(available) else { return nil }
        let fields = BitFields(base: storage.base, start: payloadStart, byteCount: available, spanEnd: layout.tilesEnd)
        let value = fields.field(at: bit, width: width)
        if kind == TileEntry.coveredKind {
            guard value <= UInt64(TileEntry.maximumPayload) else { return nil }
            return TileEntry.make(kind: kind, payload: UInt32(value))
        }
        // Records and nodes lie strictly before the node.
        guard value >= 1, value <= UInt64(node) else { return nil }
        return TileEntry.make(kind: kind, payload: UInt32(node - Int(value)))
    }

    /// How many of the four 2-bit kinds in `byte` are not empty.
    @inlinable static func nonEmptyKinds(_ byte: UInt8) -> Int {
        ((byte | (byte >> 1)) & 0x55).nonzeroBitCount
    }

    // MARK: Locating a point

    /// The leaf tile holding `point`, or nil when the point lies outside the grid or the directory is corrupt.
    @inlinable
    // In an Embedded build a call of its own, whose frame is gone when the record is read (the
    // lookup's deepest frame stays small); elsewhere inlined for the fewest instructions.
    #if hasFeature(Embedded)
    @inline(never)
    #else
    @inline(__always)
    #endif
    static func locate(_ point: GridPoint, in storage: MapStorage) -> LocatedTile? {
        guard let top = topTile(holding: point, in: storage) else { return nil }
        return leaf(below: top, holding: point, in: storage)
    }

    /// The top-level tile holding `point` and its entry (normalised as in ``LocatedTile``), or nil
    /// when the point lies outside the grid or the entry cannot be read. A lookup whose tile is empty
    /// or wholly one feature's is answered from this alone, without the tile's bounds.
    @inlinable
    #if !hasFeature(Embedded)
    @inline(__always)
    #endif
    static func topTile(holding point: GridPoint, in storage: MapStorage) -> (column: Int64, row: Int64, entry: UInt32)? {
        let grid = storage.layout.grid
        let dx = point.x - grid.originX, dy = point.y - grid.originY
        guard dx >= 0, dy >= 0 else { return nil }
        let column = dx / grid.tileWidth, row = dy / grid.tileHeight
        guard column < grid.columns, row < grid.rows, let entry = topEntry(column: column, row: row, in: storage) else { return nil }
        return (column, row, entry)
    }

    /// The leaf tile holding `point` below the top-level tile `top` (``topTile(holding:in:)``'s), or
    /// nil when the directory is corrupt.
    @inlinable
    static func leaf(below top: (column: Int64, row: Int64, entry: UInt32), holding point: GridPoint, in storage: MapStorage) -> LocatedTile? {
        let grid = storage.layout.grid
        let west = grid.originX + top.column * grid.tileWidth
        let south = grid.originY + top.row * grid.tileHeight
        var bounds = TileBounds(west: west, south: south, east: west + grid.tileWidth, north: south + grid.tileHeight)
        var entry = top.entry
        var depth = 0
        let factor = grid.splitFactor
        while TileEntry.kind(of: entry) == TileEntry.splitKind {
            depth += 1
            guard depth <= Int(grid.maximumDepth), bounds.width >= factor, bounds.height >= factor else { return nil }
            let partColumn = TileBounds.partIndex(offset: point.x - bounds.west, length: bounds.width, factor: factor)
            let partRow = TileBounds.partIndex(offset: point.y - bounds.south, length: bounds.height, factor: factor)
            guard let next = child(of: entry, slot: partRow * factor + partColumn, in: storage) else { return nil }
            bounds = bounds.part(column: partColumn, row: partRow, factor: factor)
            entry = next
        }
        return LocatedTile(entry: entry, bounds: bounds, depth: depth)
    }

    // MARK: Walking many leaves

    /// Calls `body` with every leaf tile whose closed rectangle `meets` accepts, top-level tiles row
    /// by row from the south-west and the parts of a split tile in slot order, depth first; a split
    /// tile is entered only when `meets` accepts it. `problem` hears of every entry or node that
    /// cannot be read or points where it must not (that branch is skipped). A sound file visits
    /// each split tile once: visits beyond the grid's split-tile count are refused as a loop.
    ///
    /// `south` and `north`, in units, limit the top-level rows looked at (a nearby search's box) so
    /// that the walk does not test every row of a world grid.
    func walk(south: Int64 = .min, north: Int64 = .max,
              meeting meets: (TileBounds) -> Bool = { _ in true },
              problem: (DirectoryProblem) -> Void = { _ in },
              _ body: (LocatedTile) -> Void) {
        let columns = storage.layout.grid.columns
        walk(rows: rows(south: south, north: north), columns: (columns > 0 ? 0...(columns - 1) : nil, nil), meeting: meets, problem: problem, body)
    }

    /// Calls `body` with every leaf tile that meets `box`, in the order of
    /// ``walk(south:north:meeting:problem:_:)``, looking only at the top-level tiles whose rows and
    /// columns can meet it (a 50 km box on a world grid of 1° tiles: a few of its 60,000).
    func walk(within box: SearchBox, problem: (DirectoryProblem) -> Void = { _ in }, _ body: (LocatedTile) -> Void) {
        let first = columns(west: box.west0, east: box.east0)
        let second = box.hasSecondRange ? columns(west: box.west1, east: box.east1) : nil
        // Columns in ascending order within a row, as the whole-row walk visits them.
        let ordered = if let first, let second, second.lowerBound < first.lowerBound { (second, first) } else { (first, second) }
        // A closure, not the method `box.meets`: the method as a value needs a context on the heap.
        walk(rows: rows(south: box.south, north: box.north), columns: ordered, meeting: { box.meets($0) }, problem: problem, body)
    }

    /// The top-level rows that can meet the latitudes `south`…`north` (units), one row of margin
    /// each side; empty when none.
    private func rows(south: Int64, north: Int64) -> ClosedRange<Int64>? {
        let grid = storage.layout.grid
        let firstRow = south == .min ? 0 : max(0, Self.floorDivide(south - grid.originY, grid.tileHeight) - 1)
        let lastRow = north == .max ? grid.rows - 1 : min(grid.rows - 1, Self.floorDivide(north - grid.originY, grid.tileHeight) + 1)
        return firstRow <= lastRow ? firstRow...lastRow : nil
    }

    /// The top-level columns whose closed rectangles can meet the longitudes `west`…`east` (units);
    /// every other column lies wholly west or east of them. Nil when none.
    private func columns(west: Int64, east: Int64) -> ClosedRange<Int64>? {
        let grid = storage.layout.grid
        // Column c spans originX + c·w … originX + (c + 1)·w: it meets only when c ≥ ⌊(west − originX) / w⌋ − 1
        // and c ≤ ⌊(east − originX) / w⌋.
        let first = max(0, Self.floorDivide(west &- grid.originX, grid.tileWidth) - 1)
        let last = min(grid.columns - 1, Self.floorDivide(east &- grid.originX, grid.tileWidth))
        return first <= last ? first...last : nil
    }

    /// ⌊a / b⌋ for b > 0.
    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let quotient = a / b
        return a % b < 0 ? quotient - 1 : quotient
    }

    private func walk(rows: ClosedRange<Int64>?, columns: (ClosedRange<Int64>?, ClosedRange<Int64>?),
                      meeting meets: (TileBounds) -> Bool, problem: (DirectoryProblem) -> Void, _ body: (LocatedTile) -> Void) {
        guard let rows else { return }
        let layout = storage.layout, grid = layout.grid
        var state = WalkState(splitLimit: layout.splitTileLimit)
        func visit(row: Int64, columns: ClosedRange<Int64>?) {
            guard let columns else { return }
            for column in columns {
                let west = grid.originX + column * grid.tileWidth, south = grid.originY + row * grid.tileHeight
                let bounds = TileBounds(west: west, south: south, east: west + grid.tileWidth, north: south + grid.tileHeight)
                guard meets(bounds) else { continue }
                let offset = layout.topDirectory.entryOffset(tile: UInt64(row * grid.columns + column))
                state.top = (column, row, bounds)
                guard let entry = Self.topEntry(column: column, row: row, in: storage) else {
                    problem(DirectoryProblem(tile: state.name(of: bounds, depth: 0, factor: grid.splitFactor), offset: offset, reason: layout.topDirectory.isPacked
                        ? "its packed entry cannot be read: its payload lies outside GRID or is wider than 30 bits"
                        : "the entry lies outside GRID"))
                    continue
                }
                self.visit(entry: entry, at: offset, bounds: bounds, depth: 0, state: &state, meets: meets, problem: problem, body)
            }
        }
        for row in rows {
            visit(row: row, columns: columns.0)
            visit(row: row, columns: columns.1)
        }
    }

    /// What a walk carries down: the split tiles seen so far and the top-level tile being visited.
    private struct WalkState {
        var splitLimit: Int64
        var splitsSeen: Int64 = 0
        /// The top-level tile and its bounds.
        var top: (column: Int64, row: Int64, bounds: TileBounds) = (0, 0, TileBounds(west: 0, south: 0, east: 0, north: 0))

        /// The tile of `bounds`, `depth` splits below the top-level tile, for messages: "tile (column
        /// c, row r) part (i, j) …". The parts are found again from the bounds, as a point is
        /// located, so that a walk keeps no list of them (a walk allocates nothing).
        func name(of bounds: TileBounds, depth: Int, factor: Int64) -> String {
            var text = "tile (column \(top.column), row \(top.row))", current = top.bounds
            for _ in 0..<depth where current.width >= factor && current.height >= factor {
                let column = TileBounds.partIndex(offset: bounds.west - current.west, length: current.width, factor: factor)
                let row = TileBounds.partIndex(offset: bounds.south - current.south, length: current.height, factor: factor)
                text += " part (\(column), \(row))"
                current = current.part(column: column, row: row, factor: factor)
            }
            return text
        }
    }

    private func visit(entry: UInt32, at offset: Int, bounds: TileBounds, depth: Int, state: inout WalkState,
                       meets: (TileBounds) -> Bool, problem: (DirectoryProblem) -> Void, _ body: (LocatedTile) -> Void) {
        guard TileEntry.kind(of: entry) == TileEntry.splitKind else {
            body(LocatedTile(entry: entry, bounds: bounds, depth: depth))
            return
        }
        let layout = storage.layout, grid = layout.grid, factor = grid.splitFactor
        state.splitsSeen += 1
        let reason: String? =
            state.splitsSeen > state.splitLimit ? "more split tiles are reached than the \(state.splitLimit) the grid counts or TILE can hold (entries loop back or share nodes)" :
            depth >= Int(grid.maximumDepth) ? "split below the deepest level \(grid.maximumDepth) that the grid allows" :
            bounds.width < factor || bounds.height < factor ? "a tile \(bounds.width) × \(bounds.height) units is too small to split \(factor) × \(factor)" :
            nil
        if let reason { return problem(DirectoryProblem(tile: state.name(of: bounds, depth: depth, factor: factor), offset: offset, reason: reason)) }
        let nodeOffset = layout.usesNodes ? layout.tilesOffset + Int(TileEntry.payload(of: entry)) : offset
        for row in 0..<factor {
            for column in 0..<factor {
                let part = bounds.part(column: column, row: row, factor: factor)
                guard meets(part) else { continue }
                guard let child = Self.child(of: entry, slot: row * factor + column, in: storage) else {
                    problem(DirectoryProblem(tile: state.name(of: part, depth: depth + 1, factor: factor), offset: nodeOffset, reason: layout.usesNodes
                        ? "its node child cannot be read, or points outside TILE or not strictly backwards"
                        : "its sub-directory entry cannot be read"))
                    continue
                }
                visit(entry: child, at: nodeOffset, bounds: part, depth: depth + 1, state: &state, meets: meets, problem: problem, body)
            }
        }
    }
}
