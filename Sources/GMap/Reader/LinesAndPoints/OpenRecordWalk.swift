// Records of layers of lines and points (format 3.1, Spec/FORMAT.md 8.7).

extension TileRecordReader {
    /// Reads the slots of a lines or points record: `n` (1 … 64), then the features as ascending
    /// differences. Calls `slot` with each feature index; false (after telling `problem`) when the
    /// slots cannot be read or a feature index is out of range or repeated.
    mutating func readOpenSlots(slot: (Int) -> Void, problem: (RecordProblem) -> Void) -> UInt64? {
        let start = cursor.position
        guard let count = cursor.readVarint(), count >= 1, count <= UInt64(FormatLayout.SharedRecord.maximumSlots) else {
            isSound = false
            problem(RecordProblem(offset: start, reason: "the record's slot count is missing or outside 1…\(FormatLayout.SharedRecord.maximumSlots)"))
            return nil
        }
        var feature: UInt64 = 0
        for index in 0..<Int(count) {
            let at = cursor.position
            guard let delta = cursor.readVarint() else {
                isSound = false
                problem(RecordProblem(offset: at, reason: "slot \(index)'s feature index ends early"))
                return nil
            }
            if index > 0, delta == 0 {
                problem(RecordProblem(offset: at, reason: "slot \(index) repeats feature \(feature) (features must ascend)"))
            }
            feature &+= delta
            guard feature < UInt64(featureCount) else {
                isSound = false
                problem(RecordProblem(offset: at, reason: "slot \(index) names feature \(feature), but there are \(featureCount)"))
                return nil
            }
            slot(Int(feature))
        }
        return count
    }

    /// Walks a record of lines: `slot` hears of each slot's feature in order, then `segment` of
    /// every segment with the mask of the slots its run belongs to (`run` hears of each run before
    /// its segments). `problem` hears of everything wrong; false when the record could not be read
    /// to its end.
    @discardableResult
    mutating func walkLines(checkingVertices: Bool = true, slot: (Int) -> Void, run runStarts: () -> Void = {},
                            segment: (_ mask: UInt64, Int64, Int64, Int64, Int64) -> Void,
                            problem: (RecordProblem) -> Void = { _ in }) -> Bool {
        guard let slotCount = readOpenSlots(slot: slot, problem: problem) else { return false }
        let start = cursor.position
        guard let runCount = cursor.readVarint(), runCount >= 1, runCount <= UInt64(cursor.remaining), cursor.remaining >= 2 else {
            isSound = false
            problem(RecordProblem(offset: start, reason: "the record's run count or first-vertex widths are missing (a lines record has at least one run)"))
            return false
        }
        let widthX = UInt64(cursor.base.load(fromByteOffset: cursor.position, as: UInt8.self))
        let widthY = UInt64(cursor.base.load(fromByteOffset: cursor.position &+ 1, as: UInt8.self))
        guard widthX <= PackedRun.maximumWidth, widthY <= PackedRun.maximumWidth else {
            isSound = false
            problem(RecordProblem(offset: cursor.position, reason: "first-vertex widths \(widthX), \(widthY) are above \(PackedRun.maximumWidth) bits"))
            return false
        }
        cursor.position &+= 2
        let header = SharedHeader(slotCount: slotCount, featuresStart: 0, corners: 0, runCount: runCount, firstWidthX: widthX, firstWidthY: widthY)
        var lowest = 0
        for index in 0..<runCount {
            let runStart = cursor.position
            var run = PackedRunHead()
            if let runProblem = readSharedRun(header, into: &run) {
                isSound = false
                problem(RecordProblem(offset: runStart, reason: "run \(index) \(runProblem.phrase)"))
                return false
            }
            if run.mask & ~BitFields.mask(slotCount) != 0 {
                problem(RecordProblem(offset: runStart, reason: "run \(index)'s mask names slots past \(slotCount - 1)"))
            }
            let first = run.mask.trailingZeroBitCount
            if first < lowest {
                problem(RecordProblem(offset: runStart, reason: "run \(index) starts at slot \(first), after a run starting at slot \(lowest) (runs must come by lowest slot)"))
            }
            lowest = max(lowest, first)
            runStarts()
            if let runProblem = decode(run, checkingVertices: checkingVertices, { ax, ay, bx, by in segment(run.mask, ax, ay, bx, by) }) {
                isSound = false
                problem(RecordProblem(offset: runStart, reason: "run \(index) \(runProblem.phrase)"))
                return false
            }
        }
        return true
    }

