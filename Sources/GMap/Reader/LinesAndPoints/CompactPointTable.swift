// The point table of a layer of compact points (format 3.4, Spec/FORMAT.md 5.12).

/// Where the parts of a layer's point table lie, read and checked on open in O(1): the preamble,
/// the property columns, the dictionary, the blocks' offsets and the records.
@usableFromInline
struct CompactPointTable: Sendable, Equatable {
    /// The number of features (one point each).
    @usableFromInline var count: Int
    /// Every stored coordinate is a multiple of this many units.
    @usableFromInline var step: Int64
    /// The number of property columns.
    @usableFromInline var columnCount: Int
    /// Features per block: the blocks' offsets let a reader start at every `blockSize`-th record.
    @usableFromInline var blockSize: Int
    /// Absolute offsets of the columns, the dictionary entries, the blocks' offsets and the records.
    @usableFromInline var columnsOffset: Int
    @usableFromInline var dictionaryOffset: Int
    @usableFromInline var dictionaryCount: Int
    @usableFromInline var blocksOffset: Int
    @usableFromInline var recordsOffset: Int
    @usableFromInline var recordsEnd: Int

    /// The bits of a feature in a name index record (5.12): the bit width of `count − 1`, at least 1.
    var featureBits: Int { max(1, Int.bitWidth - max(0, count - 1).leadingZeroBitCount) }

    /// The number of blocks: `⌈count / blockSize⌉`.
    var blockCount: Int { (count + blockSize - 1) / blockSize }

    /// Reads and checks the preamble of the point table in `range` (section `name`): that the
    /// step, the column count and the block size are in range and that every part fits.
    static func read(_ file: ByteSpan, _ range: (offset: Int, length: Int), name: String) throws(GMapError) -> CompactPointTable {
        let field = FormatLayout.CompactPoints.self, base = range.offset
        guard range.length >= field.preambleLength,
              let count = file.getUInt32(at: base + field.count), let step = file.getUInt32(at: base + field.step),
              let columns = file.getUInt16(at: base + field.columnCount), let blockSize = file.getUInt16(at: base + field.blockSize),
              let dictionary = file.getUInt32(at: base + field.dictionaryCount),
              let recordsLength = file.getUInt32(at: base + field.recordsLength) else {
            throw .malformed(part: "section \(name)", offset: UInt64(base), reason: "shorter than its \(field.preambleLength)-byte point table preamble")
        }
        func fail(_ at: Int, _ reason: String) -> GMapError { .malformed(part: "section \(name)", offset: UInt64(base + at), reason: reason) }
        guard step >= 1, step <= UInt32(Int32.max) else { throw fail(field.step, "point step \(step) is outside 1…\(Int32.max)") }
        guard columns <= 255 else { throw fail(field.columnCount, "\(columns) property columns is more than 255") }
        guard blockSize >= 1, blockSize <= 256 else { throw fail(field.blockSize, "block size \(blockSize) is outside 1…256") }
        guard count < TileEntry.maximumPayload else { throw fail(field.count, "\(count) features is more than the format allows") }
        let blocks = (UInt64(count) + UInt64(blockSize) - 1) / UInt64(blockSize)
        let needed = UInt64(field.preambleLength) + UInt64(columns) * UInt64(field.columnLength)
            + UInt64(dictionary) * UInt64(field.dictionaryEntryLength) + blocks * 4 + UInt64(recordsLength)
        guard needed <= UInt64(range.length) else {
            throw fail(0, "\(columns) columns, \(dictionary) dictionary entries, \(blocks) blocks and \(recordsLength) bytes of records do not fit in \(range.length) bytes")
        }
        let columnsOffset = base + field.preambleLength
        let dictionaryOffset = columnsOffset + Int(columns) * field.columnLength
        let blocksOffset = dictionaryOffset + Int(dictionary) * field.dictionaryEntryLength
        let recordsOffset = blocksOffset + Int(blocks) * 4
        return CompactPointTable(count: Int(count), step: Int64(step), columnCount: Int(columns), blockSize: Int(blockSize),
                                 columnsOffset: columnsOffset, dictionaryOffset: dictionaryOffset, dictionaryCount: Int(dictionary),
                                 blocksOffset: blocksOffset, recordsOffset: recordsOffset, recordsEnd: recordsOffset + Int(recordsLength))
    }

