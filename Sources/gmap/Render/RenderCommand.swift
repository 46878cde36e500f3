import Foundation
import GMap
import GMapRender
import GMapBuilder
import GMapCodecs

/// `gmap render [MAP] -o OUT.png [--width N] [--bbox W,S,E,N] [--tiles] [--points FILE] [--layer NAME] [--labels]`.
enum RenderCommand: Command {
    static let name = "render"
    static let summary = "draws the map as a PNG, as it answers"
    /// Its options, in the order of its help.
    static let options: [CommandOption] = [
        .output.documented("the PNG to write (required)"),
        Option.width, Option.bbox, Option.tiles, Option.points, Option.layer, Option.labels, .quiet,
    ]

    /// The options only render takes.
    enum Option {
        /// `--width N`: the picture's width in pixels.
        static let width = CommandOption.value("--width", "N", rule: .wholeNumber(1...Int.max, .afterValue("must be a positive whole number of pixels")), help: """
            the picture's width in pixels; the height follows the window's shape
            (default: 2048 pixels on the longer side; at most \(MapRenderer.maximumPixels) pixels in all)
            """)
        /// `--bbox W,S,E,N`: the window drawn.
        static let bbox = CommandOption.value("--bbox", "W,S,E,N",
                                              help: "the window in degrees: west, south, east, north (default: the map's grid)")
        /// `--tiles`: the tiles tinted and outlined.
        static let tiles = CommandOption.flag("--tiles", help: """
            tint each leaf tile by kind and outline the tiles, with a legend:
              empty    blue     no feature touches the tile
              covered  green    one feature covers it
              mixed    orange   a top-level tile record: features with their edges
              split    magenta  a record in a part of a split tile, stronger with depth
            outlines where tiles are at least 4 pixels wide: dark grey for top-level
            tiles, dark magenta for the cuts of split tiles; the legend (bottom left)
            is drawn last, and labels keep out of it
            """)
        /// `--points FILE`: points to mark.
        static let points = CommandOption.value("--points", "FILE", help: """
            mark the points of FILE with a cross and the id a lookup gives ("-" and
            a red cross when no feature contains the point). FILE has "lat,lon" or
            "lat lon" lines; blank lines and lines starting with # are skipped; extra
            columns are ignored; a first line of names is a header, and its
            lat/latitude and lon/lng/longitude columns are read
            """)
        /// `--layer NAME` (repeatable): the layers drawn.
        static let layer = CommandOption.value("--layer", "NAME", repeatable: true, help: """
            draw this layer of a map of several layers (default: the first layer,
            with every layer of lines and the first of points over it); repeat
            it to draw several: the first of polygons is coloured, layers of
            lines and points are drawn over it: streets as lines (main roads,
            by their "class" property, wider and orange) and points as dots
            (1 pixel where there are more than one for every 400 pixels)
            """)
        /// `--labels`: the names of what the layers of lines and points draw.
        static let labels = CommandOption.flag("--labels", help: """
            name what the layers of lines and points draw: the ids of points
            (largest "population" first, when they have one) and of main and
            middle roads, where a name fits without covering another or the
            legend (default: no names, so that a map of 17,225 towns stays a map).
            Names are drawn in gmap's 5 × 9 font: ASCII, Latin-1 and Latin
            Extended-A (accented letters built from letter and mark); other Latin
            letters with the marks the font has, else as the plain letter; other
            scripts (Greek, Cyrillic, CJK) as a box
            """)
    }

    static func run(_ list: ArgumentList) throws -> Int32 {
        let location = try LeadingMap.alone(list.positional, usage: "usage: gmap render [MAP] -o OUT.png (see 'gmap help render')")
            .map(MapLocation.argument) ?? DefaultMap.location(command: name)
        guard let asked = list.value(.output) else {
            throw CommandFailure(message: "gmap render needs an output file: -o OUT.png")
        }
        let output = try OutputFile.prepare(asked, inputs: [location.path] + (list.value(Option.points).map { [$0] } ?? []))
        let started = Date()
        let opened = try location.open()
        let (map, overlays) = try layers(of: opened, named: list.values(Option.layer))
        let window = try self.window(for: map, list: list)
        let points = try list.value(Option.points).map(RenderPointsFile.read) ?? []
        let options = MapRenderer.Options(showsTiles: list.has(Option.tiles), points: points,
                                          threads: ProcessInfo.processInfo.activeProcessorCount, overlays: overlays,
                                          labels: list.has(Option.labels))
        let drawingStarted = Date()
        let rendered = MapRenderer.render(map, window: window, options: options)
        let encodingStarted = Date()
        let png = PNGEncoder.encode(rendered.raster)
        let encodingSeconds = Date().timeIntervalSince(encodingStarted)
        try OutputFile.write(png.bytes, to: output)
        if !list.has(.quiet) {
            StandardError.write(summary(output: output, png: png, rendered: rendered, window: window,
                                        seconds: (total: Date().timeIntervalSince(started), drawing: encodingStarted.timeIntervalSince(drawingStarted),
                                                  encoding: encodingSeconds)))
        }
        return ExitCode.success
    }

