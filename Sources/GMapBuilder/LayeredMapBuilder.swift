import GMap

/// Builds a map of several layers (format 2.1): each layer its own feature set, grid and name
/// index, all in one file with one string pool.
///
/// ```swift
/// var countries = try MapBuilder(options: options)   // … add features …
/// var states = try MapBuilder(options: stateOptions) // … add features …
/// var map = LayeredMapBuilder()
/// try map.addLayer(named: "country", countries)
/// try map.addLayer(named: "state", states)
/// let (bytes, reports) = try map.finish()
/// ```
///
/// The first layer is written to the sections a 2.0 reader reads (`GRID`, `TILE`, `FEAT`, `PROP`),
/// so such a reader answers from the first layer. The build metadata and the options that shape
/// the file as a whole (quantization, ``BuildOptions/writesLayerIndexes``) are the first layer's.
public struct LayeredMapBuilder {
    /// The name a single-input build gives its one layer.
    public static let defaultLayerName = "default"

    /// The layers added so far, in file order.
    public private(set) var layers: [(name: String, builder: MapBuilder)] = []

    /// An empty map.
    public init() {}

    /// Adds a layer. Names must be non-empty, distinct and at most 255 bytes; every layer must use
    /// the first layer's quantization; a file holds at most ``FormatLayout/maximumLayerCount`` layers.
    public mutating func addLayer(named name: String, _ builder: MapBuilder) throws {
        guard !name.isEmpty, name.utf8.count <= 255 else { throw BuildError("a layer name must be 1 to 255 bytes long") }
        guard !layers.contains(where: { $0.name == name }) else { throw BuildError("the layer name \"\(name)\" is used twice") }
        guard layers.count < FormatLayout.maximumLayerCount else { throw BuildError("a map holds at most \(FormatLayout.maximumLayerCount) layers") }
        if let first = layers.first {
            guard first.builder.options.quantizer == builder.options.quantizer else { throw BuildError("every layer must have the same --precision") }
        }
        layers.append((name, builder))
    }

    /// Builds the file: its bytes and one report per layer (the file's length in each report's ``BuildReport/byteCount``).
    public func finish() throws -> (bytes: [UInt8], reports: [BuildReport]) {
        guard let first = layers.first else { throw BuildError("a map needs at least one layer") }
        let options = first.builder.options
        let indexes = options.writesLayerIndexes
        let major = options.formatMajorVersion
        guard major == 2 || major == 3 else { throw BuildError("format \(major) cannot be written: this builder writes 3 (the default) and 2") }
        guard indexes || layers.count == 1 else { throw BuildError("a map of several layers needs a layer table (format 3 or 2.1)") }
        guard layers.allSatisfy({ $0.builder.options.formatMajorVersion == major }) else { throw BuildError("every layer must have the same format version") }
        var strings = StringPool()
        var writer = MapWriter()
        var reports: [BuildReport] = []
        var layerRecords: [UInt8] = []
        var grid: GridInfo?
        for (index, layer) in layers.enumerated() {
            let tags = LayerSectionTags.standard(layer: index)
            let built: MapBuilder.BuiltLayer
            do {
                built = try layer.builder.buildLayer(tags: tags, indexes: indexes, strings: &strings)
            } catch let error as BuildError where layers.count > 1 {
                throw BuildError("layer \(layer.name): \(error.description)")
            }
            for section in built.sections { writer.add(tag: section.tag, section.bytes) }
            reports.append(built.report)
            grid = grid ?? built.report.grid
            if indexes {
                let name = try strings.intern(layer.name)
                for value in [name.offset, name.length, tags.grid, tags.tiles, tags.features, tags.properties, tags.labels, tags.names] {
                    layerRecords.appendLittleEndian(value)
                }
            }
        }
        if indexes {
            var section: [UInt8] = []
            section.appendLittleEndian(UInt32(layers.count))
            section.appendLittleEndian(UInt32(FormatLayout.LayerRecord.length))
            section.append(contentsOf: layerRecords)
            writer.add(.layers, section)
            reports[0].sectionSizes.append(("LAYR", section.count))
        }
        let simplifications = zip(layers, reports).compactMap { layer, report in
            report.simplification.map { (layers.count == 1 ? "" : layer.name, $0.summary) }
        }
        let metadata = try first.builder.metadataSection(strings: &strings, grid: grid ?? reports[0].grid, simplifications: simplifications)
        writer.add(.metadata, metadata)
        writer.add(.strings, strings.bytes)
        reports[0].sectionSizes.append(("META", metadata.count))
        reports[0].sectionSizes.append(("STRS", strings.bytes.count))
        let minor = major >= 3 ? FormatLayout.minorVersion
            : indexes ? FormatLayout.minorVersionWithLayers : FormatLayout.minorVersionWithoutLayers
        let bytes = writer.bytes(quantizer: options.quantizer, majorVersion: major, minorVersion: minor)
        for index in reports.indices { reports[index].byteCount = bytes.count }
        return (bytes, reports)
    }
}
