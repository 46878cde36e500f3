import GMap

extension Placemark {
    /// Every field of the placemark and its answers (each layer's name, map and feature indexes),
    /// as text, for tests that compare two placemarks whole.
    public var comparableFields: [String] {
        let texts: [String?] = [isoCountryCode, country, administrativeArea, administrativeAreaCode, timeZone, ocean, inlandWater,
                                locality, localityDistance.map { "\($0)" }, subLocality, thoroughfare, subThoroughfare, postalCode, name]
        return ["\(latitude) \(longitude)"] + texts.map { $0 ?? "-" } + ["areas: \(areasOfInterest)"]
            + answers.map { "\($0.layer) \($0.map) \($0.features.map { $0.index })" }
    }
}
