import GMap

/// The distinct undirected edges of a polygon set: every edge (from vertex `i` to `i + 1`) gets
/// the id of its segment, so that a border used by two features, in either direction, has one id.
struct DistinctEdges {
    /// Per vertex index with an edge, the id of its segment (unused for ring ends).
    let idOfEdge: [UInt32]
    /// How many distinct segments there are.
    let count: Int

    init(_ polygons: PolygonSet) {
        struct Segment: Hashable {
            var low: UInt64
            var high: UInt64
        }
        var ids = [UInt32](repeating: 0, count: polygons.vertexCount)
        var known: [Segment: UInt32] = [:]
        known.reserveCapacity(polygons.vertexCount)
        for index in 0..<polygons.vertexCount where polygons.hasEdge(at: index) {
            let a = UInt64(UInt32(bitPattern: polygons.xs[index])) << 32 | UInt64(UInt32(bitPattern: polygons.ys[index]))
            let b = UInt64(UInt32(bitPattern: polygons.xs[index + 1])) << 32 | UInt64(UInt32(bitPattern: polygons.ys[index + 1]))
            let segment = Segment(low: min(a, b), high: max(a, b))
            if let id = known[segment] {
                ids[index] = id
            } else {
                let id = UInt32(known.count)
                known[segment] = id
                ids[index] = id
            }
        }
        idOfEdge = ids
        count = known.count
    }
}

/// Encodes tiles in format 3: every distinct edge of a leaf tile once, with a mask of the slots
/// (features) that use it, and split tiles as directory nodes written into `TILE` after their
/// children (Spec/FORMAT.md, "Directory nodes" and "Records with shared edges").
struct SharedTileEncoder: TopLevelTileEncoder {
    let polygons: PolygonSet
    let distinct: DistinctEdges
    let options: BuildOptions
    /// `TILE`: records and nodes.
    private(set) var blob: [UInt8] = []
    private(set) var counts = TileCounts()
    private(set) var nodeCount = 0
    private var recordOffsets: [[UInt8]: Int] = [:]
    /// Bytes of directory nodes, and the parts of the records, for the build report.
    private var nodeBytes = 0
    private var recordBits = RecordBits()

    /// With parity groups (``PartGroups``), the feature rank of each slot key (a share's `rank` is
    /// then the key: one per group, a feature's groups consecutive); empty when keys are ranks.
    let featureOfKey: [UInt32]

    init(polygons: PolygonSet, distinct: DistinctEdges, options: BuildOptions, featureOfKey: [UInt32] = []) {
        self.polygons = polygons
        self.distinct = distinct
        self.options = options
        self.featureOfKey = featureOfKey
    }

    /// The feature rank of a slot key.
    private func feature(_ key: UInt32) -> UInt32 { featureOfKey.isEmpty ? key : featureOfKey[Int(key)] }

    /// The parity group of a slot key within its feature (0 without groups): the keys of a
    /// feature's groups are consecutive, the first of them group 0.
    private func group(_ key: UInt32) -> Int {
        guard !featureOfKey.isEmpty else { return 0 }
        var first = Int(key)
        while first > 0, featureOfKey[first - 1] == featureOfKey[Int(key)] { first -= 1 }
        return Int(key) - first
    }

    /// A child of a node or a top-level tile: its kind and its feature index or `TILE` offset.
    struct Reference {
        var kind: UInt32
        var value: Int
    }

    /// The top-level directory entry for a tile with these shares (sorted by rank).
    mutating func encodeTopLevel(bounds: TileBounds, shares: [TileShare]) throws -> UInt32 {
        let reference = try encode(bounds: bounds, shares: shares, depth: 0)
        guard reference.value <= Int(TileEntry.maximumPayload) else {
            throw BuildError("the tile records exceed 1 GiB, the most the format can address; use a coarser --precision or --max-edges")
        }
        return TileEntry.make(kind: reference.kind, payload: UInt32(reference.value))
    }

    /// The bytes by what they hold, as `gmap info` measures them; `gridBytes` is the layer's `GRID`.
    func breakdown(gridBytes: Int) -> TileBytes {
        TileBytes(directoryBytes: gridBytes + nodeBytes, records: recordBits)
    }

