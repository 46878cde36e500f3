import Foundation
import GMap

/// `gmap query [MAP] LAT LON` and `gmap query [MAP] -`, with `--nearest DISTANCE` the nearby fallback.
enum QueryCommand: Command {
    static let name = "query"
    static let summary = "the feature that contains the point (an id per line with -, answer columns with --csv)"
    /// Its options, in the order of its help.
    static let options: [CommandOption] = [
        Option.all,
        .json.documented("""
            print {"id": …, "properties": {…}} with the properties kept in the map
            (with --all, an array of them)
            """),
        Option.nearest, .layer, .maxLine, .threads,
    ] + CSVQueryCommand.options + [StackedMaps.map, StackedMaps.noWorld]

    /// The options only query takes (`--csv` and the options it reads are ``CSVQueryCommand``'s).
    enum Option {
        /// `--all`: every feature that contains the point.
        static let all = CommandOption.flag("--all", help: "print every feature that contains the point, smallest area first, space-separated")
        /// `--nearest DIST`: the nearby fallback.
        static let nearest = CommandOption.value("--nearest", "DIST", rule: .distance(maximum: GMap.maximumNearbyRadius), help: """
            when no feature contains the point, answer the feature whose boundary is
            nearest within DIST (500m, 2.5km, 10km; a plain number is metres; at most
            100km): prints "ID nearby METRES m" (whole metres; an inside answer is
            just the ID). Distances are geodesic on WGS 84, accurate to 0.5 %. With
            --json, adds "match":"inside"|"nearby" and "distance_m" (0 when inside).
            Only the tiles within DIST of the point are read. Not with --all.
            """)
    }

    static func run(_ list: ArgumentList) throws -> Int32 {
        if let input = list.value(CSVQueryCommand.csv) {
            return try CSVQueryCommand.run(list, input: input, threads: try threads(list))
        }
        for option in CSVQueryCommand.options.sorted(by: { $0.name < $1.name }) where list.isGiven(option) {
            throw CommandFailure(message: "\(option.name) only applies with --csv (a CSV input with a header row)")
        }
        var style = OutputStyle(all: list.has(Option.all), json: list.has(.json))
        if list.value(Option.nearest) != nil {
            guard !style.all else { throw CommandFailure(message: "--nearest answers one feature per point; it cannot be combined with --all") }
            style.nearest = try list.metres(Option.nearest)
        }
        let target = try LeadingMap.beforeCoordinates(list.positional, arguments: list.arguments, command: name)
        // Coordinates are read before the map is found, so a typing mistake is named even without a map.
        var point: (coordinate: CoordinateParser.Coordinate, typed: (Substring, Substring))?
        if case .point(_, let latitude, let longitude) = target {
            switch CoordinateParser.typed(latitude: latitude, longitude: longitude) {
            case .success(let value): point = (value, (latitude, longitude))
            case .failure(let failure): throw failure
            }
        }
        if let stack = try stack(list, target: target, style: style) {
            return try answer(stack: stack, point: point, list: list, style: style)
        }
        let location = try target.map.map(MapLocation.argument)
            ?? DefaultMap.location(command: name, also: ", or answer from every map with --all (gmap place gives the placemark)")
        var map = try location.open()
        map = try QueryCommand.layer(list, of: map, at: location)
        // --layer NAME answers from that layer alone. The shipped map answers from its first layer, countries, exactly as when it had one
        // layer (scripts read "GI"); `gmap place` gives its whole placemark.
        let layered = map.layerNames.count > 1 && location.origin != .bundled && list.value(.layer) == nil
        if layered, style.nearest != nil {
            throw CommandFailure(message: "--nearest works on single-layer maps in this version; this map has layers \(map.layerNames.joined(separator: ", "))")
        }
        guard let (coordinate, typed) = point else {
            let reader = LineReader(maximumBytes: try list.bytes(.maxLine))
            return try batch(map: map, style: style, layered: layered, reader: reader, threads: try threads(list))
        }
        try refuseLineOptions(list, [.maxLine, .threads])
        let asked = (String(typed.0), String(typed.1))
        if layered {
            let hint = swapHint(coordinate, typed: typed) { !map.placemark(latitude: $0.latitude, longitude: $0.longitude).isEmpty }
            return try LayeredQuery.answer(map: map, coordinate: coordinate, style: style, asked: asked, hint: hint)
        }
        // The hint only when the point as typed is far from everything (nothing even within the
        // largest --nearest radius): near a coast, the order was most likely right.
        let hint = swapHint(coordinate, typed: typed) { swapped in
            map.lookup(latitude: swapped.latitude, longitude: swapped.longitude) != nil
                && map.lookup(latitude: coordinate.latitude, longitude: coordinate.longitude, within: GMap.maximumNearbyRadius) == nil
        }
        let answer = QueryAnswer(map: map, style: style)
        guard let text = answer.text(latitude: coordinate.latitude, longitude: coordinate.longitude) else {
            if style.json { StandardOutput.shared.write(answer.noAnswer + "\n") }
            let within = style.nearest.map { " or lies within \(NearbyOption.tenths($0)) m of it" } ?? ""
            throw CommandFailure(message: "no feature contains (\(asked.0), \(asked.1))\(within)\(hint())", code: ExitCode.notFound)
        }
        StandardOutput.shared.write(text + "\n")
        return ExitCode.success
    }

