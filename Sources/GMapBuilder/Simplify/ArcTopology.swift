/// A layer's rings cut into arcs: the pieces of border between junctions, each stored once.
///
/// Two rings that share a border (neighbours, or an enclave and the hole around it) traverse the
/// same arc, in the same or the opposite direction. A junction is a vertex where the border forks
/// (its position has other than two distinct edges) or where the features along the border change
/// (its two edges are used by different rings). A ring without junctions is one closed arc that
/// starts at its smallest position, so every ring with the same outline starts at the same place.
///
/// Shared means exactly equal after quantization: borders that the data draws with different
/// vertices are separate arcs.
struct ArcTopology {
    /// A ring of the polygon set: vertices `start...end`, where `end` repeats `start`.
    struct Ring {
        var start: Int
        var end: Int
        var feature: UInt32
        var distinctCount: Int { end - start }
    }

    /// One ring's traversal of an arc.
    struct ArcUse {
        var arc: Int
        var reversed: Bool
    }

    /// The rings, in polygon-set order.
    private(set) var rings: [Ring] = []
    /// Per ring, the arcs it is made of, in order.
    private(set) var uses: [[ArcUse]] = []
    /// Per arc, its vertices as polygon-set indices in the arc's own direction, flattened:
    /// arc `a` is `arcVertices[arcStarts[a]..<arcStarts[a + 1]]`.
    private(set) var arcVertices: [Int] = []
    private(set) var arcStarts: [Int] = [0]
    /// Per arc, how many ring traversals use it.
    private(set) var useCounts: [Int] = []

    var arcCount: Int { arcStarts.count - 1 }

    /// The vertices of arc `arc`.
    func vertices(of arc: Int) -> ArraySlice<Int> { arcVertices[arcStarts[arc]..<arcStarts[arc + 1]] }

    /// Whether arc `arc` starts and ends at the same vertex (a whole ring, or a loop from one junction back to it).
    func isClosed(_ arc: Int) -> Bool {
        let vertices = vertices(of: arc)
        return vertices.first == vertices.last
    }

