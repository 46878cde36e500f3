import Foundation
import GMap

/// Chooses a label point for each feature: a point inside it, away from its edges where that is
/// cheap to find, and never the centroid (which can lie outside a C-shaped country or an archipelago).
///
/// The method: horizontal lines cross the feature's bounding box at 64 evenly spaced latitudes;
/// along each, the even-odd rule over all the feature's rings gives the intervals inside the
/// feature. The eight widest intervals' midpoints are candidates; each is scored by the smaller of
/// its interval's width (shrunk by the cosine of the latitude) and the height of the vertical
/// interval inside the feature through it. The best candidate, moved to the middle of that
/// vertical interval, is the label point; every point chosen is checked with the reader's exact
/// even-odd rule (``EvenOddRule``), and a move that would leave the feature is not made. When no
/// line meets the feature (small islands far apart), the lines cross each ring's own box instead,
/// the largest box first. A feature with no such point (it kept no ring) has none.
struct LabelPoints {
    /// How many horizontal lines cross each feature.
    static let scanLines = 64
    /// How many of the widest intervals are scored.
    static let candidates = 8

    /// Label points by source feature index, in units; nil where the feature has none.
    static func compute(_ polygons: PolygonSet, quantizer: Quantizer) -> [(x: Int32, y: Int32)?] {
        var starts = [Int](repeating: 0, count: polygons.featureCount + 1)
        for feature in polygons.featureOfVertex { starts[Int(feature) + 1] += 1 }
        for index in 0..<polygons.featureCount { starts[index + 1] += starts[index] }
        return (0..<polygons.featureCount).map { feature in
            guard polygons.ringCounts[feature] > 0 else { return nil }
            let vertices = starts[feature]..<starts[feature + 1]
            if let found = point(polygons, vertices: vertices, box: polygons.boxes[feature], quantizer: quantizer) { return found }
            // Small islands spread over a large box can fall between all the lines: scan each
            // ring's own box, the largest first.
            for box in ringBoxes(polygons, vertices: vertices).sorted(by: { $0.width * $0.height > $1.width * $1.height }) {
                if let found = point(polygons, vertices: vertices, box: box, quantizer: quantizer) { return found }
            }
            return nil
        }
    }

    /// The bounding box of each ring among `vertices`.
    private static func ringBoxes(_ polygons: PolygonSet, vertices: Range<Int>) -> [TileBounds] {
        var boxes: [TileBounds] = []
        var box = TileBounds(west: .max, south: .max, east: .min, north: .min)
        for vertex in vertices {
            let x = Int64(polygons.xs[vertex]), y = Int64(polygons.ys[vertex])
            box.west = min(box.west, x); box.east = max(box.east, x)
            box.south = min(box.south, y); box.north = max(box.north, y)
            if !polygons.hasEdge(at: vertex) {
                boxes.append(box)
                box = TileBounds(west: .max, south: .max, east: .min, north: .min)
            }
        }
        return boxes
    }

    private static func point(_ polygons: PolygonSet, vertices: Range<Int>, box: TileBounds, quantizer: Quantizer) -> (x: Int32, y: Int32)? {
        let height = box.north - box.south
        guard height > 0, box.east > box.west else { return nil }
        let count = Int(min(Int64(scanLines), height))
        let lines = (0..<count).map { box.south + (Int64(2 * $0 + 1) * height) / Int64(2 * count) }
        var crossings = [[Double]](repeating: [], count: count)
        let xs = polygons.xs, ys = polygons.ys
        for edge in vertices where polygons.hasEdge(at: edge) {
            let ax = Int64(xs[edge]), ay = Int64(ys[edge]), bx = Int64(xs[edge + 1]), by = Int64(ys[edge + 1])
            let low = min(ay, by), high = max(ay, by)
            // Lines with low <= y < high: (ay > y) != (by > y).
            var line = lowerBound(lines, low)
            while line < count, lines[line] < high {
                let y = lines[line]
                crossings[line].append(Double(ax) + Double(y - ay) * Double(bx - ax) / Double(by - ay))
                line += 1
            }
        }
        var intervals: [(x: Int64, y: Int64, width: Double)] = []
        for (line, var list) in crossings.enumerated() where list.count >= 2 {
            list.sort()
            var index = 0
            while index + 1 < list.count {
                let width = list[index + 1] - list[index]
                if width > 0 { intervals.append((Int64(((list[index] + list[index + 1]) / 2).rounded()), lines[line], width)) }
                index += 2
            }
        }
        intervals.sort { $0.width > $1.width }
        var best: (x: Int64, y: Int64, score: Double)?
        for candidate in intervals.prefix(candidates) where inside(polygons, vertices: vertices, x: candidate.x, y: candidate.y) {
            let latitude = quantizer.degrees(candidate.y) * Double.pi / 180
            let vertical = verticalInterval(polygons, vertices: vertices, x: candidate.x, y: candidate.y)
            let score = min(candidate.width * cos(latitude), vertical.above - vertical.below)
            if let current = best, current.score >= score { continue }
            // Centre the point in its vertical interval too, when that stays inside.
            let middle = ((vertical.below + vertical.above) / 2).rounded()
            if middle.isFinite, inside(polygons, vertices: vertices, x: candidate.x, y: Int64(middle)) {
                best = (candidate.x, Int64(middle), score)
            } else {
                best = (candidate.x, candidate.y, score)
            }
        }
        if best == nil {
            // Very thin features: any inside midpoint will do.
            for candidate in intervals where inside(polygons, vertices: vertices, x: candidate.x, y: candidate.y) {
                best = (candidate.x, candidate.y, 0)
                break
            }
        }
        return best.map { (Int32($0.x), Int32($0.y)) }
    }

    /// The vertical interval inside the feature around `(x, y)`: the nearest crossings below and above.
    private static func verticalInterval(_ polygons: PolygonSet, vertices: Range<Int>, x: Int64, y: Int64) -> (below: Double, above: Double) {
        var below = -Double.infinity, above = Double.infinity
        let point = Double(y)
        for edge in vertices where polygons.hasEdge(at: edge) {
            let ax = Int64(polygons.xs[edge]), ay = Int64(polygons.ys[edge]), bx = Int64(polygons.xs[edge + 1]), by = Int64(polygons.ys[edge + 1])
            guard (ax > x) != (bx > x) else { continue }
            let crossing = Double(ay) + Double(x - ax) * Double(by - ay) / Double(bx - ax)
            if crossing <= point { below = max(below, crossing) } else { above = min(above, crossing) }
        }
        return (below, above)
    }

    /// The reader's even-odd rule over all the feature's rings.
    static func inside(_ polygons: PolygonSet, vertices: Range<Int>, x: Int64, y: Int64) -> Bool {
        var parity = false
        for edge in vertices where polygons.hasEdge(at: edge) {
            if EvenOddRule.crossesEastRay(pointX: x, pointY: y, ax: Int64(polygons.xs[edge]), ay: Int64(polygons.ys[edge]),
                                          bx: Int64(polygons.xs[edge + 1]), by: Int64(polygons.ys[edge + 1])) {
                parity.toggle()
            }
        }
        return parity
    }

    private static func lowerBound(_ values: [Int64], _ value: Int64) -> Int {
        var low = 0, high = values.count
        while low < high {
            let middle = (low + high) / 2
            if values[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
