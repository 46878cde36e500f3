// Every C library call of the command-line tool, in one place (as swift-system keeps its syscalls
// apart): standard streams, the monotonic clock, /proc files and the exit status.

import GMapCodecs

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library calls the tool makes.
enum SystemCalls {
    /// Writes every byte to `descriptor`, retrying after interruptions; stops quietly if the reader has gone.
    /// The error number of a failed write (0 when every byte went out, or for a write of nothing).
    @discardableResult
    static func writeAll(descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        guard let base = bytes.baseAddress else { return 0 }
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, base + offset, bytes.count - offset)
            if written < 0, errno == EINTR { continue }
            if written < 0 { return errno }
            if written == 0 { return EIO }
            offset += written
        }
        return 0
    }

    /// The system's words for an error number ("No space left on device").
    static func message(forError number: Int32) -> String {
        String(cString: strerror(number))
    }

    /// Reads up to `buffer.count` bytes from `descriptor`, retrying after interruptions (the
    /// codecs' read, which the builder's readers use too): how many, 0 at the end of input, or the error.
    static func read(descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, SystemError> {
        guard let base = buffer.baseAddress else { return .success(0) }
        return GMapCodecs.SystemCalls.read(descriptor, into: base, count: buffer.count)
    }

    /// Seconds on the monotonic clock.
    static func monotonicSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }

    /// Calls `body` with each line of a file (read to its real end: `/proc` files report size 0)
    /// until `body` returns false; nothing when the file cannot be opened.
    static func forEachLine(ofFile path: String, _ body: (String) -> Bool) {
        guard let file = fopen(path, "r") else { return }
        defer { fclose(file) }
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        while getline(&buffer, &capacity, file) > 0, let buffer {
            if !body(String(cString: buffer)) { return }
        }
    }

    /// Ends the process with `status`.
    static func exit(_ status: Int32) -> Never {
        systemExit(status)
    }

    /// Makes a bus error (a mapped map truncated or replaced in place while it is read, which the
    /// mapping cannot survive) end the process at once with a message and exit 2, instead of the
    /// crash reporter, which can take a minute or leave a process behind.
    static func endOnBusError() {
        var action = sigaction()
        #if canImport(Darwin)
        action.__sigaction_u.__sa_handler = busErrorHandler
        #else
        action.__sigaction_handler.sa_handler = busErrorHandler
        #endif
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGBUS, &action, nil)
    }
}

/// Writes a fixed message and ends the process: only async-signal-safe calls (write, _exit).
private func busErrorHandler(_ signal: Int32) {
    let message: StaticString = "gmap: the map changed or was truncated while it was read (a bus error); replace a map by renaming a new file over it, never in place\n"
    message.withUTF8Buffer { text in _ = write(2, text.baseAddress, text.count) }
    _exit(2)
}

/// `exit(3)`, named apart from ``SystemCalls``'s method.
private func systemExit(_ status: Int32) -> Never {
    exit(status)
}
