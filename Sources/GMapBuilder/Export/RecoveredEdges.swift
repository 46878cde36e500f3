import GMap

/// One edge of a feature's rings as read back from a map, in grid units, with what the tile
/// records say about its neighbours.
///
/// The vertices are in the direction the tile stored the edge: the feature's own ring's where the
/// map stores each feature's edges apart (formats 1 and 2), but a map that stores an edge once for
/// all the features using it (format 3) stores it in one feature's direction, so for the others it
/// may run backwards. ``RingChainer`` therefore treats the edge as undirected, and the direction
/// only breaks ties.
///
/// The hints come from runs: at each of its vertices an edge may know the far vertex of the edge
/// next to it in its ring; a hint equal to its own vertex means none
/// (Docs/Internals.md#export-edges-read-back).
public struct RecoveredEdge: Sendable, Equatable {
    /// The start vertex, in the stored direction.
    public var startX: Int32, startY: Int32
    /// The end vertex, in the stored direction.
    public var endX: Int32, endY: Int32
    /// The hint at the start: the start of the edge before this one in its run, or the start itself.
    public var previousX: Int32, previousY: Int32
    /// The hint at the end: the end of the edge after this one in its run, or the end itself.
    public var nextX: Int32, nextY: Int32

    /// An edge from `start` to `end`, with the far vertices of its run neighbours where known.
    public init(start: (x: Int32, y: Int32), end: (x: Int32, y: Int32),
                previous: (x: Int32, y: Int32)? = nil, next: (x: Int32, y: Int32)? = nil) {
        startX = start.x; startY = start.y
        endX = end.x; endY = end.y
        previousX = previous?.x ?? start.x; previousY = previous?.y ?? start.y
        nextX = next?.x ?? end.x; nextY = next?.y ?? end.y
    }

    /// Whether the record gave the neighbour at the start.
    public var hasPrevious: Bool { previousX != startX || previousY != startY }
    /// Whether the record gave the neighbour at the end.
    public var hasNext: Bool { nextX != endX || nextY != endY }

    /// The same edge stored the other way round: its vertices and its hints swapped. It means the
    /// same to the export: the chainer gives the same rings up to direction.
    public func reversed() -> RecoveredEdge {
        var edge = self
        (edge.startX, edge.startY, edge.endX, edge.endY) = (endX, endY, startX, startY)
        (edge.previousX, edge.previousY, edge.nextX, edge.nextY) = (nextX, nextY, previousX, previousY)
        return edge
    }

    /// The start, packed (see ``PackedVertex``).
    var start: Int64 { PackedVertex.pack(startX, startY) }
    /// The end, packed.
    var end: Int64 { PackedVertex.pack(endX, endY) }
    /// The hint at the start, packed (the start itself when there is none).
    var previous: Int64 { PackedVertex.pack(previousX, previousY) }
    /// The hint at the end, packed (the end itself when there is none).
    var next: Int64 { PackedVertex.pack(nextX, nextY) }
}

/// A grid vertex packed into one integer whose order is by x, then y: x in the high 32 bits,
/// y offset by 2^31 in the low ones.
enum PackedVertex {
    /// The vertex `(x, y)` as one integer.
    static func pack(_ x: Int32, _ y: Int32) -> Int64 {
        Int64(x) << 32 | Int64(UInt32(bitPattern: y) ^ 0x8000_0000)
    }

    /// The x of a packed vertex.
    static func x(_ vertex: Int64) -> Int32 { Int32(truncatingIfNeeded: vertex >> 32) }

    /// The y of a packed vertex.
    static func y(_ vertex: Int64) -> Int32 { Int32(bitPattern: UInt32(truncatingIfNeeded: vertex) ^ 0x8000_0000) }
}

