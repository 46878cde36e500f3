import GMap
import GMapBuilder
import GMapCodecs

/// The brute-force reference: the even-odd ray test over the quantized rings of each polygon, and
/// the union over a feature's polygons (format 3, Spec/FORMAT.md 10.2), or with `union` false the
/// even-odd test over every ring of the feature together (format 2), written independently of the
/// library's tile code. Lookups must agree with it exactly.
package struct BruteForceOracle {
    /// One feature's rings, quantized: flat vertex arrays and ring boundaries.
    package struct Shape {
        package var id: String
        package var xs: [Int64] = []
        package var ys: [Int64] = []
        package var ringEnds: [Int] = []
        /// Per vertex, the index of its polygon in the feature (the parity unit under `union`).
        package var polygonOfVertex: [Int32] = []
        package var polygonCount = 0
        /// The vertex after each vertex in its ring (rings close implicitly).
        package var nextOf: [Int32] = []
        package var west = Int64.max, south = Int64.max, east = Int64.min, north = Int64.min
        /// Row buckets: for band b, the edges (start vertex) whose y-range meets the band.
        package var bandEdges: [[Int32]] = []
        package var bandSouth: Int64 = 0
        package var bandHeight: Int64 = 1
    }

    package var shapes: [Shape] = []
    package let quantizer: Quantizer
    /// True: a feature contains a point when one of its polygons does (even-odd within the polygon).
    package let union: Bool

    /// With `edgesPerBand`, each feature's edges are also indexed by latitude band (about that many
    /// vertices per band): a point then sums the ray test over only the edges whose latitude range
    /// meets its band. An edge outside that range never straddles the point's latitude, so the sum is
    /// the same as over all edges; the index only saves time on the large datasets.
    package init(features: [SourceFeature], quantizer: Quantizer = .standard, edgesPerBand: Int? = nil, union: Bool = true) {
        self.quantizer = quantizer
        self.union = union
        for feature in features {
            var shape = Shape(id: feature.id)
            shape.polygonCount = feature.polygons.count
            for (polygonIndex, polygon) in feature.polygons.enumerated() {
                for ring in polygon where !ring.isEmpty {
                    for position in ring {
                        shape.polygonOfVertex.append(Int32(polygonIndex))
                        let x = quantizer.units(position.longitude), y = quantizer.units(position.latitude)
                        shape.xs.append(x); shape.ys.append(y)
                        shape.west = min(shape.west, x); shape.east = max(shape.east, x)
                        shape.south = min(shape.south, y); shape.north = max(shape.north, y)
                    }
                    let start = shape.ringEnds.last ?? 0
                    for i in start..<shape.xs.count { shape.nextOf.append(Int32(i + 1 < shape.xs.count ? i + 1 : start)) }
                    shape.ringEnds.append(shape.xs.count)
                }
            }
            let bands = edgesPerBand.map { max(1, shape.xs.count / $0) } ?? 1
            if bands > 1, shape.north > shape.south {
                // Index edges by latitude band: an edge can only count for points whose y lies in its y-range,
                // so skipping edges outside the point's band changes no sum.
                shape.bandSouth = shape.south
                shape.bandHeight = max(1, (shape.north - shape.south) / Int64(bands) + 1)
                shape.bandEdges = Array(repeating: [], count: bands)
                var start = 0
                for end in shape.ringEnds {
                    for i in start..<end {
                        let j = i + 1 < end ? i + 1 : start
                        let low = min(shape.ys[i], shape.ys[j]), high = max(shape.ys[i], shape.ys[j])
                        let first = Int((low - shape.bandSouth) / shape.bandHeight)
                        let last = min(bands - 1, Int((high - shape.bandSouth) / shape.bandHeight))
                        for band in first...last { shape.bandEdges[band].append(Int32(i)) }
                    }
                    start = end
                }
            }
            shapes.append(shape)
        }
    }

    /// The ids of every feature containing the (normalised) point, in feature order: the point is
    /// `x + fractionX / 2^24`, `y + fractionY / 2^24` units, as ``Quantizer/queryPoint(latitude:longitude:)`` gives it.
    package func containing(_ point: GridPoint) -> [Int] {
        let px = point.x, py = point.y
        var result: [Int] = []
        for (index, shape) in shapes.enumerated() {
            guard px >= shape.west, px <= shape.east, py >= shape.south, py <= shape.north else { continue }
            if union && shape.polygonCount > 1 ? Self.insideSomePolygon(shape, point) : Self.inside(shape, point) { result.append(index) }
        }
        return result
    }

    /// The ids of every feature containing the whole-unit point `(x, y)`, in feature order.
    package func containing(x: Int64, y: Int64) -> [Int] {
        containing(GridPoint(x: x, y: y))
    }

    private static func edgeCounts(_ shape: Shape, _ i: Int, _ j: Int, _ point: GridPoint) -> Bool {
        let xi = shape.xs[i], yi = shape.ys[i], xj = shape.xs[j], yj = shape.ys[j]
        let py = point.y
        // Classic PNPOLY at the exact point p' = (px + fx/S, py + fy/S), S = 2^24:
        // (yi > py') != (yj > py') && px' < (xj - xi) * (py' - yi) / (yj - yi) + xi, exactly.
        // For integer yi, yi > py + fy/S exactly when yi > py.
        guard (yi > py) != (yj > py) else { return false }
        let scale = GridPoint.fractionScale
        let fineX = point.x * scale + point.fractionX, fineY = point.y * scale + point.fractionY
        // Both sides times S, compared as exact 128-bit products.
        let numerator = (xj - xi).multipliedFullWidth(by: fineY - yi * scale)
        let scaled = (fineX - xi * scale).multipliedFullWidth(by: yj - yi)
        let less = scaled.high != numerator.high ? scaled.high < numerator.high : scaled.low < numerator.low
        let equal = scaled.high == numerator.high && scaled.low == numerator.low
        return yj > yi ? less : !less && !equal
    }

    /// The union rule: the parity of each polygon on its own, and any odd one.
    private static func insideSomePolygon(_ shape: Shape, _ point: GridPoint) -> Bool {
        var odd = [Bool](repeating: false, count: shape.polygonCount)
        if shape.bandEdges.isEmpty {
            var start = 0
            for end in shape.ringEnds {
                var j = end - 1
                for i in start..<end {
                    if edgeCounts(shape, j, i, point) { odd[Int(shape.polygonOfVertex[i])].toggle() }
                    j = i
                }
                start = end
            }
        } else {
            let band = Int((point.y - shape.bandSouth) / shape.bandHeight)
            guard band >= 0, band < shape.bandEdges.count else { return false }
            for edge in shape.bandEdges[band] {
                let i = Int(edge)
                if edgeCounts(shape, i, Int(shape.nextOf[i]), point) { odd[Int(shape.polygonOfVertex[i])].toggle() }
            }
        }
        return odd.contains(true)
    }

    private static func inside(_ shape: Shape, _ point: GridPoint) -> Bool {
        let py = point.y
        var odd = false
        if shape.bandEdges.isEmpty {
            var start = 0
            for end in shape.ringEnds {
                var j = end - 1
                for i in start..<end {
                    if edgeCounts(shape, j, i, point) { odd.toggle() }
                    j = i
                }
                start = end
            }
        } else {
            let band = Int((py - shape.bandSouth) / shape.bandHeight)
            guard band >= 0, band < shape.bandEdges.count else { return false }
            for edge in shape.bandEdges[band] {
                let i = Int(edge)
                if edgeCounts(shape, i, Int(shape.nextOf[i]), point) { odd.toggle() }
            }
        }
        return odd
    }
}
