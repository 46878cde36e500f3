import Foundation
import GMap
import GMapCodecs

/// `gmap geocode [MAP | --map FILE ...] TEXT [--near LAT,LON] [--region LAT,LON,M] [--limit N] [--json]`,
/// or the address in fields (`--street`, `--city`, …): forward geocoding, through
/// ``GMap/geocode(_:near:limit:)`` and ``MapStack/geocode(_:near:limit:)``.
enum GeocodeCommand: Command {
    static let name = "geocode"
    static let summary = "addresses, streets, places, towns, states and countries by name: where they are"
    /// Its options, in the order of its help.
    static let options: [CommandOption] = [
        Option.near, Option.region, Option.limit,
        .json.documented("""
            print [{"kind", "name", "latitude", "longitude", "bbox", "layer", "id",
            "match", and when known "matchedName", "thoroughfare", "subThoroughfare",
            "postalCode", "isoCountryCode", "administrativeArea",
            "administrativeAreaCode", "subAdministrativeArea", "category",
            "distance_m", "unmatched"}]
            """),
        Option.street, Option.city, Option.state, Option.postalCode, Option.country,
        StackedMaps.map.documented("""
            search this map too (repeatable): the maps given, then the shipped world
            map, as one (a city's map answers the street, the world map the town,
            state and country around it)
            """),
        StackedMaps.noWorld.documented("with --map: leave the shipped world map out"),
    ]

    /// The options only geocode takes.
    enum Option {
        /// `--near LAT,LON`: the point that ranks matches of one kind.
        static let near = CommandOption.value("--near", "LAT,LON",
                                              help: "rank matches of one kind by their distance from this point (shown in m)")
        /// `--region LAT,LON,METRES`: a circle whose matches rank first (CLGeocoder's inRegion).
        static let region = CommandOption.value("--region", "LAT,LON,M", help: """
            prefer matches within M metres of the point, as CLGeocoder's inRegion:
            they rank before the others of the same kind and standing
            """)
        /// `--limit N`: the most matches printed.
        static let limit = CommandOption.value("--limit", "N", rule: .wholeNumber(1...Int.max, .afterValue("is not a whole number ≥ 1")),
                                               help: "print at most N matches (default \(defaultLimit))")
        /// `--street TEXT`: the street and house number of an address given in fields.
        static let street = CommandOption.value("--street", "TEXT", help: """
            an address in fields instead of TEXT (as CNPostalAddress): the street
            and house number; with --city, --state, --postal-code and --country,
            each optional, searched as "STREET, POSTAL CODE, CITY, STATE, COUNTRY"
            """)
        /// `--city TEXT`.
        static let city = CommandOption.value("--city", "TEXT", help: "the town or city of an address in fields")
        /// `--state TEXT`.
        static let state = CommandOption.value("--state", "TEXT", help: "the state or province, by name or code (CA, Texas)")
        /// `--postal-code TEXT`.
        static let postalCode = CommandOption.value("--postal-code", "TEXT", help: "the postal code")
        /// `--country TEXT`.
        static let country = CommandOption.value("--country", "TEXT", help: "the country, by name in any language the map has, or code")
        /// The fields of an address, in the order of ``PostalAddress``.
        static let fields = [street, city, state, postalCode, country]
    }
    /// Matches printed when `--limit` is not given.
    static let defaultLimit = 10
    static let usage = "usage: gmap geocode [MAP | --map FILE ...] TEXT [--near LAT,LON] [--region LAT,LON,M] [--limit N] [--json] (see 'gmap help geocode')"

