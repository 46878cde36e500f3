import Foundation
import GMap
import GMapBuilder

/// `gmap where MAP LAT LON [--heading DEG | --course DEG] [--json]` and
/// `gmap where MAP --replay FILE|- [--every] [--json]`: location sense in words, from a map built
/// with `gmap build --osm`.
enum WhereCommand: Command {
    /// How `gmap where` prints senses.
    struct Style {
        /// One JSON object per sense instead of the callouts.
        var json: Bool
        /// The language of the names in callouts (`name:LL`), nil for OSM's `name`.
        var language: String? = nil

        /// The callouts of `sense`, names in the style's language where the map has them.
        func callouts(_ sense: LocationSense, direction: (degrees: Double, isFacing: Bool)?, source: StackLocationSource) -> [Callout] {
            guard let language else { return sense.spokenCallouts(direction: direction) }
            return sense.spokenCallouts(direction: direction, names: { source.localizedName($0, language: language) ?? $0 })
        }
    }

    static let name = "where"
    static let summary = "where the point is, in words: the area, the road, the intersection ahead"
    /// Its options, in the order of its help.
    static let options: [CommandOption] = [
        StackedMaps.map.documented(mapHelp),
        Option.heading, Option.course, Option.language,
        .json.documented("""
            print {"kind": "along_road"|"inside"|"other"|"unknown"|"no_location",
            "road": {"name", "class", "distance_m", "direction", "bearing"},
            "intersection_ahead": {"streets", "distance_m", "bearing", "main",
            "latitude", "longitude"}, "nearest_place": {"name",
            "category", "kind", "distance_m", "bearing"}, "area": {…}, "callouts":
            [{"text", "bearing"}]} (null for what there is not; a callout's bearing,
            to play it from that direction, is null when it has no subject)
            """),
        Option.replay,
        .maxLine.documented("""
            with --replay: the longest line read (default 1M; bytes, or with K, M
            or G); a longer one is such a line, skipped without being held in memory
            """),
        Option.every, Option.throttled,
    ]

    /// What `--map` says in the help of `gmap where` and `gmap nearby`.
    static let mapHelp = """
        a location map, or a folder of them (every .gmap in it), instead of MAP;
        repeatable: region maps built one by one answer as one map, each question
        asking the maps whose bounds come within its reach, a road or an
        intersection cut by a seam being one again
        """

    /// The options only where takes.
    enum Option {
        /// `--heading DEG`: where the user faces.
        static let heading = CommandOption.value("--heading", "DEG", rule: .direction, help: """
            where the user faces (a compass), degrees clockwise from north: the
            callout says "facing"; any value is taken modulo 360; nan means none
            """)
        /// `--course DEG`: where the user moves.
        static let course = CommandOption.value("--course", "DEG", rule: .direction, help: """
            where the user moves (GPS course over ground): the callout says
            "heading". Without either, there is no intersection ahead.
            """)
        /// `--language LL`: the language of the names.
        static let language = CommandOption.value("--language", "LL", help: """
            names in that language (OSM's name:LL, such as sv or en) where the map
            has them (gmap build --osm --languages LL), else OSM's name; a map
            without any is named on stderr. The words stay English.
            """)
        /// `--replay FILE`: a track of fixes to read.
        static let replay = CommandOption.value("--replay", "FILE", help: """
            read a track from FILE ("-": standard input), lines
            time,lat,lon[,course[,heading[,accuracy]]] (time in seconds; course
            where the user moves, as --course; heading where the user faces, as
            --heading; accuracy the radius in metres the phone reports: a fix worse
            than 20 m changes nothing; any may be empty; blank lines and lines
            starting with # are skipped), feed
            each fix to one location context and print "TIME CALLOUTS" for the
            first fix, then where the road, the area or the intersection ahead
            changed while the user has a direction (standing still: nothing).
            The context smooths GPS noise, keeps the road steady near junctions
            and takes a new one within seconds of a turn. 10 s without a fix (or
            twice the usual interval) prints "We don't have geolocation
            information." (with --every, once a second), and the next fix starts
            afresh. With --json, one object
            per line, with "time" and "changes". A line that cannot be read
            is named with its number on stderr and skipped; the exit code is then 2.
            """)
        /// `--every`: a sense for every fix of the track.
        static let every = CommandOption.flag("--every", help: "with --replay: a sense for every fix")
        /// `--throttled`: a sense every 15 s or 10 m.
        static let throttled = CommandOption.flag("--throttled", help: """
            with --replay: a sense when 15 s have passed or the user moved 10 m
            since the last one printed
            """)
    }

