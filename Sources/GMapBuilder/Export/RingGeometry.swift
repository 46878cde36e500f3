import GMap

/// A signed 128-bit integer, enough for the exact doubled area of any ring on the grid.
struct WideInteger: Sendable, Comparable {
    var high: Int64
    var low: UInt64

    static let zero = WideInteger(high: 0, low: 0)

    /// The exact product of two 64-bit integers.
    static func product(_ a: Int64, _ b: Int64) -> WideInteger {
        let (high, low) = a.multipliedFullWidth(by: b)
        return WideInteger(high: high, low: low)
    }

    static func + (a: WideInteger, b: WideInteger) -> WideInteger {
        let (low, carry) = a.low.addingReportingOverflow(b.low)
        return WideInteger(high: a.high &+ b.high &+ (carry ? 1 : 0), low: low)
    }

    static prefix func - (a: WideInteger) -> WideInteger {
        let low = ~a.low &+ 1
        return WideInteger(high: ~a.high &+ (low == 0 ? 1 : 0), low: low)
    }

    static func - (a: WideInteger, b: WideInteger) -> WideInteger { a + -b }

    static func < (a: WideInteger, b: WideInteger) -> Bool {
        a.high != b.high ? a.high < b.high : a.low < b.low
    }

    /// -1, 0 or 1.
    var signum: Int { high < 0 ? -1 : (high == 0 && low == 0 ? 0 : 1) }

    /// The absolute value (the grid's areas are far from the one value without one).
    var magnitude: WideInteger { high < 0 ? -self : self }
}

/// A ring's extent and exact doubled signed area, and the even-odd test of points against it.
struct RingShape: Sendable {
    /// The ring.
    let ring: ExportRing
    /// The smallest rectangle holding the ring (closed).
    let bounds: TileBounds
    /// Twice the signed area in square units: positive when counter-clockwise.
    let doubledArea: WideInteger

    init(_ ring: ExportRing) {
        self.ring = ring
        var west = Int64.max, south = Int64.max, east = Int64.min, north = Int64.min
        for index in 0..<ring.vertexCount {
            let x = Int64(ring.xs[index]), y = Int64(ring.ys[index])
            west = min(west, x); east = max(east, x)
            south = min(south, y); north = max(north, y)
        }
        bounds = TileBounds(west: west, south: south, east: east, north: north)
        // Shoelace around the first vertex: every difference is below 2^33 and every product fits exactly.
        var sum = WideInteger.zero
        if ring.vertexCount > 0 {
            let originX = Int64(ring.xs[0]), originY = Int64(ring.ys[0])
            for index in 0..<ring.edgeCount {
                let ax = Int64(ring.xs[index]) - originX, ay = Int64(ring.ys[index]) - originY
                let bx = Int64(ring.xs[index + 1]) - originX, by = Int64(ring.ys[index + 1]) - originY
                sum = sum + WideInteger.product(ax, by) - WideInteger.product(bx, ay)
            }
        }
        doubledArea = sum
    }

    /// Whether the closed rectangle `inner` lies within this ring's bounds.
    func boundsContain(_ inner: TileBounds) -> Bool {
        bounds.west <= inner.west && bounds.east >= inner.east && bounds.south <= inner.south && bounds.north >= inner.north
    }
}

/// Where a point lies relative to a ring.
enum RingSide: Sendable, Equatable {
    case inside, outside, onBoundary
}

/// A ring's edges bucketed by horizontal strips, so that a point is tested against the edges of
/// its strip only instead of every edge.
struct RingIndex: Sendable {
    private let ring: ExportRing
    private let south: Int64, stripHeight: Int64, stripCount: Int
    /// Edge indexes per strip, in compressed rows.
    private var starts: [Int32] = []
    private var entries: [Int32] = []