    /// The layer `--layer NAME` names in `map` (the map itself without `--layer`); a failure that
    /// lists the map's layers when it has none of that name.
    static func layer(_ list: ArgumentList, of map: GMap, at location: MapLocation) throws -> GMap {
        guard let name = list.value(.layer) else { return map }
        guard let layer = map.layer(named: name) else {
            throw CommandFailure(message: "\(location.path) has no layer named '\(name)'; its layers are \(map.layerNames.joined(separator: ", "))")
        }
        return layer
    }

    /// The maps of `--map` or a `$GMAP_MAP` list with `--all` (every layer of every map), or nil
    /// for one map. Several maps without `--all`, or with `--layer`, are refused.
    static func stack(_ list: ArgumentList, target: LeadingMap.Target, style: OutputStyle) throws -> MapStack? {
        guard style.all else {
            if let stacked = [StackedMaps.map, StackedMaps.noWorld].first(where: list.isGiven) {
                throw CommandFailure(message: "\(stacked.name) is for several maps, which gmap query answers with --all (every layer of every map); gmap place gives their placemark")
            }
            return nil
        }
        guard let locations = try StackedMaps.locations(list, mapArgument: target.map, command: name) else { return nil }
        if list.value(.layer) != nil {
            throw CommandFailure(message: "--layer answers from a layer of one map; with several maps (\(StackedMaps.names(locations))), give that map as MAP")
        }
        return try StackedMaps.open(locations)
    }

    /// `gmap query --all` over several maps: the point's answers in every layer of every map (or
    /// the placemark with `--json`), or one line per line of standard input.
    static func answer(stack: MapStack, point: (coordinate: CoordinateParser.Coordinate, typed: (Substring, Substring))?,
                       list: ArgumentList, style: OutputStyle) throws -> Int32 {
        let placemark = { (coordinate: CoordinateParser.Coordinate) in stack.placemark(latitude: coordinate.latitude, longitude: coordinate.longitude) }
        guard let (coordinate, typed) = point else {
            let reader = LineReader(maximumBytes: try list.bytes(.maxLine))
            return try batch(style: style, reader: reader, threads: try threads(list)) { coordinate, output, found in
                stack.placemark(latitude: coordinate.latitude, longitude: coordinate.longitude, into: &found)
                LayeredQuery.write(found, style: style, to: &output)
            }
        }
        try refuseLineOptions(list, [.maxLine])
        let hint = swapHint(coordinate, typed: typed) { !placemark($0).isEmpty }
        return try LayeredQuery.answer(placemark(coordinate), style: style, asked: (String(typed.0), String(typed.1)), hint: hint)
    }

    /// Fails when one of `options`, which only the lines of standard input use, is given with a point.
    static func refuseLineOptions(_ list: ArgumentList, _ options: [CommandOption]) throws {
        if let given = options.first(where: list.isGiven) {
            throw CommandFailure(message: "\(given.name) only applies with - (lines read from standard input)")
        }
    }

    /// After a miss: the hint that latitude comes first, when the swapped point is valid and `answers` it.
    private static func swapHint(_ coordinate: CoordinateParser.Coordinate, typed: (Substring, Substring),
                                 answers: @escaping (CoordinateParser.Coordinate) -> Bool) -> () -> String {
        {
            guard CoordinateParser.swapIsPlausible(coordinate, typed: typed),
                  answers(CoordinateParser.Coordinate(latitude: coordinate.longitude, longitude: coordinate.latitude)) else { return "" }
            return CoordinateParser.swapHint(latitude: typed.0, longitude: typed.1)
        }
    }