    /// Column `column`'s key in `STRS` and the range of its dictionary entries; nil when out of range.
    func column(_ column: Int, in file: ByteSpan) -> (keyOffset: UInt32, keyLength: UInt32, dictionary: Range<Int>)? {
        guard column >= 0, column < columnCount else { return nil }
        let at = columnsOffset + column * FormatLayout.CompactPoints.columnLength
        guard let keyOffset = file.getUInt32(at: at), let keyLength = file.getUInt32(at: at + 4),
              let first = file.getUInt32(at: at + 8) else { return nil }
        var end = UInt32(dictionaryCount)
        if column + 1 < columnCount, let next = file.getUInt32(at: at + FormatLayout.CompactPoints.columnLength + 8) { end = min(end, next) }
        let start = min(Int(first), dictionaryCount)
        return (keyOffset, keyLength, start..<max(start, Int(end)))
    }
}

/// One record of a point table, decoded: the point in units, where the id lies, and where the
/// values start.
@usableFromInline
struct CompactPointRecord: Sendable {
    /// The point, in units.
    var x: Int64
    var y: Int64
    /// The id's bytes: absolute offset and length.
    var idOffset: Int
    var idLength: Int
    /// The absolute offset of the first value's tag, and of the end of the record.
    var valuesOffset: Int
    var end: Int
}

/// One value of a record: inline bytes, an entry of its column's dictionary, or none.
enum CompactValue {
    case inline(kind: UInt8, offset: Int, length: Int)
    case dictionary(Int)
    case absent
}

/// Reads a point table's records forward from the start of a block: the one way records are read.
struct CompactPointCursor {
    let table: CompactPointTable
    var cursor: VarintCursor
    /// The feature whose record is read next.
    private(set) var index: Int
    /// The previous record's point, in steps.
    private var stepX: Int64 = 0, stepY: Int64 = 0
    /// The largest coordinate, in steps, that can lie in the world: larger values are refused before
    /// they are multiplied by the step.
    private let limitX: Int64, limitY: Int64

    /// A cursor at the record of `feature`, or nil when it is not a feature of the table or a
    /// record before it in its block cannot be read.
    init?(table: CompactPointTable, file: ByteSpan, halfTurn: Int64, quarterTurn: Int64, feature: Int) {
        guard feature >= 0, feature < table.count else { return nil }
        let block = feature / table.blockSize
        guard let start = file.getUInt32(at: table.blocksOffset + block * 4),
              UInt64(start) <= UInt64(table.recordsEnd - table.recordsOffset) else { return nil }
        self.table = table
        cursor = VarintCursor(base: file.base, position: table.recordsOffset + Int(start), end: table.recordsEnd)
        index = block * table.blockSize
        limitX = halfTurn / table.step + 1
        limitY = quarterTurn / table.step + 1
        while index < feature {
            guard next() != nil else { return nil }
        }
    }

    /// This cursor moved on to the record of `feature` when that lies ahead of it in the same
    /// block (fewer records to read than from the block's start), else nil.
    func advanced(to feature: Int) -> CompactPointCursor? {
        guard feature >= index, feature / table.blockSize == index / table.blockSize else { return nil }
        var moved = self
        while moved.index < feature {
            guard moved.next() != nil else { return nil }
        }
        return moved
    }

    /// The record of feature ``index``, advancing to the next; nil at the table's end or when the
    /// record cannot be read (a varint past the records, a point far outside the world, a bad tag).
    mutating func next() -> CompactPointRecord? {
        guard index < table.count, let dx = cursor.readSigned(), let dy = cursor.readSigned() else { return nil }
        let first = index % table.blockSize == 0
        // Each part is checked before it is added: no overflow (and `magnitude`, as `abs` traps on −2⁶³).
        guard dx.magnitude <= (2 * limitX).magnitude, dy.magnitude <= (2 * limitY).magnitude else { return nil }
        let x = first ? dx : stepX + dx, y = first ? dy : stepY + dy
        guard abs(x) <= limitX, abs(y) <= limitY else { return nil }
        stepX = x
        stepY = y
        guard let idLength = cursor.readVarint(), idLength <= UInt64(cursor.remaining) else { return nil }
        let idOffset = cursor.position
        cursor.position += Int(idLength)
        let valuesOffset = cursor.position
        for _ in 0..<table.columnCount {
            guard skipValue() else { return nil }
        }
        index += 1
        return CompactPointRecord(x: x * table.step, y: y * table.step, idOffset: idOffset, idLength: Int(idLength),
                                  valuesOffset: valuesOffset, end: cursor.position)
    }

