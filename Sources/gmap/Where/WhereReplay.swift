import Foundation
import GMap
import GMapCodecs

/// `gmap where MAP --replay FILE|-`: feeds the fixes of a track, lines
/// `time,lat,lon[,course[,heading]]`, to one ``LocationContext`` and prints the senses worth saying.
struct WhereReplay {
    /// Which fixes print their sense.
    enum Mode {
        /// Those where the road, the area, the kind of sense or the intersection ahead changed (and the first).
        case onChange
        /// Every fix.
        case every
        /// When 15 s have passed or the user moved 10 m since the last one printed.
        case throttled
    }

    /// The track's path, or "-" for standard input.
    var input: String
    /// Which fixes print.
    var mode: Mode
    /// How senses are printed.
    var style: WhereCommand.Style
    /// The longest line read (`--max-line`); a longer one is a bad line, skipped.
    var maximumLineBytes = LineReader.defaultMaximumBytes

    /// Replays the track on `source`: exit 0, or 2 when a line could not be read (each is named on
    /// stderr with its number, and skipped).
    func run(source: StackLocationSource) throws -> Int32 {
        var reader = try lineReader()
        if let wide = reader.wideEncoding() {
            throw CommandFailure(message: wide.message(subject: input == "-" ? "standard input" : input))
        }
        var options = LocationContext<StackLocationSource>.Options()
        switch mode {
        case .onChange: options.throttle = .onChange
        case .every: options.throttle = .none
        case .throttled: options.throttle = .timeOrDistance(seconds: 15, metres: 10)
        }
        var context = LocationContext(source: source, options: options)
        let output = StandardOutput.shared
        var lineNumber = 0, badLines = 0
        while let read = reader.next() {
            lineNumber += 1
            let fix: ReplayLine
            let parsed: Result<ReplayLine, CommandFailure>?
            switch read {
            case .tooLong: parsed = .failure(LineReader.tooLongFailure(reader.maximumBytes))
            case .text(let line): parsed = ReplayLine.parse(line)
            }
            switch parsed {
            case .none:
                continue
            case .success(let value)?:
                fix = value
            case .failure(let failure)?:
                badLines += 1
                output.flush()
                StandardError.write("gmap: \(place(lineNumber)): \(failure.message)\n")
                continue
            }
            // A silence: the position is lost at the stale threshold (said once; with --every, once a second).
            if let last = context.lastFixTime, fix.fix.time > last {
                var time = last + context.staleThreshold
                while time < fix.fix.time, let update = context.advance(noFixAt: time) {
                    if mode == .every || update.isWorthSaying {
                        let callouts = style.callouts(update.sense, direction: nil, source: source)
                        output.write((style.json ? SenseJSON.object(update.sense, callouts: callouts, time: time, changes: update.changes)
                                                 : SenseJSON.number(time) + " " + callouts.map { $0.text }.joined(separator: " ")) + "\n")
                    }
                    guard mode == .every else { break }
                    time += 1
                }
            }
            guard context.update(fix.fix) != nil, let update = context.last else { continue }
            let callouts = style.callouts(update.sense, direction: update.direction, source: source)
            output.write((style.json ? SenseJSON.object(update.sense, callouts: callouts, time: fix.fix.time, changes: update.changes)
                                     : fix.time + " " + callouts.map { $0.text }.joined(separator: " ")) + "\n")
        }
        output.flush()
        if let failure = reader.readFailure(after: lineNumber, input: input == "-" ? "standard input" : input) { throw failure }
        if badLines > 0 {
            StandardError.write("gmap: \(badLines) of \(lineNumber) lines could not be read\n")
            return ExitCode.usage
        }
        return ExitCode.success
    }

    /// `FILE:N` for a file, `line N` for standard input.
    private func place(_ lineNumber: Int) -> String {
        input == "-" ? "line \(lineNumber)" : "\(input):\(lineNumber)"
    }

    /// A reader of the track's lines: standard input, or the file opened for reading.
    private func lineReader() throws -> LineReader {
        guard input != "-" else { return LineReader(maximumBytes: maximumLineBytes) }
        return LineReader(descriptor: try InputFile.descriptor(input), maximumBytes: maximumLineBytes)
    }
}

/// One line of a replayed track: `time,lat,lon[,course[,heading[,accuracy]]]`, decimal numbers;
/// time in seconds on any clock; `course`, where the user moves (a GPS course over ground:
/// callouts say "heading"), and `heading`, where the user faces (a compass: callouts say
/// "facing", and it is used before the course), in degrees clockwise from north (empty or `nan`
/// for none, other values modulo 360); `accuracy`, the radius in metres the device reports
/// (`horizontalAccuracy`; empty, or not above 0, for unknown).
struct ReplayLine {
    /// The time as written, printed before the sense.
    var time: String
    /// The fix the line gives.
    var fix: LocationFix

    /// The line's fix; nil for a blank line or a `#` comment; a failure saying what is wrong.
    static func parse(_ line: Substring) -> Result<ReplayLine, CommandFailure>? {
        let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty, !text.hasPrefix("#") else { return nil }
        let fields = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard (3...6).contains(fields.count) else {
            return .failure(CommandFailure(message: "expected 'time,latitude,longitude[,course[,heading[,accuracy]]]', got \(fields.count) fields in \(InputExcerpt.quoted(text))"))
        }
        guard let time = CoordinateParser.number(Substring(fields[0])) else {
            return .failure(CommandFailure(message: "time \(InputExcerpt.quoted(fields[0])) is not a number (seconds)"))
        }
        let coordinate: CoordinateParser.Coordinate
        switch CoordinateParser.coordinate(latitude: Substring(fields[1]), longitude: Substring(fields[2])) {
        case .success(let value): coordinate = value
        case .failure(let failure): return .failure(failure)
        }
        var directions: [Double?] = [nil, nil]
        for (index, name) in ["course", "heading"].enumerated() where fields.count > 3 + index && !fields[3 + index].isEmpty {
            do {
                directions[index] = try DirectionOption.degrees(fields[3 + index], option: name)
            } catch let failure as CommandFailure {
                return .failure(failure)
            } catch {
                return .failure(CommandFailure(message: "\(name) \(InputExcerpt.quoted(fields[3 + index])): \(error)"))
            }
        }
        var accuracy: Double?
        if fields.count > 5, !fields[5].isEmpty {
            guard let metres = CoordinateParser.number(Substring(fields[5])), !metres.isNaN else {
                return .failure(CommandFailure(message: "accuracy \(InputExcerpt.quoted(fields[5])) is not a number (metres)"))
            }
            accuracy = metres
        }
        let fix = LocationFix(latitude: coordinate.latitude, longitude: coordinate.longitude, time: time, heading: directions[1], course: directions[0],
                              horizontalAccuracy: accuracy)
        return .success(ReplayLine(time: fields[0], fix: fix))
    }
}
