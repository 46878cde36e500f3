/// DEFLATE's length and distance symbols (RFC 1951 §3.2.5): which code stands for a match length
/// or distance, and the extra bits that follow it. The bases are the decoder's (``DeflateAlphabet``).
enum DeflateSymbols {
    /// The end-of-block symbol.
    static let endOfBlock = 256
    /// Literal/length symbols a block may use (286 and 287 are reserved).
    static let literalLengthCount = 286
    /// Distance symbols a block may use (30 and 31 are reserved).
    static let distanceCount = 30

    /// For each match length 0…258, its length code's index (symbol − 257).
    private static let lengthCodeIndex: [UInt8] = (0...258).map { length in
        guard length >= 3 else { return 0 }
        let bases = DeflateAlphabet.lengthBases
        var index = bases.count - 1
        while bases[index] > UInt32(length) { index -= 1 }
        return UInt8(index)
    }

    /// For each distance 1…32,768 (index distance − 1), its distance code.
    private static let distanceCodes: [UInt8] = (1...32_768).map { distance in
        let bases = DeflateAlphabet.distanceBases
        var code = bases.count - 1
        while bases[code] > UInt32(distance) { code -= 1 }
        return UInt8(code)
    }

    /// The literal/length symbol of a match length (3…258), its extra bits and their count.
    @inline(__always)
    static func length(_ length: Int) -> (symbol: Int, extra: UInt32, extraBits: Int) {
        let index = Int(lengthCodeIndex[length])
        return (257 + index, UInt32(length) - DeflateAlphabet.lengthBases[index], Int(DeflateAlphabet.lengthExtraBits[index]))
    }

    /// The distance symbol of a distance (1…32,768), its extra bits and their count.
    @inline(__always)
    static func distance(_ distance: Int) -> (symbol: Int, extra: UInt32, extraBits: Int) {
        let code = Int(distanceCodes[distance - 1])
        return (code, UInt32(distance) - DeflateAlphabet.distanceBases[code], Int(DeflateAlphabet.distanceExtraBits[code]))
    }

    /// The fixed code of block type 1 (RFC 1951 §3.2.6).
    static let fixedLiteralLengths = HuffmanCode(lengths: (0..<288).map { symbol -> UInt8 in
        switch symbol {
        case 0..<144: return 8
        case 144..<256: return 9
        case 256..<280: return 7
        default: return 8
        }
    })
    /// The fixed distance code: 5 bits each.
    static let fixedDistances = HuffmanCode(lengths: [UInt8](repeating: 5, count: 32))
}
