/// A town's or a state's place in its country, as the world map's towns and states keep it
/// (properties `country_code`, `admin1_code`, `admin1` and `admin2`), in the forms a placemark
/// gives them (CLPlacemark's): the state as the USPS code in the United States (`CA`) and as its
/// name elsewhere (`Bavaria`), its code after the country's (`US-CA`), the county by name.
struct TownAdministration {
    /// The ISO 3166-1 alpha-2 code of the country (`country_code`, else `iso_a2`).
    var country: String?
    /// GeoNames' admin1 code of the state (`admin1_code`): the USPS code in the United States.
    var stateCode: String?
    /// The state's name (`admin1`).
    var stateName: String?
    /// The county's name (`admin2`).
    var county: String?

    /// The values of a town or a state.
    init(_ feature: Feature) {
        country = Geocoder.townCountryCode(feature)
        stateCode = feature.property("admin1_code").flatMap { $0.isEmpty ? nil : $0 }
        stateName = feature.property("admin1").flatMap { $0.isEmpty ? nil : $0 }
        county = feature.property("admin2").flatMap { $0.isEmpty ? nil : $0 }
    }

    /// ``Placemark/administrativeArea``: the code in the United States, else the name (`name`
    /// when given: a state's own), else the code.
    func stateForm(name: String? = nil) -> String? {
        if let country, Self.namesStatesByCode(country), let stateCode { return stateCode }
        return name ?? stateName ?? stateCode
    }

    /// Whether a placemark of country `country` gives its state as the code (the United States:
    /// CLGeocoder gives the USPS code, `CA`), not the name.
    static func namesStatesByCode(_ country: String) -> Bool { country == "US" }

    /// ``Placemark/administrativeAreaCode``: the country's code, a hyphen and the state's (`US-CA`, `DE-02`).
    var code: String? {
        guard let country, let stateCode else { return nil }
        return country + "-" + stateCode
    }
}

extension Placemark {
    /// The placemark of a geocoding match, as CLGeocoder gives one: the placemark of the match's
    /// point (``GeocodeMatch/placemark``), with the fields the match itself gives put in place of
    /// what the point's own would say: its name; a town's name as the ``locality`` (distance 0)
    /// and its state and county; a state's; a country's name and code; an address's street,
    /// house number and postal code.
    public init(geocoded match: GeocodeMatch) {
        self = match.placemark
        name = match.name
        switch match.kind {
        case .town:
            locality = match.name
            localityDistance = 0
        case .country:
            country = match.name
            subAdministrativeArea = nil
            administrativeArea = nil
            administrativeAreaCode = nil
            locality = nil
            localityDistance = nil
        case .state:
            subAdministrativeArea = nil
            locality = nil
            localityDistance = nil
        default:
            break
        }
        if let code = match.isoCountryCode, code != isoCountryCode {
            isoCountryCode = code
            country = match.kind == .country ? match.name : nil
        }
        if match.administrativeArea != nil || match.administrativeAreaCode != nil {
            administrativeArea = match.administrativeArea
            administrativeAreaCode = match.administrativeAreaCode
            subAdministrativeArea = match.subAdministrativeArea
        }
        if let street = match.thoroughfare {
            thoroughfare = street
            subThoroughfare = match.subThoroughfare
        }
        if let code = match.postalCode { postalCode = code }
    }
}

extension Placemark {
    /// The name of the placemark's country in `language` (an ISO 639 code: `de`, `fi`, `ja`), as
    /// its country layer's feature has it: property `name_LL`, `name:LL` or `NAME_LL` (the
    /// shipped map's Natural Earth names in 26 languages and CLDR's in each country's own); nil
    /// when the feature has none, or the placemark has no country.
    public func country(inLanguage language: String) -> String? {
        guard !language.isEmpty else { return nil }
        let keys = ["name_" + language, "name:" + language, "NAME_" + String(language.unicodeScalars.map { $0.value >= 0x61 && $0.value <= 0x7A ? Character(Unicode.Scalar($0.value - 0x20) ?? $0) : Character($0) })]
        for answer in answers where Placemark.countryLayers.contains(String(decoding: NameFolding.fold(answer.layer), as: UTF8.self)) {
            for feature in answer.features where isoCountryCode == nil || Placemark.countryCode(of: feature) == isoCountryCode {
                for key in keys {
                    if let name = feature.property(key), !name.isEmpty { return name }
                }
            }
        }
        return nil
    }
}
