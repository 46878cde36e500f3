/// Tells text in UTF-16 or UTF-32 from UTF-8 by its first bytes, so that a reader of UTF-8 can say
/// what it was given instead of failing on its first zero byte.
public enum TextEncodingSniffer {
    /// A text encoding of two or four bytes a character.
    public struct WideEncoding: Sendable, Equatable {
        /// "UTF-16" or "UTF-32".
        public var name: String
        /// Whether the most significant byte of each unit comes last (little-endian).
        public var littleEndian: Bool
        /// Whether the text starts with a byte order mark.
        public var hasByteOrderMark: Bool

        /// The encoding as `iconv -f` names it: the plain name when a byte order mark says the order,
        /// else with LE or BE.
        public var iconvName: String { hasByteOrderMark ? name : name + (littleEndian ? "LE" : "BE") }

        /// "the file is UTF-16 (little-endian); gmap reads UTF-8 (convert it first, for example with
        /// iconv -f UTF-16 -t UTF-8)", with `subject` instead of "the file".
        public func message(subject: String = "the file") -> String {
            "\(subject) is \(name) (\(littleEndian ? "little" : "big")-endian); gmap reads UTF-8 (convert it first, for example with iconv -f \(iconvName) -t UTF-8)"
        }
    }

    /// The UTF-16 or UTF-32 encoding that `prefix`, the first (up to four) bytes of a text, shows;
    /// nil for anything else (UTF-8 with or without its byte order mark, or too few bytes to tell).
    ///
    /// A byte order mark decides (FF FE 00 00 and 00 00 FE FF for UTF-32, FF FE and FE FF for
    /// UTF-16). Without one, the zero bytes beside an ASCII first character do (as RFC 4627 detects
    /// JSON's encoding): 00 00 00 x and x 00 00 00 are UTF-32, 00 x and x 00 (x not zero) UTF-16. UTF-8
    /// text never holds a zero byte there: JSON and coordinate lines start with a printable character.
    public static func wideEncoding(of prefix: some Collection<UInt8>) -> WideEncoding? {
        let p = Array(prefix.prefix(4))
        func wide(_ name: String, _ littleEndian: Bool, _ mark: Bool) -> WideEncoding {
            WideEncoding(name: name, littleEndian: littleEndian, hasByteOrderMark: mark)
        }
        if p.count >= 4 {
            if p[0] == 0, p[1] == 0, p[2] == 0xFE, p[3] == 0xFF { return wide("UTF-32", false, true) }
            if p[0] == 0xFF, p[1] == 0xFE, p[2] == 0, p[3] == 0 { return wide("UTF-32", true, true) }
            if p[0] == 0, p[1] == 0, p[2] == 0, p[3] != 0 { return wide("UTF-32", false, false) }
            if p[0] != 0, p[1] == 0, p[2] == 0, p[3] == 0 { return wide("UTF-32", true, false) }
        }
        guard p.count >= 2 else { return nil }
        if p[0] == 0xFE, p[1] == 0xFF { return wide("UTF-16", false, true) }
        if p[0] == 0xFF, p[1] == 0xFE { return wide("UTF-16", true, true) }
        if p[0] == 0, p[1] != 0 { return wide("UTF-16", false, false) }
        if p[0] != 0, p[1] == 0 { return wide("UTF-16", true, false) }
        return nil
    }
}
