import Foundation
import GMap
import GMapBuilder

/// `gmap export MAP -o OUT.geojson [--layer NAME] [--force] [-q]`: the map's features as GeoJSON.
enum ExportCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let list = try ArgumentList(arguments, options: ["-o", "--output", "--layer"], flags: ["--force", "--quiet", "-q", "--help", "-h"])
        if list.has("--help") || list.has("-h") {
            StandardOutput.shared.write(HelpText.help(for: "export"))
            return ExitCode.success
        }
        guard list.positional.count == 1, let path = list.positional.first else {
            throw CommandFailure(message: "usage: gmap export MAP -o OUT.geojson [--layer NAME] (see 'gmap help export')")
        }
        guard let output = list.value("-o") ?? list.value("--output"), !output.isEmpty else {
            throw CommandFailure(message: "gmap export needs an output file: -o OUT.geojson (- for standard output)")
        }
        if output != "-" { try OutputFile.checkDirectory(of: output) }
        let file = try MapLocation.argument(path).open()
        var map = file
        if let name = list.value("--layer") {
            guard let layer = file.layer(named: name) else {
                throw CommandFailure(message: "\(path) has no layer '\(name)'; its layers are \(file.layerNames.map { "'\($0)'" }.joined(separator: ", "))")
            }
            map = layer
        }
        let export = GeoJSONExport(allowsDamage: list.has("--force"))
        let started = Date()
        let report: ExportReport
        do {
            if output == "-" {
                report = try export.write(map) { StandardOutput.shared.write(bytes: $0) }
                StandardOutput.shared.flush()
            } else {
                var written = ExportReport()
                try OutputFile.write(to: output) { write in written = try export.write(map, to: write) }
                report = written
            }
        } catch let error as ExportError {
            throw CommandFailure(message: "\(path): \(error.description)\(list.has("--force") ? "" : " (--force writes what can be read)")")
        } catch let error as BuildError {
            throw CommandFailure(message: error.description)
        }
        if !(list.has("--quiet") || list.has("-q")) {
            StandardError.write(summary(report, map: map, output: output, seconds: Date().timeIntervalSince(started)))
        }
        return ExitCode.success
    }

    /// What was written, how to build it again, and any warnings.
    static func summary(_ report: ExportReport, map: GMap, output: String, seconds: Double) -> String {
        var lines: [String] = []
        lines.append("wrote \(output == "-" ? "standard output" : output): \(report.byteCount) bytes in \(String(format: "%.2f", seconds)) s")
        var layer = ""
        if map.layerNames.count > 1 {
            layer = "layer \(map.layerName) (\(map.layerIndex + 1) of \(map.layerNames.count); --layer NAME picks another): "
        }
        switch map.geometryKind {
        case .lines?: lines.append("  \(layer)features \(report.featureCount), lines \(report.lineCount), vertices \(report.vertexCount)")
        case .points?: lines.append("  \(layer)features \(report.featureCount), points \(report.pointCount)")
        default: lines.append("  \(layer)features \(report.featureCount), polygons \(report.polygonCount), rings \(report.ringCount), vertices \(report.vertexCount)")
        }
        let file = output == "-" ? "OUT.geojson" : output
        lines.append("  build it again with: gmap build \(file) -o MAP.gmap --keep all --precision \(precisionText(map.quantizer))")
        if report.idPropertiesAdded > 0 {
            lines.append("  \(report.idPropertiesAdded) features were given an \"id\" property holding their id, so that gmap build picks it")
        }
        if let first = report.idsNotReproducible.first {
            lines.append("  warning: \(report.idsNotReproducible.count) features (the first \"\(first)\") keep an \"id\" property that is not their id; "
                + "gmap build would take that as the id (the Feature's \"id\" member holds the map's)")
        }
        if report.valuesWrittenAsStrings > 0 {
            lines.append("  warning: \(report.valuesWrittenAsStrings) property values were not valid JSON of their kind and were written as strings")
        }
        if report.droppedRings > 0 {
            lines.append("  \(report.droppedRings) rings of two edges (a segment and back) were left out; they change no answer")
        }
        for problem in report.problems { lines.append("  warning: damaged map: \(problem)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The `--precision` that gives the map's units: `1e-7` for 10^7 units per degree.
    static func precisionText(_ quantizer: Quantizer) -> String {
        var power: Int64 = 1, exponent = 0
        while power < quantizer.unitsPerDegree {
            power *= 10
            exponent += 1
        }
        if power == quantizer.unitsPerDegree { return exponent == 0 ? "1" : "1e-\(exponent)" }
        return "\(1.0 / Double(quantizer.unitsPerDegree))"
    }
}
