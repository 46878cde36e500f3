/// Why gzip data (RFC 1952) could not be decoded, and where.
public struct GzipError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public enum Reason: Sendable, Equatable {
        /// The data does not start with the gzip magic bytes 1f 8b.
        case notGzip
        /// The compression method is not 8 (DEFLATE).
        case unsupportedMethod(Int)
        /// The header sets flag bits that RFC 1952 reserves.
        case reservedFlags(Int)
        /// The header ends before its fields do.
        case truncatedHeader
        /// The header's CRC-16 (FHCRC) does not match it.
        case headerChecksumMismatch(stored: Int, computed: Int)
        /// The member's compressed data is invalid (see ``DeflateError``).
        case deflate(DeflateError.Reason)
        /// The member ends before its 8-byte trailer does.
        case truncatedTrailer
        /// The CRC-32 of the decompressed data differs from the trailer's.
        case checksumMismatch(stored: UInt32, computed: UInt32)
        /// The decompressed size (mod 2^32) differs from the trailer's ISIZE.
        case sizeMismatch(stored: UInt32, computed: UInt32)
        /// Bytes after the last member that are neither another member nor zero padding.
        case trailingData
    }

    /// What is wrong.
    public var reason: Reason
    /// The 1-based gzip member (a file made by concatenating gzip files has several).
    public var member: Int
    /// Where, as a byte offset in the compressed file.
    public var byteOffset: Int

    /// An error from its parts.
    public init(_ reason: Reason, member: Int, byteOffset: Int) {
        self.reason = reason
        self.member = member
        self.byteOffset = byteOffset
    }

    /// E.g. "gzip member 1, compressed byte 4821: CRC-32 of the data is 1a2b3c4d, the trailer says 00000000".
    public var description: String {
        "gzip member \(member), compressed byte \(byteOffset): \(reasonText)"
    }

    private var reasonText: String {
        switch reason {
        case .notGzip: return "not gzip data (it does not start with the bytes 1f 8b)"
        case .unsupportedMethod(let method): return "compression method \(method) is not DEFLATE (8)"
        case .reservedFlags(let flags): return "reserved header flags 0x\(String(flags, radix: 16)) are set"
        case .truncatedHeader: return "the data ends inside the gzip header"
        case let .headerChecksumMismatch(stored, computed):
            return "header CRC-16 is \(HexText.digits(UInt32(computed), count: 4)), the header says \(HexText.digits(UInt32(stored), count: 4))"
        case .deflate(let reason): return DeflateError(reason, byteOffset: byteOffset).reasonText
        case .truncatedTrailer: return "the data ends inside the 8-byte gzip trailer (truncated file?)"
        case let .checksumMismatch(stored, computed):
            return "CRC-32 of the decompressed data is \(HexText.digits(computed, count: 8)), the trailer says \(HexText.digits(stored, count: 8)) (corrupt file)"
        case let .sizeMismatch(stored, computed):
            return "decompressed size mod 2^32 is \(computed), the trailer says \(stored) (corrupt file)"
        case .trailingData: return "data after the last gzip member is neither another member nor zero padding"
        }
    }
}
