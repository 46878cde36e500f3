import Foundation
import GMap

/// `gmap query -` at the speed of the lookups: lines read in blocks, plain decimal lines parsed
/// without making strings (``FastCoordinate``), answers written into one byte buffer a chunk, and
/// with several threads the chunks of a block answered in parallel and written in input order.
/// Every other line goes through ``CoordinateParser/line(_:)``, so output and messages are those
/// of reading line by line.
struct BatchQuery: Sendable {
    /// The map answered from; nil when ``run(reader:threads:output:write:)`` is given the writer of a point's answer.
    let map: GMap?
    let style: OutputStyle
    let layered: Bool
    let maximumBytes: Int
    /// For a layered answer: the map as a stack of one, whose layers' roles are found once.
    let stack: MapStack?

    /// Writes a point's answer (without the newline) to the end of `output`; `placemark` is the
    /// one placemark of the lines answered together, for ``MapStack/placemark(latitude:longitude:into:)``
    /// to fill again rather than make a new one for every line.
    typealias Writer = @Sendable (CoordinateParser.Coordinate, inout [UInt8], inout Placemark) -> Void

    init(map: GMap?, style: OutputStyle, layered: Bool, maximumBytes: Int) {
        self.map = map
        self.style = style
        self.layered = layered
        self.maximumBytes = maximumBytes
        stack = layered ? map.map { MapStack([$0]) } : nil
    }

    /// Bytes of whole lines gathered before they are answered, at least (a longer line makes a block alone).
    static let blockBytes = 1 << 22
    /// Bytes the reader is asked for at a time while a block is gathered.
    static let readBytes = 1 << 16

    /// Whole lines as read, with their line ends, one block of them: the reading thread only
    /// moves them here, and each part is split into lines where it is answered (with several
    /// threads, in parallel), so reading does no work a line.
    struct RawBlock: Sendable {
        var bytes: [UInt8] = []
        /// Where a line over the limit was (skipped by the reader): an empty line stands in its place.
        var tooLong: [Int] = []

        mutating func removeAll() {
            bytes.removeAll(keepingCapacity: true)
            tooLong.removeAll(keepingCapacity: true)
        }

        /// Calls `body` with each line of `bytes[range]` (these ``bytes``, whole lines): the range
        /// of its bytes, or nil for a line longer than `maximumBytes` or one the reader skipped as such.
        func forEachLine(in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, maximumBytes: Int, _ body: (Range<Int>?) -> Void) {
            var skipped = tooLong.firstIndex { $0 >= range.lowerBound } ?? tooLong.count
            LineReader.lines(in: bytes, range) { line in
                while skipped < tooLong.count, tooLong[skipped] < line.lowerBound { skipped += 1 }
                let wasSkipped = line.isEmpty && skipped < tooLong.count && tooLong[skipped] == line.lowerBound
                body(line.count > maximumBytes || wasSkipped ? nil : line)
            }
        }
    }

    /// The lines of one part of a block: the block's bytes and where each line lies.
    struct Block: Sendable {
        var bytes: [UInt8] = []
        /// Each line's start and end in `bytes`; a start of -1 marks a line over the limit.
        var starts: [Int] = []
        var ends: [Int] = []

        var count: Int { starts.count }

        /// The lines of `raw.bytes[range]` (whole lines), those longer than `maximumBytes` and
        /// those the reader skipped as such marked.
        init(lines raw: RawBlock, in range: Range<Int>, maximumBytes: Int) {
            bytes = raw.bytes
            var starts: [Int] = [], ends: [Int] = []
            raw.bytes.withUnsafeBufferPointer { bytes in
                raw.forEachLine(in: bytes, range, maximumBytes: maximumBytes) { line in
                    starts.append(line?.lowerBound ?? -1)
                    ends.append(line?.upperBound ?? -1)
                }
            }
            self.starts = starts
            self.ends = ends
        }
    }

    /// The answers to some lines of a block (``BlockOutput``); a problem's line counts from the
    /// part's first line (0).
    typealias Answers = BlockOutput

