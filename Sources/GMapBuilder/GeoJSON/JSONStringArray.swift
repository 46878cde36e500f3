/// Reads a JSON array of strings from its text (a property value the reader kept as compact JSON,
/// ``JSONValue/other(_:)``): a feature's list of other names.
enum JSONStringArray {
    /// The strings of `text` when it is a JSON array whose elements are all strings (whitespace
    /// allowed between tokens; every JSON escape decoded, a lone surrogate as U+FFFD); nil for
    /// anything else.
    static func strings(_ text: String) -> [String]? {
        var bytes = Array(text.utf8)[...]
        func skipSpace() { while let byte = bytes.first, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { bytes.removeFirst() } }
        skipSpace()
        guard bytes.first == UInt8(ascii: "[") else { return nil }
        bytes.removeFirst()
        var result: [String] = []
        skipSpace()
        if bytes.first == UInt8(ascii: "]") {
            bytes.removeFirst()
            skipSpace()
            return bytes.isEmpty ? result : nil
        }
        while true {
            skipSpace()
            guard let string = readString(&bytes) else { return nil }
            result.append(string)
            skipSpace()
            guard let next = bytes.first else { return nil }
            bytes.removeFirst()
            if next == UInt8(ascii: "]") { break }
            guard next == UInt8(ascii: ",") else { return nil }
        }
        skipSpace()
        return bytes.isEmpty ? result : nil
    }

    /// One JSON string at the start of `bytes` (its quotes included), consumed; nil when there is none.
    private static func readString(_ bytes: inout ArraySlice<UInt8>) -> String? {
        guard bytes.first == UInt8(ascii: "\"") else { return nil }
        bytes.removeFirst()
        var out: [UInt8] = []
        var pendingHigh: UInt32?
        func flushHigh() {
            if pendingHigh != nil { appendScalar(0xFFFD, to: &out) }
            pendingHigh = nil
        }
        while let byte = bytes.first {
            bytes.removeFirst()
            switch byte {
            case UInt8(ascii: "\""):
                flushHigh()
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let escape = bytes.first else { return nil }
                bytes.removeFirst()
                let simple: UInt8?
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): simple = escape
                case UInt8(ascii: "b"): simple = 0x08
                case UInt8(ascii: "f"): simple = 0x0C
                case UInt8(ascii: "n"): simple = 0x0A
                case UInt8(ascii: "r"): simple = 0x0D
                case UInt8(ascii: "t"): simple = 0x09
                case UInt8(ascii: "u"): simple = nil
                default: return nil
                }
                if let simple {
                    flushHigh()
                    out.append(simple)
                    continue
                }
                guard bytes.count >= 4, let value = UInt32(String(decoding: bytes.prefix(4), as: UTF8.self), radix: 16) else { return nil }
                bytes.removeFirst(4)
                if (0xD800...0xDBFF).contains(value) {
                    flushHigh()
                    pendingHigh = value
                } else if (0xDC00...0xDFFF).contains(value), let high = pendingHigh {
                    pendingHigh = nil
                    appendScalar(0x10000 + ((high - 0xD800) << 10) + (value - 0xDC00), to: &out)
                } else {
                    flushHigh()
                    appendScalar((0xDC00...0xDFFF).contains(value) ? 0xFFFD : value, to: &out)
                }
            default:
                flushHigh()
                out.append(byte)
            }
        }
        return nil
    }

    private static func appendScalar(_ value: UInt32, to out: inout [UInt8]) {
        let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
        out.append(contentsOf: Array(String(Character(scalar)).utf8))
    }
}
