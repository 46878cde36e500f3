import GMap

/// Encodes the tiles of a layer of lines or points (format 3.1, Spec/FORMAT.md 8.7): the same
/// directory as polygons (top-level entries, directory nodes after their children in `TILE`), no
/// covered tiles, and records that list the tile's features and their segments or points.
///
/// An *item* is a segment (the index of its first vertex) or a point (its vertex index). A segment
/// belongs to every tile whose closed rectangle it meets; a point to exactly one leaf, the one
/// ``DirectoryWalker`` locates for it (columns and rows half-open, `⌊d·factor/w⌋` in a split).
/// A tile with more items than ``BuildOptions/maximumEdgesPerTile`` or more than 64 features is
/// split while the depth allows.
struct OpenTileEncoder {
    let set: OpenGeometrySet
    let options: BuildOptions
    /// `TILE`: records and nodes.
    private(set) var blob: [UInt8] = []
    private(set) var counts = TileCounts()
    private(set) var nodeCount = 0
    private(set) var nodeBytes = 0
    private var recordOffsets: [[UInt8]: Int] = [:]
    /// Compact points (3.4, Spec/FORMAT.md 8.7.4): a leaf's record is the range of the features
    /// it holds, numbered in the order the leaves are written; no 64-slot limit.
    var compact = false
    /// With ``compact``: the feature added as each feature of the file, in file order.
    private(set) var compactOrder: [Int] = []

    init(set: OpenGeometrySet, options: BuildOptions) {
        self.set = set
        self.options = options
    }

    /// The top-level grid over the set's extent: the polygon layers' rule (origin on a multiple of
    /// the tile size from −180°, −90°), with the tile size given or chosen automatically.
    static func grid(for set: OpenGeometrySet, options: BuildOptions) -> GridInfo {
        let q = options.quantizer, extent = set.extent
        let size = options.tileSize ?? BuildOptions.automaticTileSize(for: extent, quantizer: q)
        let originX = -q.halfTurn + ((extent.west + q.halfTurn) / size) * size
        let originY = -q.quarterTurn + ((extent.south + q.quarterTurn) / size) * size
        return GridInfo(originX: originX, originY: originY, tileWidth: size, tileHeight: size,
                        columns: (extent.east - originX) / size + 1, rows: (extent.north - originY) / size + 1,
                        splitFactor: Int64(options.splitFactor), maximumDepth: 0, subdirectoryCount: 0)
    }

    /// The items of each top-level tile (row by row from the south-west), ascending.
    static func bucket(_ set: OpenGeometrySet, grid: GridInfo) -> [[Int]] {
        var tiles = [[Int]](repeating: [], count: Int(grid.columns * grid.rows))
        let w = grid.tileWidth, h = grid.tileHeight
        for index in 0..<set.vertexCount {
            let x = set.xs[index], y = set.ys[index]
            guard set.kind.joinsVertices else {
                tiles[Int(((y - grid.originY) / h) * grid.columns + (x - grid.originX) / w)].append(index)
                continue
            }
            guard set.continues[index] else { continue }
            let bx = set.xs[index + 1], by = set.ys[index + 1]
            // Every tile whose closed rectangle meets the segment's box, then the exact test.
            func range(_ low: Int64, _ high: Int64, origin: Int64, size: Int64, count: Int64) -> ClosedRange<Int64> {
                var first = (low - origin) / size
                if (low - origin) % size == 0, first > 0 { first -= 1 }
                return first...max(first, min(count - 1, (high - origin) / size))
            }
            for row in range(min(y, by), max(y, by), origin: grid.originY, size: h, count: grid.rows) {
                for column in range(min(x, bx), max(x, bx), origin: grid.originX, size: w, count: grid.columns) {
                    let west = grid.originX + column * w, south = grid.originY + row * h
                    if Geometry.segment(x, y, bx, by, touches: TileBounds(west: west, south: south, east: west + w, north: south + h)) {
                        tiles[Int(row * grid.columns + column)].append(index)
                    }
                }
            }
        }
        return tiles
    }

    /// The top-level directory entry of a tile holding `items` (ascending).
    mutating func encodeTopLevel(bounds: TileBounds, items: [Int]) throws -> UInt32 {
        let reference = try encode(bounds: bounds, items: items, depth: 0)
        guard reference.value <= Int(TileEntry.maximumPayload) else {
            throw BuildError("the tile records exceed 1 GiB, the most the format can address; use a coarser --precision or --max-edges")
        }
        return TileEntry.make(kind: reference.kind, payload: UInt32(reference.value))
    }

