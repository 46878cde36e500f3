import GMapCodecs

/// Reads CSV (RFC 4180) in blocks of 64 KiB, record by record, holding at most one record of
/// ``maximumBytes`` bytes: the fields of each record are decoded (quotes removed, doubled quotes
/// made one) straight into a ``Block``, without a `String` per field.
///
/// What it reads: fields separated by commas; a field in double quotes may hold commas, line
/// breaks (LF or CR LF, kept as they are) and doubled quotes; records end at LF, CR LF or a lone
/// CR; empty lines (anywhere, the last ones too) hold no record and are skipped. A quote inside a
/// field that does not start with one is an ordinary character (`5'10"`). A record longer than
/// ``maximumBytes`` (its bytes as read, without its line end), a quoted field not closed before the
/// end of input, and text after a closing quote (`"a"b`) make the record a bad one
/// (``Record/problem``), which the reader reads past.
final class CSVReader {
    /// Why a record cannot be read.
    enum Problem: Equatable, Sendable {
        /// Longer than ``maximumBytes``: its fields were not kept.
        case tooLong
        /// A quoted field with no closing quote before the end of input.
        case unterminatedQuote
        /// Text after the closing quote of the field numbered from 1.
        case textAfterQuote(field: Int)
    }

    /// One record of a block.
    struct Record: Sendable {
        /// The physical line (from 1) where the record starts.
        var line: Int
        /// Where its first field starts in ``Block/bytes``.
        var byteStart: Int
        /// The index of its first field's end in ``Block/fieldEnds``.
        var firstField: Int
        /// How many fields it has (0 for a record with a problem).
        var fieldCount: Int
        var problem: Problem?
        /// The byte that ended it: LF or CR (CR for CR LF too), or 0 at the end of input.
        var terminator: UInt8
    }

    /// Records read, their fields' bytes one after another.
    struct Block: Sendable {
        var bytes: [UInt8] = []
        /// Each field's end in `bytes`; a field starts where the one before it ends (the record's
        /// first field at ``Record/byteStart``).
        var fieldEnds: [Int] = []
        var records: [Record] = []

        var count: Int { records.count }

        /// Where field `index` (from 0) of `record` lies in `bytes`.
        func field(_ index: Int, of record: Record) -> Range<Int> {
            let slot = record.firstField + index
            return (index == 0 ? record.byteStart : fieldEnds[slot - 1])..<fieldEnds[slot]
        }

        mutating func removeAll() {
            bytes.removeAll(keepingCapacity: true)
            fieldEnds.removeAll(keepingCapacity: true)
            records.removeAll(keepingCapacity: true)
        }
    }

    /// Bytes read at a time.
    static let blockSize = 1 << 16

    /// The longest record read, in bytes as read, without its line end.
    let maximumBytes: Int
    private let descriptor: Int32
    private let buffer: UnsafeMutablePointer<UInt8>
    /// Bytes in `buffer`, and the next one to read.
    private var count = 0, position = 0
    private var finished = false
    /// Why reading stopped before the end of input: the record it cut is not given then.
    private(set) var readError: SystemError?
    /// The last record ended with CR: an LF next belongs to it.
    private var pendingLF = false
    /// The last byte read inside a quoted field was CR (for counting CR LF as one line break).
    private var lastWasCR = false
    /// The physical line of the next byte, from 1: LF, CR LF and a lone CR each end one.
    private(set) var line = 1

    init(descriptor: Int32 = 0, maximumBytes: Int) {
        self.descriptor = descriptor
        self.maximumBytes = maximumBytes
        buffer = .allocate(capacity: Self.blockSize)
    }

    deinit { buffer.deallocate() }

    /// The failure for a read error: "cannot read standard input after line 12: …" (exit 2), nil
    /// when the input was read to its end. `input` is the path given (`-` or nil: standard input).
    func readFailure(input: String?) -> CommandFailure? {
        guard let readError else { return nil }
        let name = input == nil || input == "-" ? "standard input" : input ?? ""
        return CommandFailure(message: "cannot read \(name) after line \(line - 1): \(readError.text); the rows after it were not answered")
    }

    /// Looks at the first bytes before any record is read: skips a UTF-8 byte order mark, and
    /// returns the encoding of input in UTF-16 or UTF-32 (nil for UTF-8), which the caller refuses.
    func wideEncoding() -> TextEncodingSniffer.WideEncoding? {
        while count < 4 && !finished { readMore(keeping: true) }
        let head = UnsafeBufferPointer(start: buffer, count: min(count, 4))
        if let wide = TextEncodingSniffer.wideEncoding(of: head) { return wide }
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        return nil
    }

    /// Whether the LF of a CR LF that ended the last record follows (the CR was the last byte of a
    /// read); consumes it. For the header, whose line end the output repeats.
    func takePendingLF() -> Bool {
        guard pendingLF else { return false }
        if position == count, !finished { readMore(keeping: false) }
        pendingLF = false
        if position < count, buffer[position] == 0x0A {
            position += 1
            return true
        }
        return false
    }

    /// Reads the next record into `block`; false at the end of input.
    func next(into block: inout Block) -> Bool {
        while true {
            _ = takePendingLF()
            switch scanRecord(into: &block) {
            case .end: return false
            case .blank: continue
            case .record: return true
            }
        }
    }

