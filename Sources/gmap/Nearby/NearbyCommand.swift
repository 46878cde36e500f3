import GMap

/// `gmap nearby MAP LAT LON [--heading DEG] [--ahead] [--within DIST] [--category C] [--limit N] [--json]`:
/// the named places around a point ("around me"), or ahead of the way the user faces ("ahead of
/// me"), from the `places` layer of a map built with `gmap build --osm`, through
/// ``MapLocationSource/placesAround(latitude:longitude:heading:within:category:aheadOnly:limit:)``.
enum NearbyCommand: Command {
    static let name = "nearby"
    static let summary = "the named places around, or ahead, nearest first"
    /// Its options, in the order of its help.
    static let options: [CommandOption] = [
        StackedMaps.map.documented(WhereCommand.mapHelp),
        Option.heading, Option.ahead, Option.within, Option.category, Option.limit,
        .json.documented("""
            print one JSON array of {"name", "category", "kind" (the word),
            "distance_m" (0.1 m), "bearing" (0.1°, clockwise from north)}, with
            "relative_bearing" (0.1°, positive to the right) and "direction" (ahead,
            to your right, to your left, behind) when --heading is given
            """),
    ]

    /// The options only nearby takes.
    enum Option {
        /// `--heading DEG`: where the user faces.
        static let heading = CommandOption.value("--heading", "DEG", rule: .direction, help: """
            where the user faces, degrees clockwise from north (any value is taken
            modulo 360; nan means none). Each place then says where it lies, from its
            bearing relative to the heading, d in -180 … 180: ahead for -45 ≤ d ≤ 45,
            to your right for 45 < d ≤ 135, to your left for -135 ≤ d < -45, behind
            otherwise
            """)
        /// `--ahead`: only the places ahead.
        static let ahead = CommandOption.flag("--ahead", help: "only the places ahead (\"ahead of me\"); needs --heading")
        /// `--within DIST`: how far to look.
        static let within = CommandOption.value("--within", "DIST", rule: .distance(maximum: maximumRadius), help: """
            how far to look: metres, or with a unit, 500m or 1.5km (default 200m,
            at most 2km)
            """)
        /// `--category C`: only places of a category.
        static let category = CommandOption.value("--category", "C", help: """
            only places of a category: the whole key=value (tourism=museum), its key
            (tourism), its value (museum) or its word (tram stop); case does not matter
            """)
        /// `--limit N`: the most places printed.
        static let limit = CommandOption.value("--limit", "N", rule: .wholeNumber(1...Int.max, .afterValue("is not a whole number ≥ 1")),
                                               help: "at most N places (default \(defaultLimit))")
    }

    /// `--within` when not given, and its largest value, in metres.
    static let defaultRadius = 200.0, maximumRadius = 2000.0
    /// `--limit` when not given.
    static let defaultLimit = 10

    static let usage = "usage: gmap nearby MAP LATITUDE LONGITUDE [--heading DEG] [--ahead] [--within DIST] [--category C] [--limit N] [--json], or gmap nearby --map MAP … LATITUDE LONGITUDE … (see 'gmap help nearby')"

