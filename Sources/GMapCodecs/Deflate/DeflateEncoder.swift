/// DEFLATE compression (RFC 1951), the inverse of ``Deflate/inflate(_:)``: an LZ77 parse with hash
/// chains and lazy matching, cut into blocks that are each written stored, with the fixed Huffman
/// codes or with dynamic ones, whichever is smallest.
///
/// ```swift
/// let bytes = Array("a text, a text, a text".utf8)
/// let compressed = DeflateEncoder.compress(bytes)
/// let restored = try Deflate.inflate(compressed)
/// assert(restored == bytes)
/// ```
public enum DeflateEncoder {
    /// How hard the encoder looks for matches.
    public struct Settings: Sendable, Equatable {
        /// How many earlier positions with the same 3-byte hash are tried for each match (0: no matches).
        public var maximumChainLength: Int
        /// A match this long is taken at once, without looking further or one byte ahead.
        public var niceLength: Int
        /// Once a match this long is found, only a sixteenth of the chain is searched on.
        public var goodLength: Int
        /// Whether a match is deferred when the next byte starts a longer one.
        public var lazyMatching: Bool
        /// Whether blocks may be Huffman-coded; false writes stored blocks only (no compression).
        public var compresses: Bool
        /// How many LZ77 tokens make a block at most.
        public var tokensPerBlock: Int
        /// Distances tried at every position before the hash chain: where repeats are expected, such
        /// as 1 and a picture's row length.
        public var candidateDistances: [Int]

        /// Settings from their parts.
        public init(maximumChainLength: Int, niceLength: Int, goodLength: Int = 32, lazyMatching: Bool, compresses: Bool = true,
                    tokensPerBlock: Int = 1 << 15, candidateDistances: [Int] = []) {
            self.maximumChainLength = max(0, maximumChainLength)
            self.niceLength = min(MatchFinder.maximumMatch, max(MatchFinder.minimumMatch, niceLength))
            self.goodLength = max(MatchFinder.minimumMatch, goodLength)
            self.lazyMatching = lazyMatching
            self.compresses = compresses
            self.tokensPerBlock = max(1, tokensPerBlock)
            self.candidateDistances = candidateDistances
        }

        /// Thorough: long chains and lazy matching. The default.
        public static let best = Settings(maximumChainLength: 256, niceLength: 258, lazyMatching: true)
        /// Quick: short chains, no lazy matching.
        public static let fast = Settings(maximumChainLength: 8, niceLength: 32, lazyMatching: false)
        /// No compression: the bytes in stored blocks, as a baseline.
        public static let stored = Settings(maximumChainLength: 0, niceLength: 258, lazyMatching: false, compresses: false)
    }

    /// The raw DEFLATE stream (no zlib or gzip framing) of `bytes`.
    public static func compress(_ bytes: [UInt8], settings: Settings = .best) -> [UInt8] {
        var writer = BitWriter()
        writer.reserveCapacity(bytes.count / 4 + 64)
        guard settings.compresses else {
            DeflateBlockWriter.writeStored(bytes[...], isLast: true, to: &writer)
            return writer.finish()
        }
        var finder = MatchFinder(input: bytes, settings: settings)
        var tokens: [LZ77Token] = []
        tokens.reserveCapacity(settings.tokensPerBlock)
        repeat {
            let start = finder.position
            tokens.removeAll(keepingCapacity: true)
            finder.fill(&tokens, upTo: settings.tokensPerBlock)
            DeflateBlockWriter.write(tokens[...], standingFor: bytes[start..<finder.position], isLast: finder.isFinished,
                                     allowCompression: true, to: &writer)
        } while !finder.isFinished
        return writer.finish()
    }
}

/// The zlib format (RFC 1950) that PNG image data uses: a 2-byte header, a DEFLATE stream and the
/// Adler-32 of the uncompressed bytes.
public enum ZlibStream {
    /// The zlib stream of `bytes`.
    public static func compress(_ bytes: [UInt8], settings: DeflateEncoder.Settings = .best) -> [UInt8] {
        // CMF: method 8 (DEFLATE) with a 32 KiB window; FLG: level "maximum" (3), and the check
        // bits that make CMF·256 + FLG a multiple of 31.
        let method: UInt16 = 0x78
        let levelBits: UInt16 = settings.compresses ? 3 << 6 : 0
        let check = 31 - (method << 8 | levelBits) % 31
        var stream: [UInt8] = [UInt8(method), UInt8(levelBits | check % 31)]
        stream += DeflateEncoder.compress(bytes, settings: settings)
        let adler = Adler32.checksum(bytes)
        stream += [UInt8(adler >> 24), UInt8(truncatingIfNeeded: adler >> 16), UInt8(truncatingIfNeeded: adler >> 8), UInt8(truncatingIfNeeded: adler)]
        return stream
    }
}
