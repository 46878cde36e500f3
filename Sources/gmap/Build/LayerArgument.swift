import Foundation

/// One `--layer NAME=PATH[:IDPROP]` of `gmap build`.
struct LayerArgument {
    /// The layer's name.
    var name: String
    /// The input file.
    var path: String
    /// The id property, when given after the last colon.
    var idProperty: String?

    /// Splits `NAME=PATH[:IDPROP]`. The text after the last colon is the id property unless it
    /// contains a slash or the whole of `PATH:IDPROP` names an existing file.
    static func parse(_ text: String) throws -> LayerArgument {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw CommandFailure(message: "--layer '\(text)' must be NAME=PATH or NAME=PATH:IDPROP")
        }
        let name = String(text[..<equals])
        let rest = String(text[text.index(after: equals)...])
        if let colon = rest.lastIndex(of: ":"), !FileManager.default.fileExists(atPath: rest) {
            let id = String(rest[rest.index(after: colon)...])
            if !id.contains("/") {
                let path = String(rest[..<colon])
                guard !path.isEmpty, !id.isEmpty else { throw CommandFailure(message: "--layer '\(text)' must be NAME=PATH or NAME=PATH:IDPROP") }
                return LayerArgument(name: name, path: path, idProperty: id)
            }
        }
        guard !rest.isEmpty else { throw CommandFailure(message: "--layer '\(text)' names no input file") }
        return LayerArgument(name: name, path: rest, idProperty: nil)
    }
}
