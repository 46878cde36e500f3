import GMap

/// JSON text for the export: string literals, and property values in their kept kind.
enum JSONWriting {
    /// Appends `text` as a JSON string literal: `"` and `\` escaped, control characters as
    /// `\n`, `\r`, `\t`, `\b`, `\f` or `\u00XX`, everything else as UTF-8.
    static func appendString(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                          hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends a property's value in its kind: a number or compact JSON as stored, `true`/`false`,
    /// `null`, or a string. Returns false when the stored text is not valid JSON of its kind (a
    /// map written by other code could hold that); the text is then written as a string.
    @discardableResult
    static func appendValue(_ property: Property, to bytes: inout [UInt8]) -> Bool {
        switch property.kind {
        case .string:
            appendString(property.value, to: &bytes)
            return true
        case .null:
            bytes.append(contentsOf: "null".utf8)
            return property.value.isEmpty
        case .boolean where property.value == "true" || property.value == "false",
             .number where JSONSyntax.isNumber(property.value),
             .json where JSONSyntax.isArrayOrObject(property.value):
            bytes.append(contentsOf: property.value.utf8)
            return true
        case .boolean, .number, .json:
            appendString(property.value, to: &bytes)
            return false
        }
    }
}

/// Checks text against the JSON grammar (RFC 8259), so that the export never writes broken JSON.
enum JSONSyntax {
    /// Whether `text` is exactly one JSON number.
    static func isNumber(_ text: String) -> Bool {
        var scanner = Scanner(Array(text.utf8))
        return scanner.number() && scanner.atEnd
    }

    /// Whether `text` is exactly one JSON array or object (whitespace around it allowed).
    static func isArrayOrObject(_ text: String) -> Bool {
        var scanner = Scanner(Array(text.utf8))
        scanner.skipWhitespace()
        guard let first = scanner.peek, first == UInt8(ascii: "[") || first == UInt8(ascii: "{") else { return false }
        guard scanner.value(depth: 0) else { return false }
        scanner.skipWhitespace()
        return scanner.atEnd
    }

    private struct Scanner {
        let bytes: [UInt8]
        var position = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { position == bytes.count }
        var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

        mutating func skipWhitespace() {
            while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
        }

        mutating func consume(_ byte: UInt8) -> Bool {
            guard peek == byte else { return false }
            position += 1
            return true
        }

        mutating func literal(_ word: String) -> Bool {
            for byte in word.utf8 where !consume(byte) { return false }
            return true
        }

        mutating func digits() -> Int {
            var count = 0
            while let byte = peek, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                position += 1
                count += 1
            }
            return count
        }

        mutating func number() -> Bool {
            _ = consume(UInt8(ascii: "-"))
            if consume(UInt8(ascii: "0")) {
                // No leading zeros.
            } else if digits() == 0 {
                return false
            }
            if consume(UInt8(ascii: ".")), digits() == 0 { return false }
            if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
                if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
                if digits() == 0 { return false }
            }
            return true
        }

        mutating func string() -> Bool {
            guard consume(UInt8(ascii: "\"")) else { return false }
            while let byte = peek {
                position += 1
                switch byte {
                case UInt8(ascii: "\""): return true
                case UInt8(ascii: "\\"):
                    guard let escaped = peek else { return false }
                    position += 1
                    if escaped == UInt8(ascii: "u") {
                        for _ in 0..<4 {
                            guard let hex = peek, (hex >= 0x30 && hex <= 0x39) || (hex | 0x20 >= 0x61 && hex | 0x20 <= 0x66) else { return false }
                            position += 1
                        }
                    } else if !"\"\\/bfnrt".utf8.contains(escaped) {
                        return false
                    }
                case 0..<0x20: return false
                default: continue
                }
            }
            return false
        }

        mutating func value(depth: Int) -> Bool {
            guard depth < 512 else { return false }
            skipWhitespace()
            guard let byte = peek else { return false }
            switch byte {
            case UInt8(ascii: "{"):
                position += 1
                skipWhitespace()
                if consume(UInt8(ascii: "}")) { return true }
                repeat {
                    skipWhitespace()
                    guard string() else { return false }
                    skipWhitespace()
                    guard consume(UInt8(ascii: ":")), value(depth: depth + 1) else { return false }
                    skipWhitespace()
                } while consume(UInt8(ascii: ","))
                return consume(UInt8(ascii: "}"))
            case UInt8(ascii: "["):
                position += 1
                skipWhitespace()
                if consume(UInt8(ascii: "]")) { return true }
                repeat {
                    guard value(depth: depth + 1) else { return false }
                    skipWhitespace()
                } while consume(UInt8(ascii: ","))
                return consume(UInt8(ascii: "]"))
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            default: return number()
            }
        }
    }
}
