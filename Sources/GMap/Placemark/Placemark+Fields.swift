extension Placemark {
    static let countryLayers = ["country", "countries"]
    static let stateLayers = ["state", "states", "region", "regions", "province", "admin1", "subdivision"]
    static let timeZoneLayers = ["timezone", "timezones", "time_zone", "tz"]
    static let marineLayers = ["marine", "ocean", "oceans", "sea", "seas"]
    static let townLayers = ["towns", "town", "cities", "city", "localities", "locality"]
    static let codeProperties = ["iso_a2", "ISO_A2", "iso_3166_1", "iso_a2_eh"]
    static let nameProperties = ["name", "NAME", "name_en", "admin", "ADMIN"]

    /// Fills this empty placemark's polygon layers' fields from its ``answers`` (one per layer of
    /// `roles`, in order) by the mapping above. In place: a placemark made by an initializer and
    /// returned would be copied and destroyed once more, each of its strings retained and released.
    mutating func fillPolygonFields(from roles: PlacemarkLayers) {
        // The features of the layer at `index`, read in place (no copy of its answer).
        func features(_ index: Int?) -> [Feature] {
            guard let index, index < answers.count else { return [] }
            return answers[index].features
        }
        // Each text from the texts the roles keep (a MapStack's), else read from the feature.
        func kept(_ feature: Feature, _ layer: Int?) -> FeatureTexts? { layer.flatMap { roles.keptTexts(of: feature, inLayer: $0) } }
        func id(_ feature: Feature, _ texts: FeatureTexts?) -> String { texts?.id ?? feature.id }
        func name(_ feature: Feature, _ texts: FeatureTexts?) -> String? { texts.map({ $0.name }) ?? Self.name(of: feature) }
        func isSubdivision(_ feature: Feature, _ layer: Int?) -> Bool { kept(feature, layer)?.isSubdivision ?? Self.isSubdivisionCode(feature.id) }
        func isInland(_ feature: Feature, _ layer: Int?) -> Bool { kept(feature, layer)?.isInland ?? (feature.property("water") == "inland") }
        let countries = features(roles.country)
        var state = features(roles.state).first.map { (feature: $0, layer: roles.state) }
        if state == nil, roles.state == nil {
            state = countries.first { isSubdivision($0, roles.country) }.map { ($0, roles.country) }
        }
        if let state {
            let texts = kept(state.feature, state.layer)
            let code = id(state.feature, texts)
            administrativeAreaCode = code
            administrativeArea = name(state.feature, texts) ?? code
        }
        var country: (feature: Feature, texts: FeatureTexts?)?
        for feature in countries {
            let texts = kept(feature, roles.country)
            if let code = texts.map({ $0.code }) ?? Self.countryCode(of: feature) {
                isoCountryCode = code
                country = (feature, texts)
                break
            }
        }
        if isoCountryCode == nil, let code = administrativeAreaCode, Self.isSubdivisionCode(code) {
            isoCountryCode = String(code.prefix(2))
        }
        if country == nil, let feature = countries.first(where: { !isSubdivision($0, roles.country) }) {
            country = (feature, kept(feature, roles.country))
        }
        if let country {
            self.country = name(country.feature, country.texts)
        }
        if let zone = features(roles.timeZone).first {
            timeZone = kept(zone, roles.timeZone).map({ $0.timeZone }) ?? zone.property("tzid") ?? zone.id
        }
        let water = features(roles.marine)
        if let inland = water.first(where: { isInland($0, roles.marine) }) {
            let texts = kept(inland, roles.marine)
            inlandWater = name(inland, texts) ?? id(inland, texts)
        }
        // At sea: no country answers, and no state's code names one (as a ``MapStack`` has it).
        if countries.isEmpty, isoCountryCode == nil, let sea = water.first(where: { !isInland($0, roles.marine) }) {
            let texts = kept(sea, roles.marine)
            ocean = name(sea, texts) ?? id(sea, texts)
        }
    }

    /// The texts of a feature of a polygon layer that a placemark reads, read once by a
    /// ``MapStack`` for the layers it fills fields from (``PlacemarkLayers/keptTexts(of:inLayer:)``),
    /// so that a placemark neither searches properties nor makes these strings again. A class, so
    /// that looking one up retains one object rather than each of its strings.
    final class FeatureTexts: Sendable {
        /// The id.
        let id: String
        /// ``Placemark/name(of:)``.
        let name: String?
        /// ``Placemark/countryCode(of:)``.
        let code: String?
        /// Property `tzid`, else the id.
        let timeZone: String
        /// Whether property `water` is `inland`.
        let isInland: Bool
        /// Whether the id is an ISO 3166-2 code (``Placemark/isSubdivisionCode(_:)``).
        let isSubdivision: Bool

        init(_ feature: Feature) {
            let id = feature.id
            self.id = id
            name = Placemark.name(of: feature)
            code = Placemark.countryCode(of: feature)
            timeZone = feature.property("tzid") ?? id
            isInland = feature.property("water") == "inland"
            isSubdivision = Placemark.isSubdivisionCode(id)
        }
    }

    /// Makes `feature` the one answer of layer `index`, keeping the storage of the layer's array.
    mutating func answer(_ index: Int, with feature: Feature) {
        answers[index].features.removeAll(keepingCapacity: true)
        answers[index].features.append(feature)
    }

    /// An empty placemark of the point, with no answers: for instance one to pass to
    /// ``MapStack/placemark(latitude:longitude:into:)``, which fills it.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
        self.answers = []
    }

    static func name(of feature: Feature) -> String? {
        for key in nameProperties {
            if let value = feature.property(key), !value.isEmpty { return value }
        }
        return nil
    }

    static func countryCode(of feature: Feature) -> String? {
        // One pass over the properties (a placemark asks every country answer): of the code
        // properties whose value is two capitals, the first in `codeProperties` order.
        var best: (slot: Int, value: String)?
        for position in 0..<feature.propertyCount {
            guard let property = feature.propertyBytes(at: position), property.value.count == 2,
                  property.value.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }) else { continue }
            for (slot, key) in codeProperties.enumerated() where slot < (best?.slot ?? Int.max) && property.key.elementsEqual(key.utf8) {
                best = (slot, String(decoding: property.value, as: UTF8.self))
            }
        }
        if let best { return best.value }
        return isAlpha2(feature.id) ? feature.id : nil
    }

    /// Two ASCII capitals.
    static func isAlpha2(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { $0.count == 2 && $0.allSatisfy(isCapital) }
    }

    /// Two ASCII capitals, a hyphen, then one to three ASCII letters or digits (`US-TX`, `FR-75C`).
    static func isSubdivisionCode(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count >= 4, bytes.count <= 6, bytes[2] == 0x2D, isCapital(bytes[0]), isCapital(bytes[1]) else { return false }
            return bytes[3...].allSatisfy { isCapital($0) || ($0 >= 0x30 && $0 <= 0x39) }
        }
    }

    /// An ASCII capital A–Z.
    static func isCapital(_ byte: UInt8) -> Bool { byte >= 0x41 && byte <= 0x5A }
}
