/// The exact even-odd (PNPOLY) rule on integer coordinates, and the tile-local form of it that
/// lookups use. Both the reader and the builder use these functions, so they agree bit for bit.
///
/// The rule is that of the classic ray test: an edge from `a` to `b` counts for point `p` when
/// `(a.y > p.y) != (b.y > p.y)` and the edge crosses the horizontal line through `p` strictly east
/// of `p`. This is the parity of a point moved by infinitesimals, `(p.x + δ, p.y + ε)` with
/// `0 < ε ≪ δ`, which is never on an edge: so a point on a border shared by two features is in
/// exactly one of them (the one to its east, or north for an east–west border).
///
/// All products are of two differences of coordinates, each below 2^32 in magnitude when the
/// coordinates are valid (|x| ≤ 2·10^9, |y| ≤ 10^9), so they fit in 64 bits and the tests are
/// exact. Wrapping arithmetic is used so that corrupt input can give a wrong parity but never a trap.
public enum EvenOddRule {
    /// Whether the edge `a→b` crosses the ray going east from `p` (the PNPOLY test).
    @inlinable
    public static func crossesEastRay(
        pointX px: Int64, pointY py: Int64,
        ax: Int64, ay: Int64, bx: Int64, by: Int64
    ) -> Bool {
        guard (ay > py) != (by > py) else { return false }
        // Orient the edge upwards: low.y <= py < high.y.
        let (lowX, lowY, highX, highY) = ay < by ? (ax, ay, bx, by) : (bx, by, ax, ay)
        let rise = highY &- lowY
        // x of the crossing = lowX + (py - lowY) * (highX - lowX) / rise; compare with px.
        return (px &- lowX) &* rise < (py &- lowY) &* (highX &- lowX)
    }

    /// Whether the edge `a→b` flips the parity of point `p` relative to the tile corner `(east, south)`.
    ///
    /// A tile stores, per feature, the parity of its south-east corner `(east, south)` and every
    /// edge that meets the closed tile. The parity of a point `p` in the tile is the corner's
    /// parity, flipped once for every edge that crosses the path from `p` east to `(east, p.y)`
    /// and then south to `(east, south)`. This function says whether one edge crosses that path,
    /// with the same infinitesimal offsets as ``crossesEastRay(pointX:pointY:ax:ay:bx:by:)``.
    /// It requires `p.x <= east` and `p.y >= south`.
    @inlinable
    public static func flipsParity(
        pointX px: Int64, pointY py: Int64, east: Int64, south: Int64,
        ax: Int64, ay: Int64, bx: Int64, by: Int64
    ) -> Bool {
        var flips = false
        // The horizontal leg: edges crossing y = py + ε with px < crossing x <= east.
        if (ay > py) != (by > py) {
            let (lowX, lowY, highX, highY) = ay < by ? (ax, ay, bx, by) : (bx, by, ax, ay)
            let rise = highY &- lowY
            let offset = (py &- lowY) &* (highX &- lowX)
            if (px &- lowX) &* rise < offset && offset <= (east &- lowX) &* rise {
                flips = true
            }
        }
        // The vertical leg: edges crossing x = east + δ with south + ε < crossing y < py + ε.
        if (ax > east) != (bx > east), py > south {
            let (leftX, leftY, rightX, rightY) = ax < bx ? (ax, ay, bx, by) : (bx, by, ax, ay)
            let run = rightX &- leftX
            let rise = rightY &- leftY
            // y of the crossing at x = east is leftY + lift / run.
            let lift = (east &- leftX) &* rise
            let atPoint = (py &- leftY) &* run
            let atCorner = (south &- leftY) &* run
            // "Below y + ε" at x = east + δ: below y, or exactly at y on an edge that does not rise.
            let belowPoint = lift < atPoint || (lift == atPoint && rise <= 0)
            let belowCorner = lift < atCorner || (lift == atCorner && rise <= 0)
            if belowPoint && !belowCorner { flips.toggle() }
        }
        return flips
    }
}
