import Foundation

/// Writes a file so that readers see either the old file or the whole new one, never a part.
///
/// The bytes go to a temporary file beside the target (same directory, so the same file system),
/// which is flushed to disk and then renamed over the target. On any failure the temporary file
/// is removed and the target is left as it was. While the temporary file exists, SIGINT, SIGTERM
/// and SIGHUP remove it before the process ends; only SIGKILL during the write can leave a
/// `.NAME.tmp-PID-N` file beside the target (the target itself is still the old file).
public enum AtomicFile {
    /// Writes `bytes` to `path` atomically.
    public static func write(_ bytes: [UInt8], to path: String) throws {
        try write(to: path) { write in try write(bytes) }
    }

    /// Writes to `path` atomically whatever `produce` hands to the `write` function it is given,
    /// chunk by chunk, so that a large file never has to be held in memory whole. When `produce`
    /// throws, the temporary file is removed, the target is left as it was, and the error is rethrown.
    public static func write(to path: String, _ produce: (_ write: ([UInt8]) throws -> Void) throws -> Void) throws {
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let temporary = (directory.isEmpty ? "." : directory) + "/.\(name).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw BuildError("cannot create \(temporary): \(String(cString: strerror(errno)))")
        }
        var succeeded = false
        InterruptCleanup.arm(removing: temporary)
        defer {
            InterruptCleanup.disarm()
            if !succeeded { unlink(temporary) }
        }
        do {
            defer { close(descriptor) }
            try produce { bytes in try writeAll(bytes, to: descriptor, name: temporary) }
            guard fsync(descriptor) == 0 else {
                throw BuildError("cannot flush \(temporary): \(String(cString: strerror(errno)))")
            }
        }
        guard rename(temporary, path) == 0 else {
            throw BuildError("cannot replace \(path): \(String(cString: strerror(errno)))")
        }
        succeeded = true
    }

    /// Writes every byte to `descriptor`, retrying after interruptions.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32, name: String) throws {
        var written = 0
        try bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            while written < buffer.count {
                let result = Foundation.write(descriptor, base + written, buffer.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    throw BuildError("cannot write \(name): \(String(cString: strerror(errno)))")
                }
                written += result
            }
        }
    }
}

/// Removes a temporary file if the process is interrupted while it exists.
///
/// The path lives in a fixed C buffer so that the signal handler only calls async-signal-safe functions.
enum InterruptCleanup {
    nonisolated(unsafe) private static let path = UnsafeMutablePointer<CChar>.allocate(capacity: Int(PATH_MAX) + 1)
    private static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    static func arm(removing file: String) {
        let bytes = Array(file.utf8.prefix(Int(PATH_MAX)))
        for (index, byte) in bytes.enumerated() { path[index] = CChar(bitPattern: byte) }
        path[bytes.count] = 0
        for signal in signals {
            _ = Foundation.signal(signal) { received in
                unlink(InterruptCleanup.path)
                _exit(128 + received)
            }
        }
    }

    static func disarm() {
        for signal in signals { _ = Foundation.signal(signal, SIG_DFL) }
        path[0] = 0
    }
}