    /// Answers every line of `reader` with `threads` threads, writing to `output` (standard output
    /// unless `gmap bench` times it); returns the exit code. With `write`, a point's answer is what
    /// `write` writes for it, the lines read and parsed as for a map.
    func run(reader: LineReader, threads: Int, output: StandardOutput = .shared, write: Writer? = nil) -> Int32 {
        var reader = reader
        // Two blocks in turn: one is answered while the next is read, and by the time a block is
        // read into again its answers are written, so its storage is reused, not allocated anew.
        var blocks = [RawBlock(), RawBlock()], turn = 0
        var finished = false
        var pipeline = BlockPipeline(output: output) { before, first, line in before + first + line + 1 }
        while !finished {
            var block = RawBlock()
            swap(&block, &blocks[turn])
            defer {
                swap(&block, &blocks[turn])
                turn = 1 - turn
            }
            block.removeAll()
            reading: while block.bytes.count < Self.blockBytes {
                switch reader.moveWholeLines(to: &block.bytes, atLeast: Self.readBytes) {
                case .moved:
                    continue
                case .tooLong:
                    // The reader skips it; an empty line stands in its place.
                    switch reader.nextSpan() {
                    case .tooLong:
                        block.tooLong.append(block.bytes.count)
                    case .bytes(let range):
                        reader.appendBytes(of: range, to: &block.bytes)
                    case nil:
                        finished = true
                        break reading
                    }
                    block.bytes.append(0x0A)
                case .end:
                    finished = true
                    break reading
                }
            }
            guard !block.bytes.isEmpty else { break }
            let parts = threads > 1 && block.bytes.count >= Self.readBytes ? threads : 1
            let chunk = block, query = self
            let cuts = chunk.bytes.withUnsafeBufferPointer { LineReader.cuts(of: $0, 0..<chunk.bytes.count, parts: parts) }
            pipeline.answer(parts: parts, now: { query.answer(chunk, cuts[0]..<cuts[parts], write: write) },
                            parallel: { part in query.answer(chunk, cuts[part]..<cuts[part + 1], write: write) })
        }
        pipeline.finish()
        if let failure = reader.readFailure(after: pipeline.written) {
            StandardError.write("gmap: \(failure.message)\n")
            return ExitCode.usage
        }
        if pipeline.bad > 0 {
            StandardError.write("gmap: \(pipeline.bad) of \(pipeline.written) lines could not be read\n")
            return ExitCode.usage
        }
        return ExitCode.success
    }

    /// The answers to the whole lines of `raw.bytes[range]`, as ``answer(_:lines:write:)`` gives
    /// them, with their number.
    func answer(_ raw: RawBlock, _ range: Range<Int>, write custom: Writer?) -> Answers {
        if answersPlainly, custom == nil, let map { return plainAnswers(raw, range, map: map) }
        let block = Block(lines: raw, in: range, maximumBytes: maximumBytes)
        var answers = answer(block, lines: 0..<block.count, write: custom)
        answers.items = block.count
        return answers
    }

