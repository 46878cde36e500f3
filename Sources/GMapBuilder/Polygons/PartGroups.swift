import GMap

/// The parity groups of every feature (Spec/FORMAT.md, "Overlapping parts: parity groups"): the
/// polygons of a feature divided into groups whose members have pairwise disjoint interiors, so that
/// the even-odd rule over all the rings of one group is the union of its polygons, exactly.
///
/// Two polygons of one feature go into different groups when their interiors may meet, decided by
/// exact integer tests on the quantized vertices (Spec/FORMAT.md 15.8): when their boundaries cross
/// or share a stretch of edge; when they are disjoint and a vertex of one lies inside the other; and
/// when they touch only at points and a piece of an edge between those points (its midpoint) lies
/// inside the other. So the rule is sound, exact for polygons that touch at points (they share a
/// group), and conservative only for polygons that share a stretch of boundary (kept apart). Groups
/// are assigned greedily, each polygon the lowest group none of its conflicting predecessors has;
/// only features with two polygons or more whose bounding boxes meet are examined.
struct PartGroups {
    /// Per feature (source order): the number of groups, 1 for a feature with no conflicting parts
    /// (also for a feature without rings).
    var groupCounts: [Int]
    /// Per kept ring (in order), its group; empty when every feature has one group.
    var groupOfRing: [UInt16] = []
    /// The features whose polygons truly overlap (a proper crossing of their boundaries, or a vertex
    /// or an edge piece of one strictly inside another): source index, how many of its polygons overlap another of
    /// its polygons, and how many polygons it has.
    var overlaps: [(feature: Int, overlapping: Int, polygons: Int)] = []

    /// Whether some feature has more than one group.
    var hasGroups: Bool { !groupOfRing.isEmpty }

    /// The groups of `polygons`. With `grouping` false only ``overlaps`` is computed (format 2,
    /// which keeps the even-odd rule over every ring); every feature then has one group.
    init(_ polygons: PolygonSet, grouping: Bool = true) throws {
        groupCounts = [Int](repeating: 1, count: polygons.featureCount)
        // Ring starts and ends (inclusive end: the closing vertex).
        var ringStarts: [Int] = [], ringEnds: [Int] = []
        ringStarts.reserveCapacity(polygons.ringCount)
        ringEnds.reserveCapacity(polygons.ringCount)
        var start = 0
        for index in 0..<polygons.vertexCount where polygons.isRingEnd[index] {
            ringStarts.append(start)
            ringEnds.append(index)
            start = index + 1
        }
        var groups = [UInt16](repeating: 0, count: polygons.ringCount)
        var anyGroup = false
        var ring = 0
        while ring < ringStarts.count {
            let feature = Int(polygons.featureOfVertex[ringStarts[ring]])
            var end = ring
            while end < ringStarts.count, Int(polygons.featureOfVertex[ringStarts[end]]) == feature { end += 1 }
            // The feature's polygons: consecutive rings of one polygon index.
            var parts: [Part] = []
            for r in ring..<end {
                if parts.isEmpty || polygons.ringPolygons[r] != polygons.ringPolygons[r - 1] {
                    parts.append(Part(rings: []))
                }
                parts[parts.count - 1].rings.append((ringStarts[r], ringEnds[r]))
            }
            if parts.count >= 2 {
                let result = Self.examine(parts, polygons)
                if result.overlapping > 0 { overlaps.append((feature, result.overlapping, parts.count)) }
                if grouping, result.groups.contains(where: { $0 > 0 }) {
                    let count = (result.groups.max() ?? 0) + 1
                    guard count <= Int(UInt16.max) else {
                        throw BuildError("feature \(polygons.ids[feature]) needs \(count) parity groups for its overlapping polygons, more than \(UInt16.max)")
                    }
                    groupCounts[feature] = count
                    anyGroup = true
                    var part = -1
                    for r in ring..<end {
                        if r == ring || polygons.ringPolygons[r] != polygons.ringPolygons[r - 1] { part += 1 }
                        groups[r] = UInt16(result.groups[part])
                    }
                }
            }
            ring = end
        }
        if anyGroup { groupOfRing = groups }
    }

    /// One polygon: its rings as (first vertex, closing vertex).
    struct Part {
        var rings: [(start: Int, end: Int)]
        var west = Int64.max, south = Int64.max, east = Int64.min, north = Int64.min
    }

