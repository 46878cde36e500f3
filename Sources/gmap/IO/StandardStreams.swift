import GMapBuilder

/// Buffered standard output: batch queries print millions of short lines. Another descriptor
/// (`gmap bench` times the batch path writing to /dev/null) gets an output of its own.
final class StandardOutput {
    nonisolated(unsafe) static let shared = StandardOutput()
    private var buffer: [UInt8] = []
    /// Where the bytes go: 1 for standard output.
    private let descriptor: Int32

    /// An output writing to `descriptor` (standard output by default), which the caller keeps open.
    init(descriptor: Int32 = 1) {
        self.descriptor = descriptor
        buffer.reserveCapacity(1 << 16)
    }

    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes the bytes in `range` of `bytes`: after what is buffered, straight through when they are many.
    func write(bytes: [UInt8], range: Range<Int>) {
        guard range.count >= 1 << 16 else {
            bytes.withUnsafeBufferPointer { buffer.append(contentsOf: UnsafeBufferPointer(rebasing: $0[range])) }
            if buffer.count >= 1 << 16 { flush() }
            return
        }
        flush()
        if failure == nil {
            let error = bytes.withUnsafeBytes { SystemCalls.writeAll(descriptor: descriptor, UnsafeRawBufferPointer(rebasing: $0[range])) }
            if error != 0 { failure = error }
        }
    }

