/// Buffered standard output: batch queries print millions of short lines.
final class StandardOutput {
    nonisolated(unsafe) static let shared = StandardOutput()
    private var buffer: [UInt8] = []

    init() { buffer.reserveCapacity(1 << 16) }

    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
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
            let error = buffer.withUnsafeBytes { SystemCalls.writeAll(descriptor: 1, $0) }
            if error != 0 { failure = error }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Unbuffered standard error.
enum StandardError {
    static func write(_ text: String) {
        var text = text
        text.withUTF8 { SystemCalls.writeAll(descriptor: 2, UnsafeRawBufferPointer($0)) }
    }
}

/// Reads standard input line by line in large blocks.
struct LineReader {
    private var buffer: [UInt8] = []
    private var start = 0
    private var finished = false
    private let descriptor: Int32

    init(descriptor: Int32 = 0) { self.descriptor = descriptor }

    /// The next line without its line end, or nil at the end of input. A line ends at LF, CR LF
    /// or a lone CR (files saved on old Macs), so lines never run together.
    mutating func next() -> Substring? {
        while true {
            if let end = buffer[start...].firstIndex(where: { $0 == 10 || $0 == 13 }) {
                // A CR last in the buffer may be the first half of CR LF: read on before deciding.
                if buffer[end] == 13, end + 1 == buffer.count, !finished {
                    readMore()
                    continue
                }
                let line = String(decoding: buffer[start..<end], as: UTF8.self)
                start = end + (buffer[end] == 13 && end + 1 < buffer.count && buffer[end + 1] == 10 ? 2 : 1)
                return Substring(line)
            }
            if finished {
                guard start < buffer.count else { return nil }
                let line = String(decoding: buffer[start...], as: UTF8.self)
                start = buffer.count
                return Substring(line)
            }
            readMore()
        }
    }

    /// Drops the lines already given and appends the next block of input (or marks the end).
    private mutating func readMore() {
        buffer.removeFirst(start)
        start = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let count = chunk.withUnsafeMutableBytes { SystemCalls.read(descriptor: descriptor, into: $0) }
        if count == 0 {
            finished = true
        } else {
            buffer.append(contentsOf: chunk[0..<count])
        }
    }
}
