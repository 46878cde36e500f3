/// Why a map could not be opened.
public enum GMapError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be opened, sized or mapped; `code` is the C library's `errno`.
    case cannotOpen(path: String, operation: String, code: Int32)
    /// The path is not a regular file: `kind` says what it is ("a directory", "a character device",
    /// "a FIFO (a pipe)", …). A map must be a file that can be mapped whole.
    case notAFile(path: String, kind: String)
    /// The bytes do not start with the `.gmap` magic.
    case notAGMap
    /// The file is shorter than its header says: `expected` bytes, `actual` present.
    case truncated(expected: UInt64, actual: UInt64)
    /// The file was written by a newer major version of the format.
    case unsupportedVersion(major: UInt16, minor: UInt16)
    /// A structure is inconsistent: which part, at which byte offset, and what is wrong.
    case malformed(part: String, offset: UInt64, reason: String)
    /// The map is larger than this platform can address: `Int.max` bytes, 2 GiB − 1 on a 32-bit
    /// target (see ``AddressLimit``). Checked before any offset of the file is used.
    case tooLarge(length: UInt64)
    /// A layer stores a geometry kind this reader does not answer (format 3's `GRID` byte 26): lines
    /// or points need a reader of format 3.1 or later; any other value is unknown.
    case unsupportedGeometry(layer: String, kind: UInt8)

    /// A sentence saying what is wrong.
    public var description: String {
        switch self {
        case let .cannotOpen(path, operation, code):
            return "cannot \(operation) \(path): \(Self.errorText(code))"
        case let .notAFile(path, kind):
            return "\(path) is \(kind), not a map file"
        case .notAGMap:
            return "not a gmap file (the first 8 bytes are not the gmap magic)"
        case let .truncated(expected, actual):
            return "truncated gmap file: the header says \(expected) bytes, \(actual) are present"
        case let .unsupportedVersion(major, minor):
            return "gmap format version \(major).\(minor) is newer than this reader (reads \(FormatLayout.oldestReadableMajorVersion).x to \(FormatLayout.majorVersion).x); update gmap"
        case let .malformed(part, offset, reason):
            return "corrupt gmap file: \(part) at byte \(offset): \(reason)"
        case let .tooLarge(length):
            return "gmap file of \(length) bytes is too large for this platform"
        case let .unsupportedGeometry(layer, kind):
            let what = GeometryKind(rawValue: kind)?.name ?? "geometry kind \(kind)"
            return "layer \(layer.isEmpty ? "(unnamed)" : "'\(layer)'") holds \(what), which this reader does not read (it reads \(GeometryKind.readableKinds)); update gmap"
        }
    }

    private static func errorText(_ code: Int32) -> String {
        SystemCalls.errorText(code)
    }
}
