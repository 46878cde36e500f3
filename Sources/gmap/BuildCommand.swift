import Foundation
import GMap
import GMapBuilder
import GMapCodecs

/// `gmap build INPUT -o OUTPUT [options]`.
enum BuildCommand: Command {
    static let name = "build"
    static let summary = "a map from GeoJSON, shapefiles, ZIP or an OpenStreetMap extract"
    static let options: Set<String> = ["-o", "--output", "--id", "--keep", "--precision", "--tile-size", "--max-edges", "--split", "--max-depth", "--layer", "--format", "--simplify", "--top", "--osm", "--geometry", "--meta", "--profile", "--languages", "--max-nodes", "--max-string", "--max-number", "--max-properties", "--compact-points"]
    static let flags: Set<String> = ["--quiet", "-q", "--coast-buffer", "--paths"]

    static func run(_ list: ArgumentList) throws -> Int32 {
        if list.value("--osm") != nil { return try OSMBuild.run(list) }
        if list.has("--paths") { throw CommandFailure(message: "--paths only applies with --osm FILE.osm.pbf (footways, cycleways, paths and steps as roads)") }
        if list.value("--profile") != nil { throw CommandFailure(message: "--profile only applies with --osm FILE.osm.pbf (which roads a location map keeps)") }
        if list.value("--languages") != nil { throw CommandFailure(message: "--languages only applies with --osm FILE.osm.pbf (the names in other languages a location map keeps)") }
        if list.value("--max-nodes") != nil { throw CommandFailure(message: "--max-nodes only applies with --osm FILE.osm.pbf (the most nodes an extract may have)") }
        let layers = try list.values("--layer").map(LayerArgument.parse)
        guard layers.isEmpty ? list.positional.count == 1 : list.positional.isEmpty else {
            throw CommandFailure(message: layers.isEmpty
                ? "usage: gmap build INPUT -o OUTPUT.gmap (see 'gmap help build')"
                : "with --layer, give every input as --layer NAME=PATH[:IDPROP], not as '\(list.positional[0])'")
        }
        guard let asked = list.value("-o") ?? list.value("--output") else {
            throw CommandFailure(message: "gmap build needs an output file: -o OUTPUT.gmap")
        }
        if layers.isEmpty, list.positional[0].lowercased().hasSuffix(".pbf") {
            throw CommandFailure(message: "\(list.positional[0]) is an OpenStreetMap PBF extract: build a location map of it with gmap build --osm \(Shell.quote(list.positional[0])) -o \(Shell.quote(asked))")
        }
        let options = try parseOptions(list)
        let layerSimplifications = try self.layerSimplifications(list, layers: layers)
        let metadata = try list.values("--meta").map { text -> (String, String) in
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
                throw CommandFailure(message: "--meta '\(text)' must be KEY=VALUE (such as attribution=…)")
            }
            return (String(text[..<equals]), String(text[text.index(after: equals)...]))
        }
        let geometry = try geometryChoice(list)
        let inputs = layers.isEmpty ? [LayerArgument(name: LayeredMapBuilder.defaultLayerName, path: list.positional[0], idProperty: nil)] : layers
        let compactLayers = try compactPointLayers(list, inputs: inputs, layered: !layers.isEmpty)
        let output = try OutputFile.prepare(asked, inputs: inputs.map(\.path))
        do {
            try options.validate()
        } catch let error as BuildError {
            guard case .outOfRange(let setting, _, _)? = error.reason else { throw CommandFailure(message: error.description) }
            throw CommandFailure(message: "\(flag(for: setting)): \(error.description)")
        }
        let started = Date()
        var map = LayeredMapBuilder()
        let result: (bytes: [UInt8], reports: [BuildReport])
        do {
            for (position, input) in inputs.enumerated() {
                var layerOptions = options
                if let id = input.idProperty { layerOptions.idProperty = id }
                if let simplification = layerSimplifications[input.name] { layerOptions.simplification = simplification }
                var builder = try InputLayerBuilder(options: layerOptions, choice: geometry)
                builder.compactPoints = compactLayers.contains(input.name)
                if position == 0 {
                    builder.addMetadata(key: "generator", value: "gmap \(HelpText.version)")
                    builder.addMetadata(key: "source", value: inputs.map { sourceName($0, layered: !layers.isEmpty) }.joined(separator: ", "))
                    builder.addMetadata(key: "id", value: layers.isEmpty
                        ? options.idProperty ?? "automatic (\(BuildOptions.automaticIdProperties.joined(separator: ", ")))"
                        : inputs.map { "\($0.name)=\($0.idProperty ?? options.idProperty ?? "automatic")" }.joined(separator: ", "))
                    builder.addMetadata(key: "keep", value: options.keptProperties?.joined(separator: ",") ?? "all")
                    for (key, value) in metadata { builder.addMetadata(key: key, value: value) }
                }
                try read(input.path, into: &builder)
                try map.addLayer(named: input.name, builder)
            }
            result = try map.finish()
        } catch let error as BuildError {
            throw CommandFailure(message: layers.isEmpty ? "\(inputs[0].path): \(error.description)" : error.description)
        } catch let error as FileReadError {
            throw CommandFailure(message: error.description)
        }
        try OutputFile.write(result.bytes, to: output)
        for warning in positionIdWarnings(inputs: inputs, options: options, bytes: result.bytes, layered: !layers.isEmpty) {
            StandardError.write("gmap: \(warning)\n")
        }
        if options.formatMajorVersion < 3 {
            for (input, report) in zip(inputs, result.reports) {
                if let warning = BuildSummary.formatTwoOverlapWarning(report, layer: layers.isEmpty ? nil : input.name) {
                    StandardError.write("gmap: \(warning)\n")
                }
            }
        }
        if !(list.has("--quiet") || list.has("-q")) {
            let seconds = Date().timeIntervalSince(started)
            if layers.isEmpty {
                StandardError.write(summary(result.reports[0], output: output, seconds: seconds, quantizer: options.quantizer))
            } else {
                var text = "wrote \(output): \(result.bytes.count) bytes in \(String(format: "%.2f", seconds)) s, \(inputs.count) layers\n"
                for (input, report) in zip(inputs, result.reports) {
                    text += "layer \(input.name):\n" + summary(report, output: output, seconds: seconds, quantizer: options.quantizer)
                        .split(separator: "\n").dropFirst().map { $0 + "\n" }.joined()
                }
                StandardError.write(text)
            }
        }
        return ExitCode.success
    }

    private static func sourceName(_ input: LayerArgument, layered: Bool) -> String {
        let file = input.path == "-" ? "standard input" : (input.path as NSString).lastPathComponent
        return layered ? "\(input.name)=\(file)" : file
    }

    /// Reads one input into `builder`, turning reader errors into messages that name the file.
    private static func read(_ input: String, into builder: inout InputLayerBuilder) throws {
        do {
            try MapInput.read(path: input, into: &builder)
        } catch let error as GeoJSONError {
            throw CommandFailure(message: "\(input): \(error.description)")
        } catch let error as BuildError {
            var note = ""
            if let property = builder.options.idProperty, error.description.contains("has no property \"\(property)\" for its id") {
                note = InputSurvey.missingIdNote(path: input, property: property)
            }
            throw CommandFailure(message: "\(input): \(error.description)\(note)")
        } catch let error as ShapefileError {
            throw CommandFailure(message: error.description)  // names the file (a .dbf beside, a ZIP entry)
        } catch let error as ZipError {
            throw CommandFailure(message: error.description)
        } catch let error as GzipError {
            throw CommandFailure(message: "\(input): \(error.description)")  // found after a parse error: its cause
        }
    }

    /// Warnings for the layers whose ids are the features' positions because no feature has an
    /// automatic id property (only layers built without --id or an IDPROP).
    private static func positionIdWarnings(inputs: [LayerArgument], options: BuildOptions, bytes: [UInt8], layered: Bool) -> [String] {
        guard let map = try? GMap(bytes: bytes) else { return [] }
        let layers = map.layers
        var warnings: [String] = []
        for (position, input) in inputs.enumerated() where (input.idProperty ?? options.idProperty) == nil && position < layers.count {
            let label = layered ? "layer \(input.name) (\(input.path))" : input.path
            let choose = layered ? "--layer \(Shell.quote("\(input.name)=\(input.path):PROPERTY"))" : "--id PROPERTY"
            if let warning = InputSurvey.positionIdWarning(path: input.path, layer: layers[position], label: label, choose: choose) {
                warnings.append(warning)
            }
        }
        return warnings
    }

    /// `--geometry polygons|lines|points|auto`: which features of the inputs to build.
    static func geometryChoice(_ list: ArgumentList) throws -> GeometryChoice {
        guard let text = list.value("--geometry") else { return .automatic }
        guard let choice = text == "auto" ? .automatic : GeometryChoice(rawValue: text) else {
            throw CommandFailure(message: "--geometry '\(text)' must be \(GeometryKind.allCases.map(\.name).joined(separator: ", ")) or auto (the default)")
        }
        return choice
    }

    /// The flag that sets a tiling setting: the one place the command line names them.
    static func flag(for setting: BuildOptions.Setting) -> String {
        switch setting {
        case .splitFactor: "--split"
        case .maximumDepth: "--max-depth"
        case .maximumEdgesPerTile: "--max-edges"
        case .tileSize: "--tile-size"
        }
    }

    static func parseOptions(_ list: ArgumentList) throws -> BuildOptions {
        var options = BuildOptions()
        if let id = list.value("--id") {
            guard !id.isEmpty else { throw CommandFailure(message: "--id needs a property name") }
            options.idProperty = id
        }
        if let keep = list.value("--keep") {
            switch keep {
            case "all", "*": options.keptProperties = nil
            case "none", "": options.keptProperties = []
            default: options.keptProperties = keep.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
            }
        }
        if let text = list.value("--precision") {
            guard let degrees = Double(text), degrees > 0, degrees.isFinite else {
                throw CommandFailure(message: "--precision '\(text)' is not a positive number of degrees (for example 1e-7)")
            }
            let units = (1 / degrees).rounded()
            guard abs(units * degrees - 1) < 1e-9, let quantizer = Quantizer(unitsPerDegree: Int64(units)) else {
                throw CommandFailure(message: "--precision must be 1/N degrees for a whole N from 1 to 10000000 (1e-7, 1e-6, 0.00001, …), not \(text)")
            }
            options.quantizer = quantizer
        }
        if let text = list.value("--tile-size") {
            guard let degrees = Double(text), degrees > 0, degrees <= Double(BuildOptions.largestTileDegrees) else {
                throw CommandFailure(message: "--tile-size '\(text)' must be a number of degrees above 0 and at most \(BuildOptions.largestTileDegrees)")
            }
            options.tileSize = max(1, Int64((degrees * Double(options.quantizer.unitsPerDegree)).rounded()))
        }
        switch list.value("--format") {
        case nil, "3", "3.0":
            options.formatMajorVersion = 3
            options.writesLayerIndexes = true
        case "2.1", "2.0":
            options.formatMajorVersion = 2
            options.writesLayerIndexes = list.value("--format") == "2.1"
            let tiling = BuildOptions.formatTwoTiling
            (options.maximumEdgesPerTile, options.splitFactor, options.maximumDepth) = (tiling.maximumEdgesPerTile, tiling.splitFactor, tiling.maximumDepth)
        case let other?:
            throw CommandFailure(message: "--format '\(other)' must be 3 (the default), 2.1 (for gmap 1.1 readers) or 2.0 (also no layers, label points or name index)")
        }
        switch list.value("--top") {
        case nil, "auto": options.topDirectory = .automatic
        case "entries": options.topDirectory = .entries
        case "packed":
            guard options.formatMajorVersion >= 3 else {
                throw CommandFailure(message: "--top packed needs format 3: format 2 stores one UInt32 entry per top-level tile")
            }
            options.topDirectory = .packed
        case let other?:
            throw CommandFailure(message: "--top '\(other)' must be entries, packed or auto (the default)")
        }
        options.maximumEdgesPerTile = try integer(list, "--max-edges", default: options.maximumEdgesPerTile, range: 1...100_000)
        options.splitFactor = try integer(list, flag(for: .splitFactor), default: options.splitFactor, range: BuildOptions.splitFactorRange)
        options.maximumDepth = try integer(list, flag(for: .maximumDepth), default: options.maximumDepth, range: BuildOptions.maximumDepthRange)
        options.inputLimits.stringBytes = try SizeOption.bytes(list, "--max-string", default: options.inputLimits.stringBytes)
        options.inputLimits.numberBytes = try SizeOption.bytes(list, "--max-number", default: options.inputLimits.numberBytes)
        options.inputLimits.propertyBytes = try SizeOption.bytes(list, "--max-properties", default: options.inputLimits.propertyBytes)
        let distances = list.values("--simplify").filter { !$0.contains("=") }
        guard distances.count <= 1 else {
            throw CommandFailure(message: "--simplify DIST is given \(distances.count) times; give it once, or once per layer as --simplify LAYER=DIST")
        }
        if let text = distances.first {
            options.simplification = try simplification(text, list)
        } else if list.has("--coast-buffer"), !list.values("--simplify").contains(where: { $0.contains("=") }) {
            throw CommandFailure(message: "--coast-buffer only applies with --simplify DISTANCE")
        }
        return options
    }

    /// The layers `--compact-points LIST` names (`all`: every input; a single input is named `all`
    /// or `default`). A layer that turns out not to be of points is built as it would be without.
    private static func compactPointLayers(_ list: ArgumentList, inputs: [LayerArgument], layered: Bool) throws -> Set<String> {
        guard let text = list.value("--compact-points") else { return [] }
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        if names == ["all"] { return Set(inputs.map(\.name)) }
        var chosen = Set<String>()
        for name in names {
            guard let input = inputs.first(where: { $0.name == name }) else {
                throw CommandFailure(message: layered
                    ? "--compact-points: no --layer is named '\(name)' (layers: \(inputs.map(\.name).joined(separator: ", ")); or all)"
                    : "--compact-points '\(text)' must be all (or default) when the build has no --layer")
            }
            chosen.insert(input.name)
        }
        return chosen
    }

    /// The simplification for `--simplify DIST`.
    private static func simplification(_ text: String, _ list: ArgumentList) throws -> Simplification {
        guard let metres = Simplification.metres(from: text) else {
            throw CommandFailure(message: "--simplify '\(text)' must be a distance above 0 and at most 1000 km, such as 100m, 1km or 2.5km")
        }
        return Simplification(toleranceMetres: metres, buffersCoasts: list.has("--coast-buffer"))
    }

    /// `--simplify LAYER=DIST` (repeatable): one layer's simplification, which replaces a plain
    /// `--simplify DIST` for that layer. Every LAYER must name a `--layer`.
    private static func layerSimplifications(_ list: ArgumentList, layers: [LayerArgument]) throws -> [String: Simplification] {
        var result: [String: Simplification] = [:]
        for text in list.values("--simplify") {
            guard let equals = text.firstIndex(of: "=") else { continue }
            let name = String(text[..<equals]), distance = String(text[text.index(after: equals)...])
            guard layers.contains(where: { $0.name == name }) else {
                throw CommandFailure(message: layers.isEmpty
                    ? "--simplify \(text) names a layer, but this build has no --layer; use --simplify \(distance)"
                    : "--simplify \(text): no --layer is named '\(name)' (layers: \(layers.map(\.name).joined(separator: ", ")))")
            }
            guard result[name] == nil else { throw CommandFailure(message: "--simplify is given twice for layer '\(name)'") }
            result[name] = try simplification(distance, list)
        }
        return result
    }

    private static func integer(_ list: ArgumentList, _ name: String, default value: Int, range: ClosedRange<Int>) throws -> Int {
        guard let text = list.value(name) else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw CommandFailure(message: "\(name) '\(text)' must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    private static func summary(_ report: BuildReport, output: String, seconds: Double, quantizer: Quantizer) -> String {
        var lines: [String] = []
        lines.append("wrote \(output): \(report.byteCount) bytes in \(String(format: "%.2f", seconds)) s")
        lines.append(BuildSummary.counts(report))
        lines.append("  maximum position error: quantization \(SimplificationReport.format(quantizer.maximumPositionError))"
            + (report.simplification.map { ", simplification \(SimplificationReport.format($0.maximumErrorMetres))" } ?? ""))
        if let simplification = report.simplification { lines.append("  simplified: \(simplification.summary)") }
        lines += BuildSummary.skipped(report)
        if report.tileBytes != nil { lines += BuildSummary.overlaps(report) }  // format 3: the union
        let g = report.grid
        let topForm = g.topForm == FormatLayout.TopForm.packed ? "packed" : "UInt32 entries"
        lines.append("  grid \(g.columns)×\(g.rows) tiles of \(quantizer.degrees(g.tileWidth))°, \(report.splitTiles) split (depth ≤ \(g.maximumDepth)), top-level directory: \(topForm)")
        lines.append("  leaf tiles: \(report.emptyTiles) empty, \(report.coveredTiles) covered, \(report.recordTiles) with records")
        lines.append("  \(report.geometry.itemsName) per tile: median \(report.edgesPerTile.median), p99 \(report.edgesPerTile.p99), max \(report.edgesPerTile.maximum)")
        let sizes = report.sectionSizes.map { "\($0.tag) \($0.bytes)" }.joined(separator: ", ")
        lines.append("  section bytes: \(sizes)")
        if let tiles = report.tileBytes {
            lines.append("  tile bytes: directory \(tiles.directory), record heads \(tiles.recordHeads), masks \(tiles.masks), first vertices \(tiles.firstVertices), widths \(tiles.widths), deltas \(tiles.deltas)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension BuildCommand {
    /// What `gmap help build` prints.
    static let help = """
    gmap build INPUT -o OUTPUT.gmap [--id PROP] [--keep a,b] [options]
    gmap build --layer NAME=INPUT[:IDPROP] ... -o OUTPUT.gmap [options]
    gmap build --osm FILE.osm.pbf -o OUTPUT.gmap [--paths] [--profile P] [--languages LIST]
               [--max-nodes N]

    Builds a map from the Polygon and MultiPolygon features of INPUT, which is one of:
      x.geojson           a GeoJSON FeatureCollection
      x.ndjson, x.geojsonl, x.geojsons, x.jsonl
                          one Feature per line (newline-delimited GeoJSON), or RFC 8142 text
                          sequences (each Feature after an RS byte); also detected in any file
                          whose first object is a Feature followed by another object
      x.geojson.gz        either of the above, gzip-compressed (multi-member files too)
      x.shp               an ESRI shapefile (Polygon, PolygonZ, PolygonM) with its x.dbf beside it,
                          and x.cpg (code page) and x.prj (must be longitude/latitude) if present;
                          the .dbf fields are the properties, under their names as written
      x.zip               a ZIP archive holding one shapefile (or one GeoJSON file), as Natural
                          Earth distributes them
    The content decides (gzip, ZIP and shapefile magic bytes), then the name. "-" reads standard
    input (GeoJSON, plain or gzip-compressed). GeoJSON is read as a stream, so hundreds of MB are
    fine; a shapefile or ZIP archive is read into memory (GeoJSON in a ZIP archive is decompressed
    as it is read). GeoJSON is UTF-8 (a UTF-8 byte order mark is skipped; UTF-16 and UTF-32 input is
    refused with a message saying so). Other geometry types, null shapes and
    deleted .dbf records are skipped and counted. GeoJSON of LineString/MultiLineString features
    only builds a layer of lines, of Point/MultiPoint only a layer of points (format 3.1, answered
    by nearestLines/nearestPoints); input with polygons builds its polygons (see --geometry).
    Broken input stops the build with a message naming the file, the feature or record, and the
    line, byte or field, quoting at most 40 bytes of the input; for compressed input whose
    decompressed text is broken, the compressed data is checked first, and its damage (a bad
    block, a wrong CRC-32) is what is reported, with its compressed byte. The output is written to a temporary file and renamed into place, so an
    existing map survives a failed build. The same input and options give the same bytes.

    OPTIONS
      -o, --output FILE   the map to write (required; its directory must exist: checked first)
      --id PROP           the property whose value is each feature's id. Default: the first of
                          \(BuildOptions.automaticIdProperties.joined(separator: ", ")) that the feature has,
                          else the Feature's "id" member, else its index. When every feature
                          falls back to its index, a warning lists the properties there are.
                          With --id, a feature without PROP (or with null) is an error that
                          lists that feature's properties.
      --keep LIST         comma-separated properties to keep for --json output (default: name;
                          "all" keeps every property, "none" keeps none)
      --precision DEG     coordinate quantum in degrees, 1/N for whole N (default 1e-7, about
                          1.1 cm; the largest position error is half a quantum diagonally)
      --simplify DIST     simplify borders so no removed vertex is farther than DIST from the
                          border that replaces it (100m, 1km, 2.5km; a bare number is metres).
                          Each border shared by features is simplified once, between the
                          points where borders meet, so neighbours still meet exactly: no gaps,
                          no double answers along a land border. Rings keep three or more
                          vertices (no island disappears). The summary, the map's metadata and
                          'gmap info' give the largest error measured. With --layer,
                          --simplify LAYER=DIST (repeatable) simplifies that layer only, and
                          replaces a plain --simplify DIST for it.
      --compact-points LIST
                          write these layers of points (comma-separated --layer names, or all)
                          as compact points (format 3.4): a point table of a few bytes per
                          feature instead of about 100 (a record of the point, the id and the
                          kept properties, values repeated often kept once), and a name index
                          of the ids only. Each feature must have exactly one point and one
                          value per property; its id is its only name (find and geocode).
      --meta KEY=VALUE    record a fact in the map's metadata (repeatable; gmap info shows it
                          under "build"), such as its sources' licences and attribution
      --geometry KIND     which features to build: polygons, lines or points; auto (default):
                          polygons when the input has any (its lines and points are skipped,
                          and the summary says how to build them), else its lines or its points
                          (an error when it has both). Applies to every --layer input.
      --coast-buffer      with --simplify: borders with features on one side only (coasts) move
                          outward only, so every point of the original land stays inside its
                          feature (answers can gain a strip of sea up to DIST wide, never lose a beach)
      --tile-size DEG     top-level tile size (default: automatic, 1° for a world map; the
                          smallest of 1/64°…16° giving at most 65,536 tiles)
      --max-edges N       split tiles with more than N distinct edges (default 64; a border
                          shared by two features counts once). Format 2.1 and 2.0 count each
                          feature's copy and default to 48.
      --split N           a split tile has N × N parts (default 2; 4 with --format 2.1/2.0)
      --max-depth N       split at most N times, 0 to 12 (default 12; 6 with --format 2.1/2.0)
      --layer NAME=INPUT[:IDPROP]
                          one layer of a map of several layers (repeat it; up to 10). The
                          id property follows the last colon; without it, --id or the default
                          applies. With --layer, give no INPUT otherwise. Other options apply
                          to every layer. Name layers country, state and timezone for the
                          placemark fields of query --json.
      --format 3|2.1|2.0  the format to write. 3 (the default): each border stored once per
                          tile, split tiles as directory nodes; a 3.x reader also reads 1.x
                          and 2.x files, but a 2.x reader refuses it as a newer version.
                          2.1: for those older readers (layers, label points, name index).
                          2.0: a plain format 2.0 file: one layer, no label points, no name
                          index. In format 3 at most 64 features may overlap in one leaf
                          tile; more stop the build with a message suggesting --format 2.1.
                          A feature whose polygons overlap answers their union in format 3
                          (written as 3.2, listed in the summary); format 2 keeps the
                          even-odd rule over all its rings (the overlaps are outside) and
                          warns.
      --top FORM          how format 3 stores each layer's top-level directory: entries (one
                          4-byte entry per tile, the fastest lookups), packed (2 bits per tile
                          plus a bit-packed payload per non-empty tile, a smaller file) or auto
                          (default: packed when the entries would be more than 20 % of the
                          layer's GRID and TILE bytes, so small or sparse maps shrink and big
                          detailed ones keep the faster form). The summary says which was
                          written. Format 2 always writes entries.
      --max-string SIZE   the longest JSON string read (a property value, a name, an id;
                          default 64M). SIZE is bytes, or with K, M or G (KiB, MiB, GiB).
      --max-number SIZE   the longest number written in the input (default 1K)
      --max-properties SIZE
                          the most bytes of one feature's properties: names and values, plus
                          32 bytes a member (default 256M)
                          Input over a limit stops the build at once with a message naming
                          the limit, so a damaged file or a gzip or ZIP bomb cannot take all
                          memory; the defaults are far above real data.
      -q, --quiet         print no summary

    gmap build --osm FILE.osm.pbf -o OUTPUT.gmap [--paths] [--profile pedestrian|all] [--languages LIST]
                                                 [--max-nodes N] [-q]

    Builds a location map, for gmap where and gmap geocode, from an OpenStreetMap extract (PBF:
    zlib or raw blobs, dense or plain nodes, ways, multipolygon relations). Its layers: roads
    (lines: one feature per street, the named highway ways of one name and class joined at their
    shared ends; name, class, ref), areas (named buildings, parks, squares, land use), places
    and addresses (points), and intersections (points: every node shared by two or more roads,
    with the streets that meet and whether it is a main one); and an address index (format 3.3):
    the streets of the addresses, each with its addresses sorted by house number. Ways cut at
    the extract's edge keep their present pieces; multipolygon relations with missing members
    are skipped; both are counted in the summary. The map records the source file's name and the
    attribution "\(OSMBuild.attribution)" (gmap info shows them): keep it with anything you make
    from the map. A file that cannot be read stops the build with a message naming the file, the
    blob and the byte (exit 2). The file is read blob by blob, keeping every node's position (16
    bytes a node) and only the elements that can be roads, areas, places or addresses, so a
    region builds in a few times its file size of memory; an extract with more nodes than
    --max-nodes stops the build with a message saying so. The polygon options above (--id,
    --keep, --precision, --simplify, --layer, --format, --top, tiling) do not apply.
      --osm FILE          the .osm.pbf extract to read ("-" for standard input)
      --paths             keep footways, cycleways, paths and steps as roads too (default:
                          streets only)
      --profile P         which roads: pedestrian (default: a surface walker's network, without
                          motorways, ways with foot=no or access=no|private and no foot
                          permission, and ways under the surface: layer < 0, tunnel, indoor,
                          level < 0) or all (every named street). Ways drawn as areas
                          (area=yes, such as pedestrian squares) are areas in both, not roads.
      --languages LIST    also keep the names in these languages (OSM's name:LL tags) of
                          roads, places and areas, for gmap where --language: a comma-separated
                          list of codes (sv,en), all, or none (default: none; the map stays
                          smallest). A name equal to the name itself is not kept again.
      --max-nodes N       the most nodes the extract may have (default 500000000, 8 GB of
                          node positions); raise it for a larger region where memory allows

    EXAMPLES
      gmap build countries.geojson -o world.gmap --id iso_a2 --keep name,iso_a3
      gmap build ne_10m_admin_0_countries.zip -o deu.gmap --id ISO_A2_EH --keep NAME,ISO_A3
      gmap build timezones.geojson.gz -o tz.gmap --id tzid
      gmap build countries.geojson -o watch.gmap --simplify 1km --coast-buffer --precision 1e-5
      gmap build -o layers.gmap --layer country=countries.geojson:iso_a2 \\
          --layer state=admin1.geojson:iso_3166_2 --layer timezone=timezones.geojson.gz:tzid
      gmap build --osm Helsinki.osm.pbf -o helsinki.gmap
      gmap build --osm Helsinki.osm.pbf -o helsinki-sv.gmap --languages sv --profile all

    """
}
