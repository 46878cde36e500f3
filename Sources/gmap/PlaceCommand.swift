import Foundation
import GMap

/// `gmap place [MAP] LAT LON [--json]`: the whole placemark of a point, every field the map's
/// layers fill (on the shipped map: country, ocean or sea, inland water, time zone, nearest town).
enum PlaceCommand: Command {
    static let name = "place"
    static let summary = "the whole placemark: country, sea, time zone, nearest town, …"
    static let options: Set<String> = []
    static let flags: Set<String> = ["--json"]

    static func run(_ list: ArgumentList) throws -> Int32 {
        // The same arguments, coordinate reading and messages as gmap query.
        let target = try QueryCommand.target(of: list.positional, arguments: list.arguments, command: "place")
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

extension PlaceCommand {
    /// What `gmap help place` prints.
    static let help = """
    gmap place [MAP] LATITUDE LONGITUDE [--json]

    Prints the whole placemark of the point: every field that the map's layers fill, one
    "field  value" line each, with CLPlacemark's field names; fields the map cannot fill are left
    out (a map without a layer a field needs simply leaves that field out). The coordinates are
    read exactly as by gmap query (the same forms, messages and exit codes); the map comes first.

    On the shipped world map (without MAP):
      isoCountryCode, country   the country (Natural Earth 1:10m, layer countries)
      timeZone                  the IANA time zone, Etc/GMT±N at sea (layer timezones, 1 km)
      ocean                     at sea, the ocean or sea (Natural Earth marine polygons, layer marine)
      inlandWater               a lake, lagoon or river of that layer (the Caspian Sea, ...)
      locality                  the nearest town within 50 km, in the point's own country when it
                                is in one (GeoNames, layer towns), and localityDistance in metres
    It has no states, streets or postal codes: administrativeArea, thoroughfare and postalCode
    need a map with such layers (gmap build --layer state=..., gmap build --osm).

    Layers are found by name (country/countries, state/region/province/admin1,
    timezone/timezones/tz, marine/ocean/seas, towns/cities/localities, and a location map's
    roads, addresses, postcodes, areas and places): see Placemark in the README.

    OPTIONS
      --json    print the placemark as JSON: isoCountryCode, country, administrativeArea,
                administrativeAreaCode and timeZone (null when unknown), the other fields only
                when known (localityDistance in metres, to 0.1 m), and "layers": every layer's
                features containing the point, smallest first

    A point that no layer answers prints nothing (null with --json), says so on stderr and exits
    1. Bad coordinates, a missing map or a damaged one exit 2.

    EXAMPLES
      gmap place 36.14 -5.35                      Gibraltar, Europe/Gibraltar, locality Gibraltar
      gmap place 30 -40                           North Atlantic Ocean, Etc/GMT+3
      gmap place 48.57 7.81 --json                Kehl, not Strasbourg across the Rhine

    """
}
