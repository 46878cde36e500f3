/// The positional arguments `MAP LATITUDE LONGITUDE` or `MAP "LATITUDE,LONGITUDE"` of the commands
/// that take a map and one point (`gmap where`, `gmap nearby`).
enum MapPointArguments {
    /// The coordinates alone (`LATITUDE LONGITUDE` or `"LATITUDE,LONGITUDE"`) when `--map` gave
    /// the maps (the map's path is then empty), else as ``parse(_:usage:)``.
    static func parse(_ positional: [String], mapGiven: Bool, usage: String) throws -> (map: String, latitude: Substring, longitude: Substring) {
        guard mapGiven else { return try parse(positional, usage: usage) }
        return try parse([""] + positional, usage: usage)
    }

    /// The map's path and the coordinates as typed; a failure with `usage` for any other count.
    static func parse(_ positional: [String], usage: String) throws -> (map: String, latitude: Substring, longitude: Substring) {
        switch positional.count {
        case 3:
            return (positional[0], Substring(positional[1]), Substring(positional[2]))
        case 2:
            if let (latitude, longitude) = CoordinateParser.split(Substring(positional[1])) { return (positional[0], latitude, longitude) }
        default:
            break
        }
        throw CommandFailure(message: usage)
    }
}