/// Every edge of every feature of one map layer, each exactly once, read in one walk of the grid.
///
/// A record tile stores each of a feature's edges that meets the closed tile (Spec/FORMAT.md 8.4),
/// so an edge is stored in every tile it touches, once per time it occurs in the feature's rings.
/// Each *end* of an edge is read in the leaf tile whose half-open rectangle `[W, E) × [S, N)` holds
/// its vertex: the leaf tiles partition the grid, and the edge touches that tile, so that tile
/// stores it. An edge whose two vertices lie in one tile is read whole there; the others are read
/// as two loose ends, which ``EdgeEndJoiner`` joins again, whatever direction each tile stores it in.
///
/// The hint at a vertex comes from the tile holding the vertex; hints only steer which ring an edge
/// is chained into (any partition into runs gives the same answers): Docs/Internals.md#export-edges-read-back.
public struct RecoveredEdges: Sendable {
    /// Per feature index, the edges read whole, in tile order.
    private var wholeEdges: [[RecoveredEdge]]
    /// Per feature index, the loose ends of the edges whose vertices lie in two tiles.
    private var looseEnds: [[EdgeEnd]]
    /// Format 3.2: the edges and loose ends of the parity groups after a feature's first, by feature and group.
    private var laterParts: [Int: [Int: (whole: [RecoveredEdge], loose: [EdgeEnd])]]
    /// Directory entries that could not be read (``GMap/forEachLeafTile(_:)``).
    public private(set) var unreadableTiles = 0
    /// Record tiles whose record ended in damage (``GMap/forEachEdge(in:_:)`` returned false).
    public private(set) var corruptRecords = 0
    /// Edge ends found outside the 32-bit coordinate range or naming no feature (only in a damaged file).
    public private(set) var endsOutOfRange = 0

    /// Reads every edge of `map`'s features.
    public init(map: GMap) {
        var reading = TileEdgeReading(featureCount: map.featureCount)
        var corrupt = 0
        var tileEdges: [TileEdge] = []
        unreadableTiles = map.forEachLeafTile { tile in
            guard tile.kind == .record else { return }
            tileEdges.removeAll(keepingCapacity: true)
            if !map.forEachEdge(in: tile, { tileEdges.append($0) }) { corrupt += 1 }
            reading.read(tileEdges, in: tile.bounds)
        }
        wholeEdges = reading.wholeEdges
        looseEnds = reading.looseEnds
        laterParts = reading.laterParts
        corruptRecords = corrupt
        endsOutOfRange = reading.outOfRange
    }

    /// Feature `index`'s edges, each once, and how many of them were found at one end only (the
    /// other end's tile lost it: only in a damaged map). Hands them over: a second call gives none.
    /// Every parity group's edges together (see ``takeEdgesByPart(ofFeature:)``).
    public mutating func takeEdges(ofFeature index: Int) -> (edges: [RecoveredEdge], unpairedEnds: Int) {
        takeEdgesByPart(ofFeature: index).reduce(into: ([], 0)) { result, part in
            result.edges += part.edges
            result.unpairedEnds += part.unpairedEnds
        }
    }

    /// Feature `index`'s edges by parity group (format 3.2, ``TileEdge/part``; one group in every
    /// other file): each group's rings are chained and assembled on their own, since the polygons
    /// of different groups may overlap. Hands them over: a second call gives none.
    public mutating func takeEdgesByPart(ofFeature index: Int) -> [(edges: [RecoveredEdge], unpairedEnds: Int)] {
        guard wholeEdges.indices.contains(index) else { return [([], 0)] }
        var edges = wholeEdges[index]
        wholeEdges[index] = []
        let joined = EdgeEndJoiner(ends: looseEnds[index])
        looseEnds[index] = []
        edges.append(contentsOf: joined.edges)
        var parts = [(edges, joined.unpairedEnds)]
        if let later = laterParts.removeValue(forKey: index) {
            for part in later.keys.sorted() {
                // swift-format-ignore: NeverForceUnwrap
                let joined = EdgeEndJoiner(ends: later[part]!.loose)
                // swift-format-ignore: NeverForceUnwrap
                parts.append((later[part]!.whole + joined.edges, joined.unpairedEnds))
            }
        }
        return parts
    }
}

