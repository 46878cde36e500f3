/// One sentence of a location callout, with the bearing of what it speaks about, so that an app
/// can play it from that direction (nil when it has none: "You are inside Kiasma, museum.").
public struct Callout: Sendable, Equatable {
    /// The sentence.
    public var text: String
    /// The bearing from the user to its subject, degrees clockwise from north.
    public var bearing: Double?
    /// Where its subject is (an intersection, a place), in degrees, so that an app can place a
    /// beacon on it; nil when it has none or the source does not say.
    public var latitude: Double?, longitude: Double?

    /// A callout from its parts.
    public init(text: String, bearing: Double?, latitude: Double? = nil, longitude: Double? = nil) {
        self.text = text
        self.bearing = bearing
        self.latitude = latitude
        self.longitude = longitude
    }
}

extension LocationSense {
    /// The sense in English sentences for a screen reader, e.g. `["You are heading north along
    /// Keskuskatu.", "Intersection with Aleksanterinkatu is 40 m north.", "Stockmann, department
    /// store, is 25 m east."]`: the texts of ``spokenCallouts(direction:)``.
    public func callouts(direction: (degrees: Double, isFacing: Bool)? = nil) -> [String] {
        spokenCallouts(direction: direction).map { $0.text }
    }

    /// ``spokenCallouts(direction:)`` with every name of a road, place or area given by `names`
    /// (a map's names in the user's language: ``MapLocationSource/localizedName(_:language:)``).
    public func spokenCallouts(direction: (degrees: Double, isFacing: Bool)? = nil, names: (String) -> String) -> [Callout] {
        spokenCallouts(direction: direction, naming: names)
    }

    /// The sense in English sentences, each with the bearing of its subject.
    ///
    /// - `direction` is the fix's (``LocationFix/direction``, or ``LocationUpdate/direction``):
    ///   "heading" for a course (where the user moves), "facing" for a compass (where they face).
    /// - Distances are whole metres with one of the eight compass sectors; a distance that rounds
    ///   to 0 m reads "at": "You are at the intersection with Kluuvikatu.".
    /// - Names listed with `;` (OSM's way of giving several) read "A and B"; what a place or
    ///   area is follows its name: "Kiasma, museum" (``LocationWords/kind(of:)``).
    public func spokenCallouts(direction: (degrees: Double, isFacing: Bool)? = nil) -> [Callout] {
        spokenCallouts(direction: direction, naming: { $0 })
    }

    private func spokenCallouts(direction: (degrees: Double, isFacing: Bool)?, naming: (String) -> String) -> [Callout] {
        typealias Words = LocationWords
        func place(_ place: NearbyPlace?) -> [Callout] {
            guard let place else { return [] }
            let name = Words.described(naming(place.name), category: place.category)
            if Words.roundedMetres(place.distance) == 0 { return [Callout(text: "You are at \(name).", bearing: nil)] }
            return [Callout(text: "\(name), is \(Words.metres(place.distance)) \(Compass.direction(place.bearing)).", bearing: place.bearing,
                            latitude: place.latitude, longitude: place.longitude)]
        }
        func nearestRoad(_ road: RoadMatch?) -> [Callout] {
            guard let road else { return [] }
            let name = Words.spoken(naming(road.name))
            if Words.roundedMetres(road.distance) == 0 { return [Callout(text: "You are on \(name).", bearing: nil)] }
            return [Callout(text: "Nearest road, \(name), is \(Words.metres(road.distance)) \(Compass.direction(road.bearing)).", bearing: road.bearing)]
        }
        switch self {
        case .unknown:
            return [Callout(text: "Nothing known nearby.", bearing: nil)]
        case .noLocation:
            return [Callout(text: "We don't have geolocation information.", bearing: nil)]
        case let .inside(area, road, nearestPlace):
            return [Callout(text: "You are inside \(Words.described(naming(area.name), category: area.category)).", bearing: nil)]
                + nearestRoad(road) + place(nearestPlace)
        case let .alongRoad(road, ahead, nearestPlace):
            let name = Words.spoken(naming(road.name))
            var lines: [Callout]
            if let direction {
                lines = [Callout(text: "You are \(direction.isFacing ? "facing" : "heading") \(Compass.direction(direction.degrees)) along \(name).",
                                 bearing: direction.degrees)]
            } else {
                lines = [Callout(text: "You are along \(name).", bearing: road.distance > 0 ? road.bearing : nil)]
            }
            if let ahead {
                let others = ahead.streetNames.filter { $0 != road.name }
                let names = Words.list((others.isEmpty ? [road.name] : others).map { Words.spoken(naming($0)) })
                if Words.roundedMetres(ahead.distance) == 0 {
                    lines.append(Callout(text: "You are at the intersection with \(names).", bearing: nil, latitude: ahead.latitude, longitude: ahead.longitude))
                } else {
                    lines.append(Callout(text: "Intersection with \(names) is \(Words.metres(ahead.distance)) \(Compass.direction(ahead.bearing)).",
                                         bearing: ahead.bearing, latitude: ahead.latitude, longitude: ahead.longitude))
                }
            }
            return lines + place(nearestPlace)
        case let .other(road, nearestPlace):
            return nearestRoad(road) + place(nearestPlace)
        }
    }

