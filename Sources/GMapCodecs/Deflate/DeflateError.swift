/// Why a DEFLATE stream (RFC 1951) could not be decoded, and where.
public struct DeflateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the stream.
    public enum Reason: Sendable, Equatable {
        /// A block header has the reserved block type 3.
        case invalidBlockType
        /// A stored block's length and its one's complement disagree.
        case storedLengthMismatch(length: Int, complement: Int)
        /// A dynamic block's code lengths do not make a usable Huffman code (the text says how).
        case invalidCodeLengths(String)
        /// The input bits match no code of the block's Huffman tables (or a reserved symbol).
        case invalidCode
        /// A match reaches further back than the data decoded so far.
        case distanceTooFarBack(distance: Int, available: Int)
        /// The compressed data ends before the stream does.
        case truncated
    }

    /// What is wrong.
    public var reason: Reason
    /// Roughly where, as a byte offset in the compressed input.
    public var byteOffset: Int

    /// An error from its parts.
    public init(_ reason: Reason, byteOffset: Int) {
        self.reason = reason
        self.byteOffset = byteOffset
    }

    /// E.g. "invalid DEFLATE data at compressed byte 1234: block type 3 is reserved".
    public var description: String {
        "invalid DEFLATE data at compressed byte \(byteOffset): \(reasonText)"
    }

    /// The reason as a phrase.
    package var reasonText: String {
        switch reason {
        case .invalidBlockType: return "block type 3 is reserved"
        case let .storedLengthMismatch(length, complement):
            return "stored block length \(length) does not match its complement \(complement)"
        case .invalidCodeLengths(let text): return "bad Huffman code lengths: \(text)"
        case .invalidCode: return "bits that match no Huffman code"
        case let .distanceTooFarBack(distance, available):
            return "a match \(distance) bytes back, but only \(available) bytes precede it"
        case .truncated: return "the data ends in the middle of the stream (truncated file?)"
        }
    }
}
