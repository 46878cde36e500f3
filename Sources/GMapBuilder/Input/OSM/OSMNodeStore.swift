/// Node positions kept compactly, for reading an extract too large to hold as ``OSMNode`` values.
///
/// Positions are kept in units of 100 nanodegrees (`Int32`), or in `Int64` nanodegrees from the
/// first position that is not a whole number of them, so they always come back exactly as the file
/// gave them. ``finish()`` sorts by id when the file did not (stably; when an id is repeated the
/// first node in file order wins, as in ``OSMData/node(id:)``) and packs the ids in blocks of 64:
/// a finished store takes about 12 bytes a node (narrow positions). The layout:
/// Docs/Internals.md#node-positions-while-reading-osm.
public struct OSMNodeStore: Sendable {
    /// Node ids while appending (in file order); emptied by ``finish()``.
    private var appended: [Int64] = []
    private var latitudes: [Int32] = []
    private var longitudes: [Int32] = []
    private var wideLatitudes: [Int64] = []
    private var wideLongitudes: [Int64] = []
    /// Whether positions are kept as `Int64` nanodegrees (a position was not a multiple of 100).
    public private(set) var isWide = false
    /// Whether the ids appended so far are strictly ascending (repeats of the last id are dropped as they come).
    private var isAscending = true
    /// After ``finish()``: each block's first id, each id's difference from its block's first, and for
    /// each block the slot of its whole ids in `wholeIDs` (-1 for a block of differences).
    private var blockFirst: [Int64] = []
    private var differences: [UInt32] = []
    private var wholeSlot: [Int32] = []
    private var wholeIDs: [Int64] = []
    private var finished = false
    private var storedCount = 0
    private static let blockSize = 64

    /// An empty store.
    public init() {}

    /// The number of nodes held.
    public var count: Int { finished ? storedCount : appended.count }

    /// Bytes the arrays hold now (capacity, not count), for memory estimates.
    public var byteCount: Int {
        appended.capacity * 8 + latitudes.capacity * 4 + longitudes.capacity * 4 + wideLatitudes.capacity * 8 + wideLongitudes.capacity * 8
            + blockFirst.capacity * 8 + differences.capacity * 4 + wholeSlot.capacity * 4 + wholeIDs.capacity * 8
    }

    /// Bytes a node takes while appending (narrow positions); a finished store takes about 12.
    public static let bytesPerNode = 16

    /// The ids held: in file order before ``finish()``, ascending and distinct after.
    public var ids: [Int64] { finished ? (0..<storedCount).map(id(at:)) : appended }

    /// Adds a node's position (nanodegrees, as ``OSMNode`` keeps them). Not after ``finish()``.
    public mutating func append(id: Int64, latitude: Int64, longitude: Int64) {
        precondition(!finished, "OSMNodeStore.append after finish")
        if isAscending, let last = appended.last {
            if id == last { return }  // a repeat: the first wins
            if id < last { isAscending = false }
        }
        if !isWide {
            if latitude % 100 == 0, longitude % 100 == 0, let lat = Int32(exactly: latitude / 100), let lon = Int32(exactly: longitude / 100) {
                appended.append(id)
                latitudes.append(lat)
                longitudes.append(lon)
                return
            }
            widen()
        }
        appended.append(id)
        wideLatitudes.append(latitude)
        wideLongitudes.append(longitude)
    }

    /// Switches to `Int64` nanodegrees.
    private mutating func widen() {
        wideLatitudes = latitudes.map { Int64($0) * 100 }
        wideLongitudes = longitudes.map { Int64($0) * 100 }
        latitudes = []
        longitudes = []
        isWide = true
    }

    /// Makes the store searchable: sorts by id when the file did not (stably, the first of a repeated
    /// id kept) and packs the ids. Call once all nodes are appended (again does nothing).
    public mutating func finish() {
        guard !finished else { return }
        var ids = appended
        appended = []
        if !isAscending {
            let order = ids.indices.sorted { ids[$0] != ids[$1] ? ids[$0] < ids[$1] : $0 < $1 }
            var kept: [Int] = []
            kept.reserveCapacity(order.count)
            for index in order where kept.last.map({ ids[$0] != ids[index] }) ?? true { kept.append(index) }
            ids = kept.map { ids[$0] }
            if isWide {
                wideLatitudes = kept.map { wideLatitudes[$0] }
                wideLongitudes = kept.map { wideLongitudes[$0] }
            } else {
                latitudes = kept.map { latitudes[$0] }
                longitudes = kept.map { longitudes[$0] }
            }
            isAscending = true
        }
        storedCount = ids.count
        let blocks = (ids.count + Self.blockSize - 1) / Self.blockSize
        blockFirst.reserveCapacity(blocks)
        wholeSlot.reserveCapacity(blocks)
        differences = [UInt32](repeating: 0, count: ids.count)
        for block in 0..<blocks {
            let start = block * Self.blockSize, end = min(start + Self.blockSize, ids.count)
            let first = ids[start]
            blockFirst.append(first)
            // Ascending ids: the span is the last minus the first, which may exceed Int64 (wrapping, read unsigned).
            if UInt64(bitPattern: ids[end - 1] &- first) <= UInt64(UInt32.max) {
                wholeSlot.append(-1)
                for index in start..<end { differences[index] = UInt32(truncatingIfNeeded: UInt64(bitPattern: ids[index] &- first)) }
            } else {
                wholeSlot.append(Int32(wholeIDs.count / Self.blockSize))
                wholeIDs.append(contentsOf: ids[start..<end])
                wholeIDs.append(contentsOf: repeatElement(Int64.max, count: Self.blockSize - (end - start)))
            }
        }
        finished = true
    }