    /// "40 m" (whole metres).
    static func metres(_ distance: Double) -> String { LocationWords.metres(distance) }

    /// "A", "A and B", "A, B and C".
    static func list(_ names: [String]) -> String { LocationWords.list(names) }
}

/// The words of callouts: names, lists, distances and what a place is.
public enum LocationWords {
    /// Whole metres, 0 for what is not finite or below 0.
    public static func roundedMetres(_ distance: Double) -> Int {
        Int((distance.isFinite ? min(max(0, distance), 1e9) : 0).rounded())
    }

    /// "40 m" (whole metres).
    public static func metres(_ distance: Double) -> String {
        "\(roundedMetres(distance)) m"
    }

    /// "A", "A and B", "A, B and C".
    public static func list(_ names: [String]) -> String {
        guard names.count > 1, let last = names.last else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " and " + last
    }

    /// A name as spoken: OSM's `;`-separated values read as a list ("Äiti ja lapset;Kaksi lasta"
    /// → "Äiti ja lapset and Kaksi lasta"); empty parts are left out.
    public static func spoken(_ name: String) -> String {
        let bytes = Array(name.utf8)
        guard bytes.contains(UInt8(ascii: ";")) else { return name }
        let parts = bytes.split(separator: UInt8(ascii: ";")).map { trimmedText($0) }.filter { !$0.isEmpty }
        return parts.isEmpty ? name : list(parts)
    }

    /// What a place or area is, in words, from its `key=value` category: the value with `_` read
    /// as spaces (`tourism=museum` → "museum", `railway=tram_stop` → "tram stop"), or the key when
    /// the value says only `yes` (`building=yes` → "building"); empty for an empty category.
    public static func kind(of category: String) -> String {
        let bytes = Array(category.utf8)
        guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else { return words(bytes[...]) }
        let key = bytes[..<equals], value = bytes[(equals + 1)...]
        if value.isEmpty || value.elementsEqual("yes".utf8) { return words(key) }
        return words(value)
    }

    /// "Kiasma, museum": the spoken name and what it is, when that adds something.
    public static func described(_ name: String, category: String) -> String {
        let spokenName = spoken(name), what = kind(of: category)
        guard !what.isEmpty, !spokenName.utf8.elementsEqual(what.utf8) else { return spokenName }
        return "\(spokenName), \(what)"
    }

    /// The bytes as text with `_` read as spaces, trimmed.
    private static func words(_ bytes: ArraySlice<UInt8>) -> String {
        trimmedText(ArraySlice(bytes.map { $0 == UInt8(ascii: "_") ? UInt8(ascii: " ") : $0 }))
    }

    /// The bytes as text without spaces at either end.
    private static func trimmedText(_ bytes: ArraySlice<UInt8>) -> String {
        var part = bytes
        while part.first == UInt8(ascii: " ") { part = part.dropFirst() }
        while part.last == UInt8(ascii: " ") { part = part.dropLast() }
        return String(decoding: part, as: UTF8.self)
    }
}
