/// A closed ring in grid units: the last vertex repeats the first.
public struct ExportRing: Sendable, Equatable {
    /// The x of each vertex, the closing one included.
    public var xs: [Int32]
    /// The y of each vertex, the closing one included.
    public var ys: [Int32]

    /// A ring from its vertices; the last must repeat the first.
    public init(xs: [Int32], ys: [Int32]) {
        self.xs = xs
        self.ys = ys
    }

    /// Vertices, the closing one included.
    public var vertexCount: Int { xs.count }
    /// Edges: one fewer than the vertices.
    public var edgeCount: Int { max(0, xs.count - 1) }

    /// The same ring the other way round, from the same first vertex.
    public func reversed() -> ExportRing {
        ExportRing(xs: Array(xs.reversed()), ys: Array(ys.reversed()))
    }

    /// Whether `self` comes before `other` in the export's canonical order: vertex by vertex,
    /// x before y, a ring that is a prefix of the other first.
    func precedes(_ other: ExportRing) -> Bool {
        for index in 0..<min(xs.count, other.xs.count) {
            if xs[index] != other.xs[index] { return xs[index] < other.xs[index] }
            if ys[index] != other.ys[index] { return ys[index] < other.ys[index] }
        }
        return xs.count < other.xs.count
    }
}

/// Chains one feature's edges into closed rings, whatever direction each edge was stored in.
///
/// The edges are taken as undirected segments. At every vertex an even number of edge ends meet,
/// so walks from unused edges always close and use every edge once; every such partition gives
/// the same even-odd answers, and the choice only decides whether the rings are the source's
/// simple ones. At each vertex the walk prefers the edge that the hints (``RecoveredEdge``) join
/// to the one it arrived by. Walks start at edge ends without a hint, in coordinate order, and
/// each ring is turned counter-clockwise (``ExportRing/canonicallyOriented()``), so the output
/// depends only on the edges and their hints; a map rebuilt from the export chains into the same
/// rings again. The order of preference, step by step: Docs/Internals.md#export-edges-chained-into-rings.
public struct RingChainer: Sendable {
    /// The rings, in the order they were found, each counter-clockwise (or, without area, in its
    /// canonical direction) from its first vertex.
    public private(set) var rings: [ExportRing] = []
    /// Chains that reached a vertex with no unused edge before closing (only in a damaged map);
    /// they are closed back to their start.
    public private(set) var openChains = 0
    /// Rings of two edges (there and back along one segment), left out: they flip no parity, and
    /// the builder drops them too.
    public private(set) var droppedRings = 0

    /// The edges, in the order given.
    private let edges: [RecoveredEdge]
    /// Both ends of every edge as codes (edge index × 2, plus 1 for the end vertex), sorted by
    /// vertex, far vertex, hint, the hint at the far vertex and stored direction: ends that tie
    /// belong to edges alike in every way, so which is taken first changes nothing.
    private let ends: [Int32]
    /// For each end code, the position in `ends` of the first end at its vertex.
    private let groupOfCode: [Int32]
    /// For the first position of each vertex's ends, the first position there whose edge may be unused.
    private var firstFree: [Int32]
    /// Per edge, whether a ring has taken it.
    private var used: [Bool]

    /// Chains `edges` (one feature's, in any order and any direction): fewer than 2^30 of them,
    /// which would already take 32 GiB.
    public init(edges: [RecoveredEdge]) {
        precondition(edges.count < 1 << 30, "a feature of \(edges.count) edges")
        self.edges = edges
        var keyed: [(vertex: Int64, code: Int32)] = []
        keyed.reserveCapacity(2 * edges.count)
        for (index, edge) in edges.enumerated() {
            keyed.append((edge.start, Int32(2 * index)))
            keyed.append((edge.end, Int32(2 * index + 1)))
        }
        keyed.sort { a, b in
            a.vertex != b.vertex ? a.vertex < b.vertex : Self.orderKey(edges, a.code) < Self.orderKey(edges, b.code)
        }
        ends = keyed.map(\.code)
        var groups = [Int32](repeating: 0, count: keyed.count)
        var groupStart = 0
        for position in keyed.indices {
            if keyed[position].vertex != keyed[groupStart].vertex { groupStart = position }
            groups[Int(keyed[position].code)] = Int32(groupStart)
        }
        groupOfCode = groups
        firstFree = Array(0..<Int32(keyed.count))
        used = [Bool](repeating: false, count: edges.count)
        for pass in 0..<2 {
            for position in ends.indices {
                let end = self.end(ends[position])
                if !used[end.edge], pass == 1 || !end.end.hasHint { chain(from: end) }
            }
        }
    }

    /// What orders the ends at one vertex: far vertex, hint, the hint at the far vertex, then
    /// stored direction.
    private static func orderKey(_ edges: [RecoveredEdge], _ code: Int32) -> (Int64, Int64, Int64, Int) {
        let edge = edges[Int(code >> 1)]
        return code & 1 == 0 ? (edge.end, edge.previous, edge.next, 0) : (edge.start, edge.next, edge.previous, 1)
    }