    private struct Reference {
        var kind: UInt32
        var value: Int
    }

    private mutating func encode(bounds: TileBounds, items: [Int], depth: Int) throws -> Reference {
        guard !items.isEmpty else {
            counts.emptyTiles += 1
            return Reference(kind: TileEntry.emptyKind, value: 0)
        }
        if compact { return try encodeCompact(bounds: bounds, items: items, depth: depth) }
        var features: [UInt32] = []
        for item in items where features.last != set.featureOfVertex[item] {
            features.append(set.featureOfVertex[item])
        }
        features = Array(Set(features)).sorted()
        let factor = Int64(options.splitFactor)
        let canSplit = depth < options.maximumDepth && bounds.width >= factor * 2 && bounds.height >= factor * 2
        let maximumSlots = FormatLayout.SharedRecord.maximumSlots
        if canSplit, items.count > options.maximumEdgesPerTile || features.count > maximumSlots {
            return try split(bounds: bounds, items: items, depth: depth)
        }
        guard features.count <= maximumSlots else {
            let q = options.quantizer
            let place = "\(features.count) features meet the tile whose south-west corner is (\(q.degrees(bounds.south)), \(q.degrees(bounds.west))) (depth \(depth)), more than the \(maximumSlots) a record holds"
            // A deeper split helps only below the deepest depth and while the tile can still be split.
            let deeper = options.maximumDepth < BuildOptions.maximumDepthRange.upperBound && bounds.width >= factor * 2 && bounds.height >= factor * 2
            throw BuildError(deeper ? "\(place), and it cannot be split further; raise --max-depth"
                                    : "\(place), and no deeper tile can separate them; leave some of them out of the input")
        }
        counts.recordTiles += 1
        counts.edgesPerLeaf.append(items.count)
        let bytes = set.kind.joinsVertices ? lineRecord(bounds: bounds, items: items, features: features)
                                       : pointRecord(bounds: bounds, items: items, features: features)
        if let offset = recordOffsets[bytes] { return Reference(kind: TileEntry.recordKind, value: offset) }
        let offset = blob.count
        blob.append(contentsOf: bytes)
        recordOffsets[bytes] = offset
        return Reference(kind: TileEntry.recordKind, value: offset)
    }

    /// A leaf of compact points: `first` and `count`, its points' features numbered next, from
    /// the south (then the west) so that the point table's differences stay small.
    private mutating func encodeCompact(bounds: TileBounds, items: [Int], depth: Int) throws -> Reference {
        let factor = Int64(options.splitFactor)
        let canSplit = depth < options.maximumDepth && bounds.width >= factor * 2 && bounds.height >= factor * 2
        if canSplit, items.count > options.maximumEdgesPerTile { return try split(bounds: bounds, items: items, depth: depth) }
        counts.recordTiles += 1
        counts.edgesPerLeaf.append(items.count)
        var bytes: [UInt8] = []
        Varint.append(UInt64(compactOrder.count), to: &bytes)
        Varint.append(UInt64(items.count), to: &bytes)
        let ordered = items.sorted { (set.ys[$0], set.xs[$0], $0) < (set.ys[$1], set.xs[$1], $1) }
        compactOrder += ordered.map { Int(set.featureOfVertex[$0]) }
        let offset = blob.count
        blob.append(contentsOf: bytes)
        return Reference(kind: TileEntry.recordKind, value: offset)
    }