    /// Conflicts and true overlaps among the polygons of one feature, and the greedy groups.
    private static func examine(_ input: [Part], _ polygons: PolygonSet) -> (groups: [Int], overlapping: Int) {
        var parts = input
        for index in parts.indices {
            for ring in parts[index].rings {
                for vertex in ring.start...ring.end {
                    let x = Int64(polygons.xs[vertex]), y = Int64(polygons.ys[vertex])
                    parts[index].west = min(parts[index].west, x); parts[index].east = max(parts[index].east, x)
                    parts[index].south = min(parts[index].south, y); parts[index].north = max(parts[index].north, y)
                }
            }
        }
        // Candidate pairs: closed bounding boxes that meet (sweep by west).
        let order = parts.indices.sorted { parts[$0].west < parts[$1].west }
        var candidates = Set<Pair>()
        for (position, i) in order.enumerated() {
            var next = position + 1
            while next < order.count, parts[order[next]].west <= parts[i].east {
                let j = order[next]
                if parts[j].south <= parts[i].north, parts[i].south <= parts[j].north { candidates.insert(Pair(i, j)) }
                next += 1
            }
        }
        guard !candidates.isEmpty else { return ([Int](repeating: 0, count: parts.count), 0) }

        // Boundary contact between the polygons of candidate pairs.
        var involved = Set<Int>()
        for pair in candidates { involved.insert(pair.low); involved.insert(pair.high) }
        struct Edge { var vertex: Int; var part: Int; var west: Int64; var east: Int64; var south: Int64; var north: Int64 }
        var edges: [Edge] = []
        for part in involved.sorted() {
            for ring in parts[part].rings {
                for vertex in ring.start..<ring.end {
                    let ax = Int64(polygons.xs[vertex]), bx = Int64(polygons.xs[vertex + 1])
                    let ay = Int64(polygons.ys[vertex]), by = Int64(polygons.ys[vertex + 1])
                    edges.append(Edge(vertex: vertex, part: part, west: min(ax, bx), east: max(ax, bx), south: min(ay, by), north: max(ay, by)))
                }
            }
        }
        var touching = Set<Pair>(), crossing = Set<Pair>(), sharing = Set<Pair>()
        // Per edge (its first vertex), the vertices of other polygons that lie on it.
        var contacts: [Int: [Point]] = [:]
        // Edges that meet share a cell of a uniform grid over their extent (the cell holding a
        // common point, which both boxes meet): each edge goes into every cell its box meets, and
        // only the edges of one cell are compared. A pair met in two cells is tested twice, which
        // changes nothing (a contact point twice is one stop).
        var west = Int64.max, south = Int64.max, east = Int64.min, north = Int64.min
        for edge in edges {
            west = min(west, edge.west); east = max(east, edge.east)
            south = min(south, edge.south); north = max(north, edge.north)
        }
        let side = max(1, Int(Double(edges.count / 4).squareRoot()))
        let cellWidth = (east - west) / Int64(side) + 1, cellHeight = (north - south) / Int64(side) + 1
        var cells = [[Int32]](repeating: [], count: side * side)
        for (index, edge) in edges.enumerated() {
            for row in Int((edge.south - south) / cellHeight)...Int((edge.north - south) / cellHeight) {
                for column in Int((edge.west - west) / cellWidth)...Int((edge.east - west) / cellWidth) {
                    cells[row * side + column].append(Int32(index))
                }
            }
        }
        for cell in cells where cell.count > 1 {
            for first in 0..<(cell.count - 1) {
                let edge = edges[Int(cell[first])]
                for second in (first + 1)..<cell.count {
                    let other = edges[Int(cell[second])]
                    guard other.part != edge.part, other.south <= edge.north, edge.south <= other.north,
                          other.west <= edge.east, edge.west <= other.east else { continue }
                    let pair = Pair(edge.part, other.part)
                    guard candidates.contains(pair), !crossing.contains(pair) else { continue }
                    let a = Point(polygons, edge.vertex), b = Point(polygons, edge.vertex + 1)
                    let c = Point(polygons, other.vertex), d = Point(polygons, other.vertex + 1)
                    switch Segments.meet(a, b, c, d) {
                    case .none: break
                    case .touch(let onFirst, let onSecond):
                        touching.insert(pair)
                        if !onFirst.isEmpty { contacts[edge.vertex, default: []].append(contentsOf: onFirst) }
                        if !onSecond.isEmpty { contacts[other.vertex, default: []].append(contentsOf: onSecond) }
                    case .share: touching.insert(pair); sharing.insert(pair)
                    case .cross: touching.insert(pair); crossing.insert(pair)
                    }
                }
            }
        }

        // Whether the interiors meet, for the pairs whose boundaries do not cross:
        // * boundaries disjoint: some ring of one lies inside the other, and one vertex per ring
        //   decides (a ring meets no boundary of the other, so it lies wholly inside or outside);
        // * boundaries touching only at points (no crossing, no shared stretch): every piece of an
        //   edge between the contact points lies wholly inside or outside the other polygon, and the
        //   interiors meet exactly when some piece lies inside (a face inside both is bounded by such
        //   pieces); each piece is decided by its midpoint, a half-integer point;
        // * boundaries sharing a stretch of an edge: kept apart without a test (conservative).
        var probes: [Int: Probe] = [:]
        func probe(_ part: Int) -> Probe {
            if let known = probes[part] { return known }
            let made = Probe(parts[part], polygons)
            probes[part] = made
            return made
        }
        var overlapping = crossing
        var conflicts = crossing.union(sharing)
        for pair in candidates where !crossing.contains(pair) && !sharing.contains(pair) {
            let touches = touching.contains(pair)
            var inside = false
            for (p, q) in [(pair.low, pair.high), (pair.high, pair.low)] where !inside {
                let other = probe(q)
                for ring in parts[p].rings where !inside {
                    if !touches {
                        inside = other.locate(doubledX: 2 * Int64(polygons.xs[ring.start]), doubledY: 2 * Int64(polygons.ys[ring.start])) == .inside
                        continue
                    }
                    for vertex in ring.start..<ring.end where !inside {
                        let a = Point(polygons, vertex), b = Point(polygons, vertex + 1)
                        var stops = [a, b] + (contacts[vertex] ?? [])
                        if stops.count > 2 {
                            // Along the edge (every stop lies on it): by x, or by y for a vertical edge.
                            let along: (Point) -> Int64 = a.x != b.x ? { ($0.x - a.x) * (b.x > a.x ? 1 : -1) } : { ($0.y - a.y) * (b.y > a.y ? 1 : -1) }
                            stops.sort { along($0) < along($1) }
                        }
                        for index in 1..<stops.count where stops[index - 1] != stops[index] {
                            switch other.locate(doubledX: stops[index - 1].x + stops[index].x, doubledY: stops[index - 1].y + stops[index].y) {
                            case .inside: inside = true
                            // Only a cancelled edge (used twice) can put a midpoint on the boundary: keep apart.
                            case .boundary: conflicts.insert(pair)
                            case .outside: continue
                            }
                            break
                        }
                    }
                }
            }
            if inside {
                overlapping.insert(pair)
                conflicts.insert(pair)
            }
        }

        // Greedy colouring in polygon order.
        var neighbours = [[Int]](repeating: [], count: parts.count)
        for pair in conflicts {
            neighbours[pair.high].append(pair.low)
        }
        var groups = [Int](repeating: 0, count: parts.count)
        for part in parts.indices where !neighbours[part].isEmpty {
            let taken = Set(neighbours[part].map { groups[$0] })
            var group = 0
            while taken.contains(group) { group += 1 }
            groups[part] = group
        }
        var overlappingParts = Set<Int>()
        for pair in overlapping { overlappingParts.insert(pair.low); overlappingParts.insert(pair.high) }
        return (groups, overlappingParts.count)
    }

