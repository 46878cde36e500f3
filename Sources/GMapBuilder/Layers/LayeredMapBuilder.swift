import GMap

/// Builds a map of several layers (format 2.1), each its own feature set, grid and name index, in one file (Docs/Library.md#layered-maps-from-swift).
///
/// ```swift
/// var countries = try MapBuilder(options: BuildOptions())
/// try countries.add(SourceFeature(id: "A", polygons: [[[(0, 0), (2, 0), (2, 2), (0, 2), (0, 0)]]]))
/// var states = try MapBuilder(options: BuildOptions())
/// try states.add(SourceFeature(id: "A-1", polygons: [[[(0, 0), (1, 0), (1, 1), (0, 1), (0, 0)]]]))
/// var map = LayeredMapBuilder()
/// try map.addLayer(named: "country", countries)
/// try map.addLayer(named: "state", states)
/// let (bytes, reports) = try map.finish()
/// ```
public struct LayeredMapBuilder {
    /// The name a single-input build gives its one layer.
    public static let defaultLayerName = "default"

    /// Every layer added so far, in file order, each with the builder of its kind.
    private var contents: [(name: String, content: any LayerKindBuilder)] = []

    /// The address index to write (``AddressIndexWriter``), if any: the layer of addresses by name,
    /// the layer of postal codes, and each feature's street and house number in layer order.
    var addressIndex: (layer: String, postcodes: String?, addresses: [AddressIndexWriter.Address])?

    /// The polygon layers added so far, in file order (layers of lines and points are not listed).
    public var layers: [(name: String, builder: MapBuilder)] {
        contents.compactMap { entry in (entry.content as? MapBuilder).map { (entry.name, $0) } }
    }

    /// An empty map.
    public init() {}

    /// Adds a layer of the geometry `builder` resolved (``InputLayerBuilder/resolvedKind()``):
    /// its polygons, lines or points, the others counted as skipped in the layer's report.
    /// Throws ``BuildError`` when the geometry cannot be chosen (its message names the layer
    /// unless it is ``defaultLayerName``).
    public mutating func addLayer(named name: String, _ builder: InputLayerBuilder) throws {
        let layer: any LayerKindBuilder
        do {
            layer = try builder.resolvedLayer()
        } catch {
            throw BuildError(name == Self.defaultLayerName ? error.description : "layer \(name): \(error.description)")
        }
        try add(name, layer)
    }

    /// Adds a layer of any kind (each kind's public ``addLayer(named:_:)`` is in its folder).
    /// Names must be non-empty, distinct and at most 255 bytes; every layer must use the first
    /// layer's quantization; a file holds at most ``FormatLayout/maximumLayerCount`` layers.
    mutating func add(_ name: String, _ content: any LayerKindBuilder) throws {
        guard !name.isEmpty, name.utf8.count <= 255 else { throw BuildError("a layer name must be 1 to 255 bytes long") }
        guard !contents.contains(where: { $0.name == name }) else { throw BuildError("the layer name \"\(name)\" is used twice") }
        guard contents.count < FormatLayout.maximumLayerCount else { throw BuildError("a map holds at most \(FormatLayout.maximumLayerCount) layers") }
        if let first = contents.first {
            guard first.content.options.quantizer == content.options.quantizer else { throw BuildError("every layer must have the same --precision") }
        }
        contents.append((name, content))
    }

    /// Builds the file: its bytes and one report per layer (the file's length in each report's ``BuildReport/byteCount``).
    public func finish() throws -> (bytes: [UInt8], reports: [BuildReport]) {
        var copy = self  // shares the layers: nothing is freed
        return try copy.finishReleasingLayers()
    }

