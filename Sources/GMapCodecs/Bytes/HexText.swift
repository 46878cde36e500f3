/// Checksums and magic numbers as hexadecimal text, for error messages.
package enum HexText {
    /// `value` in lowercase hexadecimal, zero-padded to at least `count` digits ("0001abcd").
    package static func digits(_ value: UInt32, count: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, count - text.count)) + text
    }
}
