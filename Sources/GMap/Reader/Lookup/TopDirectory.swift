/// Where a layer's top-level directory lies in `GRID`, and in which of format 3's two forms
/// (`GRID` byte 27, ``FormatLayout/TopForm``) it is stored; found and checked on open in O(1).
///
/// The entries form (formats 1 and 2, and format 3 with top_form 0) is `columns × rows` UInt32
/// entries. The packed form (top_form 1) is every tile's 2-bit kind, a UInt32 rank sample per 64
/// tiles (the non-empty tiles before them), a payload width `w`, then one `w`-bit payload per
/// non-empty tile, in tile order. ``DirectoryWalker/topEntry(column:row:in:)`` reads either form.
@usableFromInline
struct TopDirectory: Sendable {
    /// ``FormatLayout/TopForm/entries`` or ``FormatLayout/TopForm/packed``.
    @usableFromInline var form: UInt8
    /// Absolute offset of the first entry, or (packed) of the first byte of kinds.
    @usableFromInline var offset: Int
    /// Absolute end of `GRID`: no read of the directory reaches it.
    @usableFromInline var end: Int
    /// Packed: absolute offset of the rank samples (just after the kinds).
    @usableFromInline var samplesOffset: Int
    /// Packed: absolute offset of the payload width byte (just after the samples).
    @usableFromInline var widthOffset: Int
    /// Packed: bits of each payload, 0…32.
    @usableFromInline var payloadWidth: UInt64

    /// Whether the directory is packed (top_form 1).
    @inlinable var isPacked: Bool { form == FormatLayout.TopForm.packed }
    /// Packed: absolute offset of the payload bit stream, which runs to ``end``.
    @inlinable var payloadsOffset: Int { widthOffset + FormatLayout.TopForm.widthLength }

    /// A directory of one UInt32 entry per tile from `offset`, in a `GRID` ending at `end`
    /// (the caller has checked that the entries fit).
    init(entriesAt offset: Int, end: Int) {
        self.form = FormatLayout.TopForm.entries
        self.offset = offset
        self.end = end
        self.samplesOffset = end
        self.widthOffset = end
        self.payloadWidth = 0
    }

    /// A packed directory after `GRID`'s fixed part, for a grid of `tiles` tiles (`columns × rows`).
    ///
    /// Checks in O(1) that the kinds, the rank samples and the width byte fit in `GRID` and that the
    /// width is at most 32; the payloads are checked where each is read (and by
    /// ``DirectoryWalker/topDirectoryProblems()``), since their length depends on every kind.
    static func packed(in file: ByteSpan, grid: (offset: Int, length: Int), tiles: UInt64, part: String) throws(GMapError) -> TopDirectory {
        let form = FormatLayout.TopForm.self
        // tiles < 2^64: kinds < 2^62 bytes and samples < 2^61 bytes, so the sum cannot overflow.
        let kindBytes = form.kindBytes(tiles: tiles)
        let sampleBytes = form.sampleCount(tiles: tiles) * UInt64(form.sampleLength)
        let needed = UInt64(FormatLayout.Grid.directory) + kindBytes + sampleBytes + UInt64(form.widthLength)
        guard needed <= UInt64(grid.length) else {
            throw .malformed(part: part, offset: UInt64(grid.offset),
                             reason: "the packed top-level directory's \(kindBytes) bytes of kinds, \(sampleBytes) bytes of rank samples and width byte do not fit in \(grid.length) bytes")
        }
        // needed ≤ grid.length, an Int: every part below converts without trapping on 32-bit targets.
        let kinds = grid.offset + FormatLayout.Grid.directory
        let samples = kinds + Int(kindBytes)
        let widthOffset = samples + Int(sampleBytes)
        let width = file.getUInt8(at: widthOffset) ?? 0
        guard Int(width) <= form.maximumPayloadWidth else {
            throw .malformed(part: part, offset: UInt64(widthOffset),
                             reason: "the packed top-level directory's payload width \(width) is over \(form.maximumPayloadWidth) bits")
        }
        var directory = TopDirectory(entriesAt: kinds, end: grid.offset + grid.length)
        directory.form = form.packed
        directory.samplesOffset = samples
        directory.widthOffset = widthOffset
        directory.payloadWidth = UInt64(width)
        return directory
    }

    /// The absolute offset of tile `tile`'s entry, or (packed) of the byte holding its kind: where
    /// a message about the tile points. `tile` is below `columns × rows`.
    func entryOffset(tile: UInt64) -> Int {
        isPacked ? offset + Int(truncatingIfNeeded: tile / 4) : offset + Int(truncatingIfNeeded: tile) * 4
    }