    /// Finds the arcs of every ring of `polygons`.
    init(_ polygons: PolygonSet) {
        let xs = polygons.xs, ys = polygons.ys
        @inline(__always) func key(_ index: Int) -> UInt64 {
            UInt64(UInt32(bitPattern: xs[index])) << 32 | UInt64(UInt32(bitPattern: ys[index]))
        }

        // Rings, and every edge occurrence keyed by its two positions in ascending order.
        var edges: [EdgeOccurrence] = []
        edges.reserveCapacity(polygons.vertexCount)
        var start = 0
        for index in 0..<polygons.vertexCount where polygons.isRingEnd[index] {
            let ring = Ring(start: start, end: index, feature: polygons.featureOfVertex[start])
            for vertex in start..<index {
                let a = key(vertex), b = key(vertex + 1)
                edges.append(EdgeOccurrence(low: min(a, b), high: max(a, b), occurrence: UInt32(edges.count), feature: ring.feature))
            }
            rings.append(ring)
            start = index + 1
        }
        // Occurrence `o` of ring `r` starts at vertex `o + r`.

        // Distinct edges: how many traversals use each, and which features (as an order-free sum of hashes).
        edges.sort { $0.low != $1.low ? $0.low < $1.low : $0.high < $1.high }
        var edgeOfOccurrence = [UInt32](repeating: 0, count: edges.count)
        var distinctUses: [Int32] = [], distinctFeatures: [UInt64] = [], distinctEnds: [(UInt64, UInt64)] = []
        var position = 0
        while position < edges.count {
            var next = position
            var features: UInt64 = 0
            while next < edges.count, edges[next].low == edges[position].low, edges[next].high == edges[position].high {
                edgeOfOccurrence[Int(edges[next].occurrence)] = UInt32(distinctUses.count)
                features &+= Self.mix(UInt64(edges[next].feature) &+ 1)
                next += 1
            }
            distinctUses.append(Int32(next - position))
            distinctFeatures.append(features)
            distinctEnds.append((edges[position].low, edges[position].high))
            position = next
        }
        edges = []

        // Junctions: positions with other than two distinct edges, or two edges used differently.
        var ends: [(key: UInt64, edge: UInt32)] = []
        ends.reserveCapacity(distinctEnds.count * 2)
        for (edge, pair) in distinctEnds.enumerated() {
            ends.append((pair.0, UInt32(edge)))
            ends.append((pair.1, UInt32(edge)))
        }
        distinctEnds = []
        ends.sort { $0.key < $1.key }
        var junctions = Set<UInt64>()
        position = 0
        while position < ends.count {
            var next = position
            while next < ends.count, ends[next].key == ends[position].key { next += 1 }
            if next - position != 2 {
                junctions.insert(ends[position].key)
            } else {
                let a = Int(ends[position].edge), b = Int(ends[position + 1].edge)
                if distinctUses[a] != distinctUses[b] || distinctFeatures[a] != distinctFeatures[b] { junctions.insert(ends[position].key) }
            }
            position = next
        }
        ends = []

        // Cut every ring at its junctions; an arc is known by the smaller distinct-edge number of its two end edges.
        var arcOfEdge: [UInt32: Int] = [:]
        uses.reserveCapacity(rings.count)
        for (ringIndex, ring) in rings.enumerated() {
            let count = ring.distinctCount
            let occurrenceBase = ring.start - ringIndex
            var cuts: [Int] = []
            for offset in 0..<count where junctions.contains(key(ring.start + offset)) { cuts.append(offset) }
            if cuts.isEmpty {
                var smallest = 0
                for offset in 1..<count where key(ring.start + offset) < key(ring.start + smallest) { smallest = offset }
                cuts = [smallest]
            }
            var ringUses: [ArcUse] = []
            for (cutIndex, from) in cuts.enumerated() {
                let to = cutIndex + 1 < cuts.count ? cuts[cutIndex + 1] : cuts[0] + count
                // Vertices from..to (offsets modulo count), edges from..<to.
                let firstEdge = edgeOfOccurrence[occurrenceBase + from % count]
                let lastEdge = edgeOfOccurrence[occurrenceBase + (to - 1) % count]
                let name = min(firstEdge, lastEdge)
                let vertexAt = { (offset: Int) in ring.start + offset % count }
                if let arc = arcOfEdge[name] {
                    let stored = vertices(of: arc)
                    let length = to - from + 1
                    if stored.count == length {
                        let storedFirst = stored[stored.startIndex], storedSecond = stored[stored.startIndex + 1]
                        let storedLast = stored[stored.endIndex - 1], storedPenultimate = stored[stored.endIndex - 2]
                        let first = key(vertexAt(from)), second = key(vertexAt(from + 1))
                        if first == key(storedFirst), second == key(storedSecond) {
                            ringUses.append(ArcUse(arc: arc, reversed: false))
                            useCounts[arc] += 1
                            continue
                        }
                        if first == key(storedLast), second == key(storedPenultimate) {
                            ringUses.append(ArcUse(arc: arc, reversed: true))
                            useCounts[arc] += 1
                            continue
                        }
                    }
                    // Not the same vertices after all (cannot happen for arcs cut as above): keep it apart.
                }
                let arc = arcCount
                for offset in from...to { arcVertices.append(vertexAt(offset)) }
                arcStarts.append(arcVertices.count)
                useCounts.append(1)
                if arcOfEdge[name] == nil { arcOfEdge[name] = arc }
                ringUses.append(ArcUse(arc: arc, reversed: false))
            }
            uses.append(ringUses)
        }
    }

    /// A 64-bit mixing function (the finaliser of SplitMix64), to sum feature numbers without collisions in practice.
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// One traversal of an edge, keyed by its two positions in ascending order.
private struct EdgeOccurrence {
    var low: UInt64
    var high: UInt64
    var occurrence: UInt32
    var feature: UInt32
}
