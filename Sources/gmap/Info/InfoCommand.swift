import Foundation
import GMap

/// `gmap info MAP`.
enum InfoCommand: Command {
    static let name = "info"
    static let summary = "what the map holds and how it was built"
    /// It takes no options.
    static let options: [CommandOption] = []

    static func run(_ list: ArgumentList) throws -> Int32 {
        let location = try LeadingMap.alone(list.positional, usage: "usage: gmap info [MAP]").map(MapLocation.argument)
            ?? DefaultMap.location(command: name)
        let map = try location.open()
        StandardOutput.shared.write(report(map, path: location.path))
        return ExitCode.success
    }

    static func report(_ map: GMap, path: String) -> String {
        let q = map.quantizer, g = map.grid
        var out = "\(path)\n"
        out += "format        \(map.formatVersion.major).\(map.formatVersion.minor), \(map.byteCount) bytes\n"
        out += "precision     \(q.unitsPerDegree) units per degree (\(1.0 / Double(q.unitsPerDegree))°), maximum position error \(rounded(q.maximumPositionError * 100)) cm\n"
        for pair in map.metadata where pair.key == "simplify" || pair.key.hasPrefix("simplify ") {
            let layer = pair.key.dropFirst("simplify".count).trimmingCharacters(in: .whitespaces)
            out += "simplified    \(layer.isEmpty ? "" : "layer \(layer): ")\(pair.value)\n"
        }
        out += "features      \(map.featureCount)\n"
        if map.layerNames.count > 1 || map.sections.contains(where: { $0.tag == "LAYR" }) {
            out += "layers        \(map.layerNames.count)\n"
            for layer in map.layers {
                let g = layer.grid
                out += "  \(layer.layerName.isEmpty ? "(unnamed)" : layer.layerName): \(openSummary(layer) ?? "\(layer.featureCount) features"), grid \(g.columns) × \(g.rows) tiles of \(q.degrees(g.tileWidth))°"
                if let compact = layer.compactPoints {
                    let names = layer.lexiconKeyCount.map { ", named: a lexicon of \($0) keys" } ?? (compact.hasNameIndex ? ", name index" : "")
                    out += ", compact points (step \(compact.step) units)\(names)\n"
                } else {
                    out += layer.features.first?.labelPoint != nil ? ", label points, name index\n" : "\n"
                }
            }
        }
        if let index = map.addressIndexInfo {
            out += "address index \(index.streets) streets, \(index.addresses) addresses of layer \(index.layer)"
            out += index.postcodesLayer.map { ", postal codes in layer \($0)\n" } ?? "\n"
        }
        out += "sections\n"
        for section in map.sections {
            out += "  \(section.tag)  offset \(pad(section.offset, 10))  length \(pad(section.length, 10))  crc32 \(hex(section.crc))\n"
        }
        out += "grid          \(g.columns) × \(g.rows) tiles of \(q.degrees(g.tileWidth))° × \(q.degrees(g.tileHeight))°, from (\(q.degrees(g.originY)), \(q.degrees(g.originX)))\n"
        out += "split         \(g.splitFactor) × \(g.splitFactor) parts, \(g.subdirectoryCount) split tiles\(map.formatVersion.major >= 3 ? " (directory nodes)" : ""), depth ≤ \(g.maximumDepth)\n"
        let survey = TileSurvey(of: map)
        out += "tiles         \(survey.emptyTiles) empty, \(survey.coveredTiles) covered, \(survey.recordTiles) with records (leaf tiles)\n"
        let edges = survey.edgesPerTile
        let items = survey.geometry?.itemsName ?? "edges"
        if let records = survey.openRecords {
            out += "geometry      \(survey.geometry?.name ?? "unknown"): \(edges.reduce(0, +)) \(items) stored in all leaf tiles, \(records.count) distinct records of \(records.bytes) bytes\n"
        } else {
            out += "stored edges  \(edges.reduce(0, +)) in all leaf tiles\n"
        }
        if let bytes = survey.bytes {
            out += "tile bytes    directory \(bytes.directory), record heads \(bytes.recordHeads), masks \(bytes.masks), first vertices \(bytes.firstVertices), widths \(bytes.widths)\(bytes.bands > 0 ? ", bands \(bytes.bands)" : ""), deltas \(bytes.deltas)\n"
        }
        out += "\(pad(items + "/tile", 14))p50 \(TileSurvey.percentile(edges, 0.5)), p99 \(TileSurvey.percentile(edges, 0.99)), max \(edges.last ?? 0) (non-empty leaf tiles)\n"
        let features = survey.featuresPerTile
        out += "features/tile p50 \(TileSurvey.percentile(features, 0.5)), p99 \(TileSurvey.percentile(features, 0.99)), max \(features.last ?? 0)\n"
        if survey.unreadableRecords > 0 { out += "WARNING       \(survey.unreadableRecords) tile records could not be read\n" }
        let metadata = map.metadata
        if !metadata.isEmpty {
            out += "build\n"
            for pair in metadata { out += "  \(pair.key): \(pair.value)\n" }
        }
        return out
    }

    /// A layer of lines or points in one phrase: "lines, 12 features, 40 segments in 9 records of 610 bytes"
    /// (segments counted once for each tile they meet); nil for polygons.
    static func openSummary(_ layer: GMap) -> String? {
        guard let kind = layer.geometryKind, !kind.answersContainment else { return nil }
        let survey = TileSurvey(of: layer)
        let records = survey.openRecords ?? (0, 0)
        let items = survey.edgesPerTile.reduce(0, +)
        return "\(kind.name), \(layer.featureCount) features, \(items) \(kind.itemsName) in \(records.count) records of \(records.bytes) bytes"
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(1, width - text.count))
    }

    private static func pad(_ value: UInt64, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }
    private static func hex(_ value: UInt32) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 8 - text.count) + text
    }
    private static func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }
}

extension InfoCommand {
    /// What `gmap help info` prints.
    static let help = """
    gmap info [MAP]

    Prints the map's header, sections (offset, length, CRC-32), feature count, tile grid, tile
    kinds and the edges per tile (p50, p99, max) that bound a lookup's work, and how it was built.
    Both position errors are shown: the precision's (half a quantum diagonally, on the
    "precision" line) and, for a map built with --simplify, the largest distance measured
    between a removed vertex and the simplified border (the "simplified" line).

    """
}
