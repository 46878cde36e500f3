import Foundation

/// Writes a file so that readers see either the old file or the whole new one, never a part.
///
/// The bytes go to a temporary file beside the target (same directory, so the same file system),
/// which is flushed to disk and then renamed over the target. On any failure the temporary file
/// is removed and the target is left as it was.
public enum AtomicFile {
    /// Writes `bytes` to `path` atomically.
    public static func write(_ bytes: [UInt8], to path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let temporary = (directory.isEmpty ? "." : directory) + "/.\(name).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw BuildError("cannot create \(temporary): \(String(cString: strerror(errno)))")
        }
        var succeeded = false
        defer {
            if !succeeded { unlink(temporary) }
        }
        do {
            defer { close(descriptor) }
            var written = 0
            try bytes.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress else { return }
                while written < buffer.count {
                    let result = Foundation.write(descriptor, base + written, buffer.count - written)
                    if result < 0 {
                        if errno == EINTR { continue }
                        throw BuildError("cannot write \(temporary): \(String(cString: strerror(errno)))")
                    }
                    written += result
                }
            }
            guard fsync(descriptor) == 0 else {
                throw BuildError("cannot flush \(temporary): \(String(cString: strerror(errno)))")
            }
        }
        guard rename(temporary, path) == 0 else {
            throw BuildError("cannot replace \(path): \(String(cString: strerror(errno)))")
        }
        succeeded = true
    }
}
