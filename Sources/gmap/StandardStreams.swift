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

    /// The next line without its newline, or nil at the end of input.
    mutating func next() -> Substring? {
        while true {
            if let newline = buffer[start...].firstIndex(of: 10) {
                let line = String(decoding: buffer[start..<newline], as: UTF8.self)
                start = newline + 1
                return Substring(line)
            }
            if finished {
                guard start < buffer.count else { return nil }
                let line = String(decoding: buffer[start...], as: UTF8.self)
                start = buffer.count
                return Substring(line)
            }
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
}
