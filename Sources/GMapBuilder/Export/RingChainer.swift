/// A closed ring in grid units: the last vertex repeats the first.
struct ExportRing: Sendable, Equatable {
    var xs: [Int32]
    var ys: [Int32]

    /// Vertices, the closing one included.
    var vertexCount: Int { xs.count }
    /// Edges: one fewer than the vertices.
    var edgeCount: Int { max(0, xs.count - 1) }

    /// The same ring the other way round, from the same first vertex.
    func reversed() -> ExportRing {
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

/// Chains one feature's directed edges into closed rings.
///
/// The source rings were closed, so at every vertex as many edges leave as arrive, and following
/// unused edges from any edge always leads back to where it started. Which edge to take where
/// several leave a vertex does not change the even-odd answers, but it decides whether the rings
/// are the source's (simple) ones, so the chainer follows, in order:
///
/// 1. the edge the tile record gave as following the edge just taken (same ring in the source);
/// 2. closing the ring, when the vertex is where the ring started;
/// 3. an edge that starts a source ring (no known predecessor);
/// 4. any unused edge.
///
/// Rings start at edges with no known predecessor (the source rings' first edges) before any
/// other, in coordinate order, so the output depends only on the edges and their predecessor
/// hints: a map rebuilt from the export stores the exported rings' hints and chains into the same
/// rings again.
struct RingChainer: Sendable {
    /// The rings, in the order they were found.
    private(set) var rings: [ExportRing] = []
    /// Chains that reached a vertex with no unused edge before closing (only in a damaged map);
    /// they are closed back to their start.
    private(set) var openChains = 0
    /// Rings of two edges (there and back along one segment), left out: they flip no parity, and
    /// the builder drops them too.
    private(set) var droppedRings = 0

    private var edges: [RecoveredEdge]
    private var used: [Bool]
    /// For the first edge of each start-vertex group, the first edge of the group that may be unused.
    private var firstFree: [Int32]

    /// Chains `edges` (one feature's, in any order).
    init(edges: [RecoveredEdge]) {
        self.edges = edges.sorted(by: RecoveredEdge.precedes)
        used = [Bool](repeating: false, count: self.edges.count)
        firstFree = Array(0..<Int32(self.edges.count))
        for pass in 0..<2 {
            for index in self.edges.indices where !used[index] && (pass == 1 || !self.edges[index].hasPrevious) {
                chain(from: index)
            }
        }
    }

    private mutating func chain(from first: Int) {
        let startX = edges[first].startX, startY = edges[first].startY
        var xs: [Int32] = [startX], ys: [Int32] = [startY]
        var current = first
        used[current] = true
        while true {
            let edge = edges[current]
            xs.append(edge.endX)
            ys.append(edge.endY)
            let atStart = edge.endX == startX && edge.endY == startY
            guard let group = group(startingAt: edge.endX, edge.endY) else {
                if !atStart { close(&xs, &ys) }
                break
            }
            if let next = follower(of: edge, in: group) ?? (atStart ? nil : anyFree(in: group)) {
                used[next] = true
                current = next
            } else {
                if !atStart { close(&xs, &ys) }
                break
            }
        }
        if xs.count < 4 {
            droppedRings += 1
        } else {
            rings.append(ExportRing(xs: xs, ys: ys))
        }
    }

    /// Ends an open chain by going straight back to its start, and counts it.
    private mutating func close(_ xs: inout [Int32], _ ys: inout [Int32]) {
        openChains += 1
        xs.append(xs[0])
        ys.append(ys[0])
    }

    /// The first index of the edges starting at `(x, y)`, or nil when none does.
    private func group(startingAt x: Int32, _ y: Int32) -> Int? {
        var low = 0, high = edges.count
        while low < high {
            let middle = (low + high) / 2
            let edge = edges[middle]
            if edge.startX < x || (edge.startX == x && edge.startY < y) { low = middle + 1 } else { high = middle }
        }
        guard low < edges.count, edges[low].startX == x, edges[low].startY == y else { return nil }
        return low
    }

    /// An unused edge of the group whose recorded predecessor is `edge`.
    private func follower(of edge: RecoveredEdge, in group: Int) -> Int? {
        var index = Int(firstFree[group])
        while index < edges.count, edges[index].startX == edge.endX, edges[index].startY == edge.endY {
            let candidate = edges[index]
            if !used[index], candidate.hasPrevious, candidate.previousX == edge.startX, candidate.previousY == edge.startY {
                return index
            }
            index += 1
        }
        return nil
    }

    /// The group's first unused edge: edges without a known predecessor sort first.
    private mutating func anyFree(in group: Int) -> Int? {
        var index = Int(firstFree[group])
        let x = edges[group].startX, y = edges[group].startY
        while index < edges.count, edges[index].startX == x, edges[index].startY == y {
            if !used[index] {
                firstFree[group] = Int32(index)
                return index
            }
            index += 1
        }
        firstFree[group] = Int32(index)
        return nil
    }
}
