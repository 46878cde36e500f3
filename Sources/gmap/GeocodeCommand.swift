import Foundation
import GMap

/// `gmap geocode [MAP] TEXT [--near LAT,LON] [--limit N] [--json]`: forward geocoding, through
/// ``GMap/geocode(_:near:limit:)``.
enum GeocodeCommand: Command {
    static let name = "geocode"
    static let summary = "addresses, streets, places and towns by name: where they are"
    /// Its options, in the order of its help.
    static let options: [CommandOption] = [
        Option.near, Option.limit,
        .json.documented("""
            print [{"kind", "name", "latitude", "longitude", "bbox", "layer", "id",
            "match", and when known "thoroughfare", "subThoroughfare", "postalCode",
            "isoCountryCode", "category", "distance_m", "unmatched"}]
            """),
    ]

    /// The options only geocode takes.
    enum Option {
        /// `--near LAT,LON`: the point that ranks matches of one kind.
        static let near = CommandOption.value("--near", "LAT,LON",
                                              help: "rank matches of one kind by their distance from this point (shown in m)")
        /// `--limit N`: the most matches printed.
        static let limit = CommandOption.value("--limit", "N", rule: .wholeNumber(1...Int.max, .afterValue("is not a whole number ≥ 1")),
                                               help: "print at most N matches (default \(defaultLimit))")
    }
    /// Matches printed when `--limit` is not given.
    static let defaultLimit = 10
    static let usage = "usage: gmap geocode [MAP] TEXT [--near LAT,LON] [--limit N] [--json] (see 'gmap help geocode')"

    static func run(_ list: ArgumentList) throws -> Int32 {
        let leading = LeadingMap(beforeText: list.positional)
        guard !leading.rest.isEmpty else { throw CommandFailure(message: usage) }
        let location = try leading.map.map(MapLocation.argument) ?? DefaultMap.location()
        let text = leading.rest.joined(separator: " ")
        let words = NameFolding.queryWords(text).words
        guard !words.isEmpty else { throw CommandFailure(message: "'\(text)' is only punctuation and spaces: nothing to look for") }
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
        let map = try location.open()
        let matches = map.geocode(text, near: near, limit: limit)
        if list.has(.json) {
            StandardOutput.shared.write("[" + matches.map(json).joined(separator: ",") + "]\n")
        } else {
            StandardOutput.shared.write(matches.map { line($0) + "\n" }.joined())
        }
        StandardOutput.shared.flush()
        guard !matches.isEmpty else {
            throw CommandFailure(message: "nothing in \(location.path) matches '\(text)'", code: ExitCode.notFound)
        }
        var unmatched: [String] = []
        for match in matches { for part in match.unmatched where !unmatched.contains(part) { unmatched.append(part) } }
        for part in unmatched {
            StandardError.write("gmap: the map knows nothing of '\(part)': left aside\n")
        }
        return ExitCode.success
    }

    /// Whether the match's box is more than its point (a street, an area, a country).
    static func hasExtent(_ match: GeocodeMatch) -> Bool {
        let box = match.boundingBox
        return box.west != box.east || box.south != box.north
    }

    /// `KIND TAB NAME TAB LAT,LON` then, as they apply, `postcode CODE`, the category, the country
    /// code, `bbox W,S,E,N` and the distance from --near in whole metres.
    static func line(_ match: GeocodeMatch) -> String {
        var fields = [match.kind.name, match.name, "\(match.latitude),\(match.longitude)"]
        if match.kind == .address, let code = match.postalCode { fields.append("postcode \(code)") }
        if let category = match.category { fields.append(category) }
        if let code = match.isoCountryCode { fields.append(code) }
        if hasExtent(match) {
            let box = match.boundingBox
            fields.append("bbox \(box.west),\(box.south),\(box.east),\(box.north)")
        }
        if match.match != .exact { fields.append(match.match == .prefix ? "(name starts so)" : "(words of the name)") }
        if let distance = match.distance { fields.append("\(Int(distance.rounded())) m") }
        return fields.joined(separator: "\t")
    }

    /// `{"kind", "name", "latitude", "longitude", "bbox", "layer", "id", "match"}` and, when known,
    /// `"thoroughfare"`, `"subThoroughfare"`, `"postalCode"`, `"isoCountryCode"`, `"category"`,
    /// `"distance_m"` (to 0.1 m) and `"unmatched"`.
    static func json(_ match: GeocodeMatch) -> String {
        let box = match.boundingBox
        var fields = [
            "\"kind\":\(JSONText.string(match.kind.name))", "\"name\":\(JSONText.string(match.name))",
            "\"latitude\":\(match.latitude)", "\"longitude\":\(match.longitude)",
            "\"bbox\":[\(box.west),\(box.south),\(box.east),\(box.north)]",
            "\"layer\":\(JSONText.string(match.feature.layerName))", "\"id\":\(JSONText.string(match.feature.id))",
            "\"match\":\(JSONText.string(match.match == .exact ? "exact" : match.match == .prefix ? "prefix" : "words"))",
        ]
        let optional: [(String, String?)] = [
            ("thoroughfare", match.thoroughfare), ("subThoroughfare", match.subThoroughfare), ("postalCode", match.postalCode),
            ("isoCountryCode", match.isoCountryCode), ("category", match.category),
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
    gmap geocode [MAP] TEXT [--near LAT,LON] [--limit N] [--json]

    Forward geocoding: where the address, street, place, postal code, town, country or time zone
    that TEXT names is. TEXT is compared as gmap find compares names (case, accents and
    punctuation aside). On a location map (gmap build --osm) it may be an address, the street and
    the house number in either order ("Mannerheimintie 5", "5 Mannerheimintie", "Kaivokatu 12a",
    "Kaivokatu 12-14"), with parts that say where it is, separated by commas, in any order
    (", 00100", ", Helsinki"); on the shipped world map (without MAP) a town, a country or a
    time zone ("Helsinki, Finland", "Europe/Helsinki"). Several words are one TEXT.

    Matches are ranked: an address (its whole house number, then the first or last number of a
    range such as 12-14), a street, a place, an area, a postal code, a town, a country, a time
    zone; then those that explain all of TEXT, then the nearest to --near. A street is found by
    its whole name, never by a similar one; a house number the street does not have gives the
    street itself (kind "street"). A word ending in a full stop may stand for the one street
    that starts with it ("Aleksanterink. 5"); when several streets do, nothing is guessed. Only
    when nothing matches whole, and TEXT holds no number, are names that start with TEXT or
    have words starting with its words given. A part between commas that the map knows nothing
    of (a country on a location map) is left aside, with a note on stderr; a postal code or
    place it knows elsewhere rules the match out.

    Prints one line per match: KIND TAB NAME TAB LAT,LON, then as they apply: postcode CODE,
    the category, the country code, bbox W,S,E,N (a street's, an area's, a country's extent)
    and the distance from --near. An address's point is its own; a street's is its middle
    vertex. Location maps built before the address index (format 3.3) are searched by a scan,
    with the same answers.

    OPTIONS
    \(OptionTable.lines(options, column: 19))

    Nothing matching prints nothing ([] with --json), says so on stderr and exits 1; bad usage
    or a damaged map exits 2.

    EXAMPLES
      gmap geocode helsinki.gmap "Mannerheimintie 5"          the address, then the street
      gmap geocode helsinki.gmap "5 mannerheimintie, 00100"   the same address
      gmap geocode "Helsinki, Finland" --limit 1             the town, on the world map
      gmap geocode helsinki.gmap Kaivokatu --near 60.17,24.94 --json

    """
}