    /// The id at `index` of a finished store.
    public func id(at index: Int) -> Int64 {
        let block = index / Self.blockSize
        let slot = wholeSlot[block]
        if slot >= 0 { return wholeIDs[Int(slot) * Self.blockSize + index % Self.blockSize] }
        return blockFirst[block] &+ Int64(differences[index])
    }

    /// The index of the node `id`, or nil when the store does not hold it. Needs ``finish()``.
    public func index(of id: Int64) -> Int? {
        blockFirst.withUnsafeBufferPointer { firsts -> Int? in
            // The last block whose first id is ≤ id.
            var low = 0, high = firsts.count
            while low < high {
                let middle = (low + high) / 2
                if firsts[middle] <= id { low = middle + 1 } else { high = middle }
            }
            guard low > 0 else { return nil }
            let block = low - 1
            let start = block * Self.blockSize, end = min(start + Self.blockSize, storedCount)
            let slot = wholeSlot[block]
            if slot >= 0 {
                return wholeIDs.withUnsafeBufferPointer { whole -> Int? in
                    let base = Int(slot) * Self.blockSize
                    var low = 0, high = end - start
                    while low < high {
                        let middle = (low + high) / 2
                        let value = whole[base + middle]
                        if value == id { return start + middle }
                        if value < id { low = middle + 1 } else { high = middle }
                    }
                    return nil
                }
            }
            let span = UInt64(bitPattern: id &- firsts[block])  // id ≥ the block's first
            guard span <= UInt64(UInt32.max) else { return nil }
            let target = UInt32(span)
            return differences.withUnsafeBufferPointer { differences -> Int? in
                var low = start, high = end
                while low < high {
                    let middle = (low + high) / 2
                    let value = differences[middle]
                    if value == target { return middle }
                    if value < target { low = middle + 1 } else { high = middle }
                }
                return nil
            }
        }
    }

    /// The position of the node at `index`, in nanodegrees.
    public func position(at index: Int) -> (latitude: Int64, longitude: Int64) {
        isWide ? (wideLatitudes[index], wideLongitudes[index]) : (Int64(latitudes[index]) * 100, Int64(longitudes[index]) * 100)
    }

    /// The node `id` (without tags), or nil when the store does not hold it. Needs ``finish()``.
    public func node(id: Int64) -> OSMNode? {
        guard let index = index(of: id) else { return nil }
        let position = position(at: index)
        return OSMNode(id: id, latitudeNanodegrees: position.latitude, longitudeNanodegrees: position.longitude)
    }
}

/// Every way's node references, compactly, for what needs all of them once the nodes are known:
/// counting references to absent nodes, and finding the (often untagged) member ways of
/// multipolygon relations, which files give after the ways.
///
/// Layout: the way ids (`Int64`), the start of each way's references in one byte buffer, and the
/// references as zigzag LEB128 varints of the difference from the previous reference (the first
/// from the previous way's first): ways' nodes are mostly near in id, so about 2 bytes a
/// reference instead of 8. Differences wrap (`&-`, `&+`), so any `Int64` ids round-trip.
public struct OSMWayReferenceStore: Sendable {
    /// Way ids, in file order.
    public private(set) var ids: [Int64] = []
    private var starts: [Int] = [0]
    private var bytes: [UInt8] = []
    private var previousFirst: Int64 = 0
    /// References held.
    public private(set) var referenceCount = 0

    /// An empty store.
    public init() {}

    /// Ways held.
    public var count: Int { ids.count }

    /// Bytes the arrays hold now (capacity), for memory estimates.
    public var byteCount: Int { ids.capacity * 8 + starts.capacity * 8 + bytes.capacity }

    /// Adds a way's references.
    public mutating func append(id: Int64, references: [Int64]) {
        ids.append(id)
        var previous = previousFirst
        if let first = references.first { previousFirst = first }
        for reference in references {
            let delta = reference &- previous
            previous = reference
            var zigzag = UInt64(bitPattern: (delta << 1) ^ (delta >> 63))
            while zigzag >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: zigzag) | 0x80)
                zigzag >>= 7
            }
            bytes.append(UInt8(zigzag))
        }
        referenceCount += references.count
        starts.append(bytes.count)
    }

    /// Calls `body` with each way's id and references, in file order (`references` is reused between calls).
    public func forEach(_ body: (_ id: Int64, _ references: [Int64]) throws -> Void) rethrows {
        var references: [Int64] = []
        var previousFirst: Int64 = 0
        try bytes.withUnsafeBufferPointer { bytes in
            for way in ids.indices {
                references.removeAll(keepingCapacity: true)
                var position = starts[way], previous = previousFirst
                let end = starts[way + 1]
                while position < end {
                    var value: UInt64 = 0, shift: UInt64 = 0
                    while true {
                        let byte = bytes[position]
                        position += 1
                        value |= UInt64(byte & 0x7F) << shift
                        if byte < 0x80 { break }
                        shift += 7
                    }
                    let delta = Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
                    previous = previous &+ delta
                    if references.isEmpty { previousFirst = previous }
                    references.append(previous)
                }
                try body(ids[way], references)
            }
        }
    }
}