    private mutating func encode(bounds: TileBounds, shares: [TileShare], depth: Int) throws -> Reference {
        let factor = Int64(options.splitFactor)
        let canSplit = depth < options.maximumDepth && bounds.width >= factor * 2 && bounds.height >= factor * 2
        if shares.count > FormatLayout.SharedRecord.maximumSlots {
            // Splitting helps only where edges divide the tile; features that cover it all stay in every part.
            guard canSplit, shares.contains(where: { !$0.edges.isEmpty }) else {
                let q = options.quantizer
                throw BuildError("\(shares.count) features overlap in the tile whose south-west corner is (\(q.degrees(bounds.south)), \(q.degrees(bounds.west))) (depth \(depth)), more than the \(FormatLayout.SharedRecord.maximumSlots) a format 3 record holds; build this map with --format 2.1 --max-depth 0 (format 2.1 has no such limit, and without splits its tiles stay few)")
            }
            return try split(bounds: bounds, shares: shares, depth: depth)
        }
        let record = SharedRecord(shares: shares, distinct: distinct, group: group)
        if record.slots.count > FormatLayout.SharedRecord.maximumSlots {
            // Only the empty slots before a feature's later parity groups can make it more than the shares.
            guard canSplit else {
                let q = options.quantizer
                throw BuildError("\(record.slots.count) slots (features and parity groups) are needed in the tile whose south-west corner is (\(q.degrees(bounds.south)), \(q.degrees(bounds.west))) (depth \(depth)), more than the \(FormatLayout.SharedRecord.maximumSlots) a format 3 record holds; build this map with --format 2.1 --max-depth 0 (format 2.1 has no such limit, and without splits its tiles stay few)")
            }
            return try split(bounds: bounds, shares: shares, depth: depth)
        }
        if record.slots.isEmpty {
            counts.emptyTiles += 1
            return Reference(kind: TileEntry.emptyKind, value: 0)
        }
        // One feature and no edge: covered (with parity groups, all the slots may be one feature's).
        if record.edgeCount == 0, record.slots.allSatisfy({ feature($0.rank) == feature(record.slots[0].rank) }) {
            counts.coveredTiles += 1
            counts.edgesPerLeaf.append(0)
            return Reference(kind: TileEntry.coveredKind, value: Int(feature(record.slots[0].rank)))
        }
        if record.edgeCount > options.maximumEdgesPerTile, canSplit {
            return try split(bounds: bounds, shares: shares, depth: depth)
        }
        counts.edgesPerLeaf.append(record.edgeCount)
        counts.recordTiles += 1
        let encoded = record.bytes(bounds: bounds, polygons: polygons, bands: options.writesRunBands, feature: feature)
        if let offset = recordOffsets[encoded.bytes] {
            return Reference(kind: TileEntry.recordKind, value: offset)
        }
        let offset = blob.count
        blob.append(contentsOf: encoded.bytes)
        recordOffsets[encoded.bytes] = offset
        recordBits.add(encoded.parts)
        return Reference(kind: TileEntry.recordKind, value: offset)
    }

    /// Encodes the parts first, then the node that points back at them.
    private mutating func split(bounds: TileBounds, shares: [TileShare], depth: Int) throws -> Reference {
        let factor = Int64(options.splitFactor)
        counts.splitTiles += 1
        counts.deepestSplit = max(counts.deepestSplit, depth + 1)
        var children: [Reference] = []
        for row in 0..<factor {
            for column in 0..<factor {
                let part = bounds.part(column: column, row: row, factor: factor)
                let partShares = TileShare.shares(of: part, in: bounds, from: shares, polygons: polygons)
                children.append(try encode(bounds: part, shares: partShares, depth: depth + 1))
            }
        }
        let node = blob.count
        nodeBytes += DirectoryNodeWriter.append(children: children.map { ($0.kind, $0.value) }, factor: Int(factor), to: &blob)
        nodeCount += 1
        return Reference(kind: TileEntry.splitKind, value: node)
    }
}