    /// Answers every line of standard input, one output line per input line, in input order with any
    /// number of threads. Input in UTF-16 or UTF-32 is refused before any line is read; a line longer
    /// than the reader's limit is a bad line.
    static func batch(map: GMap, style: OutputStyle, layered: Bool, reader: LineReader, threads: Int = 1) throws -> Int32 {
        var reader = reader
        if let wide = reader.wideEncoding() { throw CommandFailure(message: wide.message(subject: "standard input")) }
        return BatchQuery(map: map, style: style, layered: layered, maximumBytes: reader.maximumBytes).run(reader: reader, threads: threads)
    }

    /// Answers every line of standard input with what `write` writes for its point, with `threads`
    /// threads, the lines read and parsed as ``batch(map:style:layered:reader:threads:)`` reads them.
    static func batch(style: OutputStyle, reader: LineReader, threads: Int, write: @escaping BatchQuery.Writer) throws -> Int32 {
        var reader = reader
        if let wide = reader.wideEncoding() { throw CommandFailure(message: wide.message(subject: "standard input")) }
        return BatchQuery(map: nil, style: style, layered: false, maximumBytes: reader.maximumBytes).run(reader: reader, threads: threads, write: write)
    }

    /// `--threads N` (a whole number from 1 to 256), by default the number of cores.
    static func threads(_ list: ArgumentList) throws -> Int {
        try list.integer(.threads) ?? BatchQuery.defaultThreads
    }
}

/// One point's answer in a map of one layer (or one chosen layer), as `gmap query` prints it for
/// a point and for each line of `gmap query -`: the one place that picks between --nearest,
/// --all and the single answer.
struct QueryAnswer {
    let map: GMap
    let style: OutputStyle

    /// The answer's text (without a newline), or nil when no feature answers the point.
    func text(latitude: Double, longitude: Double) -> String? {
        if let radius = style.nearest {
            return map.lookup(latitude: latitude, longitude: longitude, within: radius).map { NearbyOption.render($0, json: style.json) }
        }
        let answers = style.all ? map.lookupAll(latitude: latitude, longitude: longitude)
                                : map.lookup(latitude: latitude, longitude: longitude).map { [$0] } ?? []
        return answers.isEmpty ? nil : style.render(answers)
    }

    /// What stands for no answer: an empty line, or with --json `null` (`[]` with --all).
    var noAnswer: String { style.json ? (style.all ? "[]" : "null") : "" }
}

/// How answers are printed.
struct OutputStyle {
    var all: Bool
    var json: Bool
    /// With `--nearest`: the radius in metres for the nearby fallback.
    var nearest: Double? = nil

    func render(_ features: [Feature]) -> String {
        if json {
            return all ? "[" + features.map(JSONText.feature).joined(separator: ",") + "]" : features.first.map(JSONText.feature) ?? "null"
        }
        return all ? features.map(\.id).joined(separator: " ") : features.first?.id ?? ""
    }
}