    /// Builds the file as ``finish()`` does, freeing each layer's features once its sections are
    /// built and each section once it is in the file, so that a large map's build holds less at
    /// once (``LocationMapBuilder`` on a region). The builder is left without layers.
    public mutating func finishReleasingLayers() throws -> (bytes: [UInt8], reports: [BuildReport]) {
        guard let options = contents.first?.content.options, let metadataPairs = contents.first?.content.metadataPairs else {
            throw BuildError("a map needs at least one layer")
        }
        // What is needed of the layers after they are built (they are freed one by one).
        let layers = contents.map { (name: $0.name, kind: type(of: $0.content).kind) }
        var remaining = contents
        contents = []
        let indexes = options.writesLayerIndexes
        let major = options.formatMajorVersion
        guard major == 2 || major == 3 else { throw BuildError("format \(major) cannot be written: this builder writes 3 (the default) and 2") }
        guard indexes || layers.count == 1 else { throw BuildError("a map of several layers needs a layer table (format 3 or 2.1)") }
        guard remaining.allSatisfy({ $0.content.options.formatMajorVersion == major }) else { throw BuildError("every layer must have the same format version") }
        var strings = StringPool()
        var writer = MapWriter()
        var reports: [BuildReport] = []
        var layerRecords: [UInt8] = []
        var grid: GridInfo?
        for index in layers.indices {
            MemoryRelease.trim()  // what the caller or the last layer freed (its features, its working memory)
            let layer = remaining[0]
            remaining.removeFirst()  // `layer` then holds the last reference to its features
            let tags = LayerSectionTags.standard(layer: index)
            let built: MapBuilder.BuiltLayer
            do {
                built = try layer.content.buildLayer(tags: tags, indexes: indexes, strings: &strings)
            } catch let error as BuildError where layers.count > 1 {
                throw BuildError("layer \(layer.name): \(error.description)")
            }
            for section in built.sections { writer.add(tag: section.tag, section.bytes) }
            reports.append(built.report)
            grid = grid ?? built.report.grid
            if indexes {
                let name = try strings.intern(layer.name)
                // A layer built without label points and names records tag 0 for them.
                let written = Set(built.sections.map(\.tag))
                let labels = written.contains(tags.labels) ? tags.labels : 0, names = written.contains(tags.names) ? tags.names : 0
                for value in [name.offset, name.length, tags.grid, tags.tiles, tags.features, tags.properties, labels, names] {
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
        // The address index (3.3): a layer of addresses' streets, counted with that layer.
        var writesAddressIndex = false
        if let addressIndex, major >= 3, indexes, let layer = layers.firstIndex(where: { $0.name == addressIndex.layer }) {
            let postcodes = addressIndex.postcodes.flatMap { name in layers.firstIndex { $0.name == name } }
            let section = try AddressIndexWriter.section(addresses: addressIndex.addresses, layer: layer, postcodes: postcodes, strings: &strings)
            writer.add(.addressIndex, section)
            reports[layer].sectionSizes.append((SectionTag.addressIndex.name, section.count))
            writesAddressIndex = true
        }
        let simplifications = zip(layers, reports).compactMap { layer, report in
            report.simplification.map { (layers.count == 1 ? "" : layer.name, $0.summary) }
        }
        let metadata = try MetadataWriter.section(pairs: metadataPairs, options: options, grid: grid ?? reports[0].grid,
                                                  simplifications: simplifications, strings: &strings)
        writer.add(.metadata, metadata)
        writer.add(.strings, strings.bytes)
        reports[0].sectionSizes.append(("META", metadata.count))
        reports[0].sectionSizes.append(("STRS", strings.bytes.count))
        // The least minor version that defines everything in the file (polygons alone stay 3.0, byte for byte).
        let needs = reports.map { $0.encoding.minorVersion }
            + (reports.contains { $0.repeatsSlots } ? [.partGroups] : []) + (writesAddressIndex ? [.addressIndex] : [])
        let needed = needs.max() ?? .polygons
        if major >= 3, needed > options.newestMinorVersion {
            throw BuildError("the map needs format \(needed.text) (\(needed.addition)), newer than --format \(options.newestMinorVersion.text) "
                + "allows; build it with --format \(needed.text) or later")
        }
        let minor = major >= 3 ? needed.rawValue
            : indexes ? FormatLayout.minorVersionWithLayers : FormatLayout.minorVersionWithoutLayers
        let bytes = writer.takeBytes(quantizer: options.quantizer, majorVersion: major, minorVersion: minor)
        for index in reports.indices { reports[index].byteCount = bytes.count }
        return (bytes, reports)
    }
}
