import Foundation
import GMap

/// `gmap place [MAP] LAT LON [--json]`: the whole placemark of a point, every field the map's
/// layers fill (on the shipped map: country, ocean or sea, inland water, time zone, nearest town);
/// with `--map FILE` (repeatable) or a `$GMAP_MAP` list, of a ``MapStack`` of those maps and the
/// shipped one (unless `--no-world`).
enum PlaceCommand: Command {
    static let name = "place"
    static let summary = "the whole placemark: country, sea, time zone, nearest town, …"
    /// Its options, in the order of its help.
    static let options: [CommandOption] = [
        .json.documented("""
            print the placemark as JSON: isoCountryCode, country, administrativeArea,
            administrativeAreaCode and timeZone (null when unknown), the other fields
            only when known (localityDistance in metres, to 0.1 m), and "layers": every
            layer of every map, with the features containing the point, smallest first,
            or for a layer of lines or points the features that gave a field (roads: the
            street; addresses; postcodes; places; settlements; towns). A layer whose
            name an earlier map has is named NAME#N (N the map's place in the stack)
            """),
        Option.language,
        StackedMaps.map.documented("a map of the stack, or a folder of them (repeatable); not with MAP"),
        StackedMaps.noWorld.documented("the shipped world map does not join the maps of --map or $GMAP_MAP"),
        .maxLine, .threads,
    ]

    /// The options only place takes.
    enum Option {
        /// `--language LL`: the country's name in that language.
        static let language = CommandOption.value("--language", "LL", help: """
            the country's name in this language (an ISO 639 code: de, fr, ja,
            fi, …) where the map has it (the shipped map: Natural Earth's names in
            26 languages and each country's own, CLDR's); other fields unchanged
            """)
    }

    static func run(_ list: ArgumentList) throws -> Int32 {
        // The same arguments, coordinate reading and messages as gmap query.
        let target = try LeadingMap.beforeCoordinates(list.positional, arguments: list.arguments, command: name)
        if case .batch(let mapPath) = target { return try batch(list, mapPath: mapPath) }
        try QueryCommand.refuseLineOptions(list, [.maxLine, .threads])
        guard case .point(let mapPath, let latitude, let longitude) = target else {
            throw CommandFailure(message: "usage: gmap place [MAP | --map FILE ...] LATITUDE LONGITUDE [--json] (see 'gmap help place')")
        }
        let coordinate: CoordinateParser.Coordinate
        switch CoordinateParser.typed(latitude: latitude, longitude: longitude) {
        case .success(let value): coordinate = value
        case .failure(let failure): throw failure
        }
        var placemark: Placemark
        if let locations = try StackedMaps.locations(list, mapArgument: mapPath, command: name) {
            placemark = try StackedMaps.open(locations).placemark(latitude: coordinate.latitude, longitude: coordinate.longitude)
        } else {
            let map = try (mapPath.map(MapLocation.argument) ?? DefaultMap.location()).open()
            placemark = map.placemark(latitude: coordinate.latitude, longitude: coordinate.longitude)
        }
        if let language = list.value(Option.language), let name = placemark.country(inLanguage: language) { placemark.country = name }
        guard !placemark.isEmpty else {
            if list.has(.json) { StandardOutput.shared.write("null\n") }
            throw CommandFailure(message: "no feature of any layer contains (\(latitude), \(longitude))", code: ExitCode.notFound)
        }
        StandardOutput.shared.write((list.has(.json) ? LayeredQuery.json(placemark) : text(placemark)) + "\n")
        return ExitCode.success
    }

    /// `gmap place [MAP] -`: one line per line of standard input, read and parsed as `gmap query -`
    /// reads them (bad lines named on standard error, exit 2 at the end): the placemark's fields as
    /// `field=value` separated by tabs, or with `--json` its JSON object (`null` for none); an
    /// empty line where no layer answers.
    static func batch(_ list: ArgumentList, mapPath: String?) throws -> Int32 {
        let reader = LineReader(maximumBytes: try list.bytes(.maxLine))
        let threads = try QueryCommand.threads(list)
        let stack: MapStack
        if let locations = try StackedMaps.locations(list, mapArgument: mapPath, command: name) {
            stack = try StackedMaps.open(locations)
        } else {
            // A stack of one map: its layers' roles are found once, not for every line.
            stack = MapStack([try (mapPath.map(MapLocation.argument) ?? DefaultMap.location()).open()])
        }
        let json = list.has(.json)
        let language = list.value(Option.language)
        return try QueryCommand.batch(style: OutputStyle(all: true, json: json), reader: reader, threads: threads) { coordinate, output, found in
            stack.placemark(latitude: coordinate.latitude, longitude: coordinate.longitude, into: &found)
            if let language, let name = found.country(inLanguage: language) { found.country = name }
            if json {
                if found.isEmpty { output.append(contentsOf: "null".utf8) } else { LayeredQuery.writeJSON(found, to: &output) }
                return
            }
            var first = true
            LayeredQuery.forEachField(of: found) { name, value in
                if !first { output.append(0x09) }
                first = false
                output.append(contentsOf: name.utf8)
                output.append(0x3D)
                value.append(to: &output)
            }
        }
    }

    /// One `field  value` line per known field, in CLPlacemark's names and order.
    static func text(_ placemark: Placemark) -> String {
        LayeredQuery.fields(placemark).map { name, value in
            name.padding(toLength: max(name.count + 2, 24), withPad: " ", startingAt: 0) + value.text
        }.joined(separator: "\n")
    }
}

