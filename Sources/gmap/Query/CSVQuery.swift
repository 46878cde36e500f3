import Foundation
import GMap
import GMapCodecs

/// `gmap query [MAP] --csv FILE|-`: a CSV file with a header row, every row written back with the
/// answer columns appended (``CSVQuery``). The options, the columns and the header are checked
/// here, before any row is answered.
enum CSVQueryCommand {
    /// `--csv FILE|-`: the CSV input.
    static let csv = CommandOption.value("--csv", "FILE")
    /// `--lat NAME`: the latitude column.
    static let latitudeColumn = CommandOption.value("--lat", "NAME")
    /// `--lon NAME`: the longitude column.
    static let longitudeColumn = CommandOption.value("--lon", "NAME")
    /// `--keep PROP,...`: the properties written in columns of their own.
    static let keep = CommandOption.value("--keep", "PROP,...")
    /// `--prefix TEXT`: put before every answer column's name.
    static let columnPrefix = CommandOption.value("--prefix", "TEXT")
    /// The options only `--csv` reads.
    static let options = [csv, latitudeColumn, longitudeColumn, keep, columnPrefix]

    /// Names guessed for the latitude column (case does not matter), the second list only when no
    /// column has a name of the first.
    static let latitudeNames = (["lat", "latitude"], ["y"])
    static let longitudeNames = (["lon", "lng", "long", "longitude"], ["x"])

    static func run(_ list: ArgumentList, input: String, threads: Int) throws -> Int32 {
        for flag in [QueryCommand.Option.all, .json] where list.has(flag) {
            throw CommandFailure(message: "--csv writes one answer per layer in CSV columns; it does not combine with \(flag.name)")
        }
        if list.value(QueryCommand.Option.nearest) != nil {
            throw CommandFailure(message: "--csv writes the feature that contains each point; it does not combine with --nearest")
        }
        if let stacked = [StackedMaps.noWorld, StackedMaps.map].first(where: list.isGiven) {
            throw CommandFailure(message: "--csv answers from one map, given as MAP; \(stacked.name) is for gmap query --all and gmap place")
        }
        let usage = "usage: gmap query [MAP] --csv FILE, or --csv - to read standard input (see 'gmap help query')"
        let mapArgument = try LeadingMap.alone(list.positional, usage: "--csv reads its points from the CSV input; the only other argument is the map (\(usage))")
        if mapArgument == "-" {
            throw CommandFailure(message: "the CSV input is the value of --csv: gmap query [MAP] --csv - reads standard input")
        }
        if input.lowercased().hasSuffix(".gmap"), !(mapArgument?.lowercased().hasSuffix(".gmap") ?? false) {
            throw CommandFailure(message: "--csv takes the CSV input (FILE, or - for standard input); the map comes first: gmap query MAP --csv FILE")
        }
        let keys = try keptProperties(list.value(keep))
        let prefix = list.value(columnPrefix) ?? ""
        let maximumBytes = try list.bytes(.maxLine)

        let location = try mapArgument.map(MapLocation.argument)
            ?? DefaultMap.location(command: "query", also: " (gmap query --csv reads one map)")
        var map = try location.open()
        map = try QueryCommand.layer(list, of: map, at: location)
        // As `gmap query`: the shipped map without MAP answers from its first layer; another map of
        // several layers in every layer.
        let layered = map.layerNames.count > 1 && location.origin != .bundled && list.value(.layer) == nil
        let layers = layered ? map.placemark(latitude: 0, longitude: 0).answers.map(\.layer) : []

        let reader = try self.reader(input, maximumBytes: maximumBytes)
        if let wide = reader.wideEncoding() { throw CommandFailure(message: wide.message(subject: input == "-" ? "standard input" : input)) }
        var header = CSVReader.Block()
        guard reader.next(into: &header) else {
            if let failure = reader.readFailure(input: input) { throw failure }
            throw CommandFailure(message: "\(input == "-" ? "standard input" : input) is empty: the first row of the CSV input names its columns")
        }
        let headerRecord = header.records[0]
        if let problem = headerRecord.problem {
            throw CommandFailure(message: "line \(headerRecord.line): the header row: \(CSVQuery.message(problem, maximumBytes: maximumBytes))")
        }
        let lineEnd: [UInt8] = headerRecord.terminator == 0x0D && reader.takePendingLF() ? [0x0D, 0x0A] : [0x0A]
        let fields = (0..<headerRecord.fieldCount).map { header.field($0, of: headerRecord) }
        let names = fields.map { String(decoding: header.bytes[$0], as: UTF8.self) }
        let latitude = try column("latitude", option: latitudeColumn.name, named: list.value(latitudeColumn), names: names, guesses: latitudeNames)
        let longitude = try column("longitude", option: longitudeColumn.name, named: list.value(longitudeColumn), names: names, guesses: longitudeNames)
        if latitude == longitude {
            throw CommandFailure(message: "--lat and --lon name the same column \(CoordinateParser.quoted(Substring(names[latitude])))")
        }

        // The answer columns: `id`, or one per layer; then the kept properties.
        var appended = layered ? layers : ["id"]
        appended += layered ? layers.flatMap { layer in keys.map { layer + "." + $0 } } : keys
        appended = appended.map { prefix + $0 }
        var seen: Set<String> = []
        for name in appended {
            if names.contains(name) {
                throw CommandFailure(message: "the answer column \(CoordinateParser.quoted(Substring(name))) is already a column of the input; name the answer columns apart with --prefix TEXT (--prefix gmap_ writes \(CoordinateParser.quoted(Substring("gmap_" + name))))")
            }
            guard seen.insert(name).inserted else {
                throw CommandFailure(message: "the answer column \(CoordinateParser.quoted(Substring(name))) would appear twice (--keep names a column the answers already have)")
            }
        }

        var output: [UInt8] = []
        for (index, range) in fields.enumerated() {
            if index > 0 { output.append(0x2C) }
            header.bytes.withUnsafeBufferPointer { CSVQuery.appendField(UnsafeBufferPointer(rebasing: $0[range]), to: &output) }
        }
        for name in appended {
            output.append(0x2C)
            CSVQuery.appendField(Array(name.utf8), to: &output)
        }
        output += lineEnd
        StandardOutput.shared.write(bytes: output)

        let query = CSVQuery(map: map, layers: layered ? layers : nil, keys: keys.map { Array($0.utf8) }, latitude: latitude, longitude: longitude,
                             columns: fields.count, lineEnd: lineEnd, maximumBytes: maximumBytes)
        return query.run(reader: reader, threads: threads, input: input)
    }