    /// Writes bytes as they are (large ones go straight through).
    func write(bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// The error number of the first write that failed (ENOSPC on a full disk, EBADF when standard
    /// output is closed, EIO), nil while every write has gone out. Later output is dropped: the
    /// command ends with a message and exit 2 (``CommandRunner``). A reader that went away (EPIPE)
    /// ends the process by SIGPIPE before this is set, as `| head` expects.
    private(set) var failure: Int32?

    func flush() {
        guard !buffer.isEmpty else { return }
        if failure == nil {
            let error = buffer.withUnsafeBytes { SystemCalls.writeAll(descriptor: descriptor, $0) }
            if error != 0 { failure = error }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Unbuffered standard error.
enum StandardError {
    static func write(_ text: String) {
        var text = text
        // A failed write to standard error has nowhere left to be reported.
        _ = text.withUTF8 { SystemCalls.writeAll(descriptor: 2, UnsafeRawBufferPointer($0)) }
    }
}

/// Reads standard input (or a file) line by line in large blocks, holding at most one line of
/// ``maximumBytes`` bytes: a longer line is skipped as it is read, never buffered whole.
struct LineReader {
    /// One line read.
    enum Line: Equatable {
        /// The line's text, without its line end (invalid UTF-8 replaced by U+FFFD).
        case text(Substring)
        /// A line longer than ``maximumBytes``, skipped.
        case tooLong
    }

    /// The longest line read by default: 1 MiB (`--max-line`).
    static let defaultMaximumBytes = 1 << 20
    /// Bytes read at a time.
    private static let blockSize = 1 << 16

    /// The longest line read, in bytes without its line end.
    let maximumBytes: Int
    private var buffer: [UInt8] = []
    private var start = 0
    /// Bytes after `start` already searched for a line end.
    private var searched = 0
    private var finished = false
    /// Why reading stopped before the end of input (a directory, a reset socket): nothing after
    /// the last whole line is given then, and the caller fails with ``readFailure(after:)``.
    private(set) var readError: SystemError?
    /// A line ended with a CR last in a block: an LF first in the next block belongs to it (CR LF).
    private var pendingLF = false
    private let descriptor: Int32

    init(descriptor: Int32 = 0, maximumBytes: Int = LineReader.defaultMaximumBytes) {
        self.descriptor = descriptor
        self.maximumBytes = maximumBytes
    }

    /// A reader of lines already in memory (`gmap bench` times the batch path on them): `bytes` is
    /// the whole input, read as a descriptor's would be, and nothing more is read.
    init(bytes: [UInt8], maximumBytes: Int = LineReader.defaultMaximumBytes) {
        self.descriptor = -1
        self.maximumBytes = maximumBytes
        buffer = bytes
        finished = true
    }

    /// Looks at the first bytes before any line is read: skips a UTF-8 byte order mark, and returns
    /// the encoding of input in UTF-16 or UTF-32 (nil for UTF-8), which the caller refuses.
    mutating func wideEncoding() -> TextEncodingSniffer.WideEncoding? {
        while buffer.count - start < 4 && !finished { readMore() }
        let head = buffer[start..<min(start + 4, buffer.count)]
        if let wide = TextEncodingSniffer.wideEncoding(of: head) { return wide }
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
        return nil
    }

    /// The next line, or nil at the end of input. A line ends at LF, CR LF or a lone CR (files saved
    /// on old Macs), so lines never run together.
    mutating func next() -> Line? {
        switch nextSpan() {
        case nil: return nil
        case .tooLong: return .tooLong
        case .bytes(let range): return .text(Substring(String(decoding: buffer[range], as: UTF8.self)))
        }
    }

    /// One line read, as bytes in the reader's buffer.
    enum Span {
        /// The line's bytes without its line end: a range that ``appendBytes(of:to:)`` copies, valid until the next read.
        case bytes(Range<Int>)
        /// A line longer than ``maximumBytes``, skipped.
        case tooLong
    }

    /// Appends the bytes of a line just read by ``nextSpan()`` to `bytes`.
    func appendBytes(of range: Range<Int>, to bytes: inout [UInt8]) {
        buffer.withUnsafeBufferPointer { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// The next line as ``next()`` reads it (the same line ends and limits), without making a
    /// `String`: where its bytes lie in the buffer, or nil at the end of input.
    mutating func nextSpan() -> Span? {
        while true {
            guard settlePendingLF() else {
                readMore()
                continue
            }
            let end = Self.lineEnd(in: buffer, from: start + searched)
            if end < buffer.count {
                let line = end - start > maximumBytes ? nil : start..<end
                endLine(at: end)
                return line.map { .bytes($0) } ?? .tooLong
            }
            searched = end - start
            if searched > maximumBytes {
                skipRestOfLine()
                return .tooLong
            }
            if finished {
                // A last line without its line end is a line only where the input really ended.
                guard start < buffer.count, readError == nil else { return nil }
                let line = start..<buffer.count
                // (no longer than the limit: `searched` covers it)
                start = buffer.count
                searched = 0
                return .bytes(line)
            }
            readMore()
        }
    }

    /// What ``moveWholeLines(to:atLeast:)`` did.
    enum WholeLines {
        /// Moved one line or more.
        case moved
        /// Moved nothing: the next line is longer than ``maximumBytes`` (``nextSpan()`` skips it).
        case tooLong
        /// Moved nothing: the input has ended.
        case end
    }

    /// Moves whole lines from the front of the input to the end of `bytes`, each with its line end
    /// (LF, CR LF or a lone CR): every whole line the buffer holds once it holds `wanted` bytes or
    /// the input has ended, so that the caller can split them into lines elsewhere, on other
    /// threads (``lines(in:_:)``), into the lines ``nextSpan()`` reads. A CR LF that two reads
    /// split is one line end, as there.
    mutating func moveWholeLines(to bytes: inout [UInt8], atLeast wanted: Int) -> WholeLines {
        while true {
            guard settlePendingLF() else {
                readMore()
                continue
            }
            if buffer.count - start < wanted, !finished {
                readMore()
                continue
            }
            if start == buffer.count { return .end }
            // The last line end in the buffer: whole lines end there.
            var last = buffer.count - 1
            while last >= start, buffer[last] != 10, buffer[last] != 13 { last -= 1 }
            var cut = last + 1
            if finished && readError != nil {
                // A read error: the whole lines before it, never the cut line after them.
                if last < start { return .end }
            } else if finished {
                cut = buffer.count
            } else if last < start {
                // No line end yet: one line, too long already, or read on.
                if buffer.count - start > maximumBytes { return .tooLong }
                readMore()
                continue
            } else if buffer[last] == 13, cut == buffer.count {
                pendingLF = true
            }
            buffer.withUnsafeBufferPointer { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[start..<cut])) }
            start = cut
            searched = 0
            return .moved
        }
    }

    /// Calls `body` with each line of `bytes[range]` (whole lines, as
    /// ``moveWholeLines(to:atLeast:)`` moves them): the range of its bytes without its line end.
    /// A last line without a line end is a line; nothing after the last line end is none.
    static func lines(in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ body: (Range<Int>) -> Void) {
        var start = range.lowerBound
        let limit = min(range.upperBound, bytes.count)
        while start < limit {
            var end = start
            while end < limit, bytes[end] != 10, bytes[end] != 13 { end += 1 }
            body(start..<end)
            if end + 1 < limit, bytes[end] == 13, bytes[end + 1] == 10 {
                start = end + 2
            } else {
                start = end + 1
            }
        }
    }

    /// Where `bytes[range]` is best cut into `parts` parts of whole lines: the first byte of a line
    /// at or after each even share (a CR LF is never cut), `range.lowerBound` first and
    /// `range.upperBound` last; parts may be empty.
    static func cuts(of bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, parts: Int) -> [Int] {
        var cuts = [range.lowerBound]
        for part in 1..<max(1, parts) {
            var cut = max(cuts[cuts.count - 1], range.lowerBound + range.count * part / parts)
            // After the line end at or after the share (its LF too, for a CR LF).
            while cut < range.upperBound, cut > range.lowerBound, bytes[cut - 1] != 10, bytes[cut - 1] != 13 { cut += 1 }
            if cut < range.upperBound, cut > range.lowerBound, bytes[cut - 1] == 13, bytes[cut] == 10 { cut += 1 }
            cuts.append(cut)
        }
        cuts.append(range.upperBound)
        return cuts
    }

    /// Drops the LF of a CR LF whose CR ended the last line given, once the byte after the CR has
    /// been read; false while that byte is still to be read (the caller reads more and asks again).
    private mutating func settlePendingLF() -> Bool {
        guard pendingLF else { return true }
        if start < buffer.count {
            if buffer[start] == 10 { start += 1 }
        } else if !finished {
            return false
        }
        pendingLF = false
        return true
    }

    /// The bad-line message for a line over `maximumBytes`: "longer than 1 MiB, the limit of
    /// --max-line (raise it with --max-line SIZE)".
    static func tooLongFailure(_ maximumBytes: Int) -> CommandFailure {
        CommandFailure(message: "longer than \(InputLimits.size(maximumBytes)), the limit of --max-line (raise it with --max-line SIZE)")
    }

    /// The index of the first CR or LF in `bytes` at or after `from`, or `bytes.count`.
    private static func lineEnd(in bytes: [UInt8], from: Int) -> Int {
        bytes.withUnsafeBufferPointer { pointer in
            var index = from
            while index < pointer.count {
                let byte = pointer[index]
                if byte == 10 || byte == 13 { return index }
                index += 1
            }
            return pointer.count
        }
    }

    /// Moves past the line end at `end` (CR, LF or CR LF, which may straddle two blocks).
    private mutating func endLine(at end: Int) {
        searched = 0
        if buffer[end] == 13 {
            if end + 1 < buffer.count {
                start = end + (buffer[end + 1] == 10 ? 2 : 1)
            } else {
                start = end + 1
                pendingLF = true
            }
        } else {
            start = end + 1
        }
    }

    /// Reads and drops the rest of a line that is too long, up to and including its line end.
    private mutating func skipRestOfLine() {
        buffer.removeAll(keepingCapacity: true)
        start = 0
        searched = 0
        while !finished {
            readMore()
            let end = Self.lineEnd(in: buffer, from: 0)
            if end < buffer.count {
                endLine(at: end)
                return
            }
            buffer.removeAll(keepingCapacity: true)
        }
    }

    /// Drops the lines already given and appends the next block of input (or marks the end).
    private mutating func readMore() {
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        let old = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: Self.blockSize))
        let result = buffer.withUnsafeMutableBytes { SystemCalls.read(descriptor: descriptor, into: UnsafeMutableRawBufferPointer(rebasing: $0[old...])) }
        var count = 0
        switch result {
        case .success(let read): count = read
        case .failure(let error): readError = error
        }
        buffer.removeLast(Self.blockSize - count)
        if count == 0 { finished = true }
    }

    /// The failure for a read error after `lines` lines: "cannot read standard input after line 12:
    /// Connection reset by peer" (exit 2), nil when the input was read to its end.
    func readFailure(after lines: Int, input: String = "standard input") -> CommandFailure? {
        guard let readError else { return nil }
        return CommandFailure(message: "cannot read \(input) after line \(lines): \(readError.text); the lines after it were not answered")
    }
}
