// The lexicon of a layer of named compact points (format 3.6, Spec/FORMAT.md 5.13).

/// Where a lexicon's parts lie, read and checked on open in O(1): the preamble, the blocks'
/// offsets and the entries.
@usableFromInline
struct LexiconTable: Sendable, Equatable {
    /// The number of entries (distinct keys).
    @usableFromInline var count: Int
    /// Entries per block: each block's first entry is stored whole, so a search starts there.
    @usableFromInline var blockSize: Int
    /// Absolute offsets of the blocks' offsets and of the entries.
    @usableFromInline var blocksOffset: Int
    @usableFromInline var entriesOffset: Int
    @usableFromInline var entriesEnd: Int

    /// The number of blocks: `⌈count / blockSize⌉`.
    var blockCount: Int { (count + blockSize - 1) / blockSize }

    /// Reads and checks the preamble of the lexicon in `range` (section `name`): that the block
    /// size is in range and that the blocks' offsets and the entries fit.
    static func read(_ file: ByteSpan, _ range: (offset: Int, length: Int), name: String) throws(GMapError) -> LexiconTable {
        let field = FormatLayout.Lexicon.self, base = range.offset
        guard range.length >= field.preambleLength, let count = file.getUInt32(at: base + field.count),
              let blockSize = file.getUInt32(at: base + field.blockSize), let entriesLength = file.getUInt32(at: base + field.entriesLength) else {
            throw .malformed(part: "section \(name)", offset: UInt64(base), reason: "shorter than its \(field.preambleLength)-byte lexicon preamble")
        }
        guard blockSize >= 1, blockSize <= UInt32(field.maximumBlockSize) else {
            throw .malformed(part: "section \(name)", offset: UInt64(base + field.blockSize),
                             reason: "lexicon block size \(blockSize) is outside 1…\(field.maximumBlockSize)")
        }
        let blocks = (UInt64(count) + UInt64(blockSize) - 1) / UInt64(blockSize)
        guard UInt64(field.preambleLength) + blocks * 4 + UInt64(entriesLength) <= UInt64(range.length) else {
            throw .malformed(part: "section \(name)", offset: UInt64(base),
                             reason: "\(blocks) blocks and \(entriesLength) bytes of lexicon entries do not fit in \(range.length) bytes")
        }
        let blocksOffset = base + field.preambleLength, entriesOffset = blocksOffset + Int(blocks) * 4
        return LexiconTable(count: Int(count), blockSize: Int(blockSize), blocksOffset: blocksOffset, entriesOffset: entriesOffset,
                            entriesEnd: entriesOffset + Int(entriesLength))
    }
}

/// Reads a lexicon's entries forward from the start of a block: the one way entries are read.
/// Each ``next()`` decodes one entry's key (front-coded against the entry before it), its display
/// form and where its postings start, and skips its postings.
struct LexiconCursor {
    let table: LexiconTable
    let file: ByteSpan
    /// The entry ``next()`` reads.
    private(set) var index: Int
    /// Where that entry starts (absolute).
    private(set) var position: Int
    /// Where the entry last read starts (absolute).
    private(set) var entryStart = 0
    /// The fewest bytes any entry read since ``markShared()`` shared with the one before it: the
    /// bytes the key now shares with the key of that moment (keys are sorted); 0 after a jump.
    private(set) var leastShared = 0
    /// The key of the entry last read.
    private(set) var key: [UInt8] = []
    /// The entry last read: its display form (``FormatLayout/Lexicon``), where its spelling lies
    /// (form ``FormatLayout/Lexicon/displaySpelled``), and where its postings start.
    private(set) var display: UInt8 = 0
    private(set) var spelling: (offset: Int, length: Int) = (0, 0)
    private(set) var postings = 0

    /// A cursor at the first entry of block `block`; nil when there is no such block or its offset
    /// lies outside the entries.
    init?(table: LexiconTable, file: ByteSpan, block: Int) {
        guard block >= 0, block < table.blockCount, let start = file.getUInt32(at: table.blocksOffset + block * 4),
              UInt64(start) <= UInt64(table.entriesEnd - table.entriesOffset) else { return nil }
        self.table = table
        self.file = file
        index = block * table.blockSize
        position = table.entriesOffset + Int(start)
        key.reserveCapacity(64)
    }

    /// Whether another entry follows the one last read.
    var hasNext: Bool { index < table.count }

    /// Starts counting ``leastShared`` from the key last read.
    mutating func markShared() { leastShared = key.count }

