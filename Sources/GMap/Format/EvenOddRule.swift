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
        // A whole-unit point: the exact rule with zero fractions (FormatThreeTests checks that the
        // two agree with the rule written out in integers, Spec/FORMAT.md "flips in integers").
        flipsParity(point: GridPoint(x: px, y: py), east: east, south: south, ax: ax, ay: ay, bx: bx, by: by)
    }

    /// Whether the edge `a→b` flips the parity of `point` relative to the tile corner `(east, south)`,
    /// with the point taken at its exact position `x + fractionX / 2^24`, `y + fractionY / 2^24`.
    ///
    /// The same rule as ``flipsParity(pointX:pointY:east:south:ax:ay:bx:by:)``, which it equals when
    /// both fractions are zero; each comparison that involves the point is made on products scaled
    /// by 2^24, decided by its sign whenever the fractions cannot change it, so every product stays
    /// within 64 bits (Spec/FORMAT.md, "The query point"). Requires `point.x < east` and `point.y >= south`.
    @inlinable
    public static func flipsParity(
        point: GridPoint, east: Int64, south: Int64,
        ax: Int64, ay: Int64, bx: Int64, by: Int64
    ) -> Bool {
        let px = point.x, py = point.y, fx = point.fractionX, fy = point.fractionY
        var flips = false
        // The horizontal leg: edges crossing y = py' + ε with px' < crossing x <= east.
        // (a.y > py + fy) == (a.y > py) for an integer a.y and 0 <= fy < 1 unit.
        if (ay > py) != (by > py) {
            let (lowX, lowY, highX, highY) = ay < by ? (ax, ay, bx, by) : (bx, by, ax, ay)
            let rise = highY &- lowY, run = highX &- lowX
            let spread = run < 0 ? 0 &- run : run
            let atPoint = (px &- lowX) &* rise        // A: (px − lowX)·rise
            let offset = (py &- lowY) &* run          // B: (py − lowY)·(highX − lowX)
            let atEast = (east &- lowX) &* rise       // C: (east − lowX)·rise
            // px' east of... : (A − B)·2^24 < fy·run − fx·rise, and (C − B)·2^24 >= fy·run.
            let westOfCrossing = scaledDifference(atPoint, offset, isLessThan: (fy &* run) &- (fx &* rise), bound: spread &+ rise)
            if westOfCrossing, !scaledDifference(atEast, offset, isLessThan: fy &* run, bound: spread &+ 1) {
                flips = true
            }
        }
        // The vertical leg: edges crossing x = east + δ with south + ε < crossing y < py' + ε.
        if (ax > east) != (bx > east), py > south || fy > 0 {
            let (leftX, leftY, rightX, rightY) = ax < bx ? (ax, ay, bx, by) : (bx, by, ax, ay)
            let run = rightX &- leftX
            let rise = rightY &- leftY
            let lift = (east &- leftX) &* rise
            let atPoint = (py &- leftY) &* run
            let atCorner = (south &- leftY) &* run
            // Below py' + ε: lift·2^24 < atPoint·2^24 + fy·run, or equal on an edge that does not rise.
            let reach = fy &* run
            var belowPoint = scaledDifference(lift, atPoint, isLessThan: reach, bound: run)
            if !belowPoint, rise <= 0 {
                let (difference, overflow) = lift.subtractingReportingOverflow(atPoint)
                belowPoint = !overflow && difference >= 0 && difference < run && difference &* GridPoint.fractionScale == reach
            }
            let belowCorner = lift < atCorner || (lift == atCorner && rise <= 0)
            if belowPoint && !belowCorner { flips.toggle() }
        }
        return flips
    }

    /// Whether `(p − q) · 2^24 < g`, for a `g` with `|g| < 2^24 · bound`: decided by the sign of
    /// `p − q` when its size alone settles it (as it does whenever `p − q` overflows), and by one
    /// product below `2^24 · bound` otherwise.
    @inlinable
    static func scaledDifference(_ p: Int64, _ q: Int64, isLessThan g: Int64, bound: Int64) -> Bool {
        let (difference, overflow) = p.subtractingReportingOverflow(q)
        if overflow { return p < q }
        if difference >= bound { return false }
        if difference <= 0 &- bound { return true }
        return difference &* GridPoint.fractionScale < g
    }
}