    /// The answers to `lines` of `block`, problems numbered from the range's first line (0); with
    /// `custom`, each point's answer is what it writes.
    func answer(_ block: Block, lines: Range<Int>, write custom: Writer? = nil) -> Answers {
        let plain = answersPlainly
        var answers = Answers()
        answers.output.reserveCapacity(lines.count * (style.json || layered ? 64 : 4))
        // --json or --all on one layer: each feature's text (its JSON, or its id) made once a chunk.
        let perFeature = !plain && style.nearest == nil && !layered
        var made: [Int: [UInt8]] = [:]
        func appendFeature(_ feature: Feature) {
            if let bytes = made[feature.index] {
                answers.output.append(contentsOf: bytes)
            } else {
                let bytes = Array((style.json ? JSONText.feature(feature) : feature.id).utf8)
                made[feature.index] = bytes
                answers.output.append(contentsOf: bytes)
            }
        }
        // A map of several layers with --json: each feature's JSON made once a chunk.
        var madeJSON: [Feature: String] = [:]
        // The placemark each line of a map of several layers (or `custom`) fills again.
        var placemark = Placemark(latitude: 0, longitude: 0)
        let text = map.map { QueryAnswer(map: $0, style: style) }
        func json(_ feature: Feature) -> String {
            if let text = madeJSON[feature] { return text }
            let text = JSONText.feature(feature)
            madeJSON[feature] = text
            return text
        }
        block.bytes.withUnsafeBufferPointer { bytes in
            for index in lines {
                let start = block.starts[index]
                guard let parsed = parse(start < 0 ? nil : start..<block.ends[index], in: bytes) else {
                    answers.output.append(0x0A)
                    continue
                }
                switch parsed {
                case .success(let coordinate):
                    if let custom {
                        custom(coordinate, &answers.output, &placemark)
                    } else if let map, let text {
                        if perFeature {
                            if style.all {
                                let found = map.lookupAll(latitude: coordinate.latitude, longitude: coordinate.longitude)
                                if found.isEmpty {
                                    answers.output.append(contentsOf: text.noAnswer.utf8)
                                } else {
                                    if style.json { answers.output.append(0x5B) }
                                    for (position, feature) in found.enumerated() {
                                        if position > 0 { answers.output.append(style.json ? 0x2C : 0x20) }
                                        appendFeature(feature)
                                    }
                                    if style.json { answers.output.append(0x5D) }
                                }
                            } else if let feature = map.lookup(latitude: coordinate.latitude, longitude: coordinate.longitude) {
                                appendFeature(feature)
                            } else {
                                answers.output.append(contentsOf: text.noAnswer.utf8)
                            }
                        } else if layered, let stack {
                            stack.placemark(latitude: coordinate.latitude, longitude: coordinate.longitude, into: &placemark)
                            LayeredQuery.write(placemark, style: style, to: &answers.output, featureJSON: json)
                        } else {
                            answers.output.append(contentsOf: (text.text(latitude: coordinate.latitude, longitude: coordinate.longitude) ?? text.noAnswer).utf8)
                        }
                    }
                    answers.output.append(0x0A)
                case .failure(let failure):
                    answers.output.append(contentsOf: style.json ? "null\n".utf8 : "\n".utf8)
                    answers.problems.append((answers.output.count, index - lines.lowerBound, failure.message))
                }
            }
        }
        return answers
    }

    /// Whether each answer is the first feature's id alone (no `--json`, `--all` or `--nearest`,
    /// one layer).
    var answersPlainly: Bool { !style.json && !style.all && style.nearest == nil && !layered }

    /// The point of the line at `line` of `bytes` (nil: a line over the limit); nil for a blank
    /// line (spaces, tabs, a carriage return: answered by an empty line), or why it is not a point.
    func parse(_ line: Range<Int>?, in bytes: UnsafeBufferPointer<UInt8>) -> Result<CoordinateParser.Coordinate, CommandFailure>? {
        guard let line else { return .failure(LineReader.tooLongFailure(maximumBytes)) }
        let text = UnsafeBufferPointer(rebasing: bytes[line])
        if let coordinate = FastCoordinate.parse(text) { return .success(coordinate) }
        if text.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return nil }
        return CoordinateParser.line(Substring(String(decoding: text, as: UTF8.self)))
    }

    /// The plain answers (the first feature's id, or an empty line) to the whole lines of
    /// `raw.bytes[range]`, as ``answer(_:lines:write:)`` writes them, in a loop of their own: each
    /// line answered as it is found (no list of lines is made), no closure captures the output (so
    /// it is not checked for exclusive access every line), and no `Feature` is made (so the threads
    /// of a batch do not take turns at the map's reference count).
    func plainAnswers(_ raw: RawBlock, _ range: Range<Int>, map: GMap) -> Answers {
        raw.bytes.withUnsafeBufferPointer { bytes in
            var answers = Answers()
            answers.output.reserveCapacity(range.count / 4)
            let quantizer = map.quantizer
            var line = 0
            raw.forEachLine(in: bytes, range, maximumBytes: maximumBytes) { span in
                defer { line += 1 }
                switch parse(span, in: bytes) {
                case .success(let coordinate):
                    var found = -1
                    if let point = quantizer.queryPoint(latitude: coordinate.latitude, longitude: coordinate.longitude) {
                        map.visitFeatures(containing: point) { feature in
                            found = feature
                            return false
                        }
                    }
                    if found >= 0 {
                        let id = map.idBytes(ofFeature: found)
                        if id.allSatisfy({ $0 < 0x80 }) {
                            answers.output.append(contentsOf: id)
                        } else {
                            answers.output.append(contentsOf: String(decoding: id, as: UTF8.self).utf8)
                        }
                    }
                    answers.output.append(0x0A)
                case .failure(let failure):
                    answers.output.append(0x0A)
                    answers.problems.append((answers.output.count, line, failure.message))
                case nil:
                    answers.output.append(0x0A)
                }
            }
            answers.items = line
            return answers
        }
    }

    /// The number of threads by default: the number of cores.
    static var defaultThreads: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }
}


