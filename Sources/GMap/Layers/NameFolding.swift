/// How names are compared by the name index (`NAME`, Spec/FORMAT.md section 5.10): case- and
/// accent-insensitively, by a small fixed table, so that the builder and every reader (Embedded
/// Swift included, with no Unicode data tables) fold a name to the same bytes.
///
/// Folding maps each Unicode scalar of the text:
/// * ASCII `A`–`Z` to `a`–`z`;
/// * letters of Latin-1 Supplement, Latin Extended-A and most of Latin Extended-B (U+00C0…U+024F) to
///   their base letter in lower case (`É` → `e`, `Ł` → `l`, `ß` → `ss`, `Æ` → `ae`, `Þ` → `th`);
/// * Greek capitals U+0391…U+03AB and Cyrillic capitals U+0400…U+042F to their small letters;
/// * combining marks U+0300…U+036F (the accents of decomposed text) to nothing;
/// * every other scalar to itself.
///
/// The result is UTF-8. Text that is neither Latin, Greek nor Cyrillic is compared exactly.
public enum NameFolding {
    /// Base letters for U+00C0…U+024F: a letter, `.` to keep the scalar, `*` for a two-letter folding.
    private static let latin: StaticString = "aaaaaa*ceeeeiiiidnooooo.ouuuuy**aaaaaa*ceeeeiiiidnooooo.ouuuuy*yaaaaaaccccccccddddeeeeeeeeeegggggggghhhhiiiiiiiiii**jjkkkllllllllllnnnnnnnnnoooooo**rrrrrrssssssssttttttuuuuuuuuuuuuwwyyyzzzzzzs................................oo.............uu............................aaiioouuuuuuuuuu.aaaa....ggkkoooo..j...gg..nnaa....aaaaeeeeiiiioooorrrruuuusstt..hh......aaeeooooooooyy............................"

    /// The folded UTF-8 bytes of `text`.
    public static func fold(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars { append(scalar, to: &bytes) }
        return bytes
    }

    /// The folded UTF-8 bytes of UTF-8 `text` (invalid sequences become U+FFFD).
    public static func fold(utf8 text: UnsafeRawBufferPointer) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count)
        var decoder = UTF8()
        var iterator = text.makeIterator()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): append(scalar, to: &bytes)
            case .error: append("\u{FFFD}", to: &bytes)
            case .emptyInput: return bytes
            }
        }
    }

    private static func append(_ scalar: Unicode.Scalar, to bytes: inout [UInt8]) {
        let value = scalar.value
        switch value {
        case 0x41...0x5A:
            bytes.append(UInt8(value + 0x20))
            return
        case 0..<0x80:
            bytes.append(UInt8(value))
            return
        case 0x300...0x36F:
            return
        case 0xC0...0x24F:
            let letter = latin.withUTF8Buffer { $0[Int(value - 0xC0)] }
            switch letter {
            case UInt8(ascii: "."): break
            case UInt8(ascii: "*"):
                switch value {
                case 0xC6, 0xE6: bytes.append(contentsOf: [0x61, 0x65])            // ae
                case 0xDE, 0xFE: bytes.append(contentsOf: [0x74, 0x68])            // th
                case 0xDF: bytes.append(contentsOf: [0x73, 0x73])                  // ss
                case 0x132, 0x133: bytes.append(contentsOf: [0x69, 0x6A])          // ij
                default: bytes.append(contentsOf: [0x6F, 0x65])                    // oe
                }
                return
            default:
                bytes.append(letter)
                return
            }
        case 0x391...0x3AB where value != 0x3A2:
            appendUTF8(value + 0x20, to: &bytes)
            return
        case 0x400...0x40F:
            appendUTF8(value + 0x50, to: &bytes)
            return
        case 0x410...0x42F:
            appendUTF8(value + 0x20, to: &bytes)
            return
        default:
            break
        }
        appendUTF8(value, to: &bytes)
    }

    private static func appendUTF8(_ value: UInt32, to bytes: inout [UInt8]) {
        switch value {
        case 0..<0x80:
            bytes.append(UInt8(value))
        case 0x80..<0x800:
            bytes.append(UInt8(0xC0 | (value >> 6)))
            bytes.append(UInt8(0x80 | (value & 0x3F)))
        case 0x800..<0x10000:
            bytes.append(UInt8(0xE0 | (value >> 12)))
            bytes.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
            bytes.append(UInt8(0x80 | (value & 0x3F)))
        default:
            bytes.append(UInt8(0xF0 | (value >> 18)))
            bytes.append(UInt8(0x80 | ((value >> 12) & 0x3F)))
            bytes.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
            bytes.append(UInt8(0x80 | (value & 0x3F)))
        }
    }

    /// The folded keys the name index holds for a feature with this id and these name values: each
    /// folded; and for each, when it contains `/` (a time zone such as `America/Buenos_Aires`), the
    /// part after the last `/`; and for each of those, when it contains `_`, the same with spaces
    /// (`buenos aires`). Empty keys and repeats are left out.
    public static func keys(id: String, names: [String]) -> [[UInt8]] {
        var keys: [[UInt8]] = []
        func add(_ key: [UInt8]) {
            if !key.isEmpty && !keys.contains(key) { keys.append(key) }
        }
        for text in [id] + names {
            let folded = fold(text)
            var forms = [folded]
            if let slash = folded.lastIndex(of: 0x2F) { forms.append(Array(folded[(slash + 1)...])) }
            for form in forms {
                add(form)
                if form.contains(0x5F) { add(form.map { $0 == 0x5F ? 0x20 : $0 }) }
            }
        }
        return keys
    }

    /// Whether a property key names a feature for the name index: `name`, or a key that starts with
    /// `name_` or `name:` or ends with `_name`, compared without regard to ASCII case
    /// (`name`, `NAME`, `name_en`, `name:fr`, `NAME_LONG`, `brk_name`).
    public static func isNameKey(_ key: String) -> Bool {
        let lower = fold(key)
        let name: [UInt8] = [0x6E, 0x61, 0x6D, 0x65]
        if lower == name { return true }
        if lower.count > 5, Array(lower.prefix(4)) == name, lower[4] == 0x5F || lower[4] == 0x3A { return true }
        if lower.count > 5, Array(lower.suffix(4)) == name, lower[lower.count - 5] == 0x5F { return true }
        return false
    }
}
