import GMapBuilder
import GMap

/// The lines of `gmap build`'s summary that depend on the layer's geometry.
enum BuildSummary {
    /// "  features N, rings R, vertices V", or the lines or points of a layer of those
    /// (``BuildReport/counts``, in the words of the layer's kind).
    static func counts(_ report: BuildReport) -> String {
        var text = "  " + report.counts
        if report.droppedFeatures > 0 {
            text += " (\(report.droppedFeatures) features left out: nothing of them is left at this --precision)"
        }
        return text
    }

    /// The features skipped because their geometry is not the layer's, and how to build them.
    static func skipped(_ report: BuildReport) -> [String] {
        guard !report.skippedGeometries.isEmpty else { return [] }
        let skipped = report.skippedGeometries.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        let kept = report.geometry.geoJSONTypes
        var lines = ["  skipped (not \(kept.single)/\(kept.multiple)): \(skipped)"]
        let types = Set(report.skippedGeometries.keys)
        // How to build the skipped features of each other kind.
        let hints = GeometryKind.allCases.filter { kind in
            kind != report.geometry && !types.isDisjoint(with: [kind.geoJSONTypes.single, kind.geoJSONTypes.multiple])
        }.map { "the \($0.name) with --geometry \($0.name)" }
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
        guard !report.overlappingParts.isEmpty else { return [] }  // polygons only
        return ["  overlapping parts (answered as their union): " + "\(report.overlappingParts.count) features"]
            + overlapDescriptions(report).map { "    " + $0 }
    }

    /// The warning for a format 2 build of features with overlapping polygons, which format 2
    /// answers by the even-odd rule over all rings (the overlaps are outside); nil when there are none.
    static func formatTwoOverlapWarning(_ report: BuildReport, layer: String?) -> String? {
        guard !report.overlappingParts.isEmpty else { return nil }  // polygons only
        let place = layer.map { "layer \($0): " } ?? ""
        return "warning: \(place)\(report.overlappingParts.count) features have overlapping polygons, which format 2 answers by the even-odd rule over all their rings: where two polygons of a feature overlap, the point is outside it (format 3, the default, answers the union): "
            + overlapDescriptions(report).joined(separator: "; ")
    }
}
