import GMap

/// Writes the JSON that `gmap query --json` prints.
enum JSONText {
    /// A JSON string literal.
    static func string(_ text: String) -> String {
        // Most text needs no escape: then it is copied whole (batch --json prints millions).
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) { return "\"" + text + "\"" }
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// A property value in JSON, with its original kind.
    static func value(_ property: Property) -> String {
        switch property.kind {
        case .string: return string(property.value)
        case .number, .json: return property.value.isEmpty ? "null" : property.value
        case .boolean: return property.value == "true" ? "true" : "false"
        case .null: return "null"
        }
    }

    /// `{"id": …, "properties": {…}}` for one feature.
    static func feature(_ feature: Feature) -> String {
        let properties = feature.properties.map { "\(string($0.key)):\(value($0))" }.joined(separator: ",")
        return "{\"id\":\(string(feature.id)),\"properties\":{\(properties)}}"
    }
}
