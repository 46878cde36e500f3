/// A latitude and longitude typed where a geocoder expects a name ("60.1690, 24.9396",
/// "60.1690 24.9396", "-33.87,151.21"): answered as the point itself (``GeocodeKind/coordinates``).
enum TypedCoordinates {
    /// The point `text` is: two decimal numbers (an optional sign, digits, an optional fraction)
    /// separated by a comma, spaces or both, latitude first, within ±90 and ±180, with a comma or
    /// a decimal point somewhere (so that "12 14", a house number's range, is not a point); nil
    /// for anything else (a name with a number, one number, three numbers).
    static func parse(_ text: String) -> (latitude: Double, longitude: Double)? {
        var numbers: [Double] = []
        var current = "", sawComma = false, sawPoint = false
        func finish() -> Bool {
            guard !current.isEmpty else { return true }
            guard let value = Double(current), value.isFinite else { return false }
            numbers.append(value)
            current = ""
            return true
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "0"..."9", ".":
                if scalar == "." { sawPoint = true }
                current.unicodeScalars.append(scalar)
            case "-", "+":
                guard current.isEmpty else { return nil }
                current.unicodeScalars.append(scalar)
            case ",":
                guard !sawComma, finish(), numbers.count == 1 else { return nil }
                sawComma = true
            case " ", "\t":
                guard finish() else { return nil }
            default:
                return nil
            }
        }
        guard finish(), numbers.count == 2, sawComma || sawPoint else { return nil }
        let latitude = numbers[0], longitude = numbers[1]
        guard abs(latitude) <= 90, abs(longitude) <= 180 else { return nil }
        return (latitude, longitude)
    }

    /// The one match of a typed point: named by its placemark on the first of `maps` that has one
    /// (the locality, the state, the country or the ocean, whichever it has first), with the
    /// first feature that placemark answers with; none when no map answers there.
    static func matches(_ point: (latitude: Double, longitude: Double), in maps: [GMap]) -> [GeocodeMatch] {
        let placemark = MapStack(maps).placemark(latitude: point.latitude, longitude: point.longitude)
        guard let feature = placemark.answers.lazy.compactMap({ $0.features.first }).first else { return [] }
        var match = GeocodeMatch(kind: .coordinates, name: placemark.locality ?? placemark.name ?? placemark.administrativeArea
                                 ?? placemark.country ?? placemark.ocean ?? feature.id,
                                 latitude: point.latitude, longitude: point.longitude,
                                 boundingBox: (point.longitude, point.latitude, point.longitude, point.latitude), feature: feature, match: .exact)
        match.thoroughfare = placemark.thoroughfare
        match.subThoroughfare = placemark.subThoroughfare
        match.postalCode = placemark.postalCode
        match.isoCountryCode = placemark.isoCountryCode
        match.administrativeArea = placemark.administrativeArea
        match.administrativeAreaCode = placemark.administrativeAreaCode
        match.subAdministrativeArea = placemark.subAdministrativeArea
        return [match]
    }
}
