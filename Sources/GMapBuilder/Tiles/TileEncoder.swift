import GMap

/// One feature's share of a tile: whether the tile's south-east corner is inside it, and the ids
/// of its edges that meet the tile (ascending).
struct TileShare {
    var rank: UInt32
    var cornerInside: Bool
    var edges: [UInt32]
}

/// What the encoder counted, for the build report and `gmap info`.
struct TileCounts {
    var emptyTiles = 0
    var coveredTiles = 0
    var recordTiles = 0
    var splitTiles = 0
    /// Edges per non-empty leaf tile.
    var edgesPerLeaf: [Int] = []
    var deepestSplit = 0
}

/// Encodes the tiles of a grid, one top-level tile at a time: format 2's ``TileEncoder`` or format
/// 3's ``SharedTileEncoder``.
protocol TopLevelTileEncoder {
    /// The top-level directory entry for a tile with these shares (sorted by rank).
    mutating func encodeTopLevel(bounds: TileBounds, shares: [TileShare]) throws -> UInt32
}

/// Turns tile shares into directory entries, sub-directories and tile records, splitting tiles
/// that hold too many edges (formats 1 and 2).
struct TileEncoder: TopLevelTileEncoder {
    let polygons: PolygonSet
    let options: BuildOptions
    private(set) var records: [UInt8] = []
    private(set) var subdirectories: [UInt32] = []
    private(set) var counts = TileCounts()
    private var recordOffsets: [[UInt8]: UInt32] = [:]

    init(polygons: PolygonSet, options: BuildOptions) {
        self.polygons = polygons
        self.options = options
    }

    var subdirectoryCount: Int { subdirectories.count / (options.splitFactor * options.splitFactor) }

    /// The top-level directory entry for a tile with these shares (sorted by rank).
    mutating func encodeTopLevel(bounds: TileBounds, shares: [TileShare]) throws -> UInt32 {
        try encode(bounds: bounds, shares: shares, depth: 0)
    }

    /// The directory entry for a tile with these shares (sorted by rank).
    mutating func encode(bounds: TileBounds, shares: [TileShare], depth: Int = 0) throws -> UInt32 {
        if shares.isEmpty {
            counts.emptyTiles += 1
            return 0
        }
        let edgeCount = shares.reduce(0) { $0 + $1.edges.count }
        let factor = Int64(options.splitFactor)
        if edgeCount == 0, shares.count == 1 {
            counts.coveredTiles += 1
            counts.edgesPerLeaf.append(0)
            return TileEntry.make(kind: TileEntry.coveredKind, payload: shares[0].rank)
        }
        if edgeCount > options.maximumEdgesPerTile, depth < options.maximumDepth,
           bounds.width >= factor * 2, bounds.height >= factor * 2 {
            return try split(bounds: bounds, shares: shares, depth: depth)
        }
        counts.edgesPerLeaf.append(edgeCount)
        counts.recordTiles += 1
        let record = encodeRecord(bounds: bounds, shares: shares)
        if let offset = recordOffsets[record] {
            return TileEntry.make(kind: TileEntry.recordKind, payload: offset)
        }
        guard records.count <= Int(TileEntry.maximumPayload) else {
            throw BuildError("the tile records exceed 1 GiB, the most the format can address; use a coarser --precision or --max-edges")
        }
        let offset = UInt32(records.count)
        records.append(contentsOf: record)
        recordOffsets[record] = offset
        return TileEntry.make(kind: TileEntry.recordKind, payload: offset)
    }

    private mutating func split(bounds: TileBounds, shares: [TileShare], depth: Int) throws -> UInt32 {
        let factor = Int64(options.splitFactor)
        let slots = Int(factor * factor)
        let subdirectory = subdirectoryCount
        guard subdirectory < Int(TileEntry.maximumPayload) else { throw BuildError("too many split tiles for the format") }
        subdirectories.append(contentsOf: repeatElement(0, count: slots))
        counts.splitTiles += 1
        counts.deepestSplit = max(counts.deepestSplit, depth + 1)
        for row in 0..<factor {
            for column in 0..<factor {
                let part = bounds.part(column: column, row: row, factor: factor)
                let partShares = TileShare.shares(of: part, in: bounds, from: shares, polygons: polygons)
                let entry = try encode(bounds: part, shares: partShares, depth: depth + 1)
                subdirectories[subdirectory * slots + Int(row * factor + column)] = entry
            }
        }
        return TileEntry.make(kind: TileEntry.splitKind, payload: UInt32(subdirectory))
    }

    @inline(__always) func endpoints(of edge: UInt32) -> (Int64, Int64, Int64, Int64) {
        let index = Int(edge)
        return (Int64(polygons.xs[index]), Int64(polygons.ys[index]), Int64(polygons.xs[index + 1]), Int64(polygons.ys[index + 1]))
    }