    static func run(_ list: ArgumentList) throws -> Int32 {
        let style = Style(json: list.has(.json), language: try language(list))
        if let replay = list.value(Option.replay) {
            for option in [Option.heading, Option.course] where list.isGiven(option) {
                throw CommandFailure(message: "\(option.name) applies to one point; with --replay, each line's fourth field is its course and the fifth its compass heading")
            }
            let given = try StackedMaps.givenLocations(list)
            guard list.positional.count == (given == nil ? 1 : 0) else {
                throw CommandFailure(message: "usage: gmap where MAP --replay FILE|- [--every | --throttled] [--language LL] [--json], or gmap where --map MAP … --replay FILE|- (see 'gmap help where')")
            }
            if list.has(Option.every) && list.has(Option.throttled) {
                throw CommandFailure(message: "give --every (a sense for every fix) or --throttled (every 15 s or 10 m), not both")
            }
            let locations = given ?? [MapLocation.argument(list.positional[0])]
            guard let source = try openSource(locations) else { return noRoadLayer(locations) }
            warnWithoutNames(source, style: style, map: StackedMaps.names(locations))
            let mode: WhereReplay.Mode = list.has(Option.every) ? .every : list.has(Option.throttled) ? .throttled : .onChange
            var replayer = WhereReplay(input: replay, mode: mode, style: style)
            replayer.maximumLineBytes = try list.bytes(.maxLine)
            return try replayer.run(source: source)
        }
        for flag in [Option.every, Option.throttled] where list.has(flag) { throw CommandFailure(message: "\(flag.name) only applies with --replay FILE") }
        let given = try StackedMaps.givenLocations(list)
        let (mapPath, latitude, longitude) = try point(of: list.positional, mapGiven: given != nil)
        let locations = given ?? [MapLocation.argument(mapPath)]
        // Coordinates and the direction are read before the map is opened, so a typing mistake is named even without a map.
        let coordinate: CoordinateParser.Coordinate
        switch CoordinateParser.typed(latitude: latitude, longitude: longitude) {
        case .success(let value): coordinate = value
        case .failure(let failure): throw failure
        }
        let heading = try list.degrees(Option.heading), course = try list.degrees(Option.course)
        if list.isGiven(Option.heading), list.isGiven(Option.course) {  // nan counts: a direction was given
            throw CommandFailure(message: "give --heading (where the user faces) or --course (where the user moves), not both")
        }
        let fix = LocationFix(latitude: coordinate.latitude, longitude: coordinate.longitude, time: 0, heading: heading, course: course)
        guard let source = try openSource(locations) else { return noRoadLayer(locations) }
        warnWithoutNames(source, style: style, map: StackedMaps.names(locations))
        var context = LocationContext(source: source)
        guard let sense = context.update(fix) else {
            throw CommandFailure(message: "no sense for (\(latitude), \(longitude))")  // not reached: a first valid fix always gives one
        }
        let callouts = style.callouts(sense, direction: fix.direction, source: source)
        StandardOutput.shared.write(style.json ? SenseJSON.object(sense, callouts: callouts, time: nil) + "\n" : callouts.map { $0.text + "\n" }.joined())
        StandardOutput.shared.flush()
        return sense == .unknown ? ExitCode.notFound : ExitCode.success
    }

    /// `MAP LAT LON` or `MAP "LAT,LON"` (without MAP when `--map` gives the maps): the map's path
    /// (empty with `--map`) and the coordinates as typed.
    static func point(of positional: [String], mapGiven: Bool) throws -> (map: String, latitude: Substring, longitude: Substring) {
        try MapPointArguments.parse(positional, mapGiven: mapGiven, usage: "usage: gmap where MAP LATITUDE LONGITUDE [--heading DEG | --course DEG] [--language LL] [--json], "
            + "gmap where --map MAP … LATITUDE LONGITUDE, or gmap where MAP --replay FILE|- [--every | --throttled] [--language LL] (see 'gmap help where')")
    }

