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
            if report.compactPoints { text += ", compact (step \(report.pointStep) units)" }
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

    /// The most features the overlap line lists one by one.
    static let listedOverlaps = 10

    /// "PS: 3 of 43 polygons overlap another part of the feature", one per feature whose polygons
    /// overlap (at most ``listedOverlaps``, then how many more).
    static func overlapDescriptions(_ report: BuildReport) -> [String] {
        var lines = report.overlappingParts.prefix(listedOverlaps).map {
            "\($0.id): \($0.overlapping) of \($0.polygons) polygons overlap another part of the feature"
        }
        if report.overlappingParts.count > listedOverlaps {
            lines.append("… and \(report.overlappingParts.count - listedOverlaps) more features")
        }
        return lines
    }

    /// The summary's lines about features with overlapping polygons (format 3: answered as the
    /// union of the polygons, through parity groups).
    static func overlaps(_ report: BuildReport) -> [String] {
        guard report.geometry == .polygons, !report.overlappingParts.isEmpty else { return [] }
        return ["  overlapping parts (answered as their union): " + "\(report.overlappingParts.count) features"]
            + overlapDescriptions(report).map { "    " + $0 }
    }

    /// The warning for a format 2 build of features with overlapping polygons, which format 2
    /// answers by the even-odd rule over all rings (the overlaps are outside); nil when there are none.
    static func formatTwoOverlapWarning(_ report: BuildReport, layer: String?) -> String? {
        guard report.geometry == .polygons, !report.overlappingParts.isEmpty else { return nil }
        let place = layer.map { "layer \($0): " } ?? ""
        return "warning: \(place)\(report.overlappingParts.count) features have overlapping polygons, which format 2 answers by the even-odd rule over all their rings: where two polygons of a feature overlap, the point is outside it (format 3, the default, answers the union): "
            + overlapDescriptions(report).joined(separator: "; ")
    }
}
