import GMapCodecs
import GMap

/// The quantized features of a layer of lines or points, in the order they were added (which is
/// their order in the file: lines and points have no area to sort by).
///
/// Lines: every vertex of every kept line, feature after feature; `continues[i]` says that a
/// segment runs from vertex `i` to `i + 1` (false at a line's last vertex). Points: one vertex per
/// point, `continues` all false.
struct OpenGeometrySet {
    let kind: GeometryKind
    var ids: [String] = []
    var properties: [[SourceFeature.KeptProperty]] = []
    /// Per feature, its other names (points only; empty for most).
    var otherNames: [[String]] = []
    var boxes: [TileBounds] = []
    /// Per feature, a point on it for `LABL`: the middle vertex of its first line, or its first point.
    var labels: [(x: Int64, y: Int64)] = []
    var xs: [Int64] = [], ys: [Int64] = []
    var featureOfVertex: [UInt32] = []
    var continues: [Bool] = []
    /// Features and lines dropped because nothing of them was left after quantization.
    var droppedFeatures = 0, droppedLines = 0
    /// Lines left out because the feature already has the same line (either way round).
    var repeatedLines = 0

    var featureCount: Int { ids.count }
    var vertexCount: Int { xs.count }
    /// Segments (lines) or points.
    var itemCount: Int { kind.joinsVertices ? continues.reduce(0) { $0 + ($1 ? 1 : 0) } : xs.count }

    init(kind: GeometryKind) {
        self.kind = kind
    }

    /// Checks every position, then adds the feature's kept parts; a feature with none is dropped.
    mutating func append(id: String, properties: [SourceFeature.KeptProperty],
                         parts: [[(longitude: Double, latitude: Double)]], quantizer: Quantizer, otherNames: [String] = []) throws {
        for (partIndex, part) in parts.enumerated() {
            for position in part where !Quantizer.isValid(latitude: position.latitude, longitude: position.longitude) {
                let what = kind.joinsVertices ? "line \(partIndex)" : "point \(partIndex)"
                throw BuildError("feature \(featureCount + droppedFeatures) (\(InputExcerpt.text(id))): \(what) has the position [\(position.longitude), \(position.latitude)] outside [-180, 180] × [-90, 90]")
            }
        }
        guard featureCount < Int(TileEntry.maximumPayload) else { throw BuildError("too many features") }
        let feature = UInt32(featureCount)
        var box = TileBounds(west: .max, south: .max, east: .min, north: .min)
        var label: (x: Int64, y: Int64)?
        var seenPoints = Set<Int64>()
        // Lines of the feature already kept, either way round: a copy adds no answer, and copies
        // through one point cannot be split apart (100,000 ways over the same nodes).
        var seenLines = Set<[Int64]>()
        for part in parts {
            var vertices: [(x: Int64, y: Int64)] = []
            for position in part {
                let vertex = (x: quantizer.units(position.longitude), y: quantizer.units(position.latitude))
                if !kind.joinsVertices {
                    // One stored point per distinct position of the feature.
                    guard seenPoints.insert(vertex.x &* 4_000_000_000 &+ vertex.y).inserted else { continue }
                } else if let last = vertices.last, last == vertex {
                    continue
                }
                vertices.append(vertex)
            }
            if kind.joinsVertices, vertices.count < 2 {
                droppedLines += 1
                continue
            }
            if kind.joinsVertices {
                let forward = vertices.map { $0.x &* 4_000_000_000 &+ $0.y }, backward = Array(forward.reversed())
                guard seenLines.insert(backward.lexicographicallyPrecedes(forward) ? backward : forward).inserted else {
                    repeatedLines += 1
                    continue
                }
            }
            label = label ?? vertices[kind.joinsVertices ? vertices.count / 2 : 0]
            for (index, vertex) in vertices.enumerated() {
                xs.append(vertex.x)
                ys.append(vertex.y)
                featureOfVertex.append(feature)
                continues.append(kind.joinsVertices && index < vertices.count - 1)
                box.west = min(box.west, vertex.x); box.east = max(box.east, vertex.x)
                box.south = min(box.south, vertex.y); box.north = max(box.north, vertex.y)
            }
        }
        guard let label else {
            droppedFeatures += 1
            return
        }
        ids.append(id)
        self.properties.append(properties)
        self.otherNames.append(otherNames)
        boxes.append(box)
        labels.append(label)
        guard vertexCount < Int(UInt32.max) else { throw BuildError("more than 4 billion vertices") }
    }

    /// The union of the features' boxes.
    var extent: TileBounds {
        boxes.reduce(TileBounds(west: .max, south: .max, east: .min, north: .min)) { extent, box in
            TileBounds(west: min(extent.west, box.west), south: min(extent.south, box.south),
                       east: max(extent.east, box.east), north: max(extent.north, box.north))
        }
    }
}
