import GMapBuilder

/// Options whose value is a size in bytes: `--max-string 128M`, `--max-line 4M`.
enum SizeOption {
    /// The bytes `name` gives (`64M`, `2G`, `1048576`; see ``InputLimits/parseSize(_:)``), or `value`
    /// without it; a size that is not one is an error saying how to write it.
    static func bytes(_ list: ArgumentList, _ name: String, default value: Int) throws -> Int {
        guard let text = list.value(name) else { return value }
        guard let bytes = InputLimits.parseSize(text) else {
            throw CommandFailure(message: "\(name) \(InputExcerpt.quoted(text)) must be a size above 0 in bytes, or with K, M or G (KiB, MiB, GiB), such as 64M (default \(InputLimits.size(value)))")
        }
        return bytes
    }
}
