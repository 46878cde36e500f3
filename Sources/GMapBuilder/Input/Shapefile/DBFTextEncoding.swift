import GMapCodecs
/// How the text of a `.dbf` is decoded: from the code page its `.cpg` names, else UTF-8 with Latin-1 for
/// any value that is not valid UTF-8.
enum DBFTextEncoding: Sendable, Equatable {
    /// UTF-8; a value that is not valid UTF-8 is read as Latin-1.
    case utf8WithLatin1Fallback
    /// ISO 8859-1: each byte is the code point of the same number.
    case latin1
    /// Windows code page 1252 (Latin-1 with printable characters in 0x80–0x9F).
    case windows1252

    /// The encoding a `.cpg` file's text names, or nil when gmap does not know it. No `.cpg` (nil text) means
    /// the default, UTF-8 with the Latin-1 fallback.
    init?(codePage text: String?) {
        guard let text else {
            self = .utf8WithLatin1Fallback
            return
        }
        let name = String(text.uppercased().unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) })
        switch name {
        case "", "UTF8", "65001", "ASCII", "USASCII", "20127": self = .utf8WithLatin1Fallback
        case "88591", "ISO88591", "LATIN1", "28591", "CP819": self = .latin1
        case "1252", "ANSI1252", "CP1252", "WINDOWS1252", "WIN1252": self = .windows1252
        default: return nil
        }
    }

    /// Windows-1252's characters for 0x80–0x9F (U+FFFD where the code page defines none).
    private static let windows1252High: [UInt32] = [
        0x20AC, 0xFFFD, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0xFFFD, 0x017D, 0xFFFD,
        0xFFFD, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0xFFFD, 0x017E, 0x0178,
    ]

    /// The text of `bytes`.
    func decode(_ bytes: ArraySlice<UInt8>) -> String {
        switch self {
        case .utf8WithLatin1Fallback:
            if let text = String(validating: bytes, as: UTF8.self) { return text }
            return Self.singleByte(bytes) { UInt32($0) }
        case .latin1:
            return Self.singleByte(bytes) { UInt32($0) }
        case .windows1252:
            return Self.singleByte(bytes) { byte in
                (0x80...0x9F).contains(byte) ? Self.windows1252High[Int(byte) - 0x80] : UInt32(byte)
            }
        }
    }

    private static func singleByte(_ bytes: ArraySlice<UInt8>, _ scalar: (UInt8) -> UInt32) -> String {
        var scalars = String.UnicodeScalarView()
        for byte in bytes { scalars.append(Unicode.Scalar(scalar(byte)) ?? "\u{FFFD}") }
        return String(scalars)
    }
}