    private enum Scanned { case end, blank, record }

    private enum State {
        /// At the start of a field.
        case fieldStart
        /// In a field that did not start with a quote.
        case unquoted
        /// Inside quotes.
        case quoted
        /// Just after a quote inside quotes: a second quote, or the field's end.
        case quoteInQuoted
        /// After text following a closing quote (the record is bad; read to its end).
        case afterQuoteText
    }

    private func scanRecord(into block: inout Block) -> Scanned {
        let comma: UInt8 = 0x2C, quote: UInt8 = 0x22, lf: UInt8 = 0x0A, cr: UInt8 = 0x0D
        let byteStart = block.bytes.count, firstField = block.fieldEnds.count
        let startLine = line
        var state = State.fieldStart
        var raw = 0, fields = 0
        var skipping = false
        var problem: Problem?
        var terminator: UInt8 = 0
        var line = self.line, lastWasCR = self.lastWasCR
        let maximumBytes = self.maximumBytes
        func append(_ start: UnsafeMutablePointer<UInt8>, _ length: Int) {
            guard !skipping, length > 0 else { return }
            block.bytes.append(contentsOf: UnsafeBufferPointer(start: start, count: length))
        }
        func endField() {
            fields += 1
            if !skipping { block.fieldEnds.append(block.bytes.count) }
        }
        func checkLength() {
            if raw > maximumBytes && !skipping {
                skipping = true
                block.bytes.removeSubrange(byteStart...)
                block.fieldEnds.removeSubrange(firstField...)
            }
        }
        scan: while true {
            if position == count {
                if !finished {
                    self.line = line
                    self.lastWasCR = lastWasCR
                    readMore(keeping: false)
                    continue
                }
                // The end of input; after a read error, the record it cut is dropped.
                if raw == 0 { return .end }
                if readError != nil {
                    block.bytes.removeSubrange(byteStart...)
                    block.fieldEnds.removeSubrange(firstField...)
                    return .end
                }
                if state == .quoted { problem = .unterminatedQuote }
                endField()
                break scan
            }
            var p = position
            let end = count, data = buffer
            var recordEnded = false
            while p < end {
                let byte = data[p]
                switch state {
                case .fieldStart, .unquoted, .afterQuoteText:
                    if byte == comma {
                        endField()
                        state = .fieldStart
                        p += 1
                        raw += 1
                        checkLength()
                    } else if byte == lf || byte == cr {
                        p += 1
                        line += 1
                        terminator = byte
                        if byte == cr { pendingLF = true }
                        recordEnded = true
                    } else if byte == quote && state == .fieldStart {
                        state = .quoted
                        p += 1
                        raw += 1
                    } else {
                        var q = p + 1
                        while q < end {
                            let next = data[q]
                            if next == comma || next == lf || next == cr { break }
                            q += 1
                        }
                        if state == .fieldStart { state = .unquoted }
                        append(data + p, q - p)
                        raw += q - p
                        p = q
                        checkLength()
                    }
                case .quoted:
                    var q = p
                    while q < end {
                        let next = data[q]
                        if next == quote { break }
                        if next == lf {
                            if !lastWasCR { line += 1 }
                            lastWasCR = false
                        } else if next == cr {
                            line += 1
                            lastWasCR = true
                        } else {
                            lastWasCR = false
                        }
                        q += 1
                    }
                    append(data + p, q - p)
                    raw += q - p
                    if q < end {
                        lastWasCR = false
                        state = .quoteInQuoted
                        raw += 1
                        q += 1
                    }
                    p = q
                    checkLength()
                case .quoteInQuoted:
                    if byte == quote {
                        append(data + p, 1)
                        state = .quoted
                        p += 1
                        raw += 1
                    } else if byte == comma || byte == lf || byte == cr {
                        state = .unquoted
                    } else {
                        if problem == nil { problem = .textAfterQuote(field: fields + 1) }
                        state = .afterQuoteText
                    }
                }
                if recordEnded { break }
            }
            position = p
            if recordEnded {
                if raw == 0 {
                    // An empty line: no record.
                    self.line = line
                    self.lastWasCR = lastWasCR
                    return .blank
                }
                endField()
                break scan
            }
        }
        self.line = line
        self.lastWasCR = lastWasCR
        if skipping && problem == nil { problem = .tooLong }
        if problem != nil {
            block.bytes.removeSubrange(byteStart...)
            block.fieldEnds.removeSubrange(firstField...)
            fields = 0
        }
        block.records.append(Record(line: startLine, byteStart: byteStart, firstField: firstField, fieldCount: fields,
                                    problem: problem, terminator: terminator))
        return .record
    }

    /// Reads the next bytes of input (or marks the end): after those held when `keeping`, else in
    /// place of them (every byte before has been used).
    private func readMore(keeping: Bool) {
        if !keeping {
            count = 0
            position = 0
        }
        switch SystemCalls.read(descriptor: descriptor, into: UnsafeMutableRawBufferPointer(start: buffer + count, count: Self.blockSize - count)) {
        case .success(let read) where read > 0: count += read
        case .success: finished = true
        case .failure(let error):
            readError = error
            finished = true
        }
    }
}