    /// The layer to draw and the layers of lines and points to draw over it. Without `--layer`:
    /// the first layer, and over it every layer of lines and the first layer of points. With
    /// `--layer` (repeatable): the layers named, the first of polygons among them underneath.
    private static func layers(of map: GMap, named names: [String]) throws -> (base: GMap, overlays: [GMap]) {
        guard !names.isEmpty else {
            let others = map.layers.dropFirst()
            let lines = others.filter { $0.geometryKind == .lines }, points = others.first { $0.geometryKind == .points }
            return (map, lines + (points.map { [$0] } ?? []))
        }
        let chosen = try names.map { name in
            guard let layer = map.layer(named: name) else {
                let names = map.layerNames.map { $0.isEmpty ? "(unnamed)" : $0 }.joined(separator: ", ")
                throw CommandFailure(message: "--layer '\(name)': the map has no such layer (its layers: \(names))")
            }
            return layer
        }
        let base = chosen.first { $0.geometryKind?.answersContainment == true } ?? chosen[0]
        return (base, chosen.filter { $0 != base && $0.geometryKind?.answersContainment != true })
    }

    /// The window from `--bbox` (default: the map's extent) and `--width` (default: a longer side of 2048 pixels).
    private static func window(for map: GMap, list: ArgumentList) throws -> MapWindow {
        var box = MapWindow.extent(of: map)
        if let text = list.value(Option.bbox) {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            let numbers = parts.compactMap { CoordinateParser.number(Substring($0)) }
            guard parts.count == 4, numbers.count == 4 else {
                throw CommandFailure(message: "--bbox '\(text)' must be four numbers west,south,east,north in degrees (for example -10,35,5,44)")
            }
            box = (numbers[0], numbers[1], numbers[2], numbers[3])
        }
        let width = try list.integer(Option.width)
            ?? MapWindow.width(longerSide: MapRenderer.defaultLongerSide, west: box.west, south: box.south, east: box.east, north: box.north)
        do {
            return try MapWindow(west: box.west, south: box.south, east: box.east, north: box.north, width: width,
                                 maximumPixels: MapRenderer.maximumPixels)
        } catch {
            throw CommandFailure(message: error.description)
        }
    }

    /// One line: what was written, what it shows, and where the time went.
    private static func summary(output: String, png: PNGEncoder.Encoded, rendered: RenderedMap, window: MapWindow,
                                seconds: (total: Double, drawing: Double, encoding: Double)) -> String {
        let kind = png.paletteSize.map { "palette of \($0) colours, \(png.bitDepth)-bit" } ?? "RGB"
        var text = "wrote \(output): \(window.width) × \(window.height) pixels, \(png.bytes.count) bytes (\(kind)), "
        text += "\(rendered.featuresDrawn) features in \(rendered.colourCount) colours"
        if rendered.overlapPixels > 0 { text += ", \(rendered.overlapPixels) overlap pixels" }
        if rendered.segmentsDrawn > 0 { text += ", \(rendered.segmentsDrawn) segments" }
        if rendered.mapPointsDrawn > 0 { text += ", \(rendered.mapPointsDrawn) map points" }
        if rendered.pointsDrawn + rendered.pointsOutside > 0 {
            text += ", \(rendered.pointsDrawn) points" + (rendered.pointsOutside > 0 ? " (\(rendered.pointsOutside) outside the window)" : "")
        }
        text += ", \(String(format: "%.2f", seconds.total)) s (lookups and drawing \(String(format: "%.2f", seconds.drawing)) s, "
        text += "PNG \(String(format: "%.2f", seconds.encoding)) s)\n"
        if rendered.unreadableTileEntries > 0 {
            text += "warning: \(rendered.unreadableTileEntries) tile directory entries could not be read (see gmap verify)\n"
        }
        return text
    }
}