/// The per-tile step of ``RecoveredEdges``: which edges and ends a tile holds, with their hints.
private struct TileEdgeReading: Sendable {
    /// Per feature index, the edges read whole.
    var wholeEdges: [[RecoveredEdge]]
    /// Per feature index, the loose ends.
    var looseEnds: [[EdgeEnd]]
    /// Format 3.2: the parity groups after a feature's first, by feature and group.
    var laterParts: [Int: [Int: (whole: [RecoveredEdge], loose: [EdgeEnd])]] = [:]
    /// Ends left out: a coordinate beyond 32 bits, or a feature index beyond the table.
    var outOfRange = 0

    /// Nothing read yet, for a layer of `featureCount` features.
    init(featureCount: Int) {
        wholeEdges = [[RecoveredEdge]](repeating: [], count: featureCount)
        looseEnds = [[EdgeEnd]](repeating: [], count: featureCount)
    }

    /// Takes from one tile's edges (in record order) the ends whose vertices lie in `bounds`.
    mutating func read(_ edges: [TileEdge], in bounds: TileBounds) {
        for index in edges.indices {
            let edge = edges[index]
            let startInside = Self.holds(bounds, edge.startX, edge.startY), endInside = Self.holds(bounds, edge.endX, edge.endY)
            guard startInside || endInside else { continue }
            guard wholeEdges.indices.contains(edge.featureIndex),
                  var recovered = Self.narrowed(edge) else {
                outOfRange += (startInside ? 1 : 0) + (endInside ? 1 : 0)
                continue
            }
            // Run neighbours: within a run each edge starts where the one before it ends.
            if index > 0, !edge.startsRun, let previous = Self.narrowed(edges[index - 1]),
               edges[index - 1].featureIndex == edge.featureIndex, edges[index - 1].part == edge.part,
               previous.endX == recovered.startX, previous.endY == recovered.startY {
                (recovered.previousX, recovered.previousY) = (previous.startX, previous.startY)
            }
            if index + 1 < edges.count, !edges[index + 1].startsRun, let next = Self.narrowed(edges[index + 1]),
               edges[index + 1].featureIndex == edge.featureIndex, edges[index + 1].part == edge.part,
               next.startX == recovered.endX, next.startY == recovered.endY {
                (recovered.nextX, recovered.nextY) = (next.endX, next.endY)
            }
            if edge.part > 0 {
                if startInside && endInside {
                    laterParts[edge.featureIndex, default: [:]][edge.part, default: ([], [])].whole.append(recovered)
                } else {
                    laterParts[edge.featureIndex, default: [:]][edge.part, default: ([], [])].loose.append(EdgeEnd(of: recovered, atStart: startInside))
                }
            } else if startInside && endInside {
                wholeEdges[edge.featureIndex].append(recovered)
            } else {
                looseEnds[edge.featureIndex].append(EdgeEnd(of: recovered, atStart: startInside))
            }
        }
    }

    /// Whether the half-open rectangle `[W, E) × [S, N)` of `bounds` holds `(x, y)`.
    private static func holds(_ bounds: TileBounds, _ x: Int64, _ y: Int64) -> Bool {
        x >= bounds.west && x < bounds.east && y >= bounds.south && y < bounds.north
    }

    /// The edge in 32-bit units with no hints yet; nil when a coordinate does not fit.
    private static func narrowed(_ edge: TileEdge) -> RecoveredEdge? {
        guard let startX = Int32(exactly: edge.startX), let startY = Int32(exactly: edge.startY),
              let endX = Int32(exactly: edge.endX), let endY = Int32(exactly: edge.endY) else { return nil }
        return RecoveredEdge(start: (startX, startY), end: (endX, endY))
    }
}

/// One end of an edge, read in the tile holding its vertex: the vertex, the edge's other vertex,
/// the hint there, and whether the vertex is the edge's stored start.
struct EdgeEnd: Sendable, Equatable {
    /// The vertex, packed (``PackedVertex``).
    var vertex: Int64
    /// The edge's other vertex, packed.
    var far: Int64
    /// The far vertex of the run neighbour at `vertex`, packed; `vertex` itself when unknown.
    var hint: Int64
    /// Whether `vertex` is the edge's start in the stored direction.
    var isStart: Bool

    /// Whether the record gave the neighbour at `vertex`.
    var hasHint: Bool { hint != vertex }