    /// The end with code `code`.
    private func end(_ code: Int32) -> ChainEnd {
        let edge = Int(code >> 1)
        return ChainEnd(end: EdgeEnd(of: edges[edge], atStart: code & 1 == 0), edge: edge, code: code)
    }

    /// Walks one ring from `start`, along its edge, until it is closed.
    private mutating func chain(from start: ChainEnd) {
        var xs = [PackedVertex.x(start.end.vertex)], ys = [PackedVertex.y(start.end.vertex)]
        used[start.edge] = true
        var arriving = end(start.code ^ 1)
        while true {
            xs.append(PackedVertex.x(arriving.end.vertex))
            ys.append(PackedVertex.y(arriving.end.vertex))
            let atStart = arriving.end.vertex == start.end.vertex
            guard let next = successor(of: arriving, mayClose: atStart) else {
                if !atStart { close(&xs, &ys) }
                break
            }
            used[next.edge] = true
            arriving = end(next.code ^ 1)
        }
        if xs.count < 4 {
            droppedRings += 1
        } else {
            rings.append(ExportRing(xs: xs, ys: ys).canonicallyOriented())
        }
    }

    /// Ends an open chain by going straight back to its start, and counts it.
    private mutating func close(_ xs: inout [Int32], _ ys: inout [Int32]) {
        openChains += 1
        xs.append(xs[0])
        ys.append(ys[0])
    }

    /// The end the walk leaves by after arriving by `arriving`, or nil when it stops there:
    /// closing the ring (`mayClose`, and nothing the hints join), or no unused edge.
    private mutating func successor(of arriving: ChainEnd, mayClose: Bool) -> ChainEnd? {
        let group = groupOfCode[Int(arriving.code)]
        var position = Int(firstFree[Int(group)])
        while position < ends.count, groupOfCode[Int(ends[position])] == group, used[Int(ends[position] >> 1)] { position += 1 }
        firstFree[Int(group)] = Int32(position)
        var best: (choice: Choice, end: ChainEnd)?
        while position < ends.count, groupOfCode[Int(ends[position])] == group {
            if !used[Int(ends[position] >> 1)] {
                let candidate = end(ends[position])
                let choice = Choice(arriving: arriving.end, leaving: candidate.end)
                if best.map({ choice < $0.choice }) ?? true { best = (choice, candidate) }
                if choice == .best { break }
            }
            position += 1
        }
        guard let best, !(mayClose && best.choice.tier >= Choice.closingTier) else { return nil }
        return best.end
    }
}

/// One end of an edge in ``RingChainer``: the end, its edge's index, and its code.
private struct ChainEnd: Sendable {
    /// The end itself.
    var end: EdgeEnd
    /// The index of its edge in ``RingChainer``'s edges.
    var edge: Int
    /// The edge index × 2, plus 1 for the edge's end vertex.
    var code: Int32
}

/// How well leaving a vertex by one edge end continues arriving by another: smaller is better.
private struct Choice: Comparable, Sendable {
    /// How the hints at the vertex join the two edges (see ``RingChainer``): 0 and 1 joined, from
    /// ``closingTier`` on worse than closing the ring.
    var tier: Int
    /// 0 when the leaving edge is stored in the direction the walk arrived in, else 1.
    var turns: Int

    /// Tiers from this one on lose to closing the ring at its start.
    static let closingTier = 2
    /// Nothing is better.
    static let best = Choice(tier: 0, turns: 0)

    /// A choice from its parts.
    private init(tier: Int, turns: Int) {
        self.tier = tier
        self.turns = turns
    }

    /// The choice of leaving by `leaving` after arriving by `arriving` (both ends at one vertex).
    init(arriving: EdgeEnd, leaving: EdgeEnd) {
        let arrivingAgrees = arriving.hasHint && arriving.hint == leaving.far
        let leavingAgrees = leaving.hasHint && leaving.hint == arriving.far
        let arrivingObjects = arriving.hasHint && !arrivingAgrees
        let leavingObjects = leaving.hasHint && !leavingAgrees
        switch (arrivingAgrees, leavingAgrees) {
        case (true, true): tier = 0
        case (true, false), (false, true): tier = arrivingObjects || leavingObjects ? 2 : 1
        case (false, false): tier = 3 + (arrivingObjects ? 1 : 0) + (leavingObjects ? 2 : 0)
        }
        // The walk arrived forward when it reached the edge's stored end; it leaves forward from a stored start.
        turns = !arriving.isStart == leaving.isStart ? 0 : 1
    }

    /// Whether `a` is better than `b`: by tier, then by direction.
    static func < (a: Choice, b: Choice) -> Bool {
        (a.tier, a.turns) < (b.tier, b.turns)
    }
}
