import Foundation
import GMap
import GMapCodecs

/// `gmap find [MAP] TEXT [--layer NAME] [--exact] [--limit N] [--json]`: features by id or name, through
/// ``GMap/find(_:layer:matching:limit:)``.
enum FindCommand: Command {
    static let name = "find"
    static let summary = "features by id or name"
    /// Its options, in the order of its help.
    static let options: [CommandOption] = [
        .layer.documented("""
            search only this layer (default: every layer, in the map's order); with
            several maps, the layers of that name
            """),
        Option.exact, Option.limit,
        .json.documented("""
            print [{"layer", "id", "name", "bbox": [w,s,e,n], "label": [lat,lon],
            "properties"}]
            """),
        StackedMaps.map, StackedMaps.noWorld,
    ]

    /// The options only find takes.
    enum Option {
        /// `--exact`: no prefix or word matches.
        static let exact = CommandOption.flag("--exact", help: "only exact matches: no prefixes, no word matches")
        /// `--limit N`: the most features printed.
        static let limit = CommandOption.value("--limit", "N", rule: .wholeNumber(1...Int.max, .afterValue("must be a whole number above 0")),
                                               help: "print at most N features")
    }

    static func run(_ list: ArgumentList) throws -> Int32 {
        let leading = LeadingMap(beforeText: list.positional)
        guard !leading.rest.isEmpty else {
            throw CommandFailure(message: "usage: gmap find [MAP | --map FILE ...] TEXT [--layer NAME] [--exact] [--json] (see 'gmap help find')")
        }
        let mapArgument = leading.map
        let text = leading.rest.joined(separator: " ")
        guard !NameFolding.normalized(text).isEmpty else {
            throw CommandFailure(message: "\(SearchText.quoted(text)) is only punctuation and spaces: nothing to search for")
        }
        let limit = try list.integer(Option.limit) ?? Int.max
        let layer = list.value(.layer), matching: NameMatch = list.has(Option.exact) ? .exact : .words
        let found: [FoundFeature], named: Bool
        if let locations = try StackedMaps.locations(list, mapArgument: mapArgument, command: name) {
            let stack = try StackedMaps.open(locations)
            if let layer, !stack.layerNames.contains(layer) {
                throw CommandFailure(message: "no map has a layer '\(layer)' (\(StackedMaps.names(locations))); their layers are \(stack.layerNames.map { "'\($0)'" }.joined(separator: ", "))")
            }
            // Exact matches of every layer of every map first, then prefix matches, then word matches.
            found = stack.findMatches(text, layer: layer, matching: matching, limit: limit)
            named = stack.layerNames.count > 1
        } else {
            let location = try mapArgument.map(MapLocation.argument) ?? DefaultMap.location(command: name)
            let map = try location.open()
            if let layer, map.layer(named: layer) == nil {
                throw CommandFailure(message: "\(location.path) has no layer '\(layer)'; its layers are \(map.layerNames.map { "'\($0)'" }.joined(separator: ", "))")
            }
            // Exact matches of every layer first, then prefix matches, then word matches, each in layer order.
            found = map.findMatches(text, layer: layer, matching: matching, limit: limit)
            named = map.layerNames.count > 1
        }
        if list.has(.json) {
            StandardOutput.shared.write("[" + found.map { json($0.feature, layer: named, otherName: $0.otherName) }.joined(separator: ",") + "]\n")
        } else {
            StandardOutput.shared.write(found.map { line($0.feature, layer: named, otherName: $0.otherName) + "\n" }.joined())
        }
        guard !found.isEmpty else { throw CommandFailure(message: "no feature is named \(SearchText.quoted(text))", code: ExitCode.notFound) }
        return ExitCode.success
    }

    /// The feature's name: its first kept name property, or "".
    static func name(of feature: Feature) -> String { feature.name ?? "" }

