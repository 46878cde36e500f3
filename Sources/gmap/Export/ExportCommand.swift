import Foundation
import GMap
import GMapBuilder

/// `gmap export MAP -o OUT.geojson [--layer NAME] [--force] [-q]`: the map's features as GeoJSON.
enum ExportCommand: Command {
    static let name = "export"
    static let summary = "the map's features back as GeoJSON"
    /// Its options, in the order of its help.
    static let options: [CommandOption] = [
        .output.documented("""
            the GeoJSON file to write (required; - for standard output). It is
            written to a temporary file and renamed into place.
            """),
        .layer.documented("the layer to export (default: the first)"),
        Option.force, .quiet,
    ]

    /// The options only export takes.
    enum Option {
        /// `--force`: a damaged map exported as far as it can be read.
        static let force = CommandOption.flag("--force", help: "export a damaged map as far as it can be read, with warnings")
    }

    static func run(_ list: ArgumentList) throws -> Int32 {
        guard list.positional.count == 1, let path = list.positional.first else {
            throw CommandFailure(message: "usage: gmap export MAP -o OUT.geojson [--layer NAME] (see 'gmap help export')")
        }
        guard let asked = list.value(.output), !asked.isEmpty else {
            throw CommandFailure(message: "gmap export needs an output file: -o OUT.geojson (- for standard output)")
        }
        let output = asked == "-" ? asked : try OutputFile.prepare(asked, inputs: [path])
        let file = try MapLocation.argument(path).open()
        var map = file
        if let name = list.value(.layer) {
            guard let layer = file.layer(named: name) else {
                throw CommandFailure(message: "\(path) has no layer '\(name)'; its layers are \(file.layerNames.map { "'\($0)'" }.joined(separator: ", "))")
            }
            map = layer
        }
        let export = GeoJSONExport(allowsDamage: list.has(Option.force))
        let started = Date()
        let report: ExportReport
        do {
            if output == "-" {
                report = try export.write(map) { StandardOutput.shared.write(bytes: $0) }
                StandardOutput.shared.flush()
                // Nothing is said to be written that did not reach standard output (main reports the error, exit 2).
                if StandardOutput.shared.failure != nil { return ExitCode.usage }
            } else {
                var written = ExportReport()
                try OutputFile.write(to: output) { write in written = try export.write(map, to: write) }
                report = written
            }
        } catch let error as ExportError {
            throw CommandFailure(message: "\(path): \(error.description)\(list.has(Option.force) ? "" : " (--force writes what can be read)")")
        } catch let error as BuildError {
            throw CommandFailure(message: error.description)
        }
        if !list.has(.quiet) {
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
        lines.append("  \(layer)\(report.counts(of: map.geometryKind))")
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

extension ExportCommand {
    /// What `gmap help export` prints.
    static let help = """
    gmap export MAP -o OUT.geojson [--layer NAME] [--force] [-q]

    Writes the map's features back as a GeoJSON FeatureCollection, one feature per line, in the
    map's order (smallest area first), so that a map can be inspected in any GIS tool and diffed.
    The map keeps no rings, only each feature's edges in the tiles they touch: the export reads
    every edge once, chains the edges into rings (the source's rings where the tiles say how they
    continue), and groups the rings into polygons. A ring inside an odd number of the feature's
    other rings is a hole of the smallest ring around it; outer rings are written
    counter-clockwise and holes clockwise (RFC 7946). Coordinates are the quantized ones,
    written exactly (at 1e-7°: -5.3583868, 36.11, 180).

    Each Feature has its id as its "id" member and the kept properties with their JSON kinds. When
    gmap build's automatic id choice (\(BuildOptions.automaticIdProperties.joined(separator: ", ")),
    then the "id" member) would pick another value, an "id" property holding the id is added first,
    so "gmap build OUT.geojson --keep all" at the map's precision gives a map with the same
    features that answers every point the same, and exporting that map gives the same bytes
    again. (A feature whose own rings overlap, such as the same ring twice, can get another area
    and so another place among the features it overlaps; the export of the rebuilt map is then
    the fixed point.) Rings that run along one segment and back, which change no answer, are
    left out. The summary on stderr gives the build command.

    A map of several layers exports one layer (the first unless --layer says which); export each
    layer to its own file and build them again with --layer NAME=FILE. A layer of lines exports
    as LineString (MultiLineString) features, each line as built; a layer of points as Point
    (MultiPoint) features.

    The map's CRC-32s are checked first, and every tile is read: a damaged map stops the export
    with the problems found (exit 2) and leaves OUT as it was.

    OPTIONS
    \(OptionTable.lines(options, column: 22))

    EXAMPLES
      gmap export world.gmap -o world.geojson
      gmap export layers.gmap -o tz.geojson --layer timezone
      gmap export world.gmap -o - | head -c 300

    """
}