/// The common batch line read without making strings: "LAT LON", "LAT,LON" or "LAT, LON" with
/// plain decimals (`-12.345`), spaces or tabs around, both in range. Anything else (exponents,
/// `+`, `.5`, degrees-minutes-seconds, letters, more digits than a double holds exactly, a point
/// out of range) is nil, for ``CoordinateParser/line(_:)`` to read or to explain.
enum FastCoordinate {
    /// Powers of ten that a double holds exactly.
    private static let powers: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// The coordinate of `line`, or nil when it is not in the plain form.
    static func parse(_ line: UnsafeBufferPointer<UInt8>) -> CoordinateParser.Coordinate? {
        var index = 0
        let count = line.count
        func skipSpaces() {
            while index < count, line[index] == 0x20 || line[index] == 0x09 { index += 1 }
        }
        skipSpaces()
        guard let latitude = number(line, &index) else { return nil }
        let afterLatitude = index
        skipSpaces()
        if index < count, line[index] == 0x2C {
            index += 1
            skipSpaces()
        } else if index == afterLatitude {
            return nil
        }
        guard let longitude = number(line, &index) else { return nil }
        skipSpaces()
        guard index == count, latitude >= -90, latitude <= 90, longitude >= -180, longitude <= 180 else { return nil }
        return CoordinateParser.Coordinate(latitude: latitude, longitude: longitude)
    }

    /// One number alone in `field` (a CSV field), spaces or tabs around: `-?digits(.digits)?` as
    /// ``parse(_:)`` reads it, not yet checked against a range; nil when not in that form.
    static func value(_ field: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        let count = field.count
        while index < count, field[index] == 0x20 || field[index] == 0x09 { index += 1 }
        guard let value = number(field, &index) else { return nil }
        while index < count, field[index] == 0x20 || field[index] == 0x09 { index += 1 }
        return index == count ? value : nil
    }

    /// `-?digits(.digits)?` at `index`, exactly as `Double` reads it: the digits as an integer of at
    /// most 2^53 divided by a power of ten up to 10^22 (both exact, so the one division rounds
    /// correctly); nil for anything else.
    private static func number(_ line: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> Double? {
        let count = line.count
        var negative = false
        if index < count, line[index] == 0x2D {
            negative = true
            index += 1
        }
        var mantissa: UInt64 = 0, digits = 0, fraction = 0
        let integerStart = index
        while index < count, line[index] &- 0x30 < 10 {
            mantissa = mantissa &* 10 &+ UInt64(line[index] &- 0x30)
            digits += 1
            index += 1
        }
        guard index > integerStart else { return nil }
        if index < count, line[index] == 0x2E {
            index += 1
            let fractionStart = index
            while index < count, line[index] &- 0x30 < 10 {
                mantissa = mantissa &* 10 &+ UInt64(line[index] &- 0x30)
                digits += 1
                index += 1
            }
            fraction = index - fractionStart
            guard fraction > 0 else { return nil }
        }
        guard digits <= 19, fraction <= 22, mantissa <= 1 << 53 else { return nil }
        let value = Double(mantissa) / powers[fraction]
        return negative ? -value : value
    }
}