    /// `[layer TAB] id TAB name TAB bbox W,S,E,N TAB label LAT,LON`, then `TAB (as NAME)` for a
    /// feature found by one of its other names.
    static func line(_ feature: Feature, layer: Bool, otherName: String? = nil) -> String {
        let box = feature.boundingBox
        let label = feature.labelPoint.map { "label \($0.latitude),\($0.longitude)" } ?? "label -"
        let fields = [feature.id, name(of: feature), "bbox \(box.west),\(box.south),\(box.east),\(box.north)", label]
        return ((layer ? [feature.layerName] : []) + fields + (otherName.map { ["(as \($0))"] } ?? [])).joined(separator: "\t")
    }

    /// `{"layer":…,"id":…,"name":…,"bbox":[w,s,e,n],"label":[lat,lon],"properties":{…}}`, with
    /// `"matchedName"` before `"properties"` for a feature found by one of its other names.
    static func json(_ feature: Feature, layer: Bool, otherName: String? = nil) -> String {
        let box = feature.boundingBox
        let label = feature.labelPoint.map { "[\($0.latitude),\($0.longitude)]" } ?? "null"
        let properties = feature.properties.map { "\(JSONText.string($0.key)):\(JSONText.value($0))" }.joined(separator: ",")
        return "{" + (layer ? "\"layer\":\(JSONText.string(feature.layerName))," : "")
            + "\"id\":\(JSONText.string(feature.id)),\"name\":\(JSONText.string(name(of: feature))),"
            + "\"bbox\":[\(box.west),\(box.south),\(box.east),\(box.north)],\"label\":\(label),"
            + (otherName.map { "\"matchedName\":\(JSONText.string($0))," } ?? "") + "\"properties\":{\(properties)}}"
    }
}

extension FindCommand {
    /// What `gmap help find` prints.
    static let help = """
    gmap find [MAP] TEXT [--layer NAME] [--exact] [--limit N] [--json]
    gmap find --map FILE [--map FILE ...] [--no-world] TEXT [--layer NAME] [--exact] [--limit N] [--json]

    Finds features whose id or kept name property (name, admin, name_*, formal_*, *_name, and
    name:xx, *_name:xx, in any case) matches TEXT, ignoring case, accents (Latin, Greek and
    Cyrillic letters), punctuation and spacing: "sao tome" finds "São Tomé", and "cote d ivoire"
    and "COTE-D'IVOIRE" find "Côte d'Ivoire". Exact matches come first, then names that start with
    TEXT, then names with a word starting with each word of TEXT, in any order ("ivoire",
    "d ivo"); within each, every layer in the map's order, smallest area first. Several words are
    one TEXT. Alternative names are found when the build kept them ("ivory coast" with
    --keep name,admin on Natural Earth). The map's name index makes this a binary search (maps of
    format 2.1 and 3; older maps are scanned; a map built before word matching finds names by
    their start only: rebuild it).

    A layer of named compact points (the shipped map's towns, format 3.6) also finds a feature by
    its other names ("Peking", "Nueva York", "NYC"), whole or by their start; the line then ends
    with TAB (as NAME), the other name as the map spells it.

    Prints one line per feature: [layer TAB] id TAB name TAB bbox W,S,E,N TAB label LAT,LON.
    The label point lies inside the feature (not the centroid, which can lie outside a
    C-shaped country); maps before format 2.1 have none ("label -"). Exits 1 when nothing matches.

    --map FILE (repeatable), or $GMAP_MAP as a list of maps separated by ':', searches those maps
    and the shipped world map (which joins last unless --no-world): exact matches of every layer
    of every map first (location maps first, then the maps in the order given), then prefix
    matches, then word matches; each line starts with its layer.

    OPTIONS
    \(OptionTable.lines(options, column: 17))

    EXAMPLES
      gmap find world.gmap gibraltar                   GI  Gibraltar  bbox …  label 36.13,-5.35
      gmap find world.gmap "united" --json
      gmap find world.gmap ivoire                      CI  Côte d'Ivoire  bbox …

    """
}
