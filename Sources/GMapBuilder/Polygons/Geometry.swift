import GMap

/// Exact integer tests the builder needs besides the even-odd rule.
enum Geometry {
    /// The sign of `a·b − c·d`, exactly (each product must fit in 64 bits).
    @inline(__always) static func compareProducts(_ a: Int64, _ b: Int64, _ c: Int64, _ d: Int64) -> Int {
        let left = a * b, right = c * d
        return left < right ? -1 : (left > right ? 1 : 0)
    }

    /// Whether the segment `a–b` meets the closed rectangle `bounds` (touching counts).
    static func segment(_ ax: Int64, _ ay: Int64, _ bx: Int64, _ by: Int64, touches bounds: TileBounds) -> Bool {
        if max(ax, bx) < bounds.west || min(ax, bx) > bounds.east || max(ay, by) < bounds.south || min(ay, by) > bounds.north {
            return false
        }
        let inside = { (x: Int64, y: Int64) in
            x >= bounds.west && x <= bounds.east && y >= bounds.south && y <= bounds.north
        }
        if inside(ax, ay) || inside(bx, by) { return true }
        // The segment's line separates the rectangle's corners unless all four lie strictly on one side.
        let dx = bx - ax, dy = by - ay
        var positive = false, negative = false
        for (cx, cy) in [(bounds.west, bounds.south), (bounds.east, bounds.south), (bounds.west, bounds.north), (bounds.east, bounds.north)] {
            switch compareProducts(dx, cy - ay, dy, cx - ax) {
            case 1: positive = true
            case -1: negative = true
            default: return true
            }
        }
        return positive && negative
    }
}

extension Geometry {
    /// The sign of `a·b − c·d`, exactly, for any 64-bit operands (the products are taken at 128 bits).
    static func compareWideProducts(_ a: Int64, _ b: Int64, _ c: Int64, _ d: Int64) -> Int {
        let left = a.multipliedFullWidth(by: b), right = c.multipliedFullWidth(by: d)
        if left.high != right.high { return left.high < right.high ? -1 : 1 }
        return left.low == right.low ? 0 : (left.low < right.low ? -1 : 1)
    }
}
