import GMap

/// `gmap query` on a map of several layers: one `layer=id` pair per layer, or the placemark in JSON.
enum LayeredQuery {
    /// Prints the answer for one point; exits 1 when no layer has one.
    /// `hint` is called after a miss for text to add to the message (the swapped-coordinates hint).
    static func answer(map: GMap, coordinate: CoordinateParser.Coordinate, style: OutputStyle, asked: (String, String),
                       hint: () -> String = { "" }) throws -> Int32 {
        let placemark = map.placemark(latitude: coordinate.latitude, longitude: coordinate.longitude)
        guard !placemark.isEmpty else {
            if style.json { StandardOutput.shared.write("null\n") }
            throw CommandFailure(message: "no feature of any layer contains (\(asked.0), \(asked.1))\(hint())", code: ExitCode.notFound)
        }
        StandardOutput.shared.write(render(placemark, style: style) + "\n")
        return ExitCode.success
    }

    /// `country=US state=US-TX timezone=America/Chicago` (every layer, empty after `=` when it has
    /// no answer; with `--all`, all answers joined by commas, smallest first), or the JSON placemark.
    static func render(_ placemark: Placemark, style: OutputStyle) -> String {
        if style.json { return json(placemark) }
        return placemark.answers.map { answer in
            let ids = style.all ? answer.features.map(\.id) : answer.features.prefix(1).map(\.id)
            return answer.layer + "=" + ids.joined(separator: ",")
        }.joined(separator: " ")
    }

    /// The placemark: the familiar fields (null when unknown) and every layer's features, smallest first.
    static func json(_ placemark: Placemark) -> String {
        func field(_ name: String, _ value: String?) -> String {
            JSONText.string(name) + ":" + (value.map(JSONText.string) ?? "null")
        }
        var fields = [
            field("isoCountryCode", placemark.isoCountryCode), field("country", placemark.country),
            field("administrativeArea", placemark.administrativeArea), field("administrativeAreaCode", placemark.administrativeAreaCode),
            field("timeZone", placemark.timeZone),
        ]
        // A location map's street fields, only where they are known (other maps never have them).
        for (name, value) in [("thoroughfare", placemark.thoroughfare), ("subThoroughfare", placemark.subThoroughfare),
                              ("postalCode", placemark.postalCode), ("name", placemark.name)] where value != nil {
            fields.append(field(name, value))
        }
        if !placemark.areasOfInterest.isEmpty {
            fields.append(JSONText.string("areasOfInterest") + ":[" + placemark.areasOfInterest.map(JSONText.string).joined(separator: ",") + "]")
        }
        let layers = placemark.answers.map { answer in
            JSONText.string(answer.layer) + ":[" + answer.features.map(JSONText.feature).joined(separator: ",") + "]"
        }
        return "{" + fields.joined(separator: ",") + ",\"layers\":{" + layers.joined(separator: ",") + "}}"
    }
}