/// Points to mark, from a CSV file: one point per line, latitude then longitude.
///
/// Follows `gmap query -` and `gmap bench --points-file`: "lat,lon" or "lat lon", blank lines and
/// lines starting with `#` skipped. Columns after the first two are ignored. A first line that is
/// not two numbers is a header; when it names columns lat/latitude and lon/lng/long/longitude,
/// those columns are read instead of the first two.
enum RenderPointsFile {
    static func read(_ path: String) throws -> [RenderPoint] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure(message: "cannot read points file \(path)")
        }
        var points: [RenderPoint] = []
        var columns = (latitude: 0, longitude: 1)
        var sawData = false
        for (offset, rawLine) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = self.fields(line)
            if !sawData {
                sawData = true
                if fields.count < 2 || fields.prefix(2).contains(where: { CoordinateParser.number(Substring($0)) == nil }) {
                    columns = try headerColumns(fields, path: path, line: offset + 1)
                    continue
                }
            }
            guard fields.count > max(columns.latitude, columns.longitude) else {
                throw CommandFailure(message: "\(path):\(offset + 1): expected 'latitude,longitude', got \(InputExcerpt.quoted(line))")
            }
            switch CoordinateParser.coordinate(latitude: Substring(fields[columns.latitude]), longitude: Substring(fields[columns.longitude])) {
            case .success(let coordinate): points.append(RenderPoint(latitude: coordinate.latitude, longitude: coordinate.longitude))
            case .failure(let failure): throw CommandFailure(message: "\(path):\(offset + 1): \(failure.message)")
            }
        }
        return points
    }

    /// A line's fields: split at commas when it has any, else at spaces and tabs; quotes around a field removed.
    static func fields(_ line: String) -> [String] {
        let parts = line.contains(",") ? line.split(separator: ",", omittingEmptySubsequences: false)
                                       : line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        return parts.map { part in
            var field = part.trimmingCharacters(in: .whitespaces)
            if field.count >= 2, field.hasPrefix("\""), field.hasSuffix("\"") { field = String(field.dropFirst().dropLast()) }
            return field
        }
    }

    /// The latitude and longitude columns a header names.
    private static func headerColumns(_ fields: [String], path: String, line: Int) throws -> (latitude: Int, longitude: Int) {
        let names = fields.map { $0.lowercased() }
        guard let latitude = names.firstIndex(where: { ["lat", "latitude"].contains($0) }),
              let longitude = names.firstIndex(where: { ["lon", "lng", "long", "longitude"].contains($0) }) else {
            throw CommandFailure(message: "\(path):\(line): expected 'latitude,longitude' numbers or a header naming lat and lon columns, got \(InputExcerpt.quoted(fields.joined(separator: ",")))")
        }
        return (latitude, longitude)
    }
}

extension RenderCommand {
    /// What `gmap help render` prints.
    static let help = """
    gmap render [MAP] -o OUT.png [--width N] [--bbox W,S,E,N] [--tiles] [--points FILE]
                [--layer NAME] [--labels] [--quiet]

    Draws the map as it answers: each pixel takes the colour of the feature that a lookup of the
    pixel's centre gives, in an equirectangular projection (longitude across, latitude up), over
    the map's extent or the --bbox window. Features that touch or overlap in the picture get
    different colours (a greedy colouring of the neighbours found in the pixels); where no feature
    answers, the background (pale blue-grey) shows. A pixel next to the sea or to a smaller
    feature is drawn darker: borders are one pixel wide, on the larger feature's side. Where a
    pixel's centre lies in two features, diagonal stripes show the second one's colour.

    The PNG is written by gmap itself (DEFLATE with LZ77 and Huffman codes; a palette image when
    the picture has at most 256 colours) to a temporary file renamed into place. A summary
    (size, pixels, time) goes to stderr.

    OPTIONS
    \(OptionTable.lines(options, column: 22))

    EXAMPLES
      gmap render world.gmap -o world.png --width 1200
      gmap render world.gmap -o gibraltar.png --bbox -5.6,35.9,-5.1,36.3 --tiles --width 800
      gmap render tz.gmap -o europe.png --bbox -12,34,32,62 --points cities.csv
      gmap render -o alps.png --bbox 5,45,12,48.5 --width 1000 --labels

    """
}
