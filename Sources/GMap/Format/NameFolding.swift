/// How names are compared by the name index (`NAME`, Spec/FORMAT.md section 5.10): case- and
/// accent-insensitively, by a small fixed table, so that the builder and every reader (Embedded
/// Swift included, with no Unicode data tables) fold a name to the same bytes.
///
/// Folding maps ASCII `A`–`Z` to `a`–`z`; letters of U+00C0…U+024F to their base letter in lower
/// case (`É` → `e`, `Ł` → `l`, `ß` → `ss`, `Æ` → `ae`, `Þ` → `th`); Greek capitals U+0391…U+03AB and
/// Cyrillic capitals U+0400…U+042F to their small letters; combining marks U+0300…U+036F to nothing;
/// every other scalar to itself. The result is UTF-8; other scripts are compared exactly.
///
/// ``fold(_:)`` is this folding alone (the keys of indexes written before format 3's word keys,
/// and layer names); ``normalized(_:)`` also turns punctuation and spacing into single spaces
/// between words, the keys of the index now (``wholeKeys(id:names:)``, ``indexKeys(id:names:)``).
public enum NameFolding {
    /// Base letters for U+00C0…U+024F: a letter, `.` to keep the scalar, `*` for a two-letter folding.
    private static let latin: StaticString = "aaaaaa*ceeeeiiiidnooooo.ouuuuy**aaaaaa*ceeeeiiiidnooooo.ouuuuy*yaaaaaaccccccccddddeeeeeeeeeegggggggghhhhiiiiiiiiii**jjkkkllllllllllnnnnnnnnnoooooo**rrrrrrssssssssttttttuuuuuuuuuuuuwwyyyzzzzzzs................................oo.............uu............................aaiioouuuuuuuuuu.aaaa....ggkkoooo..j...gg..nnaa....aaaaeeeeiiiioooorrrruuuusstt..hh......aaeeooooooooyy............................"

    /// The folded UTF-8 bytes of `text`, punctuation and spaces kept (see ``normalized(_:)``).
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