    /// Indexes `shape`'s ring, with about eight edges per strip.
    init(_ shape: RingShape) {
        ring = shape.ring
        south = shape.bounds.south
        let height = shape.bounds.north - shape.bounds.south + 1
        var strips = max(1, min(1 << 16, ring.edgeCount / 8))
        // Long edges are stored in every strip they span; fewer strips when that would grow too much.
        while true {
            let stripHeight = (height + Int64(strips) - 1) / Int64(strips)
            var total = 0
            for index in 0..<ring.edgeCount {
                let (first, last) = Self.span(ring, index, south: south, stripHeight: stripHeight)
                total += last - first + 1
            }
            if strips == 1 || total <= 8 * ring.edgeCount + 64 { break }
            strips = max(1, strips / 4)
        }
        stripCount = strips
        stripHeight = (height + Int64(strips) - 1) / Int64(strips)
        var counts = [Int32](repeating: 0, count: strips + 1)
        for index in 0..<ring.edgeCount {
            let (first, last) = Self.span(ring, index, south: south, stripHeight: stripHeight)
            for strip in first...last { counts[strip + 1] += 1 }
        }
        for strip in 0..<strips { counts[strip + 1] += counts[strip] }
        var next = counts
        var entries = [Int32](repeating: 0, count: Int(counts[strips]))
        for index in 0..<ring.edgeCount {
            let (first, last) = Self.span(ring, index, south: south, stripHeight: stripHeight)
            for strip in first...last {
                entries[Int(next[strip])] = Int32(index)
                next[strip] += 1
            }
        }
        starts = counts
        self.entries = entries
    }

    private static func span(_ ring: ExportRing, _ index: Int, south: Int64, stripHeight: Int64) -> (Int, Int) {
        let ay = Int64(ring.ys[index]), by = Int64(ring.ys[index + 1])
        return (Int((min(ay, by) - south) / stripHeight), Int((max(ay, by) - south) / stripHeight))
    }

    /// Where the point `(x / scale, y / scale)` lies: on an edge, or inside or outside by the
    /// even-odd rule. `scale` 2 tests the midpoints of edges exactly. Products are 128-bit.
    func side(ofX x: Int64, y: Int64, scale: Int64 = 1) -> RingSide {
        guard y >= south * scale else { return .outside }
        let strip = Int((y - south * scale) / (stripHeight * scale))
        guard strip < stripCount else { return .outside }
        var inside = false
        for position in Int(starts[strip])..<Int(starts[strip + 1]) {
            let index = Int(entries[position])
            let ax = Int64(ring.xs[index]) * scale, ay = Int64(ring.ys[index]) * scale
            let bx = Int64(ring.xs[index + 1]) * scale, by = Int64(ring.ys[index + 1]) * scale
            if x >= min(ax, bx), x <= max(ax, bx), y >= min(ay, by), y <= max(ay, by),
               WideInteger.product(bx - ax, y - ay) == WideInteger.product(by - ay, x - ax) {
                return .onBoundary
            }
            // The even-odd crossing of the ray going east (as EvenOddRule.crossesEastRay, in 128 bits).
            guard (ay > y) != (by > y) else { continue }
            let (lowX, lowY, highX, highY) = ay < by ? (ax, ay, bx, by) : (bx, by, ax, ay)
            if WideInteger.product(x - lowX, highY - lowY) < WideInteger.product(y - lowY, highX - lowX) { inside.toggle() }
        }
        return inside ? .inside : .outside
    }
}

extension ExportRing {
    /// The ring turned counter-clockwise, from the same first vertex. A ring without area (a
    /// bow-tie whose lobes balance, a ring that runs along itself) has no orientation: of its two
    /// directions it takes the one that comes first in ``precedes(_:)`` order. Either way the
    /// result depends only on the ring's vertex cycle and first vertex, not on the direction it
    /// was chained in.
    func canonicallyOriented() -> ExportRing {
        let sign = RingShape(self).doubledArea.signum
        if sign > 0 { return self }
        let reversed = reversed()
        return sign < 0 || reversed.precedes(self) ? reversed : self
    }
}