    // MARK: Reading the packed form

    /// Packed: the entry of tile `tile` (below `columns × rows`), normalised as a UInt32 entry
    /// (kind << 30 | payload), or nil when its payload lies outside `GRID` or is wider than 30 bits.
    ///
    /// Two 8-byte loads give the kinds of the tile's block of 64; the tile's rank is the block's
    /// sample plus the non-empty kinds before it in the block (one popcount); its payload is one
    /// bit field.
    @inlinable @inline(__always)
    func packedEntry(tile: UInt64, base: UnsafeRawPointer) -> UInt32? {
        let tilesPerSample = UInt64(FormatLayout.TopForm.tilesPerSample)
        let block = tile / tilesPerSample
        let words = kindWords(block: block, base: base)
        let bit = (tile % tilesPerSample) &* 2
        let inLow = bit < 64
        let kind = UInt32(truncatingIfNeeded: (inLow ? words.low &>> bit : words.high &>> (bit &- 64)) & 3)
        guard kind != TileEntry.emptyKind else { return 0 }
        // The non-empty marks of the tiles before this one: the low word's in the even bits, the
        // high word's moved to the odd bits, so that one popcount counts both.
        let lowMask: UInt64 = inLow ? (1 &<< bit) &- 1 : ~0
        let highMask: UInt64 = inLow ? 0 : (1 &<< (bit &- 64)) &- 1
        let before = (Self.nonEmptyKinds(words.low) & lowMask) | ((Self.nonEmptyKinds(words.high) & highMask) &<< 1)
        // The block's sample lies inside GRID: open checked that every sample does.
        let sample = base.loadUnaligned(fromByteOffset: samplesOffset &+ Int(truncatingIfNeeded: block) &* FormatLayout.TopForm.sampleLength,
                                        as: UInt32.self)
        // rank < 2^32 + 64 and width ≤ 32: the bit position stays far below 2^64.
        let rank = UInt64(UInt32(littleEndian: sample)) &+ UInt64(truncatingIfNeeded: before.nonzeroBitCount)
        let first = rank &* payloadWidth
        let payloads = widthOffset &+ FormatLayout.TopForm.widthLength, available = end &- payloads
        guard (first &+ payloadWidth &+ 7) / 8 <= UInt64(truncatingIfNeeded: available) else { return nil }
        let value = BitFields(base: base, start: payloads, byteCount: available, spanEnd: end).field(at: first, width: payloadWidth)
        guard value <= UInt64(TileEntry.maximumPayload) else { return nil }
        return TileEntry.make(kind: kind, payload: UInt32(truncatingIfNeeded: value))
    }

    /// Packed: the two little-endian words holding the kinds of tiles `64·block …` (tile `64·block + i`
    /// in bits `2i, 2i + 1` of the 128); bytes past `GRID`'s end read as zero.
    @inlinable @inline(__always)
    func kindWords(block: UInt64, base: UnsafeRawPointer) -> (low: UInt64, high: UInt64) {
        // The block's first kind byte lies inside GRID (a tile below columns × rows has its kind there).
        let start = offset &+ Int(truncatingIfNeeded: block) &* 16
        guard end &- start >= 16 else { return lastKindWords(from: start, base: base) }
        return (UInt64(littleEndian: base.loadUnaligned(fromByteOffset: start, as: UInt64.self)),
                UInt64(littleEndian: base.loadUnaligned(fromByteOffset: start &+ 8, as: UInt64.self)))
    }

    /// Packed: ``kindWords(block:base:)`` for a block whose 16 bytes from `start` run past `GRID`'s
    /// end, read byte by byte, the missing bytes as zero.
    @usableFromInline @inline(never)
    func lastKindWords(from start: Int, base: UnsafeRawPointer) -> (low: UInt64, high: UInt64) {
        var words: (low: UInt64, high: UInt64) = (0, 0)
        var index = 0
        while index < 16, start &+ index < end {
            let byte = UInt64(base.load(fromByteOffset: start &+ index, as: UInt8.self))
            if index < 8 { words.low |= byte &<< UInt64(index &* 8) } else { words.high |= byte &<< UInt64((index &- 8) &* 8) }
            index &+= 1
        }
        return words
    }

    /// The 2-bit kinds of `word` reduced to their low bits: bit `2i` is set when kind `i` is not empty.
    @inlinable static func nonEmptyKinds(_ word: UInt64) -> UInt64 {
        (word | (word &>> 1)) & 0x5555_5555_5555_5555
    }
}
