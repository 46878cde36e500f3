import GMapCodecs
import Foundation
import GMap

/// `gmap verify MAP [--known FILE]`.
enum VerifyCommand: Command {
    static let name = "verify"
    static let summary = "checks every byte a lookup can reach, and known locations"
    /// Its options, which the text of its help describes.
    static let options = [Option.known, Option.limit]

    /// The options verify takes.
    enum Option {
        /// `--known FILE`: known locations to check.
        static let known = CommandOption.value("--known", "FILE")
        /// `--limit N`: the most problems listed (default 50).
        static let limit = CommandOption.value("--limit", "N", rule: .wholeNumber(1...Int.max, .afterValue("must be a whole number above 0")))
    }

    static func run(_ list: ArgumentList) throws -> Int32 {
        guard list.positional.count == 1, let path = list.positional.first else {
            throw CommandFailure(message: "usage: gmap verify MAP [--known FILE] (see 'gmap help verify')")
        }
        let limit = try list.integer(Option.limit) ?? 50
        let map: GMap
        switch Result(catching: { () throws(GMapError) -> GMap in try GMap(contentsOf: path) }) {
        case .success(let opened):
            map = opened
        case .failure(.cannotOpen(let file, let operation, let code)):
            throw CommandFailure(message: GMapError.cannotOpen(path: file, operation: operation, code: code).description)
        case .failure(.notAFile(let file, let kind)):
            // A directory, a FIFO, a device: a file that cannot be read as a map (exit 2), never sniffed (a FIFO would block).
            throw CommandFailure(message: MapLocation.argument(path).message(for: .notAFile(path: file, kind: kind)))
        case .failure(let error) where MapLocation.argument(path).buildInputKind() != nil:
            throw CommandFailure(message: MapLocation.argument(path).message(for: error))
        case .failure(let error):
            StandardOutput.shared.write("\(path): NOT SOUND\n  \(error.description)\n")
            return ExitCode.notFound
        }
        let verifier = MapVerifier(map: map, limit: limit)
        var failures = 0
        var out = ""
        if verifier.isSound {
            out += "\(path): sound (\(map.sections.count) CRC-32s match; \(verifier.tilesVisited) tiles, \(verifier.recordsDecoded) records, \(verifier.edgesDecoded) edges, \(verifier.featuresChecked) features\(map.layerNames.count > 1 ? " in \(map.layerNames.count) layers" : "") checked)\n"
        } else {
            let count = verifier.problems.count
            out += "\(path): NOT SOUND, \(count)\(count >= limit ? "+" : "") \(count == 1 ? "problem" : "problems")\n"
            for problem in verifier.problems { out += "  \(problem)\n" }
        }
        if let known = list.value(Option.known) {
            let (checked, failed, lines) = try checkKnown(map: map, path: known)
            failures = failed
            out += lines
            out += "\(known): \(checked - failed) of \(checked) known locations answer as expected\n"
        }
        StandardOutput.shared.write(out)
        return verifier.isSound && failures == 0 ? ExitCode.success : ExitCode.notFound
    }

    /// Runs `latitude,longitude,expected_id` lines (`#` comments, `-` or empty for no feature), and
    /// placemark lines `latitude,longitude,country,water,zone,town[,state]` (each `-` or empty for
    /// none): the placemark's isoCountryCode, ocean or inlandWater, timeZone, locality and
    /// administrativeArea.
    static func checkKnown(map: GMap, path: String) throws -> (checked: Int, failed: Int, report: String) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure(message: "cannot read the known-locations file \(path)")
        }
        var checked = 0, failed = 0, report = ""
        for (number, rawLine) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count == 3 || fields.count == 6 || fields.count == 7 else {
                throw CommandFailure(message: "\(path):\(number + 1): expected latitude,longitude,expected_id or latitude,longitude,country,water,zone,town[,state], got \(InputExcerpt.quoted(line))")
            }
            let coordinate: CoordinateParser.Coordinate
            switch CoordinateParser.coordinate(latitude: fields[0].drop { $0 == " " }, longitude: fields[1].drop { $0 == " " }) {
            case .success(let value): coordinate = value
            case .failure(let failure): throw CommandFailure(message: "\(path):\(number + 1): \(failure.message)")
            }
            func expectation(_ field: Substring) -> String? {
                let text = field.trimmingCharacters(in: .whitespaces)
                return text == "-" || text.isEmpty ? nil : text
            }
            checked += 1
            if fields.count == 3 {
                let expected = expectation(fields[2])
                let answer = map.lookup(latitude: coordinate.latitude, longitude: coordinate.longitude)?.id
                if answer != expected {
                    failed += 1
                    report += "  line \(number + 1): (\(fields[0]), \(fields[1])) expected \(expected ?? "-"), got \(answer ?? "-")\n"
                }
                continue
            }
            let place = map.placemark(latitude: coordinate.latitude, longitude: coordinate.longitude)
            var answers = [("country", place.isoCountryCode), ("water", place.ocean ?? place.inlandWater), ("zone", place.timeZone), ("town", place.locality)]
            if fields.count == 7 { answers.append(("state", place.administrativeArea)) }
            var wrong: [String] = []
            for (index, (name, answer)) in answers.enumerated() where answer != expectation(fields[index + 2]) {
                wrong.append("\(name) expected \(expectation(fields[index + 2]) ?? "-"), got \(answer ?? "-")")
            }
            if !wrong.isEmpty {
                failed += 1
                report += "  line \(number + 1): (\(fields[0]), \(fields[1])) \(wrong.joined(separator: "; "))\n"
            }
        }
        return (checked, failed, report)
    }
}

extension VerifyCommand {
    /// What `gmap help verify` prints.
    static let help = """
    gmap verify MAP [--known FILE] [--limit N]

    Checks the whole map: the CRC-32 of the header and of every section, that sections do not
    overlap, and every structure a lookup can reach: each tile directory entry, sub-directory and
    directory node (format 3: node pointers, node count, the packed directory's rank samples),
    each tile record decoded to its end (feature indexes, vertex counts, coordinates in range;
    format 3: slot masks, run order, corner padding),
    each feature, property and metadata record and its strings (in bounds, valid UTF-8). It also
    checks what a damaged but well-formed record breaks between tiles (CRCs recomputed after the
    damage do not hide it): every ring closes at each vertex of a record; each record's corner bits
    agree with the tile that answers for its south-east corner; an edge (a segment, in a layer of
    lines) that reaches a neighbouring tile is stored there too, for the same features; the name
    index holds exactly the keys of every feature's id and names; the layer table names sections
    that exist, none twice, and every layer section belongs to a layer. Prints "sound", or each
    problem with where it is (section, tile by column, row and parts, byte offset), at most N
    (default 50).

    --known FILE also looks up each "latitude,longitude,expected_id" line of FILE ("#" starts a
    comment; "-" means no feature) and lists every point that answers differently. A line of six
    or seven fields, "latitude,longitude,country,water,zone,town[,state]", checks the point's
    placemark instead: isoCountryCode, ocean (or inlandWater), timeZone, locality and
    administrativeArea, "-" for none (Fixtures/known-places.csv, for the shipped map).

    Exit code 0 only for a sound file whose known locations all pass; 1 when the file is damaged
    or a known location fails; 2 for bad usage or a file that cannot be read.

    EXAMPLE
      gmap verify world.gmap --known Fixtures/known-countries.csv

    """
}
