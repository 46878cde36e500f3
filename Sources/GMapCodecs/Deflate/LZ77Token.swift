/// One step of an LZ77 parse: a literal byte, or a copy of `length` bytes from `distance` bytes back.
struct LZ77Token: Equatable {
    /// 0 for a literal, else the match length (3…258).
    let length: UInt16
    /// The literal byte, or the match distance (1…32,768).
    let value: UInt16

    /// A literal byte.
    static func literal(_ byte: UInt8) -> LZ77Token { LZ77Token(length: 0, value: UInt16(byte)) }

    /// A back-reference.
    static func match(length: Int, distance: Int) -> LZ77Token {
        LZ77Token(length: UInt16(length), value: UInt16(truncatingIfNeeded: distance))
    }

    /// Whether this is a literal byte.
    var isLiteral: Bool { length == 0 }

    /// How many input bytes the token stands for.
    var byteCount: Int { isLiteral ? 1 : Int(length) }

    /// The distance of a match (a distance of 32,768 is stored as 0 in 16 bits).
    var distance: Int { value == 0 ? 32_768 : Int(value) }
}