    /// Moves on to the first entry whose key is not below `target`, which is above the key last
    /// read, and reads it (false when no key is so high, or an entry cannot be read). When the
    /// next block's first key is below `target` too, a galloping search over the blocks' first
    /// keys finds the last such block; in a block, an entry that shares more bytes with the key
    /// before it than that key shares with `target` is below `target` and is passed over without
    /// making its key.
    mutating func skip(toNotBelow target: [UInt8]) -> Bool {
        // The key's first `common` bytes are `target`'s, and its next byte (if any) is below
        // `target`'s: so is every key that shares more than `common` bytes with it.
        var common = LexiconTable.commonPrefix(key, target)
        let upcoming = (index + table.blockSize - 1) / table.blockSize
        if let first = table.firstKey(ofBlock: upcoming, in: file), LexiconTable.compare(first, target) < 0 {
            // Every key from here to `target` shares the first `common` bytes with the key.
            guard let last = table.block(before: target, from: upcoming, in: file),
                  enter(block: last, sharing: min(leastShared, common)) else { return false }
            if LexiconTable.compare(key, target) >= 0 { return true }
            common = LexiconTable.commonPrefix(key, target)
        }
        while index < table.count {
            if index % table.blockSize != 0 {
                var cursor = VarintCursor(base: file.base, position: position, end: table.entriesEnd)
                guard let shared = cursor.readVarint() else { return false }
                if shared > UInt64(common) {
                    guard passEntry() else { return false }
                    continue
                }
            }
            guard next() else { return false }
            if LexiconTable.compare(key, target) >= 0 { return true }
            common = LexiconTable.commonPrefix(key, target)
        }
        return false
    }

    /// Moves past the entry ``next()`` would read, without making its key (its tail, spelling
    /// and postings skipped); false when it cannot be read.
    private mutating func passEntry() -> Bool {
        var cursor = VarintCursor(base: file.base, position: position, end: table.entriesEnd)
        guard cursor.readVarint() != nil, let head = cursor.readVarint(), head >> 3 <= UInt64(cursor.remaining) else { return false }
        cursor.position += Int(head >> 3)
        if UInt8(head & 7) == FormatLayout.Lexicon.displaySpelled {
            guard let spelled = cursor.readVarint(), spelled <= UInt64(cursor.remaining) else { return false }
            cursor.position += Int(spelled)
        }
        return passPostings(&cursor)
    }

    /// Reads past the postings at `cursor` (every one but the last has its "more" bit) and moves
    /// to the next entry; false when a posting cannot be read.
    private mutating func passPostings(_ cursor: inout VarintCursor) -> Bool {
        while true {
            guard let posting = cursor.readVarint() else { return false }
            if posting & FormatLayout.Lexicon.morePostingsBit == 0 { break }
        }
        position = cursor.position
        index += 1
        return true
    }

    /// Moves on past every entry whose key starts with the first `prefixLength` bytes of the key
    /// last read, and reads the first that does not (false when none does, or an entry cannot be
    /// read). An entry that shares that many bytes with the one before it is passed over without
    /// making its key (its tail, spelling and postings skipped), and when the next block's first
    /// key has the prefix too, a galloping search over the blocks' first keys finds the last such
    /// block: the walk of a typo search leaves out every name that starts as a pruned one does at
    /// little cost, however many there are.
    mutating func skip(pastPrefixOf prefixLength: Int) -> Bool {
        let length = min(prefixLength, key.count)
        // The key's first `length` bytes are the prefix until the entry that ends the skip is read:
        // every entry passed over shares them.
        let upcoming = (index + table.blockSize - 1) / table.blockSize
        if startsWithPrefix(block: upcoming, length: length) {
            // Its first key has the prefix: read it, then pass over the rest of its block.
            guard let last = table.lastBlock(startingWith: key, length: length, from: upcoming, in: file),
                  enter(block: last, sharing: min(leastShared, length)) else { return false }
        }
        // The prefix ends before the next block's first key, which does not have it.
        while index < table.count {
            if index % table.blockSize == 0 { return next() }
            var cursor = VarintCursor(base: file.base, position: position, end: table.entriesEnd)
            guard let shared = cursor.readVarint() else { return false }
            guard shared >= UInt64(length) else { return next() }
            guard passEntry() else { return false }
        }
        return false
    }

    /// Whether block `block`'s first key starts with the first `length` bytes of ``key`` (false
    /// when there is no such block or it cannot be read).
    private func startsWithPrefix(block: Int, length: Int) -> Bool {
        guard let first = table.firstKey(ofBlock: block, in: file) else { return false }
        return LexiconTable.starts(first, with: key, length: length)
    }

    /// Moves to block `block` and reads its first entry, the keys passed over having shared their
    /// first `shared` bytes (``leastShared``); false when the block or its entry cannot be read.
    private mutating func enter(block: Int, sharing shared: Int) -> Bool {
        guard let start = file.getUInt32(at: table.blocksOffset + block * 4) else { return false }
        index = block * table.blockSize
        position = table.entriesOffset + Int(start)
        guard next() else { return false }
        leastShared = shared
        return true
    }