    /// Encodes the parts first, then the node that points back at them.
    private mutating func split(bounds: TileBounds, items: [Int], depth: Int) throws -> Reference {
        let factor = Int64(options.splitFactor)
        counts.splitTiles += 1
        counts.deepestSplit = max(counts.deepestSplit, depth + 1)
        var partItems = [[Int]](repeating: [], count: Int(factor * factor))
        for item in items {
            let x = set.xs[item], y = set.ys[item]
            if !set.kind.joinsVertices {
                let column = TileBounds.partIndex(offset: x - bounds.west, length: bounds.width, factor: factor)
                let row = TileBounds.partIndex(offset: y - bounds.south, length: bounds.height, factor: factor)
                partItems[Int(row * factor + column)].append(item)
                continue
            }
            for row in 0..<factor {
                for column in 0..<factor
                where Geometry.segment(x, y, set.xs[item + 1], set.ys[item + 1], touches: bounds.part(column: column, row: row, factor: factor)) {
                    partItems[Int(row * factor + column)].append(item)
                }
            }
        }
        var children: [(kind: UInt32, value: Int)] = []
        for row in 0..<factor {
            for column in 0..<factor {
                let part = bounds.part(column: column, row: row, factor: factor)
                let child = try encode(bounds: part, items: partItems[Int(row * factor + column)], depth: depth + 1)
                children.append((child.kind, child.value))
            }
        }
        let node = blob.count
        nodeBytes += DirectoryNodeWriter.append(children: children, factor: Int(factor), to: &blob)
        nodeCount += 1
        return Reference(kind: TileEntry.splitKind, value: node)
    }

    /// `n`, then the slots' feature indexes as ascending differences.
    private func slotHead(_ features: [UInt32]) -> [UInt8] {
        var bytes: [UInt8] = []
        Varint.append(UInt64(features.count), to: &bytes)
        var previous: UInt32 = 0
        for feature in features {
            Varint.append(UInt64(feature - previous), to: &bytes)
            previous = feature
        }
        return bytes
    }

    /// A lines record: slots, then runs of consecutive segments of one line, each run's mask the
    /// bit of its feature's slot; runs in slot order.
    private func lineRecord(bounds: TileBounds, items: [Int], features: [UInt32]) -> [UInt8] {
        var bytes = slotHead(features)
        var slotOf: [UInt32: Int] = [:]
        for (slot, feature) in features.enumerated() { slotOf[feature] = slot }
        // Items ascend, and a feature's vertices are contiguous in feature order: runs come by slot.
        var runs: [(first: Int, last: Int)] = []
        for item in items {
            if let run = runs.last, run.last + 1 == item, set.continues[run.last] {
                runs[runs.count - 1].last = item
            } else {
                runs.append((item, item))
            }
        }
        Varint.append(UInt64(runs.count), to: &bytes)
        let firsts = runs.map { (ZigZag.encode(set.xs[$0.first] - bounds.west), ZigZag.encode(set.ys[$0.first] - bounds.south)) }
        let firstWidthX = firsts.reduce(0) { max($0, 64 - $1.0.leadingZeroBitCount) }
        let firstWidthY = firsts.reduce(0) { max($0, 64 - $1.1.leadingZeroBitCount) }
        bytes.append(UInt8(firstWidthX))
        bytes.append(UInt8(firstWidthY))
        let maskWidth = features.count > 1 ? features.count : 0
        for (run, first) in zip(runs, firsts) {
            Varint.append(UInt64(run.last - run.first + 2), to: &bytes)
            var deltas: [(x: UInt64, y: UInt64)] = []
            for vertex in (run.first + 1)...(run.last + 1) {
                deltas.append((ZigZag.encode(set.xs[vertex] - set.xs[vertex - 1]), ZigZag.encode(set.ys[vertex] - set.ys[vertex - 1])))
            }
            let mask = UInt64(1) << UInt64(slotOf[set.featureOfVertex[run.first]] ?? 0)
            bytes += SharedRunBits.bytes(mask: mask, maskWidth: maskWidth, first: first, firstWidths: (firstWidthX, firstWidthY), deltas: deltas)
        }
        return bytes
    }

    /// A points record: slots, the point count, then each point's slot (when there are several)
    /// and its offsets from the tile's south-west corner as zig-zag varints.
    private func pointRecord(bounds: TileBounds, items: [Int], features: [UInt32]) -> [UInt8] {
        var bytes = slotHead(features)
        var slotOf: [UInt32: Int] = [:]
        for (slot, feature) in features.enumerated() { slotOf[feature] = slot }
        Varint.append(UInt64(items.count), to: &bytes)
        for item in items {
            if features.count > 1 { Varint.append(UInt64(slotOf[set.featureOfVertex[item]] ?? 0), to: &bytes) }
            Varint.appendSigned(set.xs[item] - bounds.west, to: &bytes)
            Varint.appendSigned(set.ys[item] - bounds.south, to: &bytes)
        }
        return bytes
    }
}
