import Foundation
import GMap

/// Every ring of every feature, quantized, in flat arrays: the builder's working set.
///
/// Vertex `i` is `(xs[i], ys[i])`. Rings are stored closed (last vertex = first) and without
/// repeated consecutive vertices. Edge `i` runs from vertex `i` to `i + 1` and exists when both
/// lie in the same ring.
struct PolygonSet {
    var xs: [Int32] = []
    var ys: [Int32] = []
    /// For each vertex, whether it is the last of its ring (so no edge starts there).
    var isRingEnd: [Bool] = []
    /// For each vertex, the source index of its feature.
    var featureOfVertex: [UInt32] = []
    /// Per feature, in source order.
    var ids: [String] = []
    var properties: [[SourceFeature.KeptProperty]] = []
    var boxes: [TileBounds] = []
    var areas: [Double] = []
    /// Per feature, how many rings it kept (a feature may have none left after quantization).
    var ringCounts: [Int] = []
    var ringCount = 0
    /// Per kept ring, in order, the index of its polygon among its feature's source polygons (so a
    /// feature's rings can be told apart by polygon: outer ring and holes of one polygon share it).
    var ringPolygons: [UInt32] = []

    var featureCount: Int { ids.count }
    var vertexCount: Int { xs.count }

    /// Whether an edge starts at vertex `index`.
    @inline(__always) func hasEdge(at index: Int) -> Bool { !isRingEnd[index] }

    /// Adds a feature. Coordinates must already be checked to lie in [-180, 180] × [-90, 90].
    mutating func append(_ feature: SourceFeature, quantizer: Quantizer) {
        let featureIndex = UInt32(ids.count)
        var box = TileBounds(west: .max, south: .max, east: .min, north: .min)
        var area = 0.0
        let ringsBefore = ringCount
        for (polygonIndex, polygon) in feature.polygons.enumerated() {
            var polygonArea = 0.0
            for (ringIndex, ring) in polygon.enumerated() {
                let start = xs.count
                for position in ring {
                    let x = quantizer.units(position.longitude), y = quantizer.units(position.latitude)
                    if xs.count > start, Int64(xs[xs.count - 1]) == x, Int64(ys[ys.count - 1]) == y { continue }
                    xs.append(Int32(x))
                    ys.append(Int32(y))
                }
                // Close the ring.
                if xs.count > start, xs[start] != xs[xs.count - 1] || ys[start] != ys[ys.count - 1] {
                    xs.append(xs[start])
                    ys.append(ys[start])
                }
                let count = xs.count - start
                if count < 4 {
                    // Fewer than three distinct vertices after quantization: no area, no effect on parity.
                    xs.removeLast(count)
                    ys.removeLast(count)
                    continue
                }
                ringCount += 1
                ringPolygons.append(UInt32(polygonIndex))
                for index in start..<xs.count {
                    let x = Int64(xs[index]), y = Int64(ys[index])
                    box.west = min(box.west, x); box.east = max(box.east, x)
                    box.south = min(box.south, y); box.north = max(box.north, y)
                }
                isRingEnd.append(contentsOf: repeatElement(false, count: count - 1))
                isRingEnd.append(true)
                featureOfVertex.append(contentsOf: repeatElement(featureIndex, count: count))
                let ringArea = abs(SphericalArea.ringArea(xs: xs[start...], ys: ys[start...], quantizer: quantizer))
                polygonArea += ringIndex == 0 ? ringArea : -ringArea
            }
            area += max(0, polygonArea)
        }
        // A feature without rings keeps its id and properties, with an all-zero box and no area;
        // it is never in a tile and never answers.
        if box.west > box.east { box = TileBounds(west: 0, south: 0, east: 0, north: 0) }
        ringCounts.append(ringCount - ringsBefore)
        ids.append(feature.id)
        properties.append(feature.properties)
        boxes.append(box)
        areas.append(area)
    }
}

/// Areas on a sphere, to order overlapping features from the smallest up.
enum SphericalArea {
    /// The radius used, in kilometres (the IUGG mean Earth radius).
    static let radius = 6371.0088

    /// The signed area of a closed ring in square kilometres (positive when counter-clockwise).
    static func ringArea(xs: ArraySlice<Int32>, ys: ArraySlice<Int32>, quantizer: Quantizer) -> Double {
        let toRadians = Double.pi / 180 / Double(quantizer.unitsPerDegree)
        var sum = 0.0
        var index = xs.startIndex
        while index + 1 < xs.endIndex {
            let lon1 = Double(xs[index]) * toRadians, lat1 = Double(ys[index]) * toRadians
            let lon2 = Double(xs[index + 1]) * toRadians, lat2 = Double(ys[index + 1]) * toRadians
            sum += (lon2 - lon1) * (2 + sin(lat1) + sin(lat2))
            index += 1
        }
        return sum * radius * radius / 2
    }
}