    /// Walks a record of points: `slot` hears of each slot's feature in order, then `point` of every
    /// point with its slot. `problem` hears of everything wrong (a point outside the world, or
    /// outside the half-open tile it is stored in); false when the record could not be read to its end.
    @discardableResult
    mutating func walkPoints(checkingVertices: Bool = true, slot: (Int) -> Void,
                             point: (_ slot: Int, Int64, Int64) -> Void,
                             problem: (RecordProblem) -> Void = { _ in }) -> Bool {
        if compactPointsSection.offset >= 0 {
            guard let table = try? CompactPointTable.read(ByteSpan(base: cursor.base, count: fileEnd), compactPointsSection, name: "") else {
                isSound = false
                problem(RecordProblem(offset: cursor.position, reason: "the layer's point table cannot be read"))
                return false
            }
            return walkCompactPoints(table, checkingVertices: checkingVertices, slot: slot, point: point, problem: problem)
        }
        guard let slotCount = readOpenSlots(slot: slot, problem: problem) else { return false }
        let start = cursor.position
        // A point takes at least two bytes: the count cannot exceed half the bytes left.
        guard let pointCount = cursor.readVarint(), pointCount >= 1, pointCount <= UInt64(cursor.remaining) / 2 else {
            isSound = false
            problem(RecordProblem(offset: start, reason: "the record's point count is missing, zero or more than its bytes hold"))
            return false
        }
        for index in 0..<pointCount {
            let at = cursor.position
            var slotIndex: UInt64 = 0
            if slotCount > 1 {
                guard let value = cursor.readVarint() else { return failPoint(problem, at, index, "ends early") }
                guard value < slotCount else { return failPoint(problem, at, index, "names slot \(value), but there are \(slotCount)") }
                slotIndex = value
            }
            guard let dx = cursor.readSigned(), let dy = cursor.readSigned() else { return failPoint(problem, at, index, "ends early") }
            // Offsets beyond the world are refused before they are added: no overflow.
            let limit = 2 &* (limitX &+ limitY)
            guard dx >= -limit, dx <= limit, dy >= -limit, dy <= limit else { return failPoint(problem, at, index, "lies outside the world") }
            let x = bounds.west &+ dx, y = bounds.south &+ dy
            if checkingVertices {
                guard isInWorld(x, y) else { return failPoint(problem, at, index, "lies outside the world") }
                if x < bounds.west || x >= bounds.east || y < bounds.south || y >= bounds.north {
                    problem(RecordProblem(offset: at, reason: "point \(index) lies outside its tile (a point belongs to the one leaf that holds it, west and south edges included)"))
                }
            }
            point(Int(slotIndex), x, y)
        }
        return true
    }

    /// A record of compact points (3.4, Spec/FORMAT.md 8.7.4): `first` and `count`, the features
    /// `first …< first + count`, whose points are read from the point table; slot `j` is feature
    /// `first + j`.
    private mutating func walkCompactPoints(_ table: CompactPointTable, checkingVertices: Bool, slot: (Int) -> Void,
                                            point: (_ slot: Int, Int64, Int64) -> Void, problem: (RecordProblem) -> Void) -> Bool {
        let start = cursor.position
        guard let first = cursor.readVarint(), let count = cursor.readVarint(), count >= 1,
              first < UInt64(featureCount), count <= UInt64(featureCount) - first else {
            isSound = false
            problem(RecordProblem(offset: start, reason: "the record's range of features is missing, empty or past the \(featureCount) features"))
            return false
        }
        for index in 0..<Int(count) { slot(Int(first) + index) }
        guard var points = CompactPointCursor(table: table, file: ByteSpan(base: cursor.base, count: fileEnd),
                                              halfTurn: limitX, quarterTurn: limitY, feature: Int(first)) else {
            isSound = false
            problem(RecordProblem(offset: start, reason: "the point table cannot be read up to feature \(first)"))
            return false
        }
        for index in 0..<Int(count) {
            guard let record = points.next() else {
                isSound = false
                problem(RecordProblem(offset: start, reason: "the point table cannot be read at feature \(Int(first) + index)"))
                return false
            }
            if checkingVertices {
                guard isInWorld(record.x, record.y) else {
                    isSound = false
                    problem(RecordProblem(offset: start, reason: "feature \(Int(first) + index)'s point lies outside the world"))
                    return false
                }
                if record.x < bounds.west || record.x >= bounds.east || record.y < bounds.south || record.y >= bounds.north {
                    problem(RecordProblem(offset: start, reason: "feature \(Int(first) + index)'s point lies outside the tile whose record holds it (a point belongs to the one leaf that holds it, west and south edges included)"))
                }
            }
            point(index, record.x, record.y)
        }
        return true
    }

    private mutating func failPoint(_ problem: (RecordProblem) -> Void, _ offset: Int, _ index: UInt64, _ what: String) -> Bool {
        isSound = false
        problem(RecordProblem(offset: offset, reason: "point \(index) \(what)"))
        return false
    }
}