    static func run(_ list: ArgumentList) throws -> Int32 {
        let leading = LeadingMap(beforeText: list.positional)
        let fields = Option.fields.map { list.value($0) }
        let structured = fields.contains { $0 != nil }
        let text: String
        var mapArgument = leading.map
        if structured {
            // The address in fields: every positional argument is the map.
            guard list.positional.count <= 1 else {
                throw CommandFailure(message: "give the address either as TEXT or in fields (--street, --city, …), not both")
            }
            mapArgument = list.positional.first
            text = PostalAddress(street: fields[0] ?? "", city: fields[1] ?? "", state: fields[2] ?? "", postalCode: fields[3] ?? "",
                                 country: fields[4] ?? "").text
        } else {
            guard !leading.rest.isEmpty else { throw CommandFailure(message: usage) }
            text = leading.rest.joined(separator: " ")
        }
        let words = NameFolding.queryWords(text).words
        guard !words.isEmpty else { throw CommandFailure(message: "\(SearchText.quoted(text)) is only punctuation and spaces: nothing to look for") }
        guard words.count <= GMap.geocodeWordLimit else {
            throw CommandFailure(message: "'\(text.prefix(60))…' has \(words.count) words; an address or a name has at most \(GMap.geocodeWordLimit)")
        }
        let limit = try list.integer(Option.limit) ?? defaultLimit
        var near: (latitude: Double, longitude: Double)?
        if let value = list.value(Option.near) {
            switch CoordinateParser.line(Substring(value)) {
            case .success(let coordinate): near = (coordinate.latitude, coordinate.longitude)
            case .failure(let failure): throw CommandFailure(message: "\(Option.near.name): \(failure.message)")
            }
        }
        let region = try list.value(Option.region).map(Self.region)
        let matches: [GeocodeMatch], source: String
        if let locations = try StackedMaps.locations(list, mapArgument: mapArgument, command: name) {
            let stack = try StackedMaps.open(locations)
            matches = stack.geocode(text, near: near, region: region, limit: limit)
            source = StackedMaps.names(locations)
        } else {
            let location = try mapArgument.map(MapLocation.argument) ?? DefaultMap.location()
            matches = try location.open().geocode(text, near: near, region: region, limit: limit)
            source = location.path
        }
        if list.has(.json) {
            StandardOutput.shared.write("[" + matches.map(json).joined(separator: ",") + "]\n")
        } else {
            StandardOutput.shared.write(matches.map { line($0) + "\n" }.joined())
        }
        StandardOutput.shared.flush()
        guard !matches.isEmpty else {
            throw CommandFailure(message: "nothing in \(source) matches \(SearchText.quoted(text))", code: ExitCode.notFound)
        }
        var unmatched: [String] = []
        for match in matches { for part in match.unmatched where !unmatched.contains(part) { unmatched.append(part) } }
        for part in unmatched {
            StandardError.write("gmap: the map knows nothing of '\(part)': left aside\n")
        }
        return ExitCode.success
    }

    /// `LAT,LON,METRES` (or separated by spaces) as a region.
    static func region(_ text: String) throws -> GeocodeRegion {
        let pieces = text.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
        guard pieces.count == 3, let radius = Double(pieces[2]), radius.isFinite, radius > 0 else {
            throw CommandFailure(message: "--region \(SearchText.quoted(text)) must be LAT,LON,METRES (a point and a radius above 0 in metres)")
        }
        switch CoordinateParser.line(Substring(pieces[0] + "," + pieces[1])) {
        case .success(let coordinate): return GeocodeRegion(latitude: coordinate.latitude, longitude: coordinate.longitude, radius: radius)
        case .failure(let failure): throw CommandFailure(message: "--region: \(failure.message)")
        }
    }

    /// Whether the match's box is more than its point (a street, an area, a country).
    static func hasExtent(_ match: GeocodeMatch) -> Bool {
        let box = match.boundingBox
        return box.west != box.east || box.south != box.north
    }

    /// How the name matched, as JSON's `"match"` says it: `exact`, `prefix`, `words` or `typo`.
    static func matchName(_ match: NameMatch) -> String {
        switch match {
        case .exact: return "exact"
        case .prefix: return "prefix"
        case .words: return "words"
        case .typo: return "typo"
        }
    }

    /// `KIND TAB NAME TAB LAT,LON` then, as they apply, `postcode CODE`, the category, the country
    /// code, the state, `bbox W,S,E,N`, `(as OTHER NAME)`, how a name matched when not whole and
    /// the distance from --near in whole metres.
    static func line(_ match: GeocodeMatch) -> String {
        var fields = [match.kind.name, match.name, "\(match.latitude),\(match.longitude)"]
        if match.kind == .address, let code = match.postalCode { fields.append("postcode \(code)") }
        if let category = match.category { fields.append(category) }
        if let code = match.isoCountryCode { fields.append(code) }
        if let state = match.administrativeArea, match.kind != .state { fields.append(state) }
        if hasExtent(match) {
            let box = match.boundingBox
            fields.append("bbox \(box.west),\(box.south),\(box.east),\(box.north)")
        }
        if let other = match.matchedName { fields.append("(as \(other))") }
        switch match.match {
        case .exact: break
        case .prefix: fields.append("(name starts so)")
        case .words: fields.append("(words of the name)")
        case .typo: fields.append("(spelled so)")
        }
        if let distance = match.distance { fields.append("\(Int(distance.rounded())) m") }
        return fields.joined(separator: "\t")
    }

