/// Readable descriptions for `print` and the debugger: what a feature is (id, name, layer), not
/// the bytes it refers into. (`Placemark` and `PlaceMatch` print `Double`s, which Embedded Swift
/// cannot: they have no description there.)

extension Feature: CustomStringConvertible {
    /// `Feature(id: "CI", name: "Côte d'Ivoire", layer: "default", index: 54)`; `name: nil` when
    /// the feature kept no name property.
    public var description: String {
        "Feature(id: \(DescriptionText.quoted(id)), name: \(name.map(DescriptionText.quoted) ?? "nil"), layer: \(DescriptionText.quoted(layerName)), index: \(index))"
    }
}

#if !hasFeature(Embedded)
extension PlaceMatch: CustomStringConvertible {
    /// `PlaceMatch(inside, 0.0 m, Feature(id: "GI", …))`.
    public var description: String {
        "PlaceMatch(\(kind == .inside ? "inside" : "nearby"), \(distance) m, \(feature))"
    }
}

extension Placemark: CustomStringConvertible {
    /// The point, the fields that are set, and each layer's answers by id:
    /// `Placemark(latitude: 32.78, longitude: -96.8, isoCountryCode: "US", country: "United States",
    /// timeZone: "America/Chicago", answers: country [US], timezone [America/Chicago])`.
    public var description: String {
        var parts = ["latitude: \(latitude)", "longitude: \(longitude)"]
        let fields: [(String, String?)] = [
            ("isoCountryCode", isoCountryCode), ("country", country), ("administrativeArea", administrativeArea),
            ("administrativeAreaCode", administrativeAreaCode), ("subAdministrativeArea", subAdministrativeArea), ("timeZone", timeZone),
            ("thoroughfare", thoroughfare), ("subThoroughfare", subThoroughfare), ("postalCode", postalCode), ("name", name),
            ("locality", locality), ("subLocality", subLocality), ("inlandWater", inlandWater), ("ocean", ocean),
        ]
        for (label, value) in fields {
            if let value { parts.append("\(label): \(DescriptionText.quoted(value))") }
        }
        if !areasOfInterest.isEmpty { parts.append("areasOfInterest: [" + areasOfInterest.map(DescriptionText.quoted).joined(separator: ", ") + "]") }
        let layers = answers.map { answer in
            (answer.layer.isEmpty ? "" : answer.layer + " ") + "[" + answer.features.map(\.id).joined(separator: ", ") + "]"
        }
        parts.append("answers: " + layers.joined(separator: ", "))
        return "Placemark(" + parts.joined(separator: ", ") + ")"
    }
}
#endif

/// Quoting for descriptions.
enum DescriptionText {
    /// `text` between double quotes, with `"` and `\` escaped by a backslash.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            if scalar == "\"" || scalar == "\\" { result.unicodeScalars.append("\\") }
            result.unicodeScalars.append(scalar)
        }
        return result + "\""
    }
}
