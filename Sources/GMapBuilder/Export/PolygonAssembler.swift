import GMap

/// Groups a feature's rings into GeoJSON polygons: each outer ring with its holes.
///
/// A ring inside an odd number of the feature's other rings is a hole; the others are outer rings.
/// A hole belongs to the smallest outer ring that contains it (one that is not itself a hole); a
/// hole with none, which only crossing rings can give, is written as an outer ring. Outer rings
/// are turned counter-clockwise and holes clockwise (RFC 7946), each keeping its first vertex.
///
/// The builder answers by the even-odd rule over all of a feature's rings, so any grouping gives
/// the same answers when rebuilt; this one makes the file right in GIS tools. Containment is
/// decided exactly, at a vertex of the inner ring not on the outer one, else at the midpoint of one
/// of its edges that is not. The same ring twice is nested in a fixed order: an outer ring and its
/// hole, as the even-odd rule says. Bounding boxes and per-ring strip indexes keep it fast.
struct PolygonAssembler: Sendable {
    /// Polygons, each `[outer, hole, …]`, in canonical order (see ``ExportRing/precedes(_:)``).
    private(set) var polygons: [[ExportRing]] = []

    init(rings: [ExportRing]) {
        let shapes = rings.map(RingShape.init)
        let containers = Self.containers(of: shapes)
        let depth = containers.map(\.count)
        var holesByOuter = [[Int]](repeating: [], count: shapes.count)
        var isOuter = [Bool](repeating: true, count: shapes.count)
        for index in shapes.indices where depth[index] % 2 == 1 {
            let outers = containers[index].filter { depth[$0] % 2 == 0 }
            guard let parent = outers.min(by: { Self.smaller(shapes[$0], shapes[$1], $0, $1) }) else { continue }
            isOuter[index] = false
            holesByOuter[parent].append(index)
        }
        var result: [[ExportRing]] = []
        for index in shapes.indices where isOuter[index] {
            let holes = holesByOuter[index].map { Self.oriented(shapes[$0], counterClockwise: false) }.sorted { $0.precedes($1) }
            result.append([Self.oriented(shapes[index], counterClockwise: true)] + holes)
        }
        polygons = result.sorted { $0[0].precedes($1[0]) }
    }

    /// Whether shape `a` has a smaller area than `b` (ties by index, for a stable choice).
    private static func smaller(_ a: RingShape, _ b: RingShape, _ aIndex: Int, _ bIndex: Int) -> Bool {
        let aArea = a.doubledArea.magnitude, bArea = b.doubledArea.magnitude
        return aArea != bArea ? aArea < bArea : aIndex < bIndex
    }

    private static func oriented(_ shape: RingShape, counterClockwise: Bool) -> ExportRing {
        let sign = shape.doubledArea.signum
        return (counterClockwise ? sign < 0 : sign > 0) ? shape.ring.reversed() : shape.ring
    }

    /// For each ring, the other rings that contain it.
    private static func containers(of shapes: [RingShape]) -> [[Int]] {
        var result = [[Int]](repeating: [], count: shapes.count)
        guard shapes.count > 1 else { return result }
        // Rings by west edge: a container's west edge is no farther east than the contained ring's.
        let byWest = shapes.indices.sorted { shapes[$0].bounds.west < shapes[$1].bounds.west }
        var indexes = [RingIndex?](repeating: nil, count: shapes.count)
        for inner in shapes.indices {
            let box = shapes[inner].bounds
            for outer in byWest {
                let outerBox = shapes[outer].bounds
                if outerBox.west > box.west { break }
                guard outer != inner, shapes[outer].boundsContain(box) else { continue }
                if indexes[outer] == nil { indexes[outer] = RingIndex(shapes[outer]) }
                guard let index = indexes[outer] else { continue }
                let inside = contains(index, shapes[inner].ring)
                    ?? nestsByOrder(shapes[inner], in: shapes[outer], inner < outer)
                if inside { result[inner].append(outer) }
            }
        }
        return result
    }

    /// Whether `ring` lies inside the indexed ring: decided at its first vertex off that ring, else
    /// at the first midpoint of its edges off it; nil when the whole ring lies on the indexed one.
    private static func contains(_ index: RingIndex, _ ring: ExportRing) -> Bool? {
        for vertex in 0..<ring.edgeCount {
            switch index.side(ofX: Int64(ring.xs[vertex]), y: Int64(ring.ys[vertex])) {
            case .inside: return true
            case .outside: return false
            case .onBoundary: continue
            }
        }
        for edge in 0..<ring.edgeCount {
            let x = Int64(ring.xs[edge]) + Int64(ring.xs[edge + 1]), y = Int64(ring.ys[edge]) + Int64(ring.ys[edge + 1])
            switch index.side(ofX: x, y: y, scale: 2) {
            case .inside: return true
            case .outside: return false
            case .onBoundary: continue
            }
        }
        return nil
    }

    /// For two rings that lie on each other's boundary: whether `inner` counts as inside `outer`.
    /// Exactly one of the two counts as inside the other, by their counter-clockwise vertex
    /// sequences (then by position, for the very same sequence), so the choice depends only on the rings.
    private static func nestsByOrder(_ inner: RingShape, in outer: RingShape, _ innerComesFirst: Bool) -> Bool {
        let innerRing = oriented(inner, counterClockwise: true), outerRing = oriented(outer, counterClockwise: true)
        if innerRing == outerRing { return !innerComesFirst }
        return outerRing.precedes(innerRing)
    }
}
