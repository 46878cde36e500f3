import Foundation
import GMap
import GMapBuilder
import GMapCodecs

/// `gmap build INPUT -o OUTPUT [options]`.
enum BuildCommand: Command {
    static let name = "build"
    static let summary = "a map from GeoJSON, shapefiles, ZIP or an OpenStreetMap extract"

    static func run(_ list: ArgumentList) throws -> Int32 {
        if list.value(Option.osm) != nil { return try OSMBuild.run(list) }
        let osmOnly = [(Option.paths, "footways, cycleways, paths and steps as roads"), (Option.profile, "which roads a location map keeps"),
                       (Option.languages, "the names in other languages a location map keeps"), (Option.maxNodes, "the most nodes an extract may have")]
        for (option, what) in osmOnly where list.isGiven(option) {
            throw CommandFailure(message: "\(option.name) only applies with --osm FILE.osm.pbf (\(what))")
        }
        let layers = try list.values(Option.layer).map(LayerArgument.parse)
        guard layers.isEmpty ? list.positional.count == 1 : list.positional.isEmpty else {
            throw CommandFailure(message: layers.isEmpty
                ? "usage: gmap build INPUT -o OUTPUT.gmap (see 'gmap help build')"
                : "with --layer, give every input as --layer NAME=PATH[:IDPROP], not as '\(list.positional[0])'")
        }
        guard let asked = list.value(.output) else {
            throw CommandFailure(message: "gmap build needs an output file: -o OUTPUT.gmap")
        }
        if layers.isEmpty, list.positional[0].lowercased().hasSuffix(".pbf") {
            throw CommandFailure(message: "\(list.positional[0]) is an OpenStreetMap PBF extract: build a location map of it with gmap build --osm \(Shell.quote(list.positional[0])) -o \(Shell.quote(asked))")
        }
        let options = try parseOptions(list)
        let layerSimplifications = try self.layerSimplifications(list, layers: layers)
        let metadata = try list.values(Option.meta).map { text -> (String, String) in
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
            throw CommandFailure(message: "\(option(for: setting).name): \(error.description)")
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
        if !list.has(.quiet) {
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
        guard let text = list.value(Option.geometry) else { return .automatic }
        guard let choice = text == "auto" ? .automatic : GeometryChoice(rawValue: text) else {
            throw CommandFailure(message: "--geometry '\(text)' must be \(GeometryKind.allCases.map(\.name).joined(separator: ", ")) or auto (the default)")
        }
        return choice
    }

    /// The option that sets a tiling setting: the one place the command line names them.
    static func option(for setting: BuildOptions.Setting) -> CommandOption {
        switch setting {
        case .splitFactor: Option.split
        case .maximumDepth: Option.maxDepth
        case .maximumEdgesPerTile: Option.maxEdges
        case .tileSize: Option.tileSize
        }
    }

    static func parseOptions(_ list: ArgumentList) throws -> BuildOptions {
        var options = BuildOptions()
        if let id = list.value(Option.id) {
            guard !id.isEmpty else { throw CommandFailure(message: "--id needs a property name") }
            options.idProperty = id
        }
        if let property = list.value(Option.otherNames) {
            guard !property.isEmpty else { throw CommandFailure(message: "--other-names needs a property name") }
            options.otherNamesProperty = property
        }
        if let keep = list.value(Option.keep) {
            switch keep {
            case "all", "*": options.keptProperties = nil
            case "none", "": options.keptProperties = []
            default: options.keptProperties = keep.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
            }
        }
        if let text = list.value(Option.precision) {
            guard let degrees = Double(text), degrees > 0, degrees.isFinite else {
                throw CommandFailure(message: "--precision '\(text)' is not a positive number of degrees (for example 1e-7)")
            }
            let units = (1 / degrees).rounded()
            guard abs(units * degrees - 1) < 1e-9, let quantizer = Quantizer(unitsPerDegree: Int64(units)) else {
                throw CommandFailure(message: "--precision must be 1/N degrees for a whole N from 1 to 10000000 (1e-7, 1e-6, 0.00001, …), not \(text)")
            }
            options.quantizer = quantizer
        }
        if let text = list.value(Option.tileSize) {
            guard let degrees = Double(text), degrees > 0, degrees <= Double(BuildOptions.largestTileDegrees) else {
                throw CommandFailure(message: "--tile-size '\(text)' must be a number of degrees above 0 and at most \(BuildOptions.largestTileDegrees)")
            }
            options.tileSize = max(1, Int64((degrees * Double(options.quantizer.unitsPerDegree)).rounded()))
        }
        switch list.value(Option.format) {
        case nil, "3":
            options.formatMajorVersion = 3
            options.writesLayerIndexes = true
        case let text? where FormatMinorVersion.allCases.contains { $0.text == text }:
            options.formatMajorVersion = 3
            options.writesLayerIndexes = true
            options.newestMinorVersion = FormatMinorVersion.allCases.first { $0.text == text } ?? .newest
        case "2.1", "2.0":
            options.formatMajorVersion = 2
            options.writesLayerIndexes = list.value(Option.format) == "2.1"
            let tiling = BuildOptions.formatTwoTiling
            (options.maximumEdgesPerTile, options.splitFactor, options.maximumDepth) = (tiling.maximumEdgesPerTile, tiling.splitFactor, tiling.maximumDepth)
        case let other?:
            throw CommandFailure(message: "--format '\(other)' must be 3 (the default), \(FormatVersionText.threeRange) (3.N for readers of 3.0 to 3.N), "
                + "2.1 (for gmap 1.1 readers) or 2.0 (also no layers, label points or name index)")
        }
        switch try list.choice(Option.top) {
        case "entries": options.topDirectory = .entries
        case "packed":
            guard options.formatMajorVersion >= 3 else {
                throw CommandFailure(message: "--top packed needs format 3: format 2 stores one UInt32 entry per top-level tile")
            }
            options.topDirectory = .packed
        default: options.topDirectory = .automatic
        }
        options.maximumEdgesPerTile = try list.integer(Option.maxEdges) ?? options.maximumEdgesPerTile
        options.splitFactor = try list.integer(option(for: .splitFactor)) ?? options.splitFactor
        options.maximumDepth = try list.integer(option(for: .maximumDepth)) ?? options.maximumDepth
        options.inputLimits.stringBytes = try list.bytes(Option.maxString)
        options.inputLimits.numberBytes = try list.bytes(Option.maxNumber)
        options.inputLimits.propertyBytes = try list.bytes(Option.maxProperties)
        let distances = list.values(Option.simplify).filter { !$0.contains("=") }
        guard distances.count <= 1 else {
            throw CommandFailure(message: "--simplify DIST is given \(distances.count) times; give it once, or once per layer as --simplify LAYER=DIST")
        }
        if let text = distances.first {
            options.simplification = try simplification(text, list)
        } else if list.has(Option.coastBuffer), !list.values(Option.simplify).contains(where: { $0.contains("=") }) {
            throw CommandFailure(message: "--coast-buffer only applies with --simplify DISTANCE")
        }
        return options
    }

    /// The layers `--compact-points LIST` names (`all`: every input; a single input is named `all`
    /// or `default`). A layer that turns out not to be of points is built as it would be without.
    private static func compactPointLayers(_ list: ArgumentList, inputs: [LayerArgument], layered: Bool) throws -> Set<String> {
        guard let text = list.value(Option.compactPoints) else { return [] }
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
        return Simplification(toleranceMetres: metres, buffersCoasts: list.has(Option.coastBuffer))
    }

    /// `--simplify LAYER=DIST` (repeatable): one layer's simplification, which replaces a plain
    /// `--simplify DIST` for that layer. Every LAYER must name a `--layer`.
    private static func layerSimplifications(_ list: ArgumentList, layers: [LayerArgument]) throws -> [String: Simplification] {
        var result: [String: Simplification] = [:]
        for text in list.values(Option.simplify) {
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
            lines.append("  tile bytes: directory \(tiles.directory), record heads \(tiles.recordHeads), masks \(tiles.masks), first vertices \(tiles.firstVertices), widths \(tiles.widths)\(tiles.bands > 0 ? ", bands \(tiles.bands)" : ""), deltas \(tiles.deltas)")
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
    \(OptionTable.lines(polygonOptions, column: 22))

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
    \(OptionTable.lines(osmOptions, column: 22))

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
