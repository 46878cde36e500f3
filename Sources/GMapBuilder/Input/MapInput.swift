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
    /// GeoJSON is read with the limits of the builder's ``BuildOptions/inputLimits``. When compressed
    /// GeoJSON (gzip, or a GeoJSON file in a ZIP archive) cannot be parsed, the rest of its compressed
    /// data is checked: corrupt data there (a damaged block, a wrong CRC-32, a truncated member) is the
    /// error thrown, as the cause of the garbage the parser saw.
    ///
    /// Errors: ``GeoJSONError`` (GeoJSON, and gzip data, whose errors it carries), ``GzipError`` (found
    /// after a parse error), ``ShapefileError``, ``ZipError``, ``FileReadError`` and ``BuildError``.
    @discardableResult
    public static func read<Builder: FeatureSink>(path: String, into builder: inout Builder) throws -> InputFormat {
        let (prefix, source) = try PrefixedByteSource.peek(InputFormat.magicLength, of: try FileByteSource(path: path))
        let standardInput = path == "-"
        let name = standardInput ? "<stdin>" : path
        let format = InputFormat.detect(name: standardInput ? "" : path, prefix: prefix)
        switch format {
        case .geoJSON, .geoJSONSequence:
            var reader = GeoJSONReader(source: source, name: name, layout: InputFormat.geoJSONLayout(name: standardInput ? "" : path))
            reader.limits = builder.options.inputLimits
            try GeoJSONImport.read(&reader, into: &builder)
        case .gzip:
            let gzip = GzipByteSource(compressed: source)
            var reader = GeoJSONReader(source: gzip, name: name, layout: InputFormat.geoJSONLayout(name: standardInput ? "" : path))
            reader.limits = builder.options.inputLimits
            try CompressedInputCheck.reading(gzip) { try GeoJSONImport.read(&reader, into: &builder) }
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
                    let entry = try archive.source(of: geoJSON)
                    var reader = GeoJSONReader(source: entry, name: "\(path)/\(geoJSON.name)", layout: InputFormat.geoJSONLayout(name: geoJSON.name))
                    reader.limits = builder.options.inputLimits
                    try CompressedInputCheck.reading(entry) { try GeoJSONImport.read(&reader, into: &builder) }
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

/// Finds the cause of a parse error in compressed input: a damaged block can decode to garbage that
/// the parser rejects (or misreads) long before the member's CRC-32 shows the damage.
enum CompressedInputCheck {
    /// Runs `read`, which parses `source`. When it throws a ``GeoJSONError`` of the input's syntax (not a
    /// limit, whose input may be a bomb, nor the source's own error), reads the rest of `source`: an
    /// error of the compressed data found there is thrown instead; otherwise the parse error is.
    static func reading(_ source: any ByteSource, _ read: () throws -> Void) throws {
        do {
            try read()
        } catch let error as GeoJSONError where error.kind == .syntax {
            try drain(source)
            throw error
        } catch let error as BuildError {
            // A builder's complaint about garbage (a position outside the world) has the same cause.
            try drain(source)
            throw error
        }
    }

    /// Reads `source` to its end, throwing its error if it has one.
    private static func drain(_ source: any ByteSource) throws {
        var scratch = [UInt8](repeating: 0, count: 1 << 16)
        while try scratch.withUnsafeMutableBytes({ try source.read(into: $0) }) > 0 {}
    }
}