    static func append(_ scalar: Unicode.Scalar, to bytes: inout [UInt8]) {
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

    static func appendUTF8(_ value: UInt32, to bytes: inout [UInt8]) {
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

    /// Whether `scalar` separates words: folded to a space by ``normalized(_:)``. These are the
    /// ASCII scalars other than letters and digits (space, punctuation, symbols, controls),
    /// U+0080…U+00BF (Latin-1 controls, no-break space, punctuation and signs), the spaces and
    /// punctuation of General Punctuation U+2000…U+200A and U+2010…U+205F (dashes, quotation marks
    /// such as `’`, bullets), and U+3000…U+3002 and U+30FB (ideographic space, comma, full stop,
    /// katakana middle dot).
    public static func isSeparator(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return false
        case 0...0xBF, 0x2000...0x200A, 0x2010...0x205F, 0x3000...0x3002, 0x30FB: return true
        default: return false
        }
    }

    /// Whether `scalar` is left out by ``normalized(_:)``, besides the combining marks ``fold(_:)``
    /// drops: the invisible format characters U+200B…U+200F, U+2060…U+206F and U+FEFF (zero-width
    /// space and joiners, direction marks, byte order mark).
    static func isIgnorable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200B...0x200F, 0x2060...0x206F, 0xFEFF: return true
        default: return false
        }
    }

    /// The key of `text` for the name index of format 3 (Spec/FORMAT.md section 5.10): each scalar
    /// folded as by ``fold(_:)``, except that separators (``isSeparator(_:)``) become one space
    /// between words and invisible format characters are dropped; no space at the start or the
    /// end. `"Côte d'Ivoire"`, `" cote-d’ivoire "` and `"COTE D IVOIRE"` all give `cote d ivoire`;
    /// `"America/Buenos_Aires"` gives `america buenos aires`. The words of the key are the runs
    /// between its spaces.
    public static func normalized(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var space = false
        for scalar in text.unicodeScalars {
            if isSeparator(scalar) {
                space = !bytes.isEmpty
                continue
            }
            if isIgnorable(scalar) { continue }
            let end = bytes.count
            append(scalar, to: &bytes)
            if space && bytes.count > end {
                bytes.insert(0x20, at: end)
                space = false
            }
        }
        return bytes
    }

    /// The whole keys of a feature with this id and these name values (``isNameKey(_:)``), in this
    /// order, each once and none empty: for each text, its ``normalized(_:)`` key, then, when the text
    /// contains `/` (a time zone such as `America/Argentina/Buenos_Aires`), the key of the part after
    /// the last `/` (`buenos aires`). A query is matched against these (see ``NameMatch``).
    public static func wholeKeys(id: String, names: [String]) -> [[UInt8]] {
        var keys: [[UInt8]] = []
        func add(_ key: [UInt8]) {
            if !key.isEmpty && !keys.contains(key) { keys.append(key) }
        }
        for text in [id] + names {
            add(normalized(text))
            if let slash = text.utf8.lastIndex(of: 0x2F) {
                add(normalized(String(decoding: text.utf8[text.utf8.index(after: slash)...], as: UTF8.self)))
            }
        }
        return keys
    }

    /// One key of the name index: a whole key, or a word key cut from one.
    public struct IndexKey: Sendable, Hashable {
        /// The key's bytes: a whole key, or a word key (the end of a whole key from one of its spaces on).
        public let bytes: [UInt8]
        /// The whole key `bytes` is the end of (`bytes` itself for a whole key).
        public let whole: [UInt8]

        /// Whether the key is a word key: it starts with a space.
        public var isWordKey: Bool { bytes.first == 0x20 }
    }

    /// The keys the name index holds for a feature with this id and these name values, each once
    /// and in this order: for each whole key (``wholeKeys(id:names:)``), the whole key, then for each
    /// of its spaces, left to right, the **word key** from that space to the end (`cote d ivoire`
    /// gives `cote d ivoire`, ` d ivoire` and ` ivoire`). A key given by several whole keys is kept
    /// with the first.
    /// Where `key` starts in `whole` as a name index of compact points records it (Spec/FORMAT.md
    /// 5.12): 0 for `whole` itself, `2w` when `key` is `whole` from its `w`-th space on, `2w + 1`
    /// from just after it; nil when `key` is none of these.
    public static func compactKeyStart(of key: [UInt8], in whole: [UInt8]) -> Int? {
        if key == whole { return 0 }
        let start = whole.count - key.count
        guard start > 0, whole[start...].elementsEqual(key) else { return nil }
        if whole[start] == 0x20 { return 2 * whole[...start].reduce(0) { $0 + ($1 == 0x20 ? 1 : 0) } }
        if whole[start - 1] == 0x20 { return 2 * whole[..<start].reduce(0) { $0 + ($1 == 0x20 ? 1 : 0) } + 1 }
        return nil
    }

    public static func indexKeys(id: String, names: [String]) -> [IndexKey] {
        var keys: [IndexKey] = []
        func add(_ bytes: [UInt8], of whole: [UInt8]) {
            if !keys.contains(where: { $0.bytes == bytes }) { keys.append(IndexKey(bytes: bytes, whole: whole)) }
        }
        for whole in wholeKeys(id: id, names: names) {
            add(whole, of: whole)
            for (position, byte) in whole.enumerated() where byte == 0x20 {
                add(Array(whole[position...]), of: whole)
            }
        }
        return keys
    }

    /// Whether a name key (``isNameKey(_:)``) holds a name in a particular language other than
    /// English: its base is `name_` or its whole key `name:` followed by a language code of two or
    /// three letters (`name_de`, `NAME_JA`, `name:fr`, `name_zht`), not `name_en` or `name:en`. The
    /// geocoder counts such a name for less when nothing matches whole, as a town's other names.
    public static func isLanguageNameKey(_ key: String) -> Bool {
        let folded = fold(key)
        guard folded.count == 7 || folded.count == 8, folded.starts(with: Array("name".utf8)), folded[4] == 0x5F || folded[4] == 0x3A else { return false }
        let language = folded[5...]
        guard language.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A }) else { return false }
        return !language.elementsEqual("en".utf8)
    }

    /// Whether a property key names a feature for the name index. Its *base*, the part before the
    /// first `:` (the whole key without one), compared without regard to ASCII case, is `name`,
    /// `admin`, starts with `name_` or `formal_`, or ends with `_name`: `name`, `NAME`, `name_en`,
    /// `name:fr`, `NAME_LONG`, `brk_name`, `official_name:en`, and Natural Earth's `ADMIN`
    /// ("Ivory Coast"), `FORMAL_EN` ("Republic of Ivory Coast") and `NAME_EN`.
    public static func isNameKey(_ key: String) -> Bool {
        var base = fold(key)
        if let colon = base.firstIndex(of: 0x3A) { base = Array(base[..<colon]) }
        let name: [UInt8] = [0x6E, 0x61, 0x6D, 0x65], admin: [UInt8] = [0x61, 0x64, 0x6D, 0x69, 0x6E]
        let formal: [UInt8] = [0x66, 0x6F, 0x72, 0x6D, 0x61, 0x6C, 0x5F]
        if base == name || base == admin { return true }
        if base.count > 5, Array(base.prefix(4)) == name, base[4] == 0x5F { return true }
        if base.count > 5, Array(base.suffix(4)) == name, base[base.count - 5] == 0x5F { return true }
        if base.count > formal.count, Array(base.prefix(formal.count)) == formal { return true }
        return false
    }
}
