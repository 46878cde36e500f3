import GMap

/// `gmap query` on a map of several layers: one `layer=id` pair per layer, tab-separated, or the placemark in JSON.
enum LayeredQuery {
    /// Prints the answer for one point; exits 1 when no layer has one.
    /// `hint` is called after a miss for text to add to the message (the swapped-coordinates hint).
    static func answer(map: GMap, coordinate: CoordinateParser.Coordinate, style: OutputStyle, asked: (String, String),
                       hint: () -> String = { "" }) throws -> Int32 {
        try answer(map.placemark(latitude: coordinate.latitude, longitude: coordinate.longitude), style: style, asked: asked, hint: hint)
    }

    /// Prints `placemark` (of one map or of a stack); exits 1 when no layer has an answer.
    static func answer(_ placemark: Placemark, style: OutputStyle, asked: (String, String), hint: () -> String = { "" }) throws -> Int32 {
        guard !placemark.isEmpty else {
            if style.json { StandardOutput.shared.write("null\n") }
            throw CommandFailure(message: "no feature of any layer contains (\(asked.0), \(asked.1))\(hint())", code: ExitCode.notFound)
        }
        StandardOutput.shared.write(render(placemark, style: style) + "\n")
        return ExitCode.success
    }

    /// `country=US<tab>state=US-TX<tab>timezone=America/Chicago` (every layer, empty after `=` when it has
    /// no answer; with `--all`, all answers joined by commas, smallest first), or the JSON placemark.
    /// `featureJSON` writes one feature (batch queries pass one that makes each feature's text once).
    static func render(_ placemark: Placemark, style: OutputStyle, featureJSON: (Feature) -> String = JSONText.feature) -> String {
        var output: [UInt8] = []
        write(placemark, style: style, to: &output, featureJSON: featureJSON)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends ``render(_:style:featureJSON:)``'s text to `output`: without `--json`, written as
    /// bytes, without making the strings (the batch path of a map of several layers).
    static func write(_ placemark: Placemark, style: OutputStyle, to output: inout [UInt8], featureJSON: (Feature) -> String = JSONText.feature) {
        if style.json {
            writeJSON(placemark, to: &output, featureJSON: featureJSON)
            return
        }
        for (position, answer) in placemark.answers.enumerated() {
            if position > 0 { output.append(0x09) }  // a tab: values hold spaces (marine=North Atlantic Ocean)
            output.append(contentsOf: answer.layer.utf8)
            output.append(0x3D)
            for (rank, feature) in answer.features.enumerated() {
                if rank > 0 {
                    guard style.all else { break }
                    output.append(0x2C)
                }
                appendID(of: feature, to: &output)
            }
        }
    }

    /// Appends a feature's id: its bytes as stored when they are ASCII, else the id as text (so
    /// invalid UTF-8 reads as U+FFFD, as ``Feature/id`` gives it).
    static func appendID(of feature: Feature, to output: inout [UInt8]) {
        let bytes = feature.idBytes
        if bytes.allSatisfy({ $0 < 0x80 }) {
            output.append(contentsOf: bytes)
        } else {
            output.append(contentsOf: feature.id.utf8)
        }
    }

    /// A field's value: text, or a number of metres.
    enum FieldValue {
        case string(String)
        case metres(Double)
        case strings([String])

        var json: String {
            switch self {
            case .string(let text): return JSONText.string(text)
            case .metres(let metres): return String((metres * 10).rounded() / 10)
            case .strings(let texts): return "[" + texts.map(JSONText.string).joined(separator: ",") + "]"
            }
        }

        var text: String {
            switch self {
            case .string(let text): return text
            case .metres(let metres): return "\(Int(metres.rounded())) m"
            case .strings(let texts): return texts.joined(separator: "; ")
            }
        }

        /// Appends ``text``'s UTF-8 bytes to `output` without making the string.
        func append(to output: inout [UInt8]) {
            switch self {
            case .string(let text):
                output.append(contentsOf: text.utf8)
            case .metres(let metres):
                let whole = Int(metres.rounded())
                if whole < 0 { output.append(0x2D) }
                // The digits written from the last, in place (a reversed slice would be a copy).
                var rest = whole.magnitude, digits = 1
                while rest >= 10 {
                    rest /= 10
                    digits += 1
                }
                output.append(contentsOf: repeatElement(0x30, count: digits))
                rest = whole.magnitude
                for position in stride(from: output.count - 1, through: output.count - digits, by: -1) {
                    output[position] = 0x30 + UInt8(rest % 10)
                    rest /= 10
                }
                output.append(contentsOf: " m".utf8)
            case .strings(let texts):
                for (position, text) in texts.enumerated() {
                    if position > 0 { output.append(contentsOf: "; ".utf8) }
                    output.append(contentsOf: text.utf8)
                }
            }
        }
    }

    /// The placemark's known fields, with CLPlacemark's names, in the order JSON prints them.
    static func fields(_ placemark: Placemark) -> [(String, FieldValue)] {
        var fields: [(String, FieldValue)] = []
        forEachField(of: placemark) { fields.append(($0, $1)) }
        return fields
    }

    /// Calls `body` with each of the placemark's known fields, as ``fields(_:)`` lists them,
    /// without making the list (the batch path writes them as they come).
    static func forEachField(of placemark: Placemark, _ body: (String, FieldValue) -> Void) {
        func add(_ name: String, _ value: String?) { if let value { body(name, .string(value)) } }
        add("isoCountryCode", placemark.isoCountryCode)
        add("country", placemark.country)
        add("administrativeArea", placemark.administrativeArea)
        add("administrativeAreaCode", placemark.administrativeAreaCode)
        add("subAdministrativeArea", placemark.subAdministrativeArea)
        add("timeZone", placemark.timeZone)
        add("thoroughfare", placemark.thoroughfare)
        add("subThoroughfare", placemark.subThoroughfare)
        add("postalCode", placemark.postalCode)
        add("name", placemark.name)
        add("locality", placemark.locality)
        if let distance = placemark.localityDistance { body("localityDistance", .metres(distance)) }
        add("subLocality", placemark.subLocality)
        add("inlandWater", placemark.inlandWater)
        add("ocean", placemark.ocean)
        if !placemark.areasOfInterest.isEmpty { body("areasOfInterest", .strings(placemark.areasOfInterest)) }
    }

    /// The keys of `"layers"`, one per answer: the layer's name, and for a layer whose name an
    /// earlier map of a stack already has, the name followed by `#` and the map's position from 1
    /// (`roads#2`), so that no key repeats.
    static func layerKeys(_ placemark: Placemark) -> [String] {
        var keys: [String] = []
        for answer in placemark.answers {
            var key = answer.layer
            if keys.contains(key) { key += "#\(answer.map + 1)" }
            var extra = 2
            while keys.contains(key) {
                key = "\(answer.layer)#\(answer.map + 1).\(extra)"
                extra += 1
            }
            keys.append(key)
        }
        return keys
    }

    /// The placemark: the familiar fields (null when unknown) and every layer's features, smallest first.
    static func json(_ placemark: Placemark, featureJSON: (Feature) -> String = JSONText.feature) -> String {
        var output: [UInt8] = []
        writeJSON(placemark, to: &output, featureJSON: featureJSON)
        return String(decoding: output, as: UTF8.self)
    }

    /// The fields JSON always has, `null` when unknown; the others only where known.
    private static let alwaysInJSON = ["isoCountryCode", "country", "administrativeArea", "administrativeAreaCode", "timeZone"]

    /// Appends ``json(_:featureJSON:)``'s text to `output` (the batch path writes it as it comes).
    static func writeJSON(_ placemark: Placemark, to output: inout [UInt8], featureJSON: (Feature) -> String = JSONText.feature) {
        func append(_ text: String) { output.append(contentsOf: text.utf8) }
        output.append(0x7B)
        let always = [placemark.isoCountryCode, placemark.country, placemark.administrativeArea, placemark.administrativeAreaCode, placemark.timeZone]
        for (position, name) in alwaysInJSON.enumerated() {
            if position > 0 { output.append(0x2C) }
            append(JSONText.string(name))
            output.append(0x3A)
            append(always[position].map(JSONText.string) ?? "null")
        }
        // The fields of other layers (marine, towns, a location map's streets), only where known.
        forEachField(of: placemark) { name, value in
            guard !alwaysInJSON.contains(name) else { return }
            output.append(0x2C)
            append(JSONText.string(name))
            output.append(0x3A)
            append(value.json)
        }
        append(",\"layers\":{")
        for (position, (key, answer)) in zip(layerKeys(placemark), placemark.answers).enumerated() {
            if position > 0 { output.append(0x2C) }
            append(JSONText.string(key))
            append(":[")
            for (rank, feature) in answer.features.enumerated() {
                if rank > 0 { output.append(0x2C) }
                append(featureJSON(feature))
            }
            output.append(0x5D)
        }
        append("}}")
    }
}
