/// The three alphabets of DEFLATE (RFC 1951 §3.2.5–3.2.7) and what each symbol means.
enum DeflateAlphabet {
    /// Literal bytes 0–255, end of block 256, lengths 257–285 (286 and 287 are reserved).
    case literalLength
    /// Distances 0–29 (30 and 31 are reserved).
    case distance
    /// The code-length alphabet 0–18 of a dynamic block header.
    case codeLength

    static let lengthBases: [UInt32] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59,
                                        67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let lengthExtraBits: [UInt32] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBases: [UInt32] = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769,
                                          1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    static let distanceExtraBits: [UInt32] = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9,
                                              10, 10, 11, 11, 12, 12, 13, 13]

    /// The table entry for `symbol` reached after `bits` more bits.
    func entry(symbol: Int, bits: Int) -> UInt32 {
        switch self {
        case .codeLength:
            return HuffmanEntry.make(kind: HuffmanEntry.literal, bits: bits, extra: 0, value: UInt32(symbol))
        case .literalLength:
            if symbol < 256 { return HuffmanEntry.make(kind: HuffmanEntry.literal, bits: bits, extra: 0, value: UInt32(symbol)) }
            if symbol == 256 { return HuffmanEntry.make(kind: HuffmanEntry.endOfBlock, bits: bits, extra: 0, value: 0) }
            let index = symbol - 257
            guard index < Self.lengthBases.count else { return HuffmanEntry.make(kind: HuffmanEntry.invalid, bits: bits, extra: 0, value: 0) }
            return HuffmanEntry.make(kind: HuffmanEntry.lengthOrDistance, bits: bits,
                                     extra: Self.lengthExtraBits[index], value: Self.lengthBases[index])
        case .distance:
            guard symbol < Self.distanceBases.count else { return HuffmanEntry.make(kind: HuffmanEntry.invalid, bits: bits, extra: 0, value: 0) }
            return HuffmanEntry.make(kind: HuffmanEntry.lengthOrDistance, bits: bits,
                                     extra: Self.distanceExtraBits[symbol], value: Self.distanceBases[symbol])
        }
    }
}