extension TileShare {
    /// The shares of `part` of the tile `bounds`: each feature's corner parity moved to the part's
    /// south-east corner, and the edges that meet the part.
    static func shares(of part: TileBounds, in bounds: TileBounds, from shares: [TileShare], polygons: PolygonSet) -> [TileShare] {
        var partShares: [TileShare] = []
        for share in shares {
            var inside = share.cornerInside
            var edges: [UInt32] = []
            for edge in share.edges {
                let index = Int(edge)
                let ax = Int64(polygons.xs[index]), ay = Int64(polygons.ys[index])
                let bx = Int64(polygons.xs[index + 1]), by = Int64(polygons.ys[index + 1])
                if EvenOddRule.flipsParity(pointX: part.east, pointY: part.south, east: bounds.east, south: bounds.south,
                                           ax: ax, ay: ay, bx: bx, by: by) {
                    inside.toggle()
                }
                if Geometry.segment(ax, ay, bx, by, touches: part) { edges.append(edge) }
            }
            if inside || !edges.isEmpty {
                partShares.append(TileShare(rank: share.rank, cornerInside: inside, edges: edges))
            }
        }
        return partShares
    }
}

/// One leaf tile's record in format 3: the slots that matter, and runs of distinct edges with masks.
struct SharedRecord {
    /// The slots kept: features whose corner is inside or that have an edge left after cancelling.
    var slots: [TileShare] = []
    /// Runs: the mask of slots, and the vertex indexes of a chain of consecutive ring edges.
    var runs: [(mask: UInt64, firstEdge: Int, lastEdge: Int)] = []
    /// Distinct edges stored.
    var edgeCount = 0

    /// At most 64 shares, sorted by rank (by slot key). `group` gives a key's parity group within
    /// its feature (``PartGroups``): a feature's group `g` is always its slot `g` among its slots
    /// in the record, groups that are absent from the tile before it taking empty slots (corner
    /// bit 0, no edge), so that `gmap export` can tell a feature's groups apart in every tile.
    init(shares: [TileShare], distinct: DistinctEdges, group: (UInt32) -> Int = { _ in 0 }) {
        // Masks over the shares' positions: XOR of every use.
        var masks: [UInt32: UInt64] = [:]
        for (position, share) in shares.enumerated() {
            for edge in share.edges { masks[distinct.idOfEdge[Int(edge)], default: 0] ^= UInt64(1) << UInt64(position) }
        }
        var used: UInt64 = 0
        for mask in masks.values { used |= mask }
        // Keep the shares with an edge left or a corner inside; renumber the mask bits to the kept slots.
        var slotOf = [Int](repeating: -1, count: shares.count)
        for (position, share) in shares.enumerated() where share.cornerInside || (used >> UInt64(position)) & 1 == 1 {
            let shareGroup = group(share.rank)
            if shareGroup > 0 {
                // Keys ascend and a feature's keys are consecutive: its slots so far are its groups
                // from 0 up to some group; the groups after that one and before this one get empty slots.
                let first = share.rank - UInt32(shareGroup)
                var next = first
                if let last = slots.last, last.rank >= first { next = last.rank + 1 }
                while next < share.rank {
                    slots.append(TileShare(rank: next, cornerInside: false, edges: []))
                    next += 1
                }
            }
            slotOf[position] = slots.count
            slots.append(share)
        }
        func renumbered(_ mask: UInt64) -> UInt64 {
            var result: UInt64 = 0, pending = mask
            while pending != 0 {
                let position = pending.trailingZeroBitCount
                pending &= pending - 1
                result |= UInt64(1) << UInt64(slotOf[position])
            }
            return result
        }
        edgeCount = masks.values.reduce(0) { $0 + ($1 != 0 ? 1 : 0) }
        // Runs: for each slot in order, its edges in ring order, cut where the next edge is not the
        // ring's next, belongs to a lower slot, is already written or has another mask.
        var written = Set<UInt32>()
        for (position, share) in shares.enumerated() where slotOf[position] >= 0 {
            var current: (mask: UInt64, firstEdge: Int, lastEdge: Int)?
            for edge in share.edges.map(Int.init) {
                let id = distinct.idOfEdge[edge]
                let mask = masks[id] ?? 0
                guard mask != 0, mask.trailingZeroBitCount == position, !written.contains(id) else {
                    if let run = current { runs.append((renumbered(run.mask), run.firstEdge, run.lastEdge)) }
                    current = nil
                    continue
                }
                written.insert(id)
                if let run = current, run.lastEdge + 1 == edge, run.mask == mask {
                    current?.lastEdge = edge
                } else {
                    if let run = current { runs.append((renumbered(run.mask), run.firstEdge, run.lastEdge)) }
                    current = (mask, edge, edge)
                }
            }
            if let run = current { runs.append((renumbered(run.mask), run.firstEdge, run.lastEdge)) }
        }
    }

