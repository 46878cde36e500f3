// Where an input's bytes come from: a file, memory, or a decoder over another source.

/// A stream of bytes read front to back, such as a file or a decompressor's output.
///
/// Sources are reference types because reading changes them; one source is read by one reader at a time.
public protocol ByteSource: AnyObject {
    /// Copies up to `buffer.count` bytes into `buffer` and returns how many; 0 only at the end of the stream.
    /// Throws an error saying what went wrong (an unreadable file, corrupt compressed data).
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

/// Why a file could not be opened or read.
public struct FileReadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file's path as given.
    public var path: String
    /// What was being done: "open", "read".
    public var operation: String
    /// The system's error text.
    public var reason: String

    /// An error from its parts.
    public init(path: String, operation: String, reason: String) {
        self.path = path
        self.operation = operation
        self.reason = reason
    }

    /// E.g. "cannot open 'a.shp': No such file or directory".
    public var description: String { "cannot \(operation) '\(path)': \(reason)" }

    /// The error for a C library error number (by default the last one).
    static func fromErrno(_ path: String, _ operation: String, code: Int32 = SystemCalls.lastError) -> FileReadError {
        FileReadError(path: path, operation: operation, reason: SystemCalls.errorText(code))
    }
}

/// Bytes of an open file, read with `read(2)`; standard input for the path "-".
public final class FileByteSource: ByteSource {
    /// The path it was opened with ("-" for standard input).
    public let path: String
    private let fd: Int32
    private let owned: Bool

    /// Opens `path` for reading ("-" is standard input). A directory or a missing file is a ``FileReadError``.
    public init(path: String) throws(FileReadError) {
        self.path = path
        if path == "-" {
            fd = 0
            owned = false
            return
        }
        switch SystemCalls.openForReading(path) {
        case let .success(descriptor):
            fd = descriptor
            owned = true
        case let .failure(error):
            throw FileReadError.fromErrno(path, error.code == SystemCalls.isADirectory ? "read" : "open", code: error.code)
        }
    }

    deinit {
        if owned { SystemCalls.close(fd) }
    }

    /// Reads the next bytes of the file.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        switch SystemCalls.read(fd, into: base, count: buffer.count) {
        case let .success(count): return count
        case let .failure(error): throw FileReadError.fromErrno(path, "read", code: error.code)
        }
    }

    /// The whole (rest of the) file as an array.
    public func readAll() throws -> [UInt8] {
        try ByteSources.readAll(self)
    }
}

/// Bytes held in memory.
public final class MemoryByteSource: ByteSource {
    private let bytes: [UInt8]
    private var offset = 0

    /// A source that yields `bytes`.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Copies the next bytes.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, bytes.count - offset)
        guard count > 0, let base = buffer.baseAddress else { return 0 }
        bytes.withUnsafeBytes { source in
            if let start = source.baseAddress {
                base.copyMemory(from: start + offset, byteCount: count)
            }
        }
        offset += count
        return count
    }
}

/// A few bytes already read from a source (to look at its first bytes), then the rest of the source.
public final class PrefixedByteSource: ByteSource {
    private let head: MemoryByteSource
    private let rest: any ByteSource

    /// Yields `prefix`, then whatever `rest` yields.
    public init(prefix: [UInt8], rest: any ByteSource) {
        head = MemoryByteSource(prefix)
        self.rest = rest
    }

    /// Reads the first `count` bytes of `source` (fewer at its end) and returns them with a source that
    /// still yields every byte of `source` from the first.
    public static func peek(_ count: Int, of source: any ByteSource) throws -> (prefix: [UInt8], source: PrefixedByteSource) {
        var prefix = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = try prefix.withUnsafeMutableBytes { buffer in
                try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            }
            if got == 0 { break }
            filled += got
        }
        prefix.removeLast(count - filled)
        return (prefix, PrefixedByteSource(prefix: prefix, rest: source))
    }

    /// Copies prefix bytes first, then reads the rest.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let got = try head.read(into: buffer)
        return got > 0 ? got : try rest.read(into: buffer)
    }
}

/// Helpers over any ``ByteSource``.
public enum ByteSources {
    /// Reads `source` to its end.
    public static func readAll(_ source: any ByteSource) throws -> [UInt8] {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let got = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
            if got == 0 { return result }
            result.append(contentsOf: chunk[0..<got])
        }
    }
}