    /// Reads one value's tag and skips its bytes; false when it cannot be read.
    private mutating func skipValue() -> Bool {
        // As readValue(_:) reads it, without making the value: records are skipped more than read.
        guard let tag = cursor.readVarint() else { return false }
        let kind = tag & 7
        if kind <= 4 {
            guard tag >> 3 <= UInt64(cursor.remaining) else { return false }
            cursor.position += Int(tag >> 3)
            return true
        }
        return kind == FormatLayout.CompactPoints.dictionaryTag || kind == FormatLayout.CompactPoints.absentTag
    }

    /// Reads one value at the cursor (leaving it after the tag), or nil when the tag cannot be read,
    /// its kind is 7 or its inline bytes pass the records' end.
    static func readValue(_ cursor: inout VarintCursor) -> CompactValue? {
        guard let tag = cursor.readVarint() else { return nil }
        let kind = tag & 7, n = tag >> 3
        switch kind {
        case 0...4:
            guard n <= UInt64(cursor.remaining) else { return nil }
            return .inline(kind: UInt8(kind), offset: cursor.position, length: Int(n))
        case FormatLayout.CompactPoints.dictionaryTag:
            return .dictionary(n > UInt64(Int32.max) ? Int(Int32.max) : Int(n))
        case FormatLayout.CompactPoints.absentTag:
            return .absent
        default:
            return nil
        }
    }
}

extension GMap {
    /// The record of feature `index` of a layer of compact points, or nil (not such a layer, out of range, or unreadable).
    func compactRecord(_ index: Int) -> CompactPointRecord? {
        guard let table = storage.layout.compactPoints,
              var cursor = CompactPointCursor(table: table, file: span, halfTurn: quantizer.halfTurn,
                                                quarterTurn: quantizer.quarterTurn, feature: index) else { return nil }
        return cursor.next()
    }

    /// The key a name index record of a layer of compact points gives (5.12): the key of the id
    /// (``NameFolding/normalized(_:)``) from the start `code` says: 0, the whole key; `2w`, from
    /// its `w`-th space on (a word key); `2w + 1`, from just after it (the part after a `/`).
    /// Nil when the key has fewer than `w` spaces.
    static func compactKey(of id: String, start code: Int) -> [UInt8]? {
        let whole = NameFolding.normalized(id)
        guard code > 0 else { return whole }
        var spaces = 0
        for (position, byte) in whole.enumerated() where byte == 0x20 {
            spaces += 1
            if spaces == code / 2 { return Array(whole[(code % 2 == 0 ? position : position + 1)...]) }
        }
        return nil
    }

    /// Name index record `position` of a layer of compact points (5.12): its feature and where
    /// its key starts (``compactKey(of:start:)``); nil when out of range or unreadable.
    func compactNameEntry(_ position: Int) -> (feature: Int, start: Int)? {
        let layout = storage.layout
        guard let table = layout.compactPoints, position >= 0, position < layout.names.count else { return nil }
        let record = layout.names.offset(of: position), width = min(layout.names.recordLength, 4)
        var value: UInt32 = 0
        for byte in 0..<width {
            guard let part = span.getUInt8(at: record + byte) else { return nil }
            value |= UInt32(part) << (8 * UInt32(byte))
        }
        let bits = table.featureBits
        guard bits < 32 else { return (Int(value), 0) }
        return (Int(value & (UInt32(1) << UInt32(bits) - 1)), Int(value >> UInt32(bits)))
    }

    /// The id of feature `index` of a layer of compact points, in place (empty when unreadable).
    /// Not inlined, so that the stack of a lookup that reads an id does not grow by a point
    /// table cursor.
    @inline(never)
    func compactIdBytes(_ index: Int) -> UnsafeRawBufferPointer {
        compactRecord(index).flatMap { span.getBytes(at: $0.idOffset, length: $0.idLength) } ?? UnsafeRawBufferPointer(start: nil, count: 0)
    }

    /// The present values of a compact record, in column order: each column's index and value
    /// (absent columns left out). Stops at the first value that cannot be read.
    func compactValues(_ record: CompactPointRecord, _ body: (_ column: Int, _ value: CompactValue) -> Bool) {
        guard let table = storage.layout.compactPoints else { return }
        var cursor = VarintCursor(base: storage.base, position: record.valuesOffset, end: record.end)
        for column in 0..<table.columnCount {
            guard let value = CompactPointCursor.readValue(&cursor) else { return }
            if case .inline(_, let offset, let length) = value { cursor.position = offset + length }
            if case .absent = value { continue }
            if !body(column, value) { return }
        }
    }

