/// Why a ZIP archive, or one of its entries, could not be read.
public struct ZipError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public enum Reason: Sendable, Equatable {
        /// No end-of-central-directory record: not a ZIP archive, or a truncated one.
        case notZip
        /// ZIP64 archives (over 4 GiB or 65,535 entries) are not read.
        case zip64
        /// The archive spans several disks.
        case multiDisk
        /// A record of the archive is damaged: which, and how.
        case malformed(String)
        /// The entry is encrypted.
        case encrypted
        /// The entry's compression method is neither stored (0) nor deflate (8).
        case unsupportedMethod(Int)
        /// The entry's deflate data is invalid.
        case deflate(DeflateError.Reason)
        /// The entry's CRC-32 differs from the directory's.
        case checksumMismatch(stored: UInt32, computed: UInt32)
        /// The entry's size differs from the directory's.
        case sizeMismatch(stored: Int, computed: Int)
    }

    /// What is wrong.
    public var reason: Reason
    /// The archive's name.
    public var archive: String
    /// The entry concerned, if any.
    public var entry: String?
    /// Where, as a byte offset in the archive.
    public var byteOffset: Int

    /// An error from its parts.
    public init(_ reason: Reason, archive: String, entry: String? = nil, byteOffset: Int) {
        self.reason = reason
        self.archive = archive
        self.entry = entry
        self.byteOffset = byteOffset
    }

    /// E.g. "countries.zip, entry countries.shp, byte 1234: CRC-32 is 1a2b3c4d, the directory says 5e6f7a8b".
    public var description: String {
        "\(archive), \(detail)"
    }

    /// The description without the archive's name, for a message that names it already: e.g.
    /// "entry countries.shp, byte 1234: CRC-32 is …".
    public var detail: String {
        let place = entry.map { "entry \($0), " } ?? ""
        return "\(place)byte \(byteOffset): \(reasonText)"
    }

    private var reasonText: String {
        switch reason {
        case .notZip: return "not a ZIP archive (no end-of-central-directory record; truncated?)"
        case .zip64: return "ZIP64 archives are not supported"
        case .multiDisk: return "multi-disk ZIP archives are not supported"
        case .malformed(let text): return "damaged archive: \(text)"
        case .encrypted: return "the entry is encrypted"
        case .unsupportedMethod(let method): return "compression method \(method) is not supported (only stored and deflate)"
        case .deflate(let reason): return DeflateError(reason, byteOffset: byteOffset).reasonText
        case let .checksumMismatch(stored, computed):
            return "CRC-32 of the entry is \(String(computed, radix: 16)), the directory says \(String(stored, radix: 16)) (corrupt archive)"
        case let .sizeMismatch(stored, computed):
            if computed > stored { return "the entry decompresses to more than the \(stored) bytes the directory says" }
            return "the entry decompresses to \(computed) bytes, the directory says \(stored)"
        }
    }
}
