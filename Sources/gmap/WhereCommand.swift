import Foundation
import GMap

/// `gmap where MAP LAT LON [--heading DEG | --course DEG] [--json]` and
/// `gmap where MAP --replay FILE|- [--every] [--json]`: location sense in words, from a map built
/// with `gmap build --osm`.
enum WhereCommand {
    /// How `gmap where` prints senses.
    struct Style {
        /// One JSON object per sense instead of the callouts.
        var json: Bool
    }

    static func run(_ arguments: [String]) throws -> Int32 {
        let list = try ArgumentList(arguments, options: ["--heading", "--course", "--replay"], flags: ["--json", "--every", "--help", "-h"])
        if list.has("--help") || list.has("-h") {
            StandardOutput.shared.write(HelpText.help(for: "where"))
            return ExitCode.success
        }
        let style = Style(json: list.has("--json"))
        if let replay = list.value("--replay") {
            for option in ["--heading", "--course"] where list.value(option) != nil {
                throw CommandFailure(message: "\(option) applies to one point; with --replay, each line's fourth field is its heading")
            }
            guard list.positional.count == 1 else {
                throw CommandFailure(message: "usage: gmap where MAP --replay FILE|- [--every] [--json] (see 'gmap help where')")
            }
            let source = try openSource(list.positional[0])
            guard let source else { return noRoadLayer(list.positional[0]) }
            return try WhereReplay(input: replay, every: list.has("--every"), style: style).run(source: source)
        }
        if list.has("--every") { throw CommandFailure(message: "--every only applies with --replay FILE") }
        let (mapPath, latitude, longitude) = try point(of: list.positional)
        // Coordinates and the direction are read before the map is opened, so a typing mistake is named even without a map.
        let coordinate: CoordinateParser.Coordinate
        switch CoordinateParser.typed(latitude: latitude, longitude: longitude) {
        case .success(let value): coordinate = value
        case .failure(let failure): throw failure
        }
        let heading = try list.value("--heading").map { try DirectionOption.degrees($0, option: "--heading") }
        let course = try list.value("--course").map { try DirectionOption.degrees($0, option: "--course") }
        if heading != nil, course != nil { throw CommandFailure(message: "give --heading (where the user faces) or --course (where the user moves), not both") }
        let fix = LocationFix(latitude: coordinate.latitude, longitude: coordinate.longitude, time: 0, heading: heading ?? nil, course: course ?? nil)
        guard let source = try openSource(mapPath) else { return noRoadLayer(mapPath) }
        var context = LocationContext(source: source)
        guard let sense = context.update(fix) else {
            throw CommandFailure(message: "no sense for (\(latitude), \(longitude))")  // not reached: a first valid fix always gives one
        }
        let callouts = sense.callouts(direction: fix.direction)
        StandardOutput.shared.write(style.json ? SenseJSON.object(sense, callouts: callouts, time: nil) + "\n" : callouts.map { $0 + "\n" }.joined())
        StandardOutput.shared.flush()
        return sense == .unknown ? ExitCode.notFound : ExitCode.success
    }

    /// `MAP LAT LON` or `MAP "LAT,LON"`: the map's path and the coordinates as typed.
    static func point(of positional: [String]) throws -> (map: String, latitude: Substring, longitude: Substring) {
        switch positional.count {
        case 3:
            return (positional[0], Substring(positional[1]), Substring(positional[2]))
        case 2:
            if let (latitude, longitude) = CoordinateParser.split(Substring(positional[1])) { return (positional[0], latitude, longitude) }
        default:
            break
        }
        throw CommandFailure(message: "usage: gmap where MAP LATITUDE LONGITUDE [--heading DEG | --course DEG] [--json], or gmap where MAP --replay FILE|- (see 'gmap help where')")
    }

    /// The map's location source; nil when the map has no road layer.
    static func openSource(_ path: String) throws -> MapLocationSource? {
        MapLocationSource(map: try MapLocation.argument(path).open())
    }

    /// Says that the map at `path` has no road layer, and gives the usage exit code.
    static func noRoadLayer(_ path: String) -> Int32 {
        StandardOutput.shared.flush()
        StandardError.write("gmap where: \(path) has no road layer (build it with --osm)\n")
        return ExitCode.usage
    }
}

/// `--heading DEG` and `--course DEG`: degrees clockwise from north, any finite value taken modulo
/// 360; `nan` means none (a device that has no direction reports NaN).
enum DirectionOption {
    /// The direction in 0 ..< 360, nil for NaN; a message naming the option for anything else.
    static func degrees(_ text: String, option: String) throws -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if ["nan", "+nan", "-nan"].contains(trimmed.lowercased()) { return nil }
        guard let value = CoordinateParser.number(Substring(trimmed)) else {
            throw CommandFailure(message: "\(option) '\(text)' is not a number of degrees clockwise from north (for example 90 for east; nan for none)")
        }
        return Compass.normalised(value)
    }
}