    /// An unordered pair of polygon indexes.
    struct Pair: Hashable {
        let low: Int, high: Int
        init(_ a: Int, _ b: Int) { low = min(a, b); high = max(a, b) }
    }

    struct Point: Equatable {
        let x: Int64, y: Int64
        init(x: Int64, y: Int64) {
            self.x = x
            self.y = y
        }
        init(_ polygons: PolygonSet, _ vertex: Int) {
            x = Int64(polygons.xs[vertex])
            y = Int64(polygons.ys[vertex])
        }
    }

    /// Exact tests on segments between integer points (of at most 32 bits: the products are
    /// compared in 128 bits).
    enum Segments {
        enum Meeting: Equatable {
            /// Disjoint.
            case none
            /// Meeting only at points: the endpoints of the second segment that lie inside the
            /// first, and those of the first that lie inside the second.
            case touch(onFirst: [Point], onSecond: [Point])
            /// Collinear, sharing a stretch of positive length.
            case share
            /// Crossing properly: one point inside both.
            case cross
        }

        /// Compares `a · b` with `c · d` exactly: −1, 0 or 1.
        static func compareProducts(_ a: Int64, _ b: Int64, _ c: Int64, _ d: Int64) -> Int {
            let left = a.multipliedFullWidth(by: b), right = c.multipliedFullWidth(by: d)
            if left.high != right.high { return left.high < right.high ? -1 : 1 }
            if left.low != right.low { return left.low < right.low ? -1 : 1 }
            return 0
        }

