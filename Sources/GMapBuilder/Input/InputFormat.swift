import GMapCodecs
/// The kinds of input `gmap build` reads, and how to tell them apart.
public enum InputFormat: String, Sendable, Equatable, CaseIterable {
    /// A GeoJSON FeatureCollection, or a sequence of Features (detected from the content).
    case geoJSON = "GeoJSON"
    /// Newline-delimited GeoJSON or RFC 8142 text sequences, chosen by the file name.
    case geoJSONSequence = "GeoJSON sequence"
    /// gzip-compressed GeoJSON (either layout).
    case gzip = "gzip-compressed GeoJSON"
    /// An ESRI shapefile: the `.shp` with its `.dbf` beside it.
    case shapefile = "ESRI shapefile"
    /// A ZIP archive holding one shapefile (or one GeoJSON file).
    case zip = "ZIP archive"

    /// File name endings of newline-delimited GeoJSON and GeoJSON text sequences.
    public static let sequenceExtensions = [".ndjson", ".geojsonl", ".geojsons", ".geojsonseq", ".jsonl"]

    /// How many leading bytes ``detect(name:prefix:)`` looks at.
    public static let magicLength = 4

    /// The format of the file called `name` whose first bytes are `prefix`: the content's magic bytes decide
    /// (gzip `1f 8b`, ZIP `PK\u{3}\u{4}`, shapefile file code 9994), then the name's extension (`.shp`, `.zip`,
    /// `.gz`, the sequence extensions); anything else is GeoJSON.
    public static func detect(name: String, prefix: [UInt8]) -> InputFormat {
        if GzipByteSource.hasMagic(prefix) { return .gzip }
        if ZipArchive.hasMagic(prefix) { return .zip }
        if prefix.starts(with: [0x00, 0x00, 0x27, 0x0A]) { return .shapefile }
        let lower = name.lowercased()
        if lower.hasSuffix(".shp") { return .shapefile }
        if lower.hasSuffix(".zip") { return .zip }
        if lower.hasSuffix(".gz") { return .gzip }
        return geoJSONLayout(name: lower) == .featureSequence ? .geoJSONSequence : .geoJSON
    }

    /// How GeoJSON called `name` holds its features (a trailing `.gz` ignored): a sequence for the sequence
    /// extensions, otherwise detected from the content.
    public static func geoJSONLayout(name: String) -> GeoJSONLayout {
        var lower = name.lowercased()
        if lower.hasSuffix(".gz") { lower.removeLast(3) }
        return sequenceExtensions.contains { lower.hasSuffix($0) } ? .featureSequence : .automatic
    }
}