    /// The property at `position` among a compact record's present values, as bytes in place.
    func compactProperty(_ record: CompactPointRecord, at position: Int) -> PropertyBytes? {
        guard let table = storage.layout.compactPoints, position >= 0 else { return nil }
        var seen = 0
        var found: PropertyBytes?
        let file = span
        compactValues(record) { column, value in
            guard seen == position else {
                seen += 1
                return true
            }
            guard let columnInfo = table.column(column, in: file),
                  let key = stringBytes(offset: columnInfo.keyOffset, length: columnInfo.keyLength) else { return false }
            switch value {
            case .inline(let kind, let offset, let length):
                if let bytes = file.getBytes(at: offset, length: length) {
                    found = PropertyBytes(key: key, value: bytes, kind: PropertyKind(rawValue: kind) ?? .json)
                }
            case .dictionary(let entry):
                if let value = compactDictionaryEntry(entry, of: columnInfo.dictionary, in: table) {
                    found = PropertyBytes(key: key, value: value.bytes, kind: value.kind)
                }
            case .absent:
                break
            }
            return false
        }
        return found
    }

    /// Entry `entry` of a column's dictionary (`dictionary`, its range of the table's entries): its
    /// text in place and its kind; nil when past the column's entries or unreadable.
    func compactDictionaryEntry(_ entry: Int, of dictionary: Range<Int>, in table: CompactPointTable)
        -> (bytes: UnsafeRawBufferPointer, kind: PropertyKind)? {
        guard entry >= 0, entry < dictionary.count else { return nil }
        let at = table.dictionaryOffset + (dictionary.lowerBound + entry) * FormatLayout.CompactPoints.dictionaryEntryLength
        guard let offset = span.getUInt32(at: at), let length = span.getUInt32(at: at + 4), let kind = span.getUInt8(at: at + 8),
              let bytes = stringBytes(offset: offset, length: length) else { return nil }
        return (bytes, PropertyKind(rawValue: kind) ?? .json)
    }

    /// The number of values a compact record has (its columns that are not absent).
    func compactPropertyCount(_ record: CompactPointRecord) -> Int {
        var count = 0
        compactValues(record) { _, _ in
            count += 1
            return true
        }
        return count
    }
}

extension GMap {
    /// A layer of compact points (format 3.4, Spec/FORMAT.md 5.12): the step its coordinates are
    /// multiples of, in units, and whether it has a name index (or a lexicon); nil for a layer of
    /// another kind (``geometryKind`` is ``GeometryKind/points`` for both kinds of layers of points).
    public var compactPoints: (step: Int64, hasNameIndex: Bool)? {
        storage.layout.compactPoints.map { ($0.step, storage.layout.names.count > 0 || storage.layout.lexicon.map { $0.count > 0 } ?? false) }
    }

    /// A layer of named compact points (format 3.6, Spec/FORMAT.md 5.13): the number of keys of
    /// its lexicon; nil for a layer of another kind.
    public var lexiconKeyCount: Int? { storage.layout.lexicon?.count }
}

/// Where a layer of compact points keeps its parts, for tests that damage them.
@_spi(Testing)
public struct CompactPointsLayout: Sendable {
    /// Every coordinate is a multiple of this many units.
    public var step: Int64
    /// The absolute offset of the blocks' offsets.
    public var blocksOffset: Int
    /// The bytes of the columns, the dictionary, the blocks' offsets and the records.
    public var table: Range<Int>
    /// The bytes of the name index's records, and the length of each.
    public var names: Range<Int>
    public var nameRecordLength: Int
    /// The bytes of the layer's tile records and nodes.
    public var tiles: Range<Int>
}

extension GMap {
    /// Where this layer of compact points keeps its parts; nil for a layer of another kind.
    @_spi(Testing)
    public var compactPointsLayout: CompactPointsLayout? {
        let layout = storage.layout
        guard let table = layout.compactPoints else { return nil }
        return CompactPointsLayout(step: table.step, blocksOffset: table.blocksOffset, table: table.columnsOffset..<table.recordsEnd,
                                   names: layout.names.offset..<layout.names.offset + layout.names.count * layout.names.recordLength,
                                   nameRecordLength: layout.names.recordLength, tiles: layout.tilesOffset..<layout.tilesEnd)
    }
}

