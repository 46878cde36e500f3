import GMapCodecs
/// Reads any input `gmap build` accepts into a ``MapBuilder`` (or another ``FeatureSink``): GeoJSON (a FeatureCollection or a sequence of
/// features), gzip-compressed GeoJSON, an ESRI shapefile, or a ZIP archive holding one shapefile or one
/// GeoJSON file. ``InputFormat/detect(name:prefix:)`` chooses.
public enum MapInput {
    /// File name endings of GeoJSON inside a ZIP archive.
    static let geoJSONExtensions = [".geojson", ".json"] + InputFormat.sequenceExtensions

    /// Reads every feature of the file at `path` ("-" for standard input: GeoJSON, plain or gzip-compressed)
    /// into `builder`, ids and kept properties chosen as its options say; returns the format read.
    ///
    /// Errors: ``GeoJSONError`` (GeoJSON, and gzip data, whose errors it carries), ``ShapefileError``,
    /// ``ZipError``, ``FileReadError`` and ``BuildError``.
    @discardableResult
    public static func read<Builder: FeatureSink>(path: String, into builder: inout Builder) throws -> InputFormat {
        let (prefix, source) = try PrefixedByteSource.peek(InputFormat.magicLength, of: try FileByteSource(path: path))
        let standardInput = path == "-"
        let name = standardInput ? "<stdin>" : path
        let format = InputFormat.detect(name: standardInput ? "" : path, prefix: prefix)
        switch format {
        case .geoJSON, .geoJSONSequence:
            var reader = GeoJSONReader(source: source, name: name, layout: InputFormat.geoJSONLayout(name: standardInput ? "" : path))
            try GeoJSONImport.read(&reader, into: &builder)
        case .gzip:
            var reader = GeoJSONReader(source: GzipByteSource(compressed: source), name: name,
                                       layout: InputFormat.geoJSONLayout(name: standardInput ? "" : path))
            try GeoJSONImport.read(&reader, into: &builder)
        case .shapefile, .zip:
            guard !standardInput else {
                throw FileReadError(path: name, operation: "read", reason: "a \(format.rawValue) must be read from a file, not standard input")
            }
            let shapefile: ShapefileReader
            if format == .shapefile {
                shapefile = try ShapefileReader(path: path)
            } else {
                let archive = try ZipArchive(bytes: try ByteSources.readAll(source), name: path)
                if let geoJSON = try geoJSONEntry(of: archive) {
                    var reader = GeoJSONReader(bytes: try archive.contents(of: geoJSON))
                    reader.layout = InputFormat.geoJSONLayout(name: geoJSON.name)
                    try GeoJSONImport.read(&reader, into: &builder)
                    return format
                }
                shapefile = try ShapefileReader(archive: archive)
            }
            try shapefile.forEachFeature { feature in
                try builder.add(feature)
            }
        }
        return format
    }

    /// The archive's one GeoJSON file, when it holds no shapefile; nil when it holds a `.shp` or nothing to read.
    private static func geoJSONEntry(of archive: ZipArchive) throws(ShapefileError) -> ZipArchive.Entry? {
        let names = archive.entries.map { $0.name.lowercased() }
        guard !names.contains(where: { $0.hasSuffix(".shp") }) else { return nil }
        let candidates = archive.entries.filter { entry in
            geoJSONExtensions.contains { entry.name.lowercased().hasSuffix($0) } && !entry.name.hasPrefix("__MACOSX/")
        }
        if candidates.count > 1 {
            throw ShapefileError(.ambiguous, file: archive.name,
                                 message: "\(candidates.count) GeoJSON files in the archive (\(candidates.map(\.name).joined(separator: ", "))); extract the one to use")
        }
        return candidates.first
    }
}