    /// The record's bytes (Spec/FORMAT.md, "Records with shared edges") and how they divide.
    /// `feature` gives a slot key's feature rank: slots of one feature (parity groups) are written
    /// with the feature difference 0 (format 3.2). With `bands`, each run's vertex count is followed
    /// by its band byte (banded polygons, 3.5; ``RunBand``).
    func bytes(bounds: TileBounds, polygons: PolygonSet, bands: Bool, feature: (UInt32) -> UInt32) -> (bytes: [UInt8], parts: RecordBits) {
        var bytes: [UInt8] = []
        Varint.append(UInt64(slots.count), to: &bytes)
        var previous: UInt32 = 0
        for share in slots {
            let rank = feature(share.rank)
            Varint.append(UInt64(rank - previous), to: &bytes)
            previous = rank
        }
        var corners = [UInt8](repeating: 0, count: (slots.count + 7) / 8)
        for (slot, share) in slots.enumerated() where share.cornerInside { corners[slot / 8] |= 1 << UInt8(slot % 8) }
        bytes.append(contentsOf: corners)
        Varint.append(UInt64(runs.count), to: &bytes)
        let firsts = runs.map { run in
            (ZigZag.encode(Int64(polygons.xs[run.firstEdge]) - bounds.west), ZigZag.encode(Int64(polygons.ys[run.firstEdge]) - bounds.south))
        }
        let firstWidthX = firsts.reduce(0) { max($0, 64 - $1.0.leadingZeroBitCount) }
        let firstWidthY = firsts.reduce(0) { max($0, 64 - $1.1.leadingZeroBitCount) }
        if !runs.isEmpty {
            bytes.append(UInt8(firstWidthX))
            bytes.append(UInt8(firstWidthY))
        }
        let headBytes = bytes.count
        var vertexCountBytes = 0
        let maskWidth = slots.count > 1 ? slots.count : 0
        for (run, first) in zip(runs, firsts) {
            let vertexCount = run.lastEdge - run.firstEdge + 2
            let before = bytes.count
            Varint.append(UInt64(vertexCount), to: &bytes)
            vertexCountBytes += bytes.count - before
            if bands { bytes.append(band(of: run, bounds: bounds, polygons: polygons).byte) }
            var deltas: [(x: UInt64, y: UInt64)] = []
            deltas.reserveCapacity(vertexCount - 1)
            for vertex in (run.firstEdge + 1)...(run.lastEdge + 1) {
                deltas.append((ZigZag.encode(Int64(polygons.xs[vertex]) - Int64(polygons.xs[vertex - 1])),
                               ZigZag.encode(Int64(polygons.ys[vertex]) - Int64(polygons.ys[vertex - 1]))))
            }
            bytes += SharedRunBits.bytes(mask: run.mask, maskWidth: maskWidth, first: first, firstWidths: (firstWidthX, firstWidthY), deltas: deltas)
        }
        let runCount = runs.count
        return (bytes, RecordBits(totalBytes: bytes.count, headBytes: headBytes, vertexCountBytes: vertexCountBytes,
                                  maskBits: maskWidth * runCount, firstVertexBits: (firstWidthX + firstWidthY) * runCount,
                                  widthBits: 2 * Int(FormatLayout.SharedRecord.widthFieldBits) * runCount,
                                  bandBytes: bands ? runCount : 0))
    }

    /// The band of a run's vertices in the tile (``RunBand``).
    private func band(of run: (mask: UInt64, firstEdge: Int, lastEdge: Int), bounds: TileBounds, polygons: PolygonSet) -> RunBand {
        var extent = RunExtent(x: Int64(polygons.xs[run.firstEdge]), y: Int64(polygons.ys[run.firstEdge]))
        for vertex in (run.firstEdge + 1)...(run.lastEdge + 1) {
            extent.add(Int64(polygons.xs[vertex - 1]), Int64(polygons.ys[vertex - 1]), Int64(polygons.xs[vertex]), Int64(polygons.ys[vertex]),
                       east: bounds.east)
        }
        return extent.band(in: bounds)
    }
}
