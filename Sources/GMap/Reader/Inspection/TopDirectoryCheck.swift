extension DirectoryWalker {
    /// What is wrong with a packed top-level directory (format 3, top_form 1), found by reading all
    /// of it once: empty for a sound one, and for the UInt32 form (whose entries the walk checks).
    ///
    /// Checks that every rank sample equals the number of non-empty kinds before its block; that
    /// the payload stream of every non-empty tile fits in `GRID`; and that tiles past
    /// `columns × rows` (the unused bits of the last kinds byte) are empty, kind 0, as are the
    /// payload stream's padding bits. What the payloads point at (features, records, nodes) is the
    /// walk's to check, tile by tile.
    func topDirectoryProblems() -> [DirectoryProblem] {
        let top = storage.layout.topDirectory
        guard top.isPacked else { return [] }
        let grid = storage.layout.grid
        let tiles = UInt64(grid.columns) * UInt64(grid.rows)
        var problems = TopDirectoryProblems(grid: grid)
        let nonEmptyTiles = checkSamples(top, tiles: tiles, into: &problems)
        checkKindPadding(top, tiles: tiles, into: &problems)
        checkPayloads(top, nonEmptyTiles: nonEmptyTiles, into: &problems)
        return problems.finish()
    }

    /// Counts the non-empty tiles block by block, reporting each rank sample that differs from the
    /// count before its block; returns the count of all of them.
    private func checkSamples(_ top: TopDirectory, tiles: UInt64, into problems: inout TopDirectoryProblems) -> UInt64 {
        let span = ByteSpan(base: storage.base, count: top.end)
        let tilesPerSample = UInt64(FormatLayout.TopForm.tilesPerSample)
        var nonEmpty: UInt64 = 0
        var block: UInt64 = 0
        while block * tilesPerSample < tiles {
            // Open checked that every sample lies inside GRID.
            let offset = top.samplesOffset + Int(truncatingIfNeeded: block) * FormatLayout.TopForm.sampleLength
            let sample = UInt64(span.getUInt32(at: offset) ?? 0)
            if sample != nonEmpty {
                problems.wrongSample(block: block, offset: offset, sample: sample, expected: nonEmpty)
            }
            let words = top.kindWords(block: block, base: storage.base)
            let inBlock = min(tilesPerSample, tiles - block * tilesPerSample)
            let lowMask = Self.lowBits(2 * inBlock), highMask = inBlock > 32 ? Self.lowBits(2 * (inBlock - 32)) : 0
            nonEmpty += UInt64((TopDirectory.nonEmptyKinds(words.low) & lowMask).nonzeroBitCount
                + (TopDirectory.nonEmptyKinds(words.high) & highMask).nonzeroBitCount)
            block += 1
        }
        return nonEmpty
    }

    /// Reports kinds set past the last tile: the unused high bits of the last kinds byte must be zero.
    private func checkKindPadding(_ top: TopDirectory, tiles: UInt64, into problems: inout TopDirectoryProblems) {
        let used = tiles % 4
        guard used != 0 else { return }
        let offset = top.offset + Int(truncatingIfNeeded: FormatLayout.TopForm.kindBytes(tiles: tiles)) - 1
        let byte = ByteSpan(base: storage.base, count: top.end).getUInt8(at: offset) ?? 0
        if byte >> UInt8(2 * used) != 0 {
            problems.add(offset: offset, reason: "the last byte of kinds gives tiles past the grid's \(tiles) a non-empty kind (its unused bits must be zero)")
        }
    }

    /// Reports a payload stream that does not fit in `GRID`, or whose padding bits are not zero.
    private func checkPayloads(_ top: TopDirectory, nonEmptyTiles: UInt64, into problems: inout TopDirectoryProblems) {
        let width = top.payloadWidth
        // nonEmptyTiles ≤ 4 × GRID's length and width ≤ 32: the product stays far below 2^64.
        let bits = nonEmptyTiles * width
        let needed = (bits + 7) / 8
        let available = UInt64(top.end - top.payloadsOffset)
        guard needed <= available else {
            return problems.add(offset: top.payloadsOffset,
                                reason: "the payloads of \(nonEmptyTiles) non-empty tiles, \(width) bits each, need \(needed) bytes, but GRID has \(available) after the width byte")
        }
        guard bits % 8 != 0 else { return }
        let offset = top.payloadsOffset + Int(truncatingIfNeeded: needed) - 1
        let byte = ByteSpan(base: storage.base, count: top.end).getUInt8(at: offset) ?? 0
        if byte >> UInt8(bits % 8) != 0 {
            problems.add(offset: offset, reason: "the padding bits after the last payload are not zero")
        }
    }

    /// The mask of the low `count` bits (0…64).
    private static func lowBits(_ count: UInt64) -> UInt64 {
        count >= 64 ? ~0 : (1 << count) - 1
    }
}

/// The problems a check of the packed top-level directory finds, with wrong rank samples (of which
/// a damaged directory can have thousands) reported one by one up to a limit, then counted.
private struct TopDirectoryProblems {
    /// Where every problem lies, for messages.
    static let place = "packed top-level directory"
    /// How many wrong samples are reported one by one.
    static let sampleLimit = 10

    let grid: GridInfo
    private(set) var problems: [DirectoryProblem] = []
    private var wrongSamples = 0
    private var firstWrongSample = 0

    /// Problems of a directory for `grid`.
    init(grid: GridInfo) {
        self.grid = grid
    }

    /// Records a problem at the absolute byte `offset`.
    mutating func add(offset: Int, reason: String) {
        problems.append(DirectoryProblem(tile: Self.place, offset: offset, reason: reason))
    }

    /// Records that the sample of `block` says `sample` where `expected` tiles before it are not empty.
    mutating func wrongSample(block: UInt64, offset: Int, sample: UInt64, expected: UInt64) {
        wrongSamples += 1
        if wrongSamples == 1 { firstWrongSample = offset }
        guard wrongSamples <= Self.sampleLimit else { return }
        let first = block * UInt64(FormatLayout.TopForm.tilesPerSample), columns = UInt64(grid.columns)
        add(offset: offset, reason: "rank sample \(block) is \(sample), but \(expected) tiles before tile (column \(first % columns), row \(first / columns)) are not empty")
    }

    /// The problems, with a count of the wrong samples not reported one by one.
    func finish() -> [DirectoryProblem] {
        guard wrongSamples > Self.sampleLimit else { return problems }
        return problems + [DirectoryProblem(tile: Self.place, offset: firstWrongSample,
                                            reason: "\(wrongSamples) rank samples are wrong in all (the first \(Self.sampleLimit) are listed)")]
    }
}

extension GMap {
    /// What ``DirectoryWalker/topDirectoryProblems()`` finds in this layer's top-level directory,
    /// for tests (`gmap verify` reports the same through ``MapVerifier``).
    @_spi(Testing) public var topDirectoryProblems: [MapProblem] {
        DirectoryWalker(storage: storage).topDirectoryProblems().map {
            MapProblem(location: $0.tile, offset: $0.offset, reason: $0.reason)
        }
    }
}