extension GMap {
    /// The column of this layer of compact points whose key is `key` (UTF-8, byte for byte), or nil.
    func compactColumn(named key: StaticString) -> Int? {
        guard let table = storage.layout.compactPoints, key.hasPointerRepresentation else { return nil }
        let wanted = UnsafeRawBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
        for column in 0..<table.columnCount {
            if let info = table.column(column, in: span), let bytes = stringBytes(offset: info.keyOffset, length: info.keyLength),
               bytes.elementsEqual(wanted) { return column }
        }
        return nil
    }

    /// The text of feature `index`'s value in column `column` of this layer of compact points, in
    /// place (inline or from the dictionary); nil when absent or unreadable. Allocates nothing.
    func compactValueBytes(feature index: Int, column: Int) -> UnsafeRawBufferPointer? {
        compactRecord(index).flatMap { compactValueBytes(of: $0, column: column) }
    }

    /// The text of a record's value in column `column`, in place; nil when absent or unreadable.
    func compactValueBytes(of record: CompactPointRecord, column: Int) -> UnsafeRawBufferPointer? {
        guard let table = storage.layout.compactPoints, column >= 0 else { return nil }
        var cursor = VarintCursor(base: storage.base, position: record.valuesOffset, end: record.end)
        for current in 0...column {
            guard let value = CompactPointCursor.readValue(&cursor) else { return nil }
            if case .inline(_, let offset, let length) = value {
                cursor.position = offset + length
                if current == column { return span.getBytes(at: offset, length: length) }
            } else if case .dictionary(let entry) = value, current == column {
                guard let info = table.column(column, in: span) else { return nil }
                return compactDictionaryEntry(entry, of: info.dictionary, in: table)?.bytes
            }
        }
        return nil
    }

    /// Calls `body` with every point of this layer of compact points whose planar distance in
    /// `plane` is within `radius` (with the planar slack): its feature, planar distance, point in
    /// units and record, read leaf by leaf without seeking each record. `slack` is
    /// ``GMap/planarSlack(latitude:radius:)`` of the plane's latitude and `radius`, when the caller
    /// has it already.
    func forEachCompactPoint(around plane: LocalPlane, within radius: Double, slack: Double? = nil,
                             _ body: (_ feature: Int, _ planar: Double, _ x: Int64, _ y: Int64, _ record: CompactPointRecord) -> Void) {
        guard let table = storage.layout.compactPoints, Quantizer.isValid(latitude: plane.latitude, longitude: plane.longitude),
              radius.isFinite, radius >= 0 else { return }
        let q = quantizer, box = SearchBox(latitude: plane.latitude, longitude: plane.longitude, radius: radius, quantizer: q)
        let slack = slack ?? Self.planarSlack(latitude: plane.latitude, radius: radius)
        let reach = radius * slack + 1, reach2 = reach * reach
        let unitsPerDegree = Double(q.unitsPerDegree), layout = storage.layout, file = span
        // The cursor after the last leaf read: a leaf whose range starts where it stopped (the
        // next leaf of a walk, often) is read on from it, not sought from its block's start.
        var after: CompactPointCursor?
        DirectoryWalker(storage: storage).walk(within: box) { tile in
            guard TileEntry.kind(of: tile.entry) == TileEntry.recordKind else { return }
            let payload = Int(TileEntry.payload(of: tile.entry))
            guard payload < layout.tilesEnd - layout.tilesOffset else { return }
            var cursor = VarintCursor(base: storage.base, position: layout.tilesOffset + payload, end: layout.tilesEnd)
            guard let first = cursor.readVarint(), let count = cursor.readVarint(), count >= 1,
                  first < UInt64(table.count), count <= UInt64(table.count) - first else { return }
            guard var points = after.flatMap({ $0.advanced(to: Int(first)) })
                    ?? CompactPointCursor(table: table, file: file, halfTurn: q.halfTurn, quarterTurn: q.quarterTurn, feature: Int(first))
            else { return }
            defer { after = points }
            for offset in 0..<Int(count) {
                guard let record = points.next() else { return }
                let p = plane.project(latitude: Double(record.y) / unitsPerDegree, longitude: Double(record.x) / unitsPerDegree)
                let squared = p.x * p.x + p.y * p.y
                if squared <= reach2 { body(Int(first) + offset, squared.squareRoot(), record.x, record.y, record) }
            }
        }
    }
}
