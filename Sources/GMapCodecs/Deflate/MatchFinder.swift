/// Turns bytes into LZ77 tokens for DEFLATE: hash chains over 3-byte prefixes within the 32 KiB
/// window, and one step of lazy matching (a match is deferred when the next byte starts a longer one).
///
/// The parse is made a block at a time (``fill(_:upTo:)``) so that memory stays bounded by the block.
struct MatchFinder {
    /// How far back a match may reach.
    static let windowSize = 32_768
    /// The shortest and longest matches DEFLATE codes.
    static let minimumMatch = 3, maximumMatch = 258
    private static let hashBits = 15
    /// Beyond this distance a match of 3 bytes is not taken.
    static let farDistance = 4_096

    private let input: [UInt8]
    private let settings: DeflateEncoder.Settings
    /// The most recent position with each hash, or -1.
    private var head: [Int32]
    /// For each position (modulo the window), the previous position with the same hash, or -1.
    private var previous: [Int32]
    /// Positions before this are in the hash chains.
    private var hashedUpTo = 0
    /// Bytes before this are covered by tokens handed out.
    private(set) var position = 0
    /// The match found at `position` while looking ahead, if any.
    private var lookahead: (position: Int, length: Int, distance: Int)?

    init(input: [UInt8], settings: DeflateEncoder.Settings) {
        self.input = input
        self.settings = settings
        head = [Int32](repeating: -1, count: 1 << Self.hashBits)
        previous = [Int32](repeating: -1, count: Self.windowSize)
    }

    /// Whether every byte has been parsed.
    var isFinished: Bool { position >= input.count }

    /// Parses on from ``position`` until `limit` tokens are in `tokens` or the input ends.
    mutating func fill(_ tokens: inout [LZ77Token], upTo limit: Int) {
        let count = input.count
        while position < count, tokens.count < limit {
            let (length, distance) = match(at: position)
            if length >= Self.minimumMatch, settings.lazyMatching, length < settings.niceLength, position + 1 < count {
                let next = match(at: position + 1)
                lookahead = (position + 1, next.length, next.distance)
                if next.length > length {
                    tokens.append(.literal(input[position]))
                    position += 1
                    continue
                }
            }
            if length >= Self.minimumMatch {
                tokens.append(.match(length: length, distance: distance))
                position += length
            } else {
                tokens.append(.literal(input[position]))
                position += 1
            }
        }
    }

    /// The longest match for the bytes at `start` (length 0 when there is none of at least 3 bytes).
    private mutating func match(at start: Int) -> (length: Int, distance: Int) {
        if let lookahead, lookahead.position == start { return (lookahead.length, lookahead.distance) }
        insertHashes(upTo: start)
        let count = input.count
        guard start + Self.minimumMatch <= count, settings.maximumChainLength > 0 else { return (0, 0) }
        let longest = min(Self.maximumMatch, count - start)
        var bestLength = Self.minimumMatch - 1, bestDistance = 0
        input.withUnsafeBufferPointer { bytes in
            head.withUnsafeBufferPointer { head in
                previous.withUnsafeBufferPointer { previous in
                    // The distances the caller expects first (a picture's row above), then the hash chain.
                    for distance in settings.candidateDistances where distance > 0 && distance <= start && distance < Self.windowSize {
                        let candidate = start - distance
                        var length = 0
                        while length < longest, bytes[candidate + length] == bytes[start + length] { length += 1 }
                        if length > bestLength {
                            bestLength = length
                            bestDistance = distance
                        }
                    }
                    var candidate = bestLength >= settings.niceLength || bestLength == longest ? -1 : Int(head[Self.hash(bytes, at: start)])
                    var steps = settings.maximumChainLength
                    while candidate >= 0, steps > 0 {
                        let distance = start - candidate
                        guard distance > 0, distance < Self.windowSize else { break }
                        // Cheap rejection: a longer match must agree at the current best length.
                        if bytes[candidate + bestLength] == bytes[start + bestLength] {
                            var length = 0
                            while length < longest, bytes[candidate + length] == bytes[start + length] { length += 1 }
                            if length > bestLength {
                                bestLength = length
                                bestDistance = distance
                                if length >= settings.niceLength || length == longest { break }
                                // A good match already: look a little further only.
                                if length >= settings.goodLength { steps = min(steps, settings.maximumChainLength / 16 + 1) }
                            }
                        }
                        let next = Int(previous[candidate & (Self.windowSize - 1)])
                        guard next < candidate else { break }
                        candidate = next
                        steps -= 1
                    }
                }
            }
        }
        // A 3-byte match far back costs about as much as three literals: not worth it.
        guard bestLength > Self.minimumMatch || (bestLength == Self.minimumMatch && bestDistance <= Self.farDistance) else { return (0, 0) }
        return (bestLength, bestDistance)
    }

    /// Adds every position before `end` that starts 3 bytes to the hash chains.
    private mutating func insertHashes(upTo end: Int) {
        let last = min(end, input.count - Self.minimumMatch + 1)
        guard hashedUpTo < last else { return }
        input.withUnsafeBufferPointer { bytes in
            head.withUnsafeMutableBufferPointer { head in
                previous.withUnsafeMutableBufferPointer { previous in
                    for position in hashedUpTo..<last {
                        let hash = Self.hash(bytes, at: position)
                        previous[position & (Self.windowSize - 1)] = head[hash]
                        head[hash] = Int32(position)
                    }
                }
            }
        }
        hashedUpTo = max(hashedUpTo, last)
    }

    /// The hash of the three bytes at `position`.
    @inline(__always)
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int) -> Int {
        let word = UInt32(bytes[position]) | UInt32(bytes[position + 1]) << 8 | UInt32(bytes[position + 2]) << 16
        return Int((word &* 2_654_435_761) >> UInt32(32 - hashBits))
    }
}
