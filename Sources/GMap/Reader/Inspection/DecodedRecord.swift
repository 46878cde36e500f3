/// One tile record read whole, for the checks that compare records with each other
/// (``TileConsistencyCheck``): its slots and every stored edge (in a layer of lines, segment) with
/// the slots it counts for.
///
/// Format 3 records store each distinct edge once with a slot mask; format 1 and 2 records are read
/// as one slot per feature entry whose edges have that slot alone (``TileRecordReader/walk``).
struct DecodedRecord {
    /// One stored edge: its ends in units, and its slots: mask bit `k` is slot `firstSlot + k`.
    struct Edge {
        var ax: Int64, ay: Int64, bx: Int64, by: Int64
        var firstSlot: Int
        var mask: UInt64
    }

    /// The slots in record order: features, with their corner bits (always false for lines).
    private(set) var slots: [RecordSlot] = []
    /// The stored edges in record order.
    private(set) var edges: [Edge] = []
    /// A layer of points: each stored point and the slot it belongs to.
    private(set) var points: [(slot: Int, x: Int64, y: Int64)] = []
    /// The slots of the run being read.
    private var window = (firstSlot: 0, mask: UInt64(0))

    /// An empty record, to be filled by ``addSlot(_:)``, ``startRun(firstSlot:mask:)`` and ``addEdge(_:_:_:_:)``.
    init() {}

    /// Adds the next slot.
    mutating func addSlot(_ slot: RecordSlot) { slots.append(slot) }

    /// Starts a run whose edges count for the slots of `mask` from `firstSlot` on.
    mutating func startRun(firstSlot: Int, mask: UInt64) { window = (firstSlot, mask) }

    /// Adds an edge of the current run.
    mutating func addEdge(_ ax: Int64, _ ay: Int64, _ bx: Int64, _ by: Int64) {
        edges.append(Edge(ax: ax, ay: ay, bx: bx, by: by, firstSlot: window.firstSlot, mask: window.mask))
    }

    /// Adds a segment of a lines record (format 3.1), with the mask of its run's slots.
    mutating func addSegment(mask: UInt64, _ ax: Int64, _ ay: Int64, _ bx: Int64, _ by: Int64) {
        edges.append(Edge(ax: ax, ay: ay, bx: bx, by: by, firstSlot: 0, mask: mask))
    }

    /// Adds a point of a points record (format 3.1) belonging to `slot`.
    mutating func addPoint(slot: Int, _ x: Int64, _ y: Int64) {
        points.append((slot, x, y))
    }

    /// Calls `body` with each stored vertex (edge and segment ends, points) and the feature it belongs to.
    func forEachVertex(_ body: (_ feature: Int, _ x: Int64, _ y: Int64) -> Void) {
        for edge in edges {
            forEachSlot(of: edge) { slot in
                body(slots[slot].featureIndex, edge.ax, edge.ay)
                body(slots[slot].featureIndex, edge.bx, edge.by)
            }
        }
        for point in points where point.slot < slots.count { body(slots[point.slot].featureIndex, point.x, point.y) }
    }

    /// The polygon record of `leaf` (a record leaf of a polygon layer), or nil when it cannot be read to its end.
    static func read(_ leaf: LocatedTile, in storage: MapStorage) -> DecodedRecord? {
        var record = DecodedRecord()
        var reader = TileRecordReader(storage: storage, entry: leaf.entry, bounds: leaf.bounds)
        let sound = reader.walk(slot: { record.addSlot($0) }, run: { record.startRun(firstSlot: $0, mask: $1) },
                                edge: { record.addEdge($0, $1, $2, $3) })
        return sound && reader.isSound ? record : nil
    }

    /// Calls `body` with each slot `edge` counts for (that the record has), in ascending order.
    func forEachSlot(of edge: Edge, _ body: (Int) -> Void) {
        var pending = edge.mask
        while pending != 0 {
            let slot = edge.firstSlot + pending.trailingZeroBitCount
            pending &= pending - 1
            if slot < slots.count { body(slot) }
        }
    }

    /// Per feature, how many of its slots have their corner bit set (features with none left out),
    /// by ascending feature index.
    var cornerCounts: [FeatureCount] {
        FeatureCount.tally(slots.indices.filter { slots[$0].cornerInside }.map { slots[$0].featureIndex })
    }

    /// Per feature, how many of its slots contain `point` by the rule of Spec/FORMAT.md 11 (the corner
    /// bit, flipped by every stored edge that crosses the path from the point to the corner), by
    /// ascending feature index. `point` must lie in the leaf whose east and south edges are given.
    func insideCounts(at point: GridPoint, east: Int64, south: Int64) -> [FeatureCount] {
        var inside = slots.map { $0.cornerInside }
        for edge in edges where EvenOddRule.flipsParity(point: point, east: east, south: south,
                                                        ax: edge.ax, ay: edge.ay, bx: edge.bx, by: edge.by) {
            forEachSlot(of: edge) { inside[$0].toggle() }
        }
        return FeatureCount.tally(slots.indices.filter { inside[$0] }.map { slots[$0].featureIndex })
    }
}

/// A feature and a number of its slots (parity groups, in a 3.2 file; otherwise 0 or 1) or of its
/// uses of an edge.
struct FeatureCount: Equatable {
    /// The feature's index in its layer.
    var feature: Int
    /// How many.
    var count: Int

    /// How often each feature occurs in `features`, by ascending feature index.
    static func tally(_ features: [Int]) -> [FeatureCount] {
        var counts: [FeatureCount] = []
        for feature in features.sorted() {
            if let last = counts.last, last.feature == feature {
                counts[counts.count - 1].count += 1
            } else {
                counts.append(FeatureCount(feature: feature, count: 1))
            }
        }
        return counts
    }
}