    /// `--language CODE`: a language code as `gmap build --languages` takes them.
    static func language(_ list: ArgumentList) throws -> String? {
        guard let code = list.value(Option.language) else { return nil }
        guard LocalNames.isLanguageKey("name:" + code) else {
            throw CommandFailure(message: "\(Option.language.name) '\(code)' is not a language code (two or three lower-case letters, such as sv or en)")
        }
        return code
    }

    /// Says on stderr when the map has no names in the asked language (callouts then use OSM's `name`).
    static func warnWithoutNames(_ source: StackLocationSource, style: Style, map: String) {
        guard let language = style.language, !source.hasNames(in: language) else { return }
        StandardError.write("gmap where: \(map) has no names in '\(language)'; the names are OSM's own (build the map with --languages \(language))\n")
    }

    /// The location source of the maps (one map, or a stack of region maps); nil when none has a road layer.
    static func openSource(_ locations: [MapLocation]) throws -> StackLocationSource? {
        let maps = try locations.map { try $0.open() }
        return try? StackLocationSource(stack: MapStack(maps))
    }

    /// Says that no map of `locations` has a road layer, and gives the usage exit code.
    static func noRoadLayer(_ locations: [MapLocation]) -> Int32 {
        StandardOutput.shared.flush()
        let subject = locations.count == 1 ? "\(StackedMaps.names(locations)) has no road layer" : "none of \(StackedMaps.names(locations)) has a road layer"
        StandardError.write("gmap where: \(subject) (build it with --osm)\n")
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
            throw CommandFailure(message: "\(option) \(InputExcerpt.quoted(text)) is not a number of degrees clockwise from north (for example 90 for east; nan for none)")
        }
        return Compass.normalised(value)
    }
}

extension WhereCommand {
    /// What `gmap help where` prints.
    static let help = """
    gmap where MAP LATITUDE LONGITUDE [--heading DEG | --course DEG] [--language LL] [--json]
    gmap where MAP "LATITUDE,LONGITUDE" [--heading DEG | --course DEG] [--language LL] [--json]
    gmap where MAP --replay FILE|- [--every | --throttled] [--language LL] [--json]
    gmap where --map MAP|DIR [--map …] LATITUDE LONGITUDE | --replay FILE|- […]

    Says where the point is, in words a pedestrian can use, from a map built with
    gmap build --osm (its roads, intersections, places and areas layers):
      You are inside Kiasma, museum.                   in a named area: the smallest that
      Nearest road, Mannerheimintie, is 12 m east.     contains the point, first
      You are heading north along Mannerheimintie.     else the road less than 20 m away
      Intersection with Kaivokatu is 120 m north.      the main intersection ahead on that road,
                                                       within 500 m, measured along the road
      Stockmann, department store, is 25 m east.       the nearest named place within 200 m
      Nearest road, Mannerheimintie, is 35 m west.     off the roads, outside areas
      Nothing known nearby.                            nothing within 200 m (exit 1)
    Distances are whole metres, directions the eight compass sectors; a distance that rounds
    to 0 m reads "You are at …". Names that OSM lists with ";" read "A and B"; a road known
    only by its number reads "road 170". The coordinates are read as gmap query reads them
    (latitude first, decimal or degrees-minutes-seconds).

    OPTIONS
    \(OptionTable.lines(options, column: 18))

    Exit codes: 0 something was said, 1 nothing known nearby (one point), 2 bad usage or input,
    or a map without a road layer ("gmap where: MAP has no road layer (build it with --osm)").

    EXAMPLES
      gmap build --osm Helsinki.osm.pbf -o helsinki.gmap
      gmap where helsinki.gmap 60.1690 24.9396 --course 330
      gmap where helsinki.gmap 60.1690 24.9396 --json
      printf '0,60.1690,24.9385,0\\n20,60.1700,24.9385,0\\n' | gmap where helsinki.gmap --replay -
      gmap where --map regions/ 60.1690 24.9396 --course 330

    """
}
