extension TileRecordReader {
    /// Walks the whole record, for every consumer but the lookup: `slot` hears of each slot in order
    /// (before any run that counts for it), `run` of the start of each run with the first slot of
    /// its window and its mask (mask bit `k` is slot `firstSlot + k`), and `edge` of each of the
    /// run's edges. `problem` hears of everything wrong with the record, with its byte offset;
    /// returns false when the record could not be read to its end (the walk stops at that damage).
    ///
    /// Format 3 records give their slots first, then runs with masks of up to 64 slots; format 1 and
    /// 2 records give each feature entry as a slot followed by its runs, each with the mask `1` at
    /// that slot.
    @discardableResult
    mutating func walk(checkingVertices: Bool = true,
                       slot: (RecordSlot) -> Void,
                       run: (_ firstSlot: Int, _ mask: UInt64) -> Void,
                       edge: (Int64, Int64, Int64, Int64) -> Void,
                       problem: (RecordProblem) -> Void = { _ in }) -> Bool {
        sharedEdges
            ? walkShared(checkingVertices: checkingVertices, slot: slot, run: run, edge: edge, problem: problem)
            : walkEntries(checkingVertices: checkingVertices, slot: slot, run: run, edge: edge, problem: problem)
    }

    private mutating func walkShared(checkingVertices: Bool, slot: (RecordSlot) -> Void, run: (Int, UInt64) -> Void,
                                     edge: (Int64, Int64, Int64, Int64) -> Void, problem: (RecordProblem) -> Void) -> Bool {
        let start = cursor.position
        guard let header = readSharedHeader() else {
            return fail(problem, start, "the record's slots, corner bits, run count or first-vertex widths are missing or out of range (slots 1…\(FormatLayout.SharedRecord.maximumSlots), widths ≤ \(PackedRun.maximumWidth))")
        }
        var features = VarintCursor(base: cursor.base, position: header.featuresStart, end: cursor.end)
        var featureIndex: UInt64 = 0
        for index in 0..<Int(header.slotCount) {
            let at = features.position
            let delta = features.readVarint() ?? 0
            // 3.2: a feature with overlapping polygons has one slot per parity group, consecutive.
            if index > 0, delta == 0, !repeatsSlots {
                problem(RecordProblem(offset: at, reason: "slot \(index) repeats feature \(featureIndex) (features must ascend; only a 3.2 file may repeat one)"))
            }
            featureIndex &+= delta
            guard featureIndex < UInt64(featureCount) else {
                return fail(problem, at, "slot \(index) names feature \(featureIndex), but there are \(featureCount)")
            }
            slot(RecordSlot(featureIndex: Int(featureIndex), cornerInside: (header.corners >> UInt64(index)) & 1 == 1))
        }
        if header.corners & ~BitFields.mask(header.slotCount) != 0 {
            problem(RecordProblem(offset: features.position, reason: "corner bits past slot \(header.slotCount - 1) are not zero"))
        }
        if header.runCount == 0, header.corners == 0 {
            problem(RecordProblem(offset: start, reason: "the record has no edges and no corner inside any feature"))
        }
        var lowest = 0
        for index in 0..<header.runCount {
            let runStart = cursor.position
            var shared = PackedRunHead()
            if let runProblem = readSharedRun(header, into: &shared) { return fail(problem, runStart, "run \(index) \(runProblem.phrase)") }
            let first = shared.mask.trailingZeroBitCount
            if first < lowest {
                problem(RecordProblem(offset: runStart, reason: "run \(index) starts at slot \(first), after a run starting at slot \(lowest) (runs must come by lowest slot)"))
            }
            lowest = max(lowest, first)
            run(0, shared.mask)
            // Banded polygons (3.5): the band must be the one the run's vertices give (8.5.1), or a
            // lookup that skips by it may answer wrongly.
            var extent = RunExtent(x: shared.x, y: shared.y)
            let east = bounds.east, banded = runBands
            if let runProblem = decode(shared, checkingVertices: checkingVertices, { ax, ay, bx, by in
                if banded { extent.add(ax, ay, bx, by, east: east) }
                edge(ax, ay, bx, by)
            }) {
                return fail(problem, runStart, "run \(index) \(runProblem.phrase)")
            }
            if banded, case let expected = extent.band(in: bounds), shared.band != expected.byte {
                problem(RecordProblem(offset: runStart, reason: "run \(index) has the band \(RunBand(byte: shared.band)), but its vertices give \(expected) (section 8.5.1)"))
            }
        }
        return true
    }

    private mutating func walkEntries(checkingVertices: Bool, slot: (RecordSlot) -> Void, run: (Int, UInt64) -> Void,
                                      edge: (Int64, Int64, Int64, Int64) -> Void, problem: (RecordProblem) -> Void) -> Bool {
        let start = cursor.position
        guard let count = cursor.readVarint(), count >= 1, count <= UInt64(featureCount), count <= UInt64(cursor.remaining) else {
            return fail(problem, start, "the record's feature count is missing, zero or more than the features")
        }
        var featureIndex: UInt64 = 0
        for entry in 0..<Int(count) {
            let entryStart = cursor.position
            guard let head = cursor.readVarint(), let runs = cursor.readVarint() else {
                return fail(problem, entryStart, "record entry \(entry) ends early")
            }
            if entry > 0 && head >> 1 == 0 {
                problem(RecordProblem(offset: entryStart, reason: "record entry \(entry) repeats feature \(featureIndex)"))
            }
            featureIndex &+= head >> 1
            guard featureIndex < UInt64(featureCount) else {
                return fail(problem, entryStart, "record entry \(entry) names feature \(featureIndex), but there are \(featureCount)")
            }
            if runs == 0 && head & 1 == 0 {
                problem(RecordProblem(offset: entryStart, reason: "record entry \(entry) has no edges and its corner is outside"))
            }
            guard runs <= UInt64(cursor.remaining) else { return fail(problem, entryStart, "record entry \(entry) claims \(runs) runs") }
            slot(RecordSlot(featureIndex: Int(featureIndex), cornerInside: head & 1 == 1))
            for index in 0..<runs {
                let runStart = cursor.position
                run(entry, 1)
                if let runProblem = readRun(checkingVertices: checkingVertices, edge) {
                    return fail(problem, runStart, "run \(index) of entry \(entry) \(runProblem.phrase)")
                }
            }
        }
        return true
    }

    /// Marks the record unsound and reports why: the walk's answer for damage that ends it.
    private mutating func fail(_ problem: (RecordProblem) -> Void, _ offset: Int, _ reason: String) -> Bool {
        isSound = false
        problem(RecordProblem(offset: offset, reason: reason))
        return false
    }

    /// Walks the record without a point: the number of slots (features) and of stored edges in it.
    mutating func count() -> (features: Int, edges: Int) {
        var features = 0, edges = 0
        walk(slot: { _ in features += 1 }, run: { _, _ in }, edge: { _, _, _, _ in edges += 1 })
        return (features, edges)
    }
}