    /// The properties of `--keep a,b`, in order; none without it.
    private static func keptProperties(_ value: String?) throws -> [String] {
        guard let value else { return [] }
        let keys = value.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        if keys.contains("") {
            throw CommandFailure(message: "--keep takes property names separated by commas, got \(CoordinateParser.quoted(Substring(value)))")
        }
        if let twice = keys.first(where: { key in keys.filter { $0 == key }.count > 1 }) {
            throw CommandFailure(message: "--keep names \(CoordinateParser.quoted(Substring(twice))) twice")
        }
        return keys
    }

    /// The reader of the CSV input: standard input, or the file opened for reading.
    private static func reader(_ input: String, maximumBytes: Int) throws -> CSVReader {
        guard input != "-" else { return CSVReader(maximumBytes: maximumBytes) }
        return CSVReader(descriptor: try InputFile.descriptor(input), maximumBytes: maximumBytes)
    }

    /// The index of the column `named` (exactly as in the header), or without a name the one column
    /// whose name is one of `guesses` (case and spaces around ignored; the second list only when no
    /// column has a name of the first).
    static func column(_ role: String, option: String, named: String?, names: [String], guesses: ([String], [String])) throws -> Int {
        let columns = describe(names)
        if let named {
            let matches = names.indices.filter { names[$0] == named }
            guard matches.count == 1 else {
                let what = matches.isEmpty ? "names no column of the header" : "names \(matches.count) columns of the header"
                throw CommandFailure(message: "\(option) \(CoordinateParser.quoted(Substring(named))) \(what); its columns are \(columns)")
            }
            return matches[0]
        }
        func folded(_ name: String) -> String { name.trimmingCharacters(in: CharacterSet(charactersIn: " \t")).lowercased() }
        for candidates in [guesses.0, guesses.1] {
            let matches = names.indices.filter { candidates.contains(folded(names[$0])) }
            if matches.count == 1 { return matches[0] }
            if matches.count > 1 {
                let which = matches.map { CoordinateParser.quoted(Substring(names[$0])) }.joined(separator: " and ")
                throw CommandFailure(message: "cannot tell which column holds the \(role): \(which) both could; name it with \(option) NAME (the header's columns are \(columns))")
            }
        }
        let all = guesses.0 + guesses.1
        // swift-format-ignore: NeverForceUnwrap
        let list = all.dropLast().joined(separator: ", ") + " or " + all.last!
        throw CommandFailure(message: "cannot tell which column holds the \(role): no column is named \(list) (in any case); name it with \(option) NAME (the header's columns are \(columns))")
    }