    /// The bytes of a tile record: see Spec/FORMAT.md, "Tile records".
    private func encodeRecord(bounds: TileBounds, shares: [TileShare]) -> [UInt8] {
        var bytes: [UInt8] = []
        Varint.append(UInt64(shares.count), to: &bytes)
        var previousRank: UInt32 = 0
        for share in shares {
            Varint.append(UInt64(share.rank - previousRank) << 1 | (share.cornerInside ? 1 : 0), to: &bytes)
            previousRank = share.rank
            // Runs: maximal sequences of consecutive edge ids (consecutive edges of one ring).
            var runs: [(first: Int, last: Int)] = []
            for edge in share.edges.map(Int.init) {
                if let last = runs.last, last.last + 1 == edge {
                    runs[runs.count - 1].last = edge
                } else {
                    runs.append((edge, edge))
                }
            }
            Varint.append(UInt64(runs.count), to: &bytes)
            for run in runs {
                Varint.append(UInt64(run.last - run.first + 2), to: &bytes)
                let first = run.first
                Varint.appendSigned(Int64(polygons.xs[first]) - bounds.west, to: &bytes)
                Varint.appendSigned(Int64(polygons.ys[first]) - bounds.south, to: &bytes)
                var deltas: [(x: UInt64, y: UInt64)] = []
                deltas.reserveCapacity(run.last - run.first + 1)
                for vertex in (first + 1)...(run.last + 1) {
                    deltas.append((ZigZag.encode(Int64(polygons.xs[vertex]) - Int64(polygons.xs[vertex - 1])),
                                   ZigZag.encode(Int64(polygons.ys[vertex]) - Int64(polygons.ys[vertex - 1]))))
                }
                let widthX = deltas.reduce(0) { max($0, 64 - $1.x.leadingZeroBitCount) }
                let widthY = deltas.reduce(0) { max($0, 64 - $1.y.leadingZeroBitCount) }
                bytes.append(UInt8(widthX))
                bytes.append(UInt8(widthY))
                var packer = BitPacker()
                for delta in deltas {
                    packer.append(delta.x, width: widthX)
                    packer.append(delta.y, width: widthY)
                }
                bytes.append(contentsOf: packer.finish())
            }
        }
        return bytes
    }
}

/// Packs unsigned values of given bit widths one after another, least significant bit first,
/// into bytes: the layout of version 2's runs.
struct BitPacker {
    private var bytes: [UInt8] = []
    private var pending: UInt64 = 0
    private var pendingBits = 0

    /// Appends the low `width` bits of `value` (width ≤ 64).
    mutating func append(_ value: UInt64, width: Int) {
        if width > 32 {
            append(value & 0xFFFF_FFFF, width: 32)
            append(value >> 32, width: width - 32)
            return
        }
        pending |= (value & ((1 << UInt64(width)) - 1)) << UInt64(pendingBits)
        pendingBits += width
        while pendingBits >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: pending))
            pending >>= 8
            pendingBits -= 8
        }
    }

    /// The packed bytes, the last one padded with zero bits.
    mutating func finish() -> [UInt8] {
        if pendingBits > 0 { bytes.append(UInt8(truncatingIfNeeded: pending)) }
        pending = 0
        pendingBits = 0
        return bytes
    }
}

/// The bits of one run of a format 3 record after its vertex count (and band byte), for polygons
/// and lines alike (Spec/FORMAT.md 8.5): the mask of the slots using it (when there are several),
/// its first vertex's offsets, the widths of its deltas, then the deltas, zero-padded to a byte.
enum SharedRunBits {
    /// The run's bytes; `first` is the first vertex's zig-zag offsets from the tile's south-west
    /// corner, written `firstWidths` bits wide, `deltas` the zig-zag steps to each next vertex.
    static func bytes(mask: UInt64, maskWidth: Int, first: (x: UInt64, y: UInt64), firstWidths: (x: Int, y: Int),
                      deltas: [(x: UInt64, y: UInt64)]) -> [UInt8] {
        let widthX = deltas.reduce(0) { max($0, 64 - $1.x.leadingZeroBitCount) }
        let widthY = deltas.reduce(0) { max($0, 64 - $1.y.leadingZeroBitCount) }
        var packer = BitPacker()
        if maskWidth > 0 { packer.append(mask, width: maskWidth) }
        packer.append(first.x, width: firstWidths.x)
        packer.append(first.y, width: firstWidths.y)
        packer.append(UInt64(widthX), width: Int(FormatLayout.SharedRecord.widthFieldBits))
        packer.append(UInt64(widthY), width: Int(FormatLayout.SharedRecord.widthFieldBits))
        for delta in deltas {
            packer.append(delta.x, width: widthX)
            packer.append(delta.y, width: widthY)
        }
        return packer.finish()
    }
}
