// Every C library call of the codecs and the builder's readers, in one place (as swift-system keeps
// its syscalls apart): opening, sizing, reading, rewinding and closing files, error texts, and
// the correctly rounded decimal-to-double conversion of the GeoJSON reader.
// `package`: GMapBuilder's streaming GeoJSON reader reads files through the same calls.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library's file calls, for the package's readers.
package enum SystemCalls {
    /// The error number of "is a directory" (`EISDIR`), given when a directory is opened as a file.
    package static let isADirectory: Int32 = EISDIR

    /// The C library's last error number (`errno`).
    package static var lastError: Int32 { errno }

    /// Opens `path` read-only; the descriptor, or a failure with its error number. A directory
    /// opens (as `open(2)` allows) but fails with ``isADirectory``.
    package static func openForReading(_ path: String) -> Result<Int32, SystemError> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(SystemError(code: errno)) }
        var status = stat()
        if fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            return .failure(SystemError(code: EISDIR))
        }
        return .success(descriptor)
    }

    /// Reads up to `count` bytes into `buffer`: how many (0 at the end), retrying when a signal
    /// interrupts; a failure with its error number.
    package static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawPointer, count: Int) -> Result<Int, SystemError> {
        while true {
            let got = systemRead(descriptor, buffer, count)
            if got >= 0 { return .success(got) }
            if errno != EINTR { return .failure(SystemError(code: errno)) }
        }
    }

    /// Moves a descriptor back to the start of its file; false when it cannot seek (a pipe).
    package static func rewind(_ descriptor: Int32) -> Bool {
        lseek(descriptor, 0, SEEK_SET) == 0
    }

    /// Closes a descriptor this package opened.
    package static func close(_ descriptor: Int32) {
        systemClose(descriptor)
    }

    /// Whether something exists at `path` (`access(F_OK)`).
    package static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// The double a NUL-terminated decimal number's text denotes, correctly rounded (`strtod`).
    package static func parseDouble(_ text: UnsafePointer<CChar>) -> Double {
        strtod(text, nil)
    }

    /// The C library's text for an error number (`strerror`).
    package static func errorText(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}

/// A C library error number, with its text.
package struct SystemError: Error, Sendable, Equatable {
    /// The error number (`errno`).
    package var code: Int32
    /// The C library's text for it.
    package var text: String { SystemCalls.errorText(code) }
}

/// `read(2)` and `close(2)`, named apart from ``SystemCalls``'s methods.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

private func systemClose(_ descriptor: Int32) {
    close(descriptor)
}
