import Foundation

/// The optional `[MAP]` before a command's other positional arguments, and the one rule that
/// tells a map from what follows it: an argument names a map when it is an existing file or
/// ends in `.gmap` (``isMap(_:before:)``). Without one, the command reads the default map
/// (``DefaultMap``: `$GMAP_MAP`, else the shipped world map).
///
/// The commands read it in three shapes: `[MAP]` alone (info, render, bench, `query --csv`:
/// ``alone(_:usage:)``), `[MAP] TEXT...` (find, geocode: ``init(beforeText:)``), and
/// `[MAP] LATITUDE LONGITUDE` or `[MAP] -` (query, place: ``beforeCoordinates(_:arguments:command:)``).
/// Before coordinates the rule is wider than before text. Each shape, why the rules differ, and
/// the commands whose map is not optional: Docs/Internals.md#the-command-lines-leading-map.
struct LeadingMap {
    /// What follows the map, which decides how wide the rule of ``LeadingMap/isMap(_:before:)`` is.
    enum Following {
        /// Free text (find, geocode): may hold any character.
        case text
        /// Coordinates (query, place): never hold a `/` nor end in `.gmap`.
        case coordinates
    }

    /// The map as typed, or nil for the default map.
    var map: String?
    /// The positional arguments after the map (all of them without one).
    var rest: [String]

    /// Splits `[MAP] TEXT...` as find and geocode read it: with two arguments or more, the first is
    /// the map when ``isMap(_:before:)`` says so before text; a single argument is always the text.
    init(beforeText positional: [String]) {
        if positional.count >= 2, let first = positional.first, Self.isMap(first, before: .text) {
            self.init(map: first, rest: Array(positional.dropFirst()))
        } else {
            self.init(map: nil, rest: positional)
        }
    }

    /// The map and the arguments after it, as given.
    init(map: String?, rest: [String]) {
        self.map = map
        self.rest = rest
    }

    /// The map of a command whose only positional argument is `[MAP]`: nil without one, the
    /// argument when there is one, and a failure with `usage` (the whole message) for more.
    static func alone(_ positional: [String], usage: String) throws -> String? {
        guard positional.count <= 1 else { throw CommandFailure(message: usage) }
        return positional.first
    }

    /// Whether `argument` names a map rather than what `following` is: an existing file (or
    /// directory, which fails when opened, naming it), or a name ending in `.gmap`; before
    /// coordinates also a name that holds a `/` or ends in `.gmap` in any case.
    static func isMap(_ argument: String, before following: Following) -> Bool {
        if isFile(argument) || argument.hasSuffix(".gmap") { return true }
        switch following {
        case .text: return false
        case .coordinates: return argument.contains("/") || argument.lowercased().hasSuffix(".gmap")
        }
    }

    /// Whether something exists at `argument` (a file or a directory): the test where only an
    /// existing map may be taken for one (query's decimal-comma hint, a map given after the point).
    static func isFile(_ argument: String) -> Bool {
        FileManager.default.fileExists(atPath: argument)
    }
}

extension LeadingMap {
    /// What `[MAP] LATITUDE LONGITUDE` or `[MAP] -` asks: a map (nil for the default one) and a
    /// point, or lines from standard input.
    enum Target {
        /// `[MAP] -`: the lines of standard input.
        case batch(map: String?)
        /// `[MAP] LATITUDE LONGITUDE`, or the two in one argument: the coordinates as typed.
        case point(map: String?, latitude: Substring, longitude: Substring)

        /// The map as typed, nil for the default map.
        var map: String? {
            switch self {
            case .batch(let map), .point(let map, _, _): return map
            }
        }
    }

    /// Reads `[MAP] LAT LON`, `[MAP] "LAT,LON"` and `[MAP] -`, telling a map given after the coordinates
    /// from a map given first, and bad coordinates without a map from a map without coordinates.
    /// The count and the coordinates' shape decide; where they leave a doubt, the rule before
    /// coordinates (``isMap(_:before:)``) tells a map from a mistyped coordinate.
    /// `command` (query or place) is named in the messages.
    static func beforeCoordinates(_ positional: [String], arguments: [String], command: String) throws -> Target {
        func isAngle(_ text: String) -> Bool { CoordinateParser.isAngle(Substring(text)) }
        func pair(_ text: String) -> (latitude: Substring, longitude: Substring)? {
            guard text.contains(where: { $0 == "," || $0 == " " || $0 == "\t" }) else { return nil }
            return CoordinateParser.split(Substring(text))
        }
        /// Whether `text` names a map rather than a mistyped coordinate (the rule before coordinates).
        func isMapPath(_ text: String) -> Bool { isMap(text, before: .coordinates) }
        // "36,14 -5,35" or 36,14 -5,35 (decimal commas), after a map or without one.
        let coordinates = positional.count == 3 || (positional.count == 2 && isFile(positional[0]))
            ? Array(positional.dropFirst()) : positional
        if let hint = CoordinateParser.decimalCommaHint(coordinates.map { Substring($0) }) { throw CommandFailure(message: hint) }
        switch positional.count {
        case 1:
            if positional[0] == "-" { return .batch(map: nil) }
            if let (latitude, longitude) = pair(positional[0]) { return .point(map: nil, latitude: latitude, longitude: longitude) }
        case 2:
            let (first, second) = (positional[0], positional[1])
            if second == "-" { return .batch(map: first) }
            if first == "-" { throw mapComesFirst(second, arguments: arguments, command: command) }
            if isAngle(first) { return .point(map: nil, latitude: Substring(first), longitude: Substring(second)) }
            if pair(first) != nil, !isMapPath(first), !isAngle(second), pair(second) == nil {
                throw mapComesFirst(second, arguments: arguments, command: command)
            }
            if let (latitude, longitude) = pair(second) { return .point(map: first, latitude: latitude, longitude: longitude) }
            if !isMapPath(first) { return .point(map: nil, latitude: Substring(first), longitude: Substring(second)) }
        case 3:
            let (first, second, third) = (positional[0], positional[1], positional[2])
            if third == "-" { break }
            if isAngle(first), isAngle(second), !isAngle(third), !isFile(first) {
                throw mapComesFirst(third, arguments: arguments, command: command)
            }
            return .point(map: first, latitude: Substring(second), longitude: Substring(third))
        default:
            break
        }
        if command != "query" {
            throw CommandFailure(message: "usage: gmap \(command) [MAP] LATITUDE LONGITUDE (see 'gmap help \(command)')")
        }
        throw CommandFailure(message: "usage: gmap query [MAP] LATITUDE LONGITUDE, or gmap query [MAP] - to read lines from standard input (see 'gmap help query')")
    }

    /// "the map comes first: gmap query MAP LAT LON", the arguments as given with the map moved to the front.
    private static func mapComesFirst(_ map: String, arguments: [String], command: String) -> CommandFailure {
        var rest = arguments
        if let index = rest.lastIndex(of: map) { rest.remove(at: index) }
        return CommandFailure(message: "the map comes first: \(Shell.command(["gmap", command, map] + rest))")
    }
}
