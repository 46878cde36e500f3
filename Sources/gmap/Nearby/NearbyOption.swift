import GMap

/// `gmap query … --nearest DISTANCE`: parsing the radius, and printing answers that may be nearby.
enum NearbyOption {
    /// Parses a radius: a plain decimal number with an optional unit, `m` or `km` (`500m`, `2.5km`,
    /// `10 km`); no unit means metres. Negative, non-numeric and over-large radii (above `maximum`
    /// metres) are errors, named as `option` (`--nearest`; `gmap nearby`'s `--within`).
    static func metres(_ text: String, option: String, maximum: Double) throws -> Double {
        let examples = "for example 500m or 10km; a plain number is metres"
        // The unit is the trailing run of letters; the rest, without trailing spaces, is the number.
        var unitStart = text.endIndex
        while unitStart > text.startIndex, text[text.index(before: unitStart)].isLetter { unitStart = text.index(before: unitStart) }
        var number = text[..<unitStart]
        while number.last == " " { number = number.dropLast() }
        let unit = text[unitStart...].lowercased()
        guard let value = CoordinateParser.number(number) else {
            throw CommandFailure(message: "\(option) '\(text)' is not a distance (\(examples))")
        }
        let scale: Double
        switch unit {
        case "", "m": scale = 1
        case "km": scale = 1000
        default: throw CommandFailure(message: "\(option) '\(text)': unknown unit '\(text[unitStart...])'; use m or km (\(examples))")
        }
        let metres = value * scale
        guard metres >= 0 else { throw CommandFailure(message: "\(option) '\(text)' must not be negative") }
        guard metres <= maximum else {
            let largest = maximum >= 1000 && maximum.truncatingRemainder(dividingBy: 1000) == 0 ? "\(Int(maximum / 1000))km" : "\(Int(maximum))m"
            throw CommandFailure(message: "\(option) '\(text)' is more than the largest radius, \(largest)")
        }
        return metres
    }

    /// One answer as `gmap query --nearest` prints it: the id when inside, `ID nearby METRES m` when
    /// nearby (whole metres); with `json`, the feature's JSON plus `"match"` and `"distance_m"` (0.1 m).
    static func render(_ match: PlaceMatch, json: Bool) -> String {
        if json {
            let feature = JSONText.feature(match.feature)
            let kind = match.kind == .inside ? "inside" : "nearby"
            return feature.dropLast() + ",\"match\":\"\(kind)\",\"distance_m\":\(tenths(match.distance))}"
        }
        switch match.kind {
        case .inside: return match.feature.id
        case .nearby: return "\(match.feature.id) nearby \(Int(match.distance.rounded())) m"
        }
    }

    /// A distance in metres with at most one decimal, as JSON.
    static func tenths(_ metres: Double) -> String {
        let rounded = (metres * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
