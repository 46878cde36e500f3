import GMap

/// `gmap query [MAP] LAT LON` and `gmap query [MAP] -`, with `--nearest DISTANCE` the nearby fallback.
enum QueryCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let list = try ArgumentList(arguments, options: ["--nearest"], flags: ["--all", "--json", "--help", "-h"])
        if list.has("--help") || list.has("-h") {
            StandardOutput.shared.write(HelpText.help(for: "query"))
            return ExitCode.success
        }
        var style = OutputStyle(all: list.has("--all"), json: list.has("--json"))
        if let radius = list.value("--nearest") {
            guard !style.all else { throw CommandFailure(message: "--nearest answers one feature per point; it cannot be combined with --all") }
            style.nearest = try NearbyOption.metres(radius)
        }
        var positional = list.positional
        let mapPath: String
        let firstIsNumber = positional.first.map { CoordinateParser.number(Substring($0)) != nil } ?? false
        switch positional.count {
        case 1 where positional[0] == "-", 2 where firstIsNumber && positional[1] != "-":
            mapPath = try DefaultMap.path()
        case 2 where positional[1] == "-", 3:
            mapPath = positional.removeFirst()
        default:
            throw CommandFailure(message: "usage: gmap query [MAP] LATITUDE LONGITUDE, or gmap query [MAP] - to read lines from standard input (see 'gmap help query')")
        }
        let map: GMap
        do {
            map = try GMap(contentsOf: mapPath)
        } catch {
            throw CommandFailure(message: error.description)
        }
        if map.layerNames.count > 1, style.nearest != nil {
            throw CommandFailure(message: "--nearest works on single-layer maps in this version; this map has layers \(map.layerNames.joined(separator: ", "))")
        }
        if positional == ["-"] {
            return batch(map: map, style: style)
        }
        let coordinate: CoordinateParser.Coordinate
        switch CoordinateParser.coordinate(latitude: Substring(positional[0]), longitude: Substring(positional[1])) {
        case .success(let value): coordinate = value
        case .failure(let failure): throw failure
        }
        if map.layerNames.count > 1 {
            return try LayeredQuery.answer(map: map, coordinate: coordinate, style: style, asked: (positional[0], positional[1]))
        }
        if let radius = style.nearest {
            guard let match = map.lookup(latitude: coordinate.latitude, longitude: coordinate.longitude, within: radius) else {
                if style.json { StandardOutput.shared.write("null\n") }
                throw CommandFailure(message: "no feature contains (\(positional[0]), \(positional[1])) or lies within \(NearbyOption.tenths(radius)) m of it", code: ExitCode.notFound)
            }
            StandardOutput.shared.write(NearbyOption.render(match, json: style.json) + "\n")
            return ExitCode.success
        }
        let answers = style.all ? map.lookupAll(latitude: coordinate.latitude, longitude: coordinate.longitude)
                                : map.lookup(latitude: coordinate.latitude, longitude: coordinate.longitude).map { [$0] } ?? []
        guard !answers.isEmpty else {
            if style.json { StandardOutput.shared.write(style.all ? "[]\n" : "null\n") }
            throw CommandFailure(message: "no feature contains (\(positional[0]), \(positional[1]))", code: ExitCode.notFound)
        }
        StandardOutput.shared.write(style.render(answers) + "\n")
        return ExitCode.success
    }

    /// Answers every line of standard input, one output line per input line.
    static func batch(map: GMap, style: OutputStyle) -> Int32 {
        var reader = LineReader()
        var lineNumber = 0, badLines = 0
        let output = StandardOutput.shared
        while let line = reader.next() {
            lineNumber += 1
            if line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) {
                output.write("\n")
                continue
            }
            switch CoordinateParser.line(line) {
            case .success(let coordinate):
                if map.layerNames.count > 1 {
                    output.write(LayeredQuery.render(map.placemark(latitude: coordinate.latitude, longitude: coordinate.longitude), style: style) + "\n")
                } else if let radius = style.nearest {
                    let match = map.lookup(latitude: coordinate.latitude, longitude: coordinate.longitude, within: radius)
                    output.write((match.map { NearbyOption.render($0, json: style.json) } ?? (style.json ? "null" : "")) + "\n")
                } else if style.all {
                    output.write(style.render(map.lookupAll(latitude: coordinate.latitude, longitude: coordinate.longitude)) + "\n")
                } else if let feature = map.lookup(latitude: coordinate.latitude, longitude: coordinate.longitude) {
                    output.write((style.json ? JSONText.feature(feature) : feature.id) + "\n")
                } else {
                    output.write(style.json ? "null\n" : "\n")
                }
            case .failure(let failure):
                badLines += 1
                output.write(style.json ? "null\n" : "\n")
                output.flush()
                StandardError.write("gmap: line \(lineNumber): \(failure.message)\n")
            }
        }
        output.flush()
        if badLines > 0 {
            StandardError.write("gmap: \(badLines) of \(lineNumber) lines could not be read\n")
            return ExitCode.usage
        }
        return ExitCode.success
    }
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
