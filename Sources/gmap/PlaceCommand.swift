import Foundation
import GMap

/// `gmap place [MAP] LAT LON [--json]`: the whole placemark of a point, every field the map's
/// layers fill (on the shipped map: country, ocean or sea, inland water, time zone, nearest town).
enum PlaceCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let list = try ArgumentList(arguments, options: [], flags: ["--json", "--help", "-h"])
        if list.has("--help") || list.has("-h") {
            StandardOutput.shared.write(HelpText.help(for: "place"))
            return ExitCode.success
        }
        // The same arguments, coordinate reading and messages as gmap query.
        let target = try QueryCommand.target(of: list.positional, arguments: arguments, command: "place")
        guard case .point(let mapPath, let latitude, let longitude) = target else {
            throw CommandFailure(message: "usage: gmap place [MAP] LATITUDE LONGITUDE [--json] (see 'gmap help place')")
        }
        let coordinate: CoordinateParser.Coordinate
        switch CoordinateParser.typed(latitude: latitude, longitude: longitude) {
        case .success(let value): coordinate = value
        case .failure(let failure): throw failure
        }
        let map = try (mapPath.map(MapLocation.argument) ?? DefaultMap.location()).open()
        let placemark = map.placemark(latitude: coordinate.latitude, longitude: coordinate.longitude)
        guard !placemark.isEmpty else {
            if list.has("--json") { StandardOutput.shared.write("null\n") }
            throw CommandFailure(message: "no feature of any layer contains (\(latitude), \(longitude))", code: ExitCode.notFound)
        }
        StandardOutput.shared.write((list.has("--json") ? LayeredQuery.json(placemark) : text(placemark)) + "\n")
        return ExitCode.success
    }

    /// One `field  value` line per known field, in CLPlacemark's names and order.
    static func text(_ placemark: Placemark) -> String {
        LayeredQuery.fields(placemark).map { name, value in
            name.padding(toLength: max(name.count + 2, 18), withPad: " ", startingAt: 0) + value.text
        }.joined(separator: "\n")
    }
}
