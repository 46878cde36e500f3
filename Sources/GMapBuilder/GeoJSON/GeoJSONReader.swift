// The public entry point: a streaming reader of a GeoJSON FeatureCollection.

import GMapCodecs

/// How a GeoJSON input holds its features.
public enum GeoJSONLayout: Sendable, Equatable {
    /// A sequence of Feature objects when the input starts with an RS byte (RFC 8142), or when its first object is
    /// a Feature followed by another object; otherwise a FeatureCollection.
    case automatic
    /// One FeatureCollection object.
    case featureCollection
    /// Feature objects one after another: newline-delimited GeoJSON (one per line) or RFC 8142 GeoJSON text
    /// sequences (each after an RS byte, 0x1E). Feature indices count the features from 0.
    case featureSequence
}

/// Reads a FeatureCollection, or a sequence of features, one feature at a time.
///
/// The input is read in chunks (1 MiB by default) and only the current feature is materialised, so
/// collections of hundreds of megabytes can be read in bounded memory (the read buffer plus one feature).
///
/// The parser is strict JSON (RFC 8259): a string, a number or a feature's properties larger than
/// its ``limits`` is an error naming the limit, and error messages quote at most
/// ``InputExcerpt/maximumBytes`` bytes of the input, escaped. Its other choices (byte order marks,
/// UTF-16, surrogates, invalid UTF-8, nesting): Docs/Errors.md#what-the-geojson-parser-accepts.
///
/// Ring and polygon numbers in error messages are 0-based, like feature indices.
public struct GeoJSONReader {
    /// The default number of bytes read at a time.
    public static let defaultChunkSize = 1 << 20

    private let input: GeoJSONInput
    private let chunkSize: Int
    /// How the input holds its features (``GeoJSONLayout/automatic`` unless an initializer says otherwise).
    public var layout: GeoJSONLayout = .automatic
    /// The most bytes of one string, one number and one feature's properties (the defaults unless set).
    public var limits = InputLimits()

    /// Reads from a file path, or standard input when path is "-".
    ///
    /// A missing or unreadable file (or a directory) throws a `GeoJSONError` whose message names the path and
    /// the system's error text.
    public init(path: String) throws(GeoJSONError) {
        try self.init(path: path, chunkSize: GeoJSONReader.defaultChunkSize)
    }

    /// Reads from a file path, or standard input when path is "-", `chunkSize` bytes at a time
    /// (clamped to 1...1 GiB; mostly useful for testing chunk boundaries).
    public init(path: String, chunkSize: Int) throws(GeoJSONError) {
        self.chunkSize = GeoJSONReader.clamp(chunkSize)
        if path == "-" {
            input = .file(GeoJSONFileInput(fd: 0, name: "<stdin>", owned: false))
            return
        }
        switch SystemCalls.openForReading(path) {
        case let .success(fd):
            input = .file(GeoJSONFileInput(fd: fd, name: path, owned: true))
        case let .failure(error):
            let operation = error.code == SystemCalls.isADirectory ? "read" : "open"
            throw GeoJSONError(message: "cannot \(operation) '\(path)': \(error.text)")
        }
    }

    /// Reads from a byte source, such as a ``GzipByteSource``; `name` is the input's name for error messages.
    /// Errors the source throws become ``GeoJSONError``s whose message includes the source's description.
    /// Such a reader can be run once.
    public init(source: any ByteSource, name: String, layout: GeoJSONLayout = .automatic, chunkSize: Int = GeoJSONReader.defaultChunkSize) {
        self.chunkSize = GeoJSONReader.clamp(chunkSize)
        self.layout = layout
        input = .source(GeoJSONSourceInput(source: source, name: name))
    }

    /// Reads from bytes in memory (used by tests and by the fuzzer).
    public init(bytes: [UInt8]) {
        self.init(bytes: bytes, chunkSize: GeoJSONReader.defaultChunkSize)
    }

    /// Reads from bytes in memory, handing them to the parser `chunkSize` bytes at a time
    /// (clamped to 1...1 GiB), exactly as a file would be read. Small chunk sizes exercise chunk boundaries.
    public init(bytes: [UInt8], chunkSize: Int) {
        self.chunkSize = GeoJSONReader.clamp(chunkSize)
        input = .bytes(bytes)
    }

    /// Calls `body` for each feature in order. Stops at the first error (a `GeoJSONError` from the parser,
    /// or whatever `body` throws). Returns the number of features read.
    ///
    /// Features are delivered as they are parsed, so `body` may already have seen some features when an
    /// error further on (including a top-level "type" other than "FeatureCollection" written after the
    /// features) is thrown. A reader over bytes or a regular file can be run again; standard input or a pipe
    /// cannot.
    public mutating func forEachFeature(_ body: (GeoJSONFeature) throws -> Void) throws -> Int {
        let parser: GeoJSONParser
        switch input {
        case .bytes(let bytes):
            parser = GeoJSONParser(memory: bytes, chunkSize: chunkSize, baseOffset: 0, baseLine: 1, featureIndex: nil, limits: limits)
        case .file(let file):
            if file.used {
                if !SystemCalls.rewind(file.fd) {
                    throw GeoJSONError(message: "input '\(file.name)' cannot be read twice")
                }
            }
            file.used = true
            parser = GeoJSONParser(fd: file.fd, name: file.name, chunkSize: chunkSize, limits: limits)
        case .source(let source):
            if source.used { throw GeoJSONError(message: "input '\(source.name)' cannot be read twice") }
            source.used = true
            parser = GeoJSONParser(source: source.source, name: source.name, chunkSize: chunkSize, limits: limits)
        }
        return try parser.parse(layout, body)
    }

    private static func clamp(_ chunkSize: Int) -> Int {
        min(max(chunkSize, 1), 1 << 30)
    }

    static func errnoText(_ code: Int32) -> String {
        SystemCalls.errorText(code)
    }
}

/// Where a reader's bytes come from.
enum GeoJSONInput {
    case file(GeoJSONFileInput)
    case bytes([UInt8])
    case source(GeoJSONSourceInput)
}

/// A byte source, read once.
final class GeoJSONSourceInput {
    let source: any ByteSource
    let name: String
    var used = false

    init(source: any ByteSource, name: String) {
        self.source = source
        self.name = name
    }
}

/// An open file descriptor, closed when the last reader copy goes away.
final class GeoJSONFileInput {
    let fd: Int32
    let name: String
    let owned: Bool
    var used = false

    init(fd: Int32, name: String, owned: Bool) {
        self.fd = fd
        self.name = name
        self.owned = owned
    }

    deinit {
        if owned { SystemCalls.close(fd) }
    }
}
