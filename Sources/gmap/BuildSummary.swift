import GMapBuilder
import GMap

/// The lines of `gmap build`'s summary that depend on the layer's geometry.
enum BuildSummary {
    /// "  features N, rings R, vertices V", or the lines or points of a layer of those.
    static func counts(_ report: BuildReport) -> String {
        var text: String
        switch report.geometry {
        case .polygons: text = "  features \(report.featureCount), rings \(report.ringCount), vertices \(report.vertexCount)"
        case .lines: text = "  lines: features \(report.featureCount), lines \(report.lineCount), vertices \(report.vertexCount)"
        case .points: text = "  points: features \(report.featureCount), points \(report.vertexCount)"
        }
        if report.droppedFeatures > 0 {
            text += " (\(report.droppedFeatures) features left out: nothing of them is left at this --precision)"
        }
        return text
    }

    /// What each tile's count is of: edges, segments or points.
    static func itemName(_ kind: GeometryKind) -> String {
        switch kind {
        case .polygons: return "edges"
        case .lines: return "segments"
        case .points: return "points"
        }
    }

    /// The features skipped because their geometry is not the layer's, and how to build them.
    static func skipped(_ report: BuildReport) -> [String] {
        guard !report.skippedGeometries.isEmpty else { return [] }
        let skipped = report.skippedGeometries.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        let kept: String
        switch report.geometry {
        case .polygons: kept = "Polygon/MultiPolygon"
        case .lines: kept = "LineString/MultiLineString"
        case .points: kept = "Point/MultiPoint"
        }
        var lines = ["  skipped (not \(kept)): \(skipped)"]
        var hints: [String] = []
        let types = Set(report.skippedGeometries.keys)
        if report.geometry != .polygons, !types.isDisjoint(with: ["Polygon", "MultiPolygon"]) { hints.append("the polygons with --geometry polygons") }
        if report.geometry != .lines, !types.isDisjoint(with: ["LineString", "MultiLineString"]) { hints.append("the lines with --geometry lines") }
        if report.geometry != .points, !types.isDisjoint(with: ["Point", "MultiPoint"]) { hints.append("the points with --geometry points") }
        if !hints.isEmpty { lines.append("  build \(hints.joined(separator: ", ")) (into another map, or another --layer)") }
        return lines
    }
}
