/// A short, safe quotation of input bytes for an error message: at most ``maximumBytes`` bytes of the
/// input, with control characters, backslashes and invalid UTF-8 escaped, and `…` when more followed.
///
/// Every reader quotes what it could not read through this, so a message stays one short line
/// whatever the input holds: a number that runs to the end of a 600 KB buffer, a 100 MB line, binary
/// data, or text that would move the terminal's cursor.
public enum InputExcerpt {
    /// The most input bytes a message quotes.
    public static let maximumBytes = 40

    /// The first bytes of `bytes` (at most `limit`, cut at a character boundary), escaped:
    /// printable ASCII and valid UTF-8 as they are; `\` as `\\`; tab, line feed and carriage return
    /// as `\t`, `\n`, `\r`; other control characters (C0, DEL and C1) and bytes that are not UTF-8 as
    /// `\xHH`; then `…` when bytes were left out.
    public static func text<Bytes: Collection>(_ bytes: Bytes, limit: Int = maximumBytes) -> String where Bytes.Element == UInt8 {
        var out: [UInt8] = []
        var taken = 0
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            let length = sequenceLength(bytes, at: index)
            if taken + max(length, 1) > limit { break }
            if length <= 1 {
                appendEscaped(byte, isValid: length == 1, to: &out)
                taken += 1
                index = bytes.index(after: index)
            } else {
                var end = index
                for _ in 0..<length {
                    out.append(bytes[end])
                    end = bytes.index(after: end)
                }
                taken += length
                index = end
            }
        }
        if index != bytes.endIndex { out += [0xE2, 0x80, 0xA6] }  // …
        return String(decoding: out, as: UTF8.self)
    }

    /// ``text(_:limit:)`` of a string's UTF-8 bytes.
    public static func text(_ string: some StringProtocol, limit: Int = maximumBytes) -> String {
        text(string.utf8, limit: limit)
    }

    /// ``text(_:limit:)`` in single quotes: `'abc…'`.
    public static func quoted<Bytes: Collection>(_ bytes: Bytes, limit: Int = maximumBytes) -> String where Bytes.Element == UInt8 {
        "'" + text(bytes, limit: limit) + "'"
    }

    /// ``text(_:limit:)`` of a string, in single quotes.
    public static func quoted(_ string: some StringProtocol, limit: Int = maximumBytes) -> String {
        quoted(string.utf8, limit: limit)
    }

    /// Appends one ASCII byte (`isValid`) or a byte that is not UTF-8, escaped as needed.
    private static func appendEscaped(_ byte: UInt8, isValid: Bool, to out: inout [UInt8]) {
        switch byte {
        case 0x5C where isValid: out += [0x5C, 0x5C]
        case 0x09: out += [0x5C, 0x74]
        case 0x0A: out += [0x5C, 0x6E]
        case 0x0D: out += [0x5C, 0x72]
        case 0x20..<0x7F where isValid: out.append(byte)
        default:
            let digits: [UInt8] = Array("0123456789abcdef".utf8)
            out += [0x5C, 0x78, digits[Int(byte >> 4)], digits[Int(byte & 15)]]
        }
    }

    /// The length of the well-formed UTF-8 sequence at `index`: 1 for ASCII, 2…4 for a printable
    /// multi-byte character, 0 for a byte that starts none (or starts a C1 control, U+0080…U+009F,
    /// which is escaped byte by byte like one).
    private static func sequenceLength<Bytes: Collection>(_ bytes: Bytes, at index: Bytes.Index) -> Int where Bytes.Element == UInt8 {
        let first = bytes[index]
        if first < 0x80 { return 1 }
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch first {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return 0
        }
        var position = bytes.index(after: index)
        for step in 1..<length {
            guard position != bytes.endIndex else { return 0 }
            let byte = bytes[position]
            if step == 1 {
                guard byte >= low, byte <= high else { return 0 }
                if first == 0xC2, byte < 0xA0 { return 0 }  // C1 controls
            } else {
                guard byte >= 0x80, byte <= 0xBF else { return 0 }
            }
            position = bytes.index(after: position)
        }
        return length
    }
}