    /// Reads entry ``index`` (its key into ``key``) and moves to the next; false at the end, or
    /// when the entry cannot be read (it reaches past the entries, shares more bytes than the key
    /// before it has, or a block's first entry shares any, its key is empty or longer than
    /// ``FormatLayout/Lexicon/maximumKeyLength``, its display form is not known, or a posting
    /// cannot be read): a damaged lexicon ends there.
    mutating func next() -> Bool {
        guard index < table.count else { return false }
        entryStart = position
        var cursor = VarintCursor(base: file.base, position: position, end: table.entriesEnd)
        guard let shared = cursor.readVarint(), let head = cursor.readVarint() else { return false }
        let tailLength = head >> 3, form = UInt8(head & 7)
        let first = index % table.blockSize == 0
        guard first ? shared == 0 : shared <= UInt64(key.count), tailLength <= UInt64(cursor.remaining),
              shared + tailLength >= 1, shared + tailLength <= UInt64(FormatLayout.Lexicon.maximumKeyLength),
              form <= FormatLayout.Lexicon.displaySpelled else { return false }
        let tail = UnsafeRawBufferPointer(start: file.base + cursor.position, count: Int(tailLength))
        // A block's first key is stored whole: what it shares with the key before is counted here.
        var common = Int(shared)
        if first {
            let most = min(key.count, tail.count)
            while common < most, key[common] == tail[common] { common += 1 }
        }
        leastShared = min(leastShared, common)
        key.removeLast(key.count - Int(shared))
        key.append(contentsOf: tail)
        cursor.position += Int(tailLength)
        display = form
        spelling = (0, 0)
        if form == FormatLayout.Lexicon.displaySpelled {
            guard let length = cursor.readVarint(), length <= UInt64(cursor.remaining) else { return false }
            spelling = (cursor.position, Int(length))
            cursor.position += Int(length)
        }
        postings = cursor.position
        return passPostings(&cursor)
    }

    /// Calls `body` with each posting of the entry last read, in order: its feature and whether
    /// the key is of one of the feature's other names (else of its id); stops early when `body`
    /// returns false. Features are the running sums of the postings' differences; one too large
    /// for an `Int` ends the list.
    func forEachPosting(_ body: (_ feature: Int, _ otherName: Bool) -> Bool) {
        var cursor = VarintCursor(base: file.base, position: postings, end: table.entriesEnd)
        var feature: UInt64 = 0
        while let posting = cursor.readVarint() {
            let (sum, overflow) = feature.addingReportingOverflow(posting >> 2)
            guard !overflow, sum <= UInt64(Int32.max) else { return }
            feature = sum
            guard body(Int(feature), posting & FormatLayout.Lexicon.otherNameBit != 0) else { return }
            if posting & FormatLayout.Lexicon.morePostingsBit == 0 { return }
        }
    }

    /// The spelling of the other names whose key is the entry last read's, from its display form:
    /// the key itself, its words capitalized (ASCII letters), in capitals, or the stored spelling;
    /// nil for an entry no other name has.
    func otherNameSpelling() -> String? {
        let lexicon = FormatLayout.Lexicon.self
        switch display {
        case lexicon.displayAsKey:
            return String(decoding: key, as: UTF8.self)
        case lexicon.displayCapitalized:
            var bytes = key
            for index in bytes.indices where (index == 0 || bytes[index - 1] == 0x20) && bytes[index] >= 0x61 && bytes[index] <= 0x7A {
                bytes[index] -= 0x20
            }
            return String(decoding: bytes, as: UTF8.self)
        case lexicon.displayInCapitals:
            return String(decoding: key.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }, as: UTF8.self)
        case lexicon.displaySpelled:
            return file.getBytes(at: spelling.offset, length: spelling.length).map { String(decoding: $0, as: UTF8.self) } ?? ""
        default:
            return nil
        }
    }
}

extension LexiconTable {
    /// Byte-wise lexicographic order of `lhs` and `rhs`: negative, zero or positive.
    static func compare(_ lhs: [UInt8], _ rhs: [UInt8]) -> Int {
        lhs.withUnsafeBufferPointer { a in
            rhs.withUnsafeBufferPointer { b in
                let common = min(a.count, b.count)
                for index in 0..<common where a[index] != b[index] { return a[index] < b[index] ? -1 : 1 }
                return a.count - b.count
            }
        }
    }

    /// The key of block `block`'s first entry, in place (a block's first entry shares nothing, so
    /// its key is its tail); nil when the block or its entry cannot be read.
    func firstKey(ofBlock block: Int, in file: ByteSpan) -> UnsafeRawBufferPointer? {
        guard block >= 0, block < blockCount, let start = file.getUInt32(at: blocksOffset + block * 4),
              UInt64(start) <= UInt64(entriesEnd - entriesOffset) else { return nil }
        var cursor = VarintCursor(base: file.base, position: entriesOffset + Int(start), end: entriesEnd)
        guard let shared = cursor.readVarint(), shared == 0, let head = cursor.readVarint(), head >> 3 >= 1,
              head >> 3 <= UInt64(cursor.remaining) else { return nil }
        return UnsafeRawBufferPointer(start: file.base + cursor.position, count: Int(head >> 3))
    }

