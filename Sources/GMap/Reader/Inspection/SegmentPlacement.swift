/// Where a segment with integer ends lies against a tile's rectangle, decided exactly.
///
/// Separating-axis tests: a segment and a rectangle (both convex) are apart exactly when the
/// x axis, the y axis or the segment's own normal separates them. Against the **closed**
/// rectangle the separation must be strict (touching a side or a corner counts as meeting, the
/// rule of Spec/FORMAT.md 8.6); against the **open** one (the tile's inside) touching does not count.
/// Cross products of coordinate differences (each below 2^33 for points of the grid) are compared
/// in 128 bits, so nothing overflows.
enum SegmentPlacement {
    /// Whether the segment a–b has a point in the closed rectangle `[W, E] × [S, N]` of `bounds`.
    static func meetsClosed(_ bounds: TileBounds, _ ax: Int64, _ ay: Int64, _ bx: Int64, _ by: Int64) -> Bool {
        if max(ax, bx) < bounds.west || min(ax, bx) > bounds.east || max(ay, by) < bounds.south || min(ay, by) > bounds.north {
            return false
        }
        let (below, above) = cornerSides(bounds, ax, ay, bx, by)
        // All four corners strictly on one side of the segment's line: apart.
        return !(below == 0 && above == 4) && !(above == 0 && below == 4)
    }

    /// Whether the segment a–b has a point in the open rectangle `(W, E) × (S, N)`: the tile's inside.
    static func meetsOpen(_ bounds: TileBounds, _ ax: Int64, _ ay: Int64, _ bx: Int64, _ by: Int64) -> Bool {
        if ax == bx && ay == by {
            return ax > bounds.west && ax < bounds.east && ay > bounds.south && ay < bounds.north
        }
        if max(ax, bx) <= bounds.west || min(ax, bx) >= bounds.east || max(ay, by) <= bounds.south || min(ay, by) >= bounds.north {
            return false
        }
        let (below, above) = cornerSides(bounds, ax, ay, bx, by)
        // All four corners on one closed side of the line: apart (the line at most touches the rectangle).
        return below > 0 && above > 0
    }

    /// Whether a–b lies wholly inside the open rectangle: it then meets no other tile.
    static func isInside(_ bounds: TileBounds, _ ax: Int64, _ ay: Int64, _ bx: Int64, _ by: Int64) -> Bool {
        ax > bounds.west && ax < bounds.east && ay > bounds.south && ay < bounds.north
            && bx > bounds.west && bx < bounds.east && by > bounds.south && by < bounds.north
    }

    /// How many of the rectangle's four corners lie strictly to the right of a→b (`below`) and
    /// strictly to its left (`above`).
    private static func cornerSides(_ bounds: TileBounds, _ ax: Int64, _ ay: Int64, _ bx: Int64, _ by: Int64) -> (below: Int, above: Int) {
        var below = 0, above = 0
        func count(_ cx: Int64, _ cy: Int64) {
            let side = orientation(ax, ay, bx, by, cx, cy)
            if side < 0 { below += 1 } else if side > 0 { above += 1 }
        }
        count(bounds.west, bounds.south)
        count(bounds.east, bounds.south)
        count(bounds.west, bounds.north)
        count(bounds.east, bounds.north)
        return (below, above)
    }

    /// The sign of the cross product (b − a) × (c − a): positive when c lies left of a→b.
    static func orientation(_ ax: Int64, _ ay: Int64, _ bx: Int64, _ by: Int64, _ cx: Int64, _ cy: Int64) -> Int {
        let left = (bx &- ax).multipliedFullWidth(by: cy &- ay)
        let right = (by &- ay).multipliedFullWidth(by: cx &- ax)
        if left.high != right.high { return left.high < right.high ? -1 : 1 }
        if left.low != right.low { return left.low < right.low ? -1 : 1 }
        return 0
    }
}