extension PlaceCommand {
    /// What `gmap help place` prints.
    static let help = """
    gmap place [MAP] LATITUDE LONGITUDE [--json] [--language LL]
    gmap place --map FILE [--map FILE ...] [--no-world] LATITUDE LONGITUDE [--json] [--language LL]
    gmap place [MAP | --map FILE ...] - [--json] [--language LL] [--max-line SIZE] [--threads N]

    Prints the whole placemark of the point: every field that the map's layers fill, one
    "field  value" line each, with CLPlacemark's field names; fields the map cannot fill are left
    out (a map without a layer a field needs simply leaves that field out). The coordinates are
    read exactly as by gmap query (the same forms, messages and exit codes); the map comes first.

    On the shipped world map (without MAP):
      isoCountryCode, country   the country (Natural Earth 1:10m, layer countries); --language
                                gives its name in another language
      administrativeArea        the state of the nearest town of the point's country (GeoNames'
                                admin1, layer towns): the USPS code in the US (CA), else its
                                name (Bavaria); administrativeAreaCode: the country's code and
                                GeoNames' (US-CA, DE-02); subAdministrativeArea: that town's
                                county (Santa Clara County), where GeoNames gives one
      timeZone                  the IANA time zone, Etc/GMT±N at sea (layer timezones, 1 km)
      ocean                     at sea, the ocean or sea (Natural Earth marine polygons, layer marine)
      inlandWater               a lake, lagoon or river of that layer (the Caspian Sea, ...)
      locality                  a town of the point's own country when it is in one (GeoNames'
                                170,391 places, layer towns): the nearest within 50 km, unless a
                                more populous one is nearly as near (1.25 times as far) or its
                                reach holds the point (1 km per sqrt(population / 10,000), at
                                most 15 km); then the most populous of those. localityDistance
                                in metres
    It has no streets or postal codes: thoroughfare and postalCode need a location map (gmap
    build --osm). A map with a layer of state polygons (gmap build --layer state=...) gives the
    state from it instead.

    On a location map (gmap build --osm):
      thoroughfare              the nearest street within 20 m, else the street of the nearest
                                address within 30 m
      subThoroughfare           the house number of the nearest address on that street within 30 m
      postalCode                the postal code of the nearest address within 100 m
      name                      the smallest named area around the point, else the nearest place
                                within 30 m; areasOfInterest: every named area around it
      locality                  the smallest place=city/town/village area around the point, else
                                the nearest such node within 10 km (city), 5 km (town) or 2 km
                                (village); localityDistance (0 inside an area)
      subLocality               the same for suburb (2 km), quarter (1 km), neighbourhood (500 m)
      inlandWater               the smallest named water area around the point (natural=water,
                                waterway=riverbank, landuse=reservoir)

    SEVERAL MAPS
    --map FILE (repeatable), or $GMAP_MAP as a list of maps separated by ':' (a.gmap:b.gmap, or
    a.gmap: for one), answers from all of them and the shipped world map, which joins last
    unless --no-world. A folder (--map DIR, or $GMAP_MAP naming one) gives every .gmap file in
    it, by name. Only the maps whose bounds come near the point are asked, so hundreds of region
    maps cost about what one does. Each field comes from the most detailed map that fills it:
    location maps first (of several, such as region maps, the nearer street, address, postal
    code, place or settlement, and the smaller area), then the others in the order given, the
    world map last. So a city map gives the
    street, house number, postal code, name, locality, subLocality, areas and inland water, and
    the world map the country, time zone and ocean, and the locality where the city map has none
    (the nearest town is then not searched for). Fields that belong together come from one map
    (thoroughfare and subThoroughfare; locality and localityDistance; the two administrative
    fields); country only from a map that agrees on isoCountryCode (a map of states knows the
    code FI from FI-18, the world map the name); ocean only when no map puts the point in a
    country. A map given as MAP is used alone, as before; so is $GMAP_MAP naming one map (no ':').

    Layers are found by name (country/countries, state/region/province/admin1,
    timezone/timezones/tz, marine/ocean/seas, towns/cities/localities, and a location map's
    roads, addresses, postcodes, areas, places and settlements): see Placemark in the README.

    OPTIONS
    \(OptionTable.lines(options, column: 16))

    A point that no layer answers prints nothing (null with --json), says so on stderr and exits
    1. Bad coordinates, a missing map or a damaged one exit 2.

    MANY POINTS
    With - instead of the coordinates, every line of standard input is a point, read as gmap
    query - reads it, and gets one line: its fields as field=value separated by tabs, or with
    --json its JSON object (null where no layer answers; an empty line without --json). A bad
    line is named on stderr (gmap: line N: ...) and gives an empty line (null with --json); the
    exit status is then 2 at the end. --max-line SIZE (default 1M) is the longest line read.
    --threads N answers with N threads (default: the number of cores); the output is in input
    order and the same with any N.

    EXAMPLES
      gmap place 36.14 -5.35                      Gibraltar, Europe/Gibraltar, locality Gibraltar
      gmap place 30 -40                           North Atlantic Ocean, Etc/GMT+3
      gmap place 48.57 7.81 --json                Kehl, not Strasbourg across the Rhine
      gmap place 37.3 -122.0                      CA, Santa Clara County, Cupertino
      gmap place 48.14 11.58 --language de        Deutschland, Bavaria, Munich
      gmap place --map helsinki.gmap 60.169 24.9396
                                                  Finland, Europe/Helsinki, Mannerheimintie 16, ...
      printf '36.14 -5.35\n30 -40\n' | gmap place - --json
                                                  one JSON placemark per line

    """
}