        /// The sign of the cross product `(b − a) × (c − a)`.
        static func orientation(_ a: Point, _ b: Point, _ c: Point) -> Int {
            compareProducts(b.x - a.x, c.y - a.y, b.y - a.y, c.x - a.x)
        }

        /// Whether `c`, collinear with `a–b`, lies on the closed segment.
        static func onSegment(_ a: Point, _ b: Point, _ c: Point) -> Bool {
            c.x >= min(a.x, b.x) && c.x <= max(a.x, b.x) && c.y >= min(a.y, b.y) && c.y <= max(a.y, b.y)
        }

        /// How the closed segments `a–b` and `c–d` (each of positive length) meet.
        static func meet(_ a: Point, _ b: Point, _ c: Point, _ d: Point) -> Meeting {
            let o1 = orientation(a, b, c), o2 = orientation(a, b, d)
            let o3 = orientation(c, d, a), o4 = orientation(c, d, b)
            if o1 * o2 < 0, o3 * o4 < 0 { return .cross }
            if o1 == 0, o2 == 0 {
                // Collinear: the overlap along the line, compared on the longer axis.
                let useX = a.x != b.x
                let (a0, a1) = useX ? (min(a.x, b.x), max(a.x, b.x)) : (min(a.y, b.y), max(a.y, b.y))
                let (c0, c1) = useX ? (min(c.x, d.x), max(c.x, d.x)) : (min(c.y, d.y), max(c.y, d.y))
                let low = max(a0, c0), high = min(a1, c1)
                if low < high { return .share }
                if low > high { return .none }
            }
            var onFirst: [Point] = [], onSecond: [Point] = []
            if o1 == 0, onSegment(a, b, c) { onFirst.append(c) }
            if o2 == 0, onSegment(a, b, d) { onFirst.append(d) }
            if o3 == 0, onSegment(c, d, a) { onSecond.append(a) }
            if o4 == 0, onSegment(c, d, b) { onSecond.append(b) }
            return onFirst.isEmpty && onSecond.isEmpty ? .none : .touch(onFirst: onFirst, onSecond: onSecond)
        }
    }

    /// A polygon's edges bucketed by latitude band, for point-in-polygon tests at integer and
    /// half-integer points (coordinates doubled).
    struct Probe {
        var edges: [[(Point, Point)]]
        let south: Int64, bandHeight: Int64

        init(_ part: Part, _ polygons: PolygonSet) {
            var all: [(Point, Point)] = []
            for ring in part.rings {
                for vertex in ring.start..<ring.end {
                    let a = Point(polygons, vertex), b = Point(polygons, vertex + 1)
                    all.append((Point(x: 2 * a.x, y: 2 * a.y), Point(x: 2 * b.x, y: 2 * b.y)))
                }
            }
            let bands = max(1, all.count / 8)
            south = 2 * part.south
            bandHeight = max(1, (2 * part.north - south) / Int64(bands) + 1)
            edges = Array(repeating: [], count: bands)
            for edge in all {
                let first = Int((min(edge.0.y, edge.1.y) - south) / bandHeight)
                let last = min(bands - 1, Int((max(edge.0.y, edge.1.y) - south) / bandHeight))
                for band in first...last { edges[band].append(edge) }
            }
        }

        enum Location { case inside, boundary, outside }

        /// Where the point `(doubledX / 2, doubledY / 2)` lies: inside the polygon (even-odd over
        /// its rings), on one of its edges, or outside.
        func locate(doubledX x: Int64, doubledY y: Int64) -> Location {
            guard y >= south else { return .outside }
            let band = Int((y - south) / bandHeight)
            guard band < edges.count else { return .outside }
            let point = Point(x: x, y: y)
            var odd = false
            for (a, b) in edges[band] {
                if Segments.orientation(a, b, point) == 0, Segments.onSegment(a, b, point) { return .boundary }
                guard (a.y > y) != (b.y > y) else { continue }
                let (low, high) = a.y < b.y ? (a, b) : (b, a)
                // The crossing lies strictly east of the point.
                if Segments.compareProducts(x - low.x, high.y - low.y, y - low.y, high.x - low.x) < 0 { odd.toggle() }
            }
            return odd ? .inside : .outside
        }
    }
}