    /// The end of `edge` at its start (`atStart`) or at its end.
    init(of edge: RecoveredEdge, atStart: Bool) {
        vertex = atStart ? edge.start : edge.end
        far = atStart ? edge.end : edge.start
        hint = atStart ? edge.previous : edge.next
        isStart = atStart
    }

    /// The segment's smaller vertex (the order of ``PackedVertex``).
    var low: Int64 { min(vertex, far) }
    /// The segment's larger vertex.
    var high: Int64 { max(vertex, far) }
    /// Whether the edge was stored from its smaller vertex to its larger one.
    var storedUpward: Bool { (vertex < far) == isStart }
}

/// Joins the loose ends of one feature's edges into edges: the end at a segment's smaller vertex
/// with an end at its larger one.
///
/// Where a feature has a segment once, its two ends make one edge. Where it has the same segment
/// several times, ends are joined stored direction with stored direction (a ring that runs the
/// segment upward with its other end that runs it upward), in the order of their hints, then any
/// left with any; copies that agree in direction and hints are interchangeable. An end left
/// without a partner (its other tile lost it) still gives its edge, without the hint at the
/// missing end.
struct EdgeEndJoiner: Sendable {
    /// The edges, in segment order.
    private(set) var edges: [RecoveredEdge] = []
    /// Ends that found no partner.
    private(set) var unpairedEnds = 0

    /// Joins `ends` (in any order).
    init(ends: [EdgeEnd]) {
        let sorted = ends.sorted { ($0.low, $0.high, $0.storedUpward ? 1 : 0, $0.vertex, $0.hint) < ($1.low, $1.high, $1.storedUpward ? 1 : 0, $1.vertex, $1.hint) }
        var groupStart = 0
        while groupStart < sorted.count {
            var groupEnd = groupStart + 1
            while groupEnd < sorted.count, sorted[groupEnd].low == sorted[groupStart].low, sorted[groupEnd].high == sorted[groupStart].high {
                groupEnd += 1
            }
            join(sorted[groupStart..<groupEnd])
            groupStart = groupEnd
        }
    }

    /// Joins the ends of one segment (sorted by direction, then vertex, then hint).
    private mutating func join(_ group: ArraySlice<EdgeEnd>) {
        // Most segments occur once: one end at each vertex.
        if group.count == 2, let first = group.first, let last = group.last, first.vertex != last.vertex {
            edges.append(Self.edge(first, last))
            return
        }
        var leftLow: [EdgeEnd] = [], leftHigh: [EdgeEnd] = []
        for upward in [false, true] {
            let sameDirection = group.filter { $0.storedUpward == upward }
            let lows = sameDirection.filter { $0.vertex == $0.low }, highs = sameDirection.filter { $0.vertex != $0.low }
            let pairs = min(lows.count, highs.count)
            for index in 0..<pairs { edges.append(Self.edge(lows[index], highs[index])) }
            leftLow += lows.dropFirst(pairs)
            leftHigh += highs.dropFirst(pairs)
        }
        let pairs = min(leftLow.count, leftHigh.count)
        for index in 0..<pairs { edges.append(Self.edge(leftLow[index], leftHigh[index])) }
        for end in leftLow.dropFirst(pairs) + leftHigh.dropFirst(pairs) {
            edges.append(Self.edge(end, nil))
            unpairedEnds += 1
        }
    }

    /// The edge of `end` (and `other`, its partner at the segment's other vertex, when found), in
    /// the direction `end` says it was stored in.
    private static func edge(_ end: EdgeEnd, _ other: EdgeEnd?) -> RecoveredEdge {
        let otherHint = other?.hint ?? end.far
        let (start, previous, finish, next) = end.isStart ? (end.vertex, end.hint, end.far, otherHint) : (end.far, otherHint, end.vertex, end.hint)
        return RecoveredEdge(start: (PackedVertex.x(start), PackedVertex.y(start)), end: (PackedVertex.x(finish), PackedVertex.y(finish)),
                             previous: (PackedVertex.x(previous), PackedVertex.y(previous)), next: (PackedVertex.x(next), PackedVertex.y(next)))
    }
}