    /// "'a', 'b', 'c'" (the first 30 columns, then how many more).
    private static func describe(_ names: [String]) -> String {
        let shown = names.prefix(30).map { CoordinateParser.quoted(Substring($0)) }.joined(separator: ", ")
        return names.count > 30 ? shown + " and \(names.count - 30) more" : shown
    }
}

/// Answers the rows of a CSV input in blocks, as ``BatchQuery`` answers lines: the records of a
/// block read on this thread, then answered in parallel chunks with several threads and written in
/// input order, the same output with any number of threads. Each row is written back with its
/// fields as read (quoted only where RFC 4180 needs it: a comma, a quote, CR or LF in the field)
/// and the answer columns after them; a bad row is left out, with a message naming its line.
struct CSVQuery: Sendable {
    let map: GMap
    /// The layers answering, one column each, on a map of several layers; nil for one `id` column.
    let layers: [String]?
    /// The kept properties' keys, one column each (per layer on a map of several layers).
    let keys: [[UInt8]]
    /// The coordinates' columns and how many fields a row has.
    let latitude: Int, longitude: Int, columns: Int
    let lineEnd: [UInt8]
    let maximumBytes: Int

    /// Records gathered before they are answered, at most.
    static let blockRecords = 1 << 16
    /// Bytes of fields gathered before they are answered, at least.
    static let blockBytes = 1 << 22

    /// The output of some rows of a block (``BlockOutput``); a problem's line is the physical line
    /// where its record starts.
    typealias Answers = BlockOutput

    /// Answers every record of `reader` (read from `input`, for messages) after the header with `threads` threads; the exit code.
    func run(reader: CSVReader, threads: Int, input: String? = nil) -> Int32 {
        var block = CSVReader.Block()
        var finished = false
        var pipeline = BlockPipeline { _, _, line in line }
        while !finished {
            block.removeAll()
            while block.count < Self.blockRecords && block.bytes.count < Self.blockBytes {
                guard reader.next(into: &block) else {
                    finished = true
                    break
                }
            }
            guard block.count > 0 else { break }
            let parts = threads > 1 && block.count >= 1024 ? threads : 1
            let chunk = block, query = self
            pipeline.answer(count: block.count, parts: parts, now: { query.answer(chunk, records: $0) },
                            parallel: { query.answer(chunk, records: $0) })
        }
        pipeline.finish()
        if let failure = reader.readFailure(input: input) {
            StandardError.write("gmap: \(failure.message)\n")
            return ExitCode.usage
        }
        if pipeline.bad > 0 {
            StandardError.write("gmap: \(pipeline.bad) of \(pipeline.written) rows could not be read\n")
            return ExitCode.usage
        }
        return ExitCode.success
    }

    /// The message for a record that could not be read.
    static func message(_ problem: CSVReader.Problem, maximumBytes: Int) -> String {
        switch problem {
        case .tooLong: return LineReader.tooLongFailure(maximumBytes).message
        case .unterminatedQuote: return "a quoted field is not closed: no closing quote before the end of input"
        case .textAfterQuote(let field): return "field \(field) has text after its closing quote (a quote inside a quoted field is written \"\")"
        }
    }

