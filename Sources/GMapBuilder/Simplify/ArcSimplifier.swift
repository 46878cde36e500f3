import Foundation
import GMap

/// Simplifies one arc with the Douglas–Peucker rule, measuring distances in metres.
///
/// The arc's end vertices stay. A vertex is removed only when it lies within the tolerance of the
/// segment that replaces it. With a ``Side``, the arc may move only away from that side: every
/// removed vertex must also lie on that side of (or on) its replacing segment, so the area on that
/// side only grows (`--coast-buffer`).
struct ArcSimplifier {
    /// The side of an arc, looking along its own direction, on which the features lie.
    enum Side { case left, right }

    let toleranceMetres: Double
    /// Metres per grid unit along a meridian.
    let metresPerUnit: Double
    /// Radians per grid unit.
    let radiansPerUnit: Double
    /// The largest distance between a removed vertex and its replacing segment so far.
    private(set) var maximumErrorMetres = 0.0

    init(toleranceMetres: Double, quantizer: Quantizer) {
        self.toleranceMetres = toleranceMetres
        radiansPerUnit = Double.pi / 180 / Double(quantizer.unitsPerDegree)
        metresPerUnit = 6_371_008.8 * radiansPerUnit
    }

    /// The positions (0-based, ascending, ends included) of the vertices to keep of the arc `xs`/`ys`.
    ///
    /// A closed arc (first vertex = last) keeps at least three distinct vertices; an open one with
    /// `keepsOneInside` keeps at least one vertex besides its ends, when it has one.
    mutating func keptPositions(xs: [Int64], ys: [Int64], side: Side?, keepsOneInside: Bool) -> [Int] {
        let count = xs.count
        guard count > 2 else { return Array(0..<count) }
        var keep = [Bool](repeating: false, count: count)
        keep[0] = true
        keep[count - 1] = true
        var pending: [(Int, Int)] = []
        if xs[0] == xs[count - 1], ys[0] == ys[count - 1] {
            // A loop: cut it at the vertex farthest from its start, then keep one more vertex.
            var farthest = 1, farthestDistance = -1.0
            for index in 1..<(count - 1) {
                let distance = metres(from: (xs[0], ys[0]), to: (xs[index], ys[index]))
                if distance > farthestDistance { farthest = index; farthestDistance = distance }
            }
            keep[farthest] = true
            var third = -1, thirdDistance = -1.0
            for index in 1..<(count - 1) where index != farthest {
                let (a, b) = index < farthest ? (0, farthest) : (farthest, count - 1)
                let distance = distanceToSegment(index, a, b, xs, ys)
                if distance > thirdDistance { third = index; thirdDistance = distance }
            }
            if third > 0 { keep[third] = true }
            let fixed = [0, farthest, third, count - 1].filter { $0 >= 0 }.sorted()
            for (a, b) in zip(fixed, fixed.dropFirst()) { pending.append((a, b)) }
        } else if keepsOneInside {
            var farthest = 1, farthestDistance = -1.0
            for index in 1..<(count - 1) {
                let distance = distanceToSegment(index, 0, count - 1, xs, ys)
                if distance > farthestDistance { farthest = index; farthestDistance = distance }
            }
            keep[farthest] = true
            pending = [(0, farthest), (farthest, count - 1)]
        } else {
            pending = [(0, count - 1)]
        }

        while let (first, last) = pending.popLast() {
            guard last > first + 1 else { continue }
            var farthest = -1, farthestDistance = -1.0
            var wrongSide = -1, wrongSideDistance = -1.0
            for index in (first + 1)..<last {
                let distance = distanceToSegment(index, first, last, xs, ys)
                if distance > farthestDistance { farthest = index; farthestDistance = distance }
                if let side, isOnWrongSide(index, first, last, xs, ys, side), distance > wrongSideDistance {
                    wrongSide = index
                    wrongSideDistance = distance
                }
            }
            let split = wrongSide >= 0 ? wrongSide : (farthestDistance > toleranceMetres ? farthest : -1)
            if split < 0 {
                maximumErrorMetres = max(maximumErrorMetres, farthestDistance)
                continue
            }
            keep[split] = true
            pending.append((first, split))
            pending.append((split, last))
        }
        return keep.indices.filter { keep[$0] }
    }

    /// Whether vertex `index` lies strictly on the other side of segment `first`–`last` than `side`.
    private func isOnWrongSide(_ index: Int, _ first: Int, _ last: Int, _ xs: [Int64], _ ys: [Int64], _ side: Side) -> Bool {
        // The sign of (b − a) × (p − a): positive when p is left of a→b.
        let turn = Geometry.compareProducts(xs[last] - xs[first], ys[index] - ys[first], ys[last] - ys[first], xs[index] - xs[first])
        return side == .left ? turn < 0 : turn > 0
    }

    /// The distance in metres from vertex `index` to the segment `first`–`last`, in the longitude–latitude
    /// plane with longitudes scaled by the cosine of the latitude nearest the equator among the three
    /// vertices (see ``metresPerLongitudeUnit(_:_:_:)``).
    ///
    /// The map's edges are straight in longitude and latitude, not great circles, so the plane tangent at
    /// the vertex alone would be wrong near a pole: there the vertex's own scale is about 0, a vertex on the
    /// pole line (latitude ±90°, every longitude the same point) is "on" any segment that starts on that
    /// line, and dropping it would swap the whole triangle between the old and the new edge. With the
    /// band's largest scale, every point of the triangle that the removal swaps lies within the measured
    /// distance of the new edge on the sphere.
    private func distanceToSegment(_ index: Int, _ first: Int, _ last: Int, _ xs: [Int64], _ ys: [Int64]) -> Double {
        let scaleX = metresPerLongitudeUnit(ys[index], ys[first], ys[last])
        let ax = Double(xs[first] - xs[index]) * scaleX, ay = Double(ys[first] - ys[index]) * metresPerUnit
        let bx = Double(xs[last] - xs[index]) * scaleX, by = Double(ys[last] - ys[index]) * metresPerUnit
        let dx = bx - ax, dy = by - ay
        let lengthSquared = dx * dx + dy * dy
        var t = lengthSquared > 0 ? -(ax * dx + ay * dy) / lengthSquared : 0
        t = min(1, max(0, t))
        let px = ax + t * dx, py = ay + t * dy
        return (px * px + py * py).squareRoot()
    }

    /// Metres per grid unit of longitude at the latitude nearest the equator in the band spanned by
    /// the latitudes `a`, `b` and `c` (grid units): the largest scale in the band.
    ///
    /// Along any straight path in the longitude–latitude plane inside the band, the length on the sphere
    /// is at most that of the path with longitudes scaled by this (and latitudes by ``metresPerUnit``).
    private func metresPerLongitudeUnit(_ a: Int64, _ b: Int64, _ c: Int64) -> Double {
        let south = min(a, b, c), north = max(a, b, c)
        let nearestEquator = south > 0 ? south : (north < 0 ? north : 0)
        return cos(Double(nearestEquator) * radiansPerUnit) * metresPerUnit
    }

    /// The distance in metres between two positions, in the plane tangent at the first.
    private func metres(from a: (Int64, Int64), to b: (Int64, Int64)) -> Double {
        let scaleX = cos(Double(a.1) * radiansPerUnit) * metresPerUnit
        let dx = Double(b.0 - a.0) * scaleX, dy = Double(b.1 - a.1) * metresPerUnit
        return (dx * dx + dy * dy).squareRoot()
    }
}