    /// Byte-wise lexicographic order of `lhs` (in place) and `rhs`: negative, zero or positive.
    static func compare(_ lhs: UnsafeRawBufferPointer, _ rhs: [UInt8]) -> Int {
        rhs.withUnsafeBufferPointer { b in
            let common = min(lhs.count, b.count)
            for index in 0..<common where lhs[index] != b[index] { return lhs[index] < b[index] ? -1 : 1 }
            return lhs.count - b.count
        }
    }

    /// The last block whose first key is below `key` (block `from` when none is), from block
    /// `from` on (``lastBlock(from:where:in:)``). Nil when a first key cannot be read.
    func block(before key: [UInt8], from: Int = 0, in file: ByteSpan) -> Int? {
        lastBlock(from: from, where: { Self.compare($0, key) < 0 }, in: file)
    }

    /// The number of bytes `a` and `b` start with alike.
    static func commonPrefix(_ a: [UInt8], _ b: [UInt8]) -> Int {
        a.withUnsafeBufferPointer { x in
            b.withUnsafeBufferPointer { y in
                var count = 0
                let most = min(x.count, y.count)
                while count < most, x[count] == y[count] { count += 1 }
                return count
            }
        }
    }

    /// Whether `candidate` (in place) starts with the first `length` bytes of `prefix`.
    static func starts(_ candidate: UnsafeRawBufferPointer, with prefix: [UInt8], length: Int) -> Bool {
        guard candidate.count >= length, length <= prefix.count else { return false }
        return prefix.withUnsafeBufferPointer { bytes in
            for index in 0..<length where candidate[index] != bytes[index] { return false }
            return true
        }
    }

    /// The last block from `from` on whose first key starts with the first `length` bytes of
    /// `prefix`, given that block `from`'s does (those blocks follow one another: keys are
    /// sorted; ``lastBlock(from:where:in:)``). Nil when a block's first key cannot be read.
    func lastBlock(startingWith prefix: [UInt8], length: Int, from: Int, in file: ByteSpan) -> Int? {
        lastBlock(from: from, where: { Self.starts($0, with: prefix, length: length) }, in: file)
    }

    /// The last block from `from` on whose first key (read in place) `holds`, where the blocks
    /// whose first keys hold come before those whose do not (block `from` when none after it
    /// does): a galloping search (steps of 1, 2, 4, … blocks, then a binary search in the last
    /// step), so a block a few blocks on costs a few reads. Nil when a first key cannot be read.
    func lastBlock(from: Int, where holds: (UnsafeRawBufferPointer) -> Bool, in file: ByteSpan) -> Int? {
        var low = max(0, from), step = 1, high = blockCount
        while low + step < blockCount {
            guard let first = firstKey(ofBlock: low + step, in: file) else { return nil }
            if !holds(first) {
                high = low + step
                break
            }
            low += step
            step *= 2
        }
        while high - low > 1 {
            let middle = low + (high - low) / 2
            guard let first = firstKey(ofBlock: middle, in: file) else { return nil }
            if holds(first) { low = middle } else { high = middle }
        }
        return low
    }

    /// A cursor whose entry last read is the first whose key is not below `key`: a binary search
    /// over the blocks' first keys, then a walk in the block. Nil when every key is below `key`,
    /// or when an entry the search needs cannot be read.
    func firstEntry(notBelow key: [UInt8], in file: ByteSpan) -> LexiconCursor? {
        guard blockCount > 0, let low = block(before: key, in: file), var cursor = LexiconCursor(table: self, file: file, block: low) else { return nil }
        while cursor.next() {
            if Self.compare(cursor.key, key) >= 0 { return cursor }
        }
        return nil
    }
}

extension GMap {
    /// This layer's lexicon (a layer of named compact points, 3.6), if any.
    var lexicon: LexiconTable? { storage.layout.lexicon }

    /// Calls `body` for each entry of this layer's lexicon whose key starts with `prefix` (every
    /// entry for an empty prefix), in key order, with a cursor at that entry; stops when `body`
    /// returns false. Nothing for a layer without a lexicon.
    func forEachLexiconEntry(withPrefix prefix: [UInt8], _ body: (_ entry: LexiconCursor) -> Bool) {
        guard let table = lexicon, var cursor = table.firstEntry(notBelow: prefix, in: span) else { return }
        repeat {
            guard cursor.key.starts(with: prefix), body(cursor) else { return }
        } while cursor.next()
    }
}