    /// The output of `records` of `block`.
    func answer(_ block: CSVReader.Block, records: Range<Int>) -> Answers {
        var answers = Answers()
        answers.output.reserveCapacity(records.count * 48)
        block.bytes.withUnsafeBufferPointer { bytes in
            for index in records {
                let record = block.records[index]
                if let problem = record.problem {
                    answers.problems.append((answers.output.count, record.line, Self.message(problem, maximumBytes: maximumBytes)))
                    continue
                }
                guard record.fieldCount == columns else {
                    let message = "\(record.fieldCount) field\(record.fieldCount == 1 ? "" : "s"), but the header has \(columns)"
                    answers.problems.append((answers.output.count, record.line, message))
                    continue
                }
                let latitudeField = UnsafeBufferPointer(rebasing: bytes[block.field(latitude, of: record)])
                let longitudeField = UnsafeBufferPointer(rebasing: bytes[block.field(longitude, of: record)])
                let coordinate: CoordinateParser.Coordinate
                if let lat = FastCoordinate.value(latitudeField), let lon = FastCoordinate.value(longitudeField),
                   lat >= -90, lat <= 90, lon >= -180, lon <= 180 {
                    coordinate = CoordinateParser.Coordinate(latitude: lat, longitude: lon)
                } else {
                    func text(_ field: UnsafeBufferPointer<UInt8>) -> Substring {
                        Substring(String(decoding: field, as: UTF8.self).trimmingCharacters(in: CharacterSet(charactersIn: " \t")))
                    }
                    switch CoordinateParser.typed(latitude: text(latitudeField), longitude: text(longitudeField)) {
                    case .success(let value): coordinate = value
                    case .failure(let failure):
                        answers.problems.append((answers.output.count, record.line, failure.message))
                        continue
                    }
                }
                for field in 0..<record.fieldCount {
                    if field > 0 { answers.output.append(0x2C) }
                    Self.appendField(UnsafeBufferPointer(rebasing: bytes[block.field(field, of: record)]), to: &answers.output)
                }
                if let layers {
                    let placemark = map.placemark(latitude: coordinate.latitude, longitude: coordinate.longitude)
                    let features = layers.map { placemark.features(in: $0).first }
                    for feature in features {
                        answers.output.append(0x2C)
                        if let feature { appendID(feature, to: &answers.output) }
                    }
                    for feature in features { appendProperties(feature, to: &answers.output) }
                } else {
                    answers.output.append(0x2C)
                    let feature = map.lookup(latitude: coordinate.latitude, longitude: coordinate.longitude)
                    if let feature { appendID(feature, to: &answers.output) }
                    appendProperties(feature, to: &answers.output)
                }
                answers.output += lineEnd
            }
        }
        return answers
    }

    /// The feature's id, as `gmap query` prints it (bytes that are not UTF-8 as U+FFFD).
    private func appendID(_ feature: Feature, to output: inout [UInt8]) {
        let id = feature.idBytes
        if id.allSatisfy({ $0 < 0x80 }) {
            Self.appendField(id, to: &output)
        } else {
            Self.appendField(Array(feature.id.utf8), to: &output)
        }
    }

    /// A comma and the value of each kept property of `feature` (nothing after the comma when it
    /// has none, or without a feature).
    private func appendProperties(_ feature: Feature?, to output: inout [UInt8]) {
        for key in keys {
            output.append(0x2C)
            guard let feature, let value = key.withUnsafeBytes({ feature.propertyValueBytes(forKey: $0) }) else { continue }
            if value.allSatisfy({ $0 < 0x80 }) {
                Self.appendField(value, to: &output)
            } else {
                Self.appendField(Array(String(decoding: value, as: UTF8.self).utf8), to: &output)
            }
        }
    }

    /// Appends `field` as it is, or in double quotes with its quotes doubled when it holds a comma,
    /// a quote, CR or LF (RFC 4180).
    static func appendField<Bytes: Collection>(_ field: Bytes, to output: inout [UInt8]) where Bytes.Element == UInt8 {
        guard field.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else {
            output.append(contentsOf: field)
            return
        }
        output.append(0x22)
        for byte in field {
            output.append(byte)
            if byte == 0x22 { output.append(0x22) }
        }
        output.append(0x22)
    }
}