extension QueryCommand {
    /// What `gmap help query` prints.
    static let help = """
    gmap query [MAP] LATITUDE LONGITUDE [--all | --nearest DIST] [--json] [--layer NAME]
    gmap query [MAP] "LATITUDE,LONGITUDE" [--all | --nearest DIST] [--json] [--layer NAME]
    gmap query [MAP] - [--all | --nearest DIST] [--json] [--layer NAME] [--max-line SIZE] [--threads N]
    gmap query [MAP] --csv FILE|- [--lat NAME] [--lon NAME] [--keep PROP,...] [--prefix TEXT] [--layer NAME]
    gmap query --map FILE [--map FILE ...] [--no-world] LATITUDE LONGITUDE --all [--json]

    Prints the id of the feature that contains the point: latitude first, in decimal degrees
    (latitude in [-90, 90], longitude in [-180, 180]). Where features overlap, the one with the
    smallest area answers. A point on a border shared by two features belongs to exactly one.
    Longitude 180 is answered as -180 (the same meridian); latitude 90 as the point 1e-7° south.
    The map comes first, before the coordinates.

    The point can also be one argument, "36.14,-5.35" or "36.14, -5.35" (as in a batch line).
    Either number can be degrees-minutes-seconds with ° ' " (or ′ ″, or '' for seconds) and an
    optional N, S, E or W before or after: 36°8'24"N, 36°8′N, 5°21'W, 36.14N, -5°21'. Only the
    last part may have a fraction; minutes and seconds are below 60; S and W are negative. With
    a letter on both, either order is read. Quote ' and " for the shell:
    gmap query "36°8'N" "5°21'W".

    A latitude outside [-90, 90] whose swap is a valid point, and a point in no feature whose
    swap is in one, add to the message: latitude comes first: did you mean LON LAT? (only when
    nothing lies within 100 km of the point as given: near a coast the order was likely right)

    OPTIONS
    \(OptionTable.lines(options, column: 12))

    With "-" instead of coordinates, reads lines of "lat lon" or "lat,lon" from standard input
    (the numbers read as above) and prints one line per input line: the answer, or an empty line
    (null with --json) when no feature contains the point. Unreadable lines print an empty line
    and a message on stderr, and the exit code is then 2. A line longer than --max-line SIZE
    (default 1M; bytes, or with K, M or G) is one of them, skipped without being held in memory.
    Input must be UTF-8 (a byte order mark is skipped); UTF-16 or UTF-32 is refused at once.
    --threads N answers with N threads (default: the number of cores); the output is in input
    order and the same with any N.

    With --csv FILE (or --csv - for standard input), reads CSV (RFC 4180) whose first row names
    the columns, and writes CSV on stdout: the header and each row with every field as read
    (quoted only where RFC 4180 needs it: a comma, a quote or a line break in the field), then the
    answer columns: id (on a map of several layers, one column per layer, named after it, holding
    what gmap query prints after "layer="), and with --keep PROP[,PROP...] one column per property
    (LAYER.PROP for each layer on a map of several layers); empty where no feature contains the
    point or the feature lacks the property. --lat NAME and --lon NAME name the coordinate
    columns (exactly as in the header); without them the one column named lat or latitude (else
    y) and the one named lon, lng, long or longitude (else x) are taken, in any case; with none,
    or two alike, it stops and lists the header's columns. An answer column named as a column of
    the input is refused: --prefix TEXT goes before every answer column's name (--prefix gmap_
    writes gmap_id). Quoted fields may hold commas, doubled quotes ("") and line breaks; a quote
    inside a field that does not start with one is an ordinary character. Rows end with LF or
    CR LF, and the output ends its rows as the header row ends (CR LF or LF); a byte order mark
    is skipped; empty lines are skipped. A row whose coordinates are bad (read as for -, so a
    latitude above 90 is bad), whose field count differs from the header's, with text after a
    closing quote or a quote not closed before the end of input, or longer than --max-line, is
    left out of the output with a message naming the line where the row starts, and the exit
    code is then 2. --layer and --threads N work as with -.

    A map of several layers (gmap build --layer) answers in every layer: "layer=id" pairs in the
    map's layer order, separated by tabs, with nothing after "=" for a layer with no answer
    (with --all, a layer's answers are joined by commas, smallest first). --json then prints the
    placemark: {"isoCountryCode", "country", "administrativeArea", "administrativeAreaCode",
    "timeZone", "layers": {NAME: [every feature containing the point, smallest first]}}; the
    fields come from the layers named country, state (or region, province, admin1) and timezone;
    "ocean", "inlandWater", "locality" and "localityDistance" (metres) follow when known (layers
    marine and towns). The shipped map, used without MAP, answers from its first layer,
    countries, as a map of one layer does (gmap place gives its whole placemark); given as a
    file (gmap query world.gmap ...), it answers in every layer.

    --layer NAME answers from that layer alone, as a map of one layer (gmap query world.gmap
    36.14 -5.35 --layer countries prints GI).

    With --all, several maps answer together: --map FILE (repeatable), or $GMAP_MAP as a list
    separated by ':' (a.gmap:b.gmap), and the shipped world map, which joins last unless
    --no-world (as gmap place, which says which map gives each field). Every layer of every map
    answers, "layer=ids" as above, location maps first, then the maps in the order given; a
    layer of lines or points lists the features that gave a placemark field (roads=the street);
    --json prints the placemark of them all. Not with --layer or --nearest. Without --all, the
    map is one: MAP, or $GMAP_MAP naming one map, or the shipped map.

    A single point in no feature prints nothing on stdout (null or [] with --json), says so on
    stderr and exits 1. Bad coordinates, a missing map or a damaged one exit 2.

    EXAMPLES
      gmap query world.gmap 36.14 -5.35                 GI
      gmap query world.gmap "36.14, -5.35"              GI
      gmap query world.gmap "36°8'N" "5°21'W"           GI
      gmap query world.gmap 36.14 -5.35 --json          {"id":"GI","properties":{"name":"Gibraltar"}}
      gmap query world.gmap 36.0 -5.2 --nearest 20km    ES nearby 12336 m
      printf '52.52,13.405\\n48.86 2.35\\n' | gmap query world.gmap -
      gmap query world.gmap --layer countries --csv points.csv --keep name > answered.csv

    """
}