    /// `{"kind", "name", "latitude", "longitude", "bbox", "layer", "id", "match"}` and, when known,
    /// `"matchedName"`, `"thoroughfare"`, `"subThoroughfare"`, `"postalCode"`, `"isoCountryCode"`,
    /// `"administrativeArea"`, `"administrativeAreaCode"`, `"subAdministrativeArea"`,
    /// `"category"`, `"distance_m"` (to 0.1 m) and `"unmatched"`.
    static func json(_ match: GeocodeMatch) -> String {
        let box = match.boundingBox
        var fields = [
            "\"kind\":\(JSONText.string(match.kind.name))", "\"name\":\(JSONText.string(match.name))",
            "\"latitude\":\(match.latitude)", "\"longitude\":\(match.longitude)",
            "\"bbox\":[\(box.west),\(box.south),\(box.east),\(box.north)]",
            "\"layer\":\(JSONText.string(match.feature.layerName))", "\"id\":\(JSONText.string(match.feature.id))",
            "\"match\":\(JSONText.string(matchName(match.match)))",
        ]
        let optional: [(String, String?)] = [
            ("matchedName", match.matchedName),
            ("thoroughfare", match.thoroughfare), ("subThoroughfare", match.subThoroughfare), ("postalCode", match.postalCode),
            ("isoCountryCode", match.isoCountryCode), ("administrativeArea", match.administrativeArea),
            ("administrativeAreaCode", match.administrativeAreaCode), ("subAdministrativeArea", match.subAdministrativeArea),
            ("category", match.category),
        ]
        for (key, value) in optional { if let value { fields.append("\"\(key)\":\(JSONText.string(value))") } }
        if let distance = match.distance { fields.append("\"distance_m\":\(NearbyOption.tenths(distance))") }
        if !match.unmatched.isEmpty { fields.append("\"unmatched\":[" + match.unmatched.map(JSONText.string).joined(separator: ",") + "]") }
        return "{" + fields.joined(separator: ",") + "}"
    }
}

extension GeocodeCommand {
    /// What `gmap help geocode` prints.
    static let help = """
    gmap geocode [MAP] TEXT [--near LAT,LON] [--region LAT,LON,M] [--limit N] [--json]
    gmap geocode --map FILE [--map FILE ...] [--no-world] TEXT [...]
    gmap geocode [MAP | --map FILE ...] --street TEXT --city TEXT --state TEXT --postal-code TEXT --country TEXT [...]

    Forward geocoding: where the address, street, place, postal code, town, state, country or
    time zone that TEXT names is, as CLGeocoder finds them. TEXT is compared as gmap find compares
    names (case, accents and punctuation aside). On a location map (gmap build --osm) it may be
    an address, the street and the house number in either order ("Mannerheimintie 5", "5
    Mannerheimintie", "Kaivokatu 12a", "Kaivokatu 12-14"); on the shipped world map (without
    MAP) a town by any of its names ("München", "Peking", "Москва", "NYC"), a state ("California",
    "Bavaria") or a country in any of 26 languages or its own, or by its code ("Deutschland",
    "Suomi", "DE", "DEU"). Parts that say where it is may come before or after it, with commas or
    without ("Paris, Texas", "Austin TX", "Cupertino, CA USA", "London, ON, Canada", "Wien,
    Österreich", "Mannerheimintie 5, 00100 Helsinki"). A latitude and longitude ("60.1690,
    24.9396") answers with the point itself (kind coordinates). Several words are one TEXT.

    Matches are ranked: those matching whole first; then an address (its whole house number,
    then the first or last number of a range such as 12-14), a street, a place, an area, a
    postal code, a country, towns and states, a time zone; then those that explain all of TEXT;
    then those in --region, the nearest to --near, the most populous (a town found only by one
    of its other names counting for 50 times fewer people, a state for 20 times fewer than its
    towns). A word ending in a full stop may stand for the one street that starts with it
    ("Aleksanterink. 5"); "St." and "Saint", "Mt." and "Mount" are one word. Only when nothing
    matches whole are names given that start with TEXT, have words starting with its words, or
    are within an edit of it (two for names of 8 letters or more: "Londn", "Mannerheimintei 1";
    marked "spelled so"). A word of two or three capitals where a part says where the thing is
    ("TX", "ON", "USA") is a code: a country's or a state's, never a town; one no country or
    state has, or that no match lies in, is left aside. Another part the map knows nothing of
    (a country on a location map) is left aside too, with a note on stderr; a postal code,
    place, state or country it knows elsewhere rules the match out.

    Prints one line per match: KIND TAB NAME TAB LAT,LON, then as they apply: postcode CODE,
    the category, the country code, the state, bbox W,S,E,N (a street's, an area's, a country's
    extent), the other name that matched (as ...), how a name matched when not whole, and the
    distance from --near. An address's point is its own; a street's is its middle vertex.
    Location maps built before the address index (format 3.3) are searched by a scan, with the
    same answers.

    OPTIONS
    \(OptionTable.lines(options, column: 22))

    Nothing matching prints nothing ([] with --json), says so on stderr and exits 1; bad usage
    or a damaged map exits 2.

    EXAMPLES
      gmap geocode helsinki.gmap "Mannerheimintie 5"          the address, then the street
      gmap geocode helsinki.gmap "5 mannerheimintie, 00100"   the same address
      gmap geocode "Paris, Texas" --limit 1                  the town in Texas, on the world map
      gmap geocode Peking --json                             Beijing, "matchedName": "Peking"
      gmap geocode --map helsinki.gmap "Mannerheimintie 1, Helsinki, Finland"
      gmap geocode --street "Mannerheimintie 1" --city Helsinki --country Finland --map helsinki.gmap
      gmap geocode helsinki.gmap Kaivokatu --near 60.17,24.94 --json

    """
}