    static func run(_ list: ArgumentList) throws -> Int32 {
        // Everything typed is read before the map is opened, so a typing mistake is named even without a map.
        let given = try StackedMaps.givenLocations(list)
        let (mapPath, latitudeText, longitudeText) = try MapPointArguments.parse(list.positional, mapGiven: given != nil, usage: usage)
        let coordinate: CoordinateParser.Coordinate
        switch CoordinateParser.typed(latitude: latitudeText, longitude: longitudeText) {
        case .success(let value): coordinate = value
        case .failure(let failure): throw failure
        }
        let heading = try list.degrees(Option.heading)
        let ahead = list.has(Option.ahead)
        if ahead, heading == nil {
            throw CommandFailure(message: "--ahead needs --heading DEG (where the user faces): without a heading nothing is ahead")
        }
        let radius = try list.metres(Option.within) ?? defaultRadius
        let limit = try list.integer(Option.limit) ?? defaultLimit
        let category = list.value(Option.category)
        if let category, category.allSatisfy({ $0 == " " }) {
            throw CommandFailure(message: "--category '\(category)' is empty: give a category such as museum, cafe or tourism=museum")
        }

        let locations = given ?? [MapLocation.argument(mapPath)]
        let maps = try locations.map { try $0.open() }
        guard let source = try? StackLocationSource(stack: MapStack(maps)), source.sources.contains(where: { $0?.placeLayer?.geometryKind == .points }) else {
            let subject = locations.count == 1 ? "\(StackedMaps.names(locations)) has no places layer" : "none of \(StackedMaps.names(locations)) has a places layer"
            throw CommandFailure(message: "\(subject) (build a location map with gmap build --osm FILE.osm.pbf -o MAP.gmap)")
        }
        let places = source.placesAround(latitude: coordinate.latitude, longitude: coordinate.longitude, heading: heading,
                                         within: radius, category: category, aheadOnly: ahead, limit: limit)
        if list.has(.json) {
            StandardOutput.shared.write("[" + places.map(json).joined(separator: ",") + "]\n")
        } else {
            StandardOutput.shared.write(places.map { line($0) + "\n" }.joined())
        }
        StandardOutput.shared.flush()
        guard !places.isEmpty else {
            let what = category.map { "no place of category '\($0)'" } ?? "no named place"
            StandardError.write("gmap: \(what) within \(Int(radius.rounded())) m\(ahead ? " ahead" : "")\n")
            return ExitCode.notFound
        }
        return ExitCode.success
    }

    /// `Kiasma, museum: 85 m northeast, ahead`: the name, the spoken category, whole metres, the
    /// compass sector and, with a heading, where it lies relative to it.
    static func line(_ place: PlaceAround) -> String {
        var text = "\(place.name), \(place.kind): \(Int(place.distance.rounded())) m \(Compass.direction(place.bearing))"
        if let direction = place.direction { text += ", " + direction.words }
        return text
    }

    /// `{"name", "category", "kind", "distance_m", "bearing"[, "relative_bearing", "direction"]}`:
    /// metres to 0.1 m, degrees to 0.1°.
    static func json(_ place: PlaceAround) -> String {
        let bearing = NearbyOption.tenths(place.bearing)
        var fields = ["\"name\":\(JSONText.string(place.name))", "\"category\":\(JSONText.string(place.category))",
                      "\"kind\":\(JSONText.string(place.kind))", "\"distance_m\":\(NearbyOption.tenths(place.distance))",
                      "\"bearing\":\(bearing == "360" ? "0" : bearing)"]
        if let relative = place.relativeBearing, let direction = place.direction {
            let tenths = NearbyOption.tenths(relative)
            fields.append("\"relative_bearing\":\(tenths == "-180" ? "180" : tenths)")
            fields.append("\"direction\":\(JSONText.string(direction.words))")
        }
        return "{" + fields.joined(separator: ",") + "}"
    }
}

extension NearbyCommand {
    /// What `gmap help nearby` prints.
    static let help = """
    gmap nearby MAP LATITUDE LONGITUDE [--heading DEG] [--ahead] [--within DIST] [--category C]
                [--limit N] [--json]
    gmap nearby MAP "LATITUDE,LONGITUDE" [options]
    gmap nearby --map MAP|DIR [--map …] LATITUDE LONGITUDE [options]

    Lists the named places around the point ("around me"), nearest first, from the places layer
    of a map built with gmap build --osm, one line each: the name, what it is, the distance in
    whole metres and the compass direction, and with --heading where it lies for the user:
      Kiasma, museum: 85 m northeast, ahead
    What it is is the place's category said as a word: tourism=museum is "museum",
    railway=tram_stop "tram stop", building=yes "building". Distances are geodesic (WGS 84);
    equally distant places come in the map's order. The coordinates are read as gmap query reads
    them (latitude first, decimal or degrees-minutes-seconds).

    OPTIONS
    \(OptionTable.lines(options, column: 19))

    Exit codes: 0 places were found, 1 none (a message on stderr; [] with --json), 2 bad usage
    or input, or a map without a places layer.

    EXAMPLES
      gmap build --osm Helsinki.osm.pbf -o helsinki.gmap
      gmap nearby helsinki.gmap 60.1690 24.9396
      gmap nearby helsinki.gmap 60.1690 24.9396 --heading 330 --ahead --within 500m
      gmap nearby helsinki.gmap 60.1690 24.9396 --category museum --within 1km --json

    """
}
