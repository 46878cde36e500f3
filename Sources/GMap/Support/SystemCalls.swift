// Every C library call of the reader, in one place (as swift-system keeps its syscalls apart):
// opening and mapping a file, unmapping it, and the text of an error number. Embedded builds for
// bare metal have no C library files: there `hasFiles` is false and maps are opened from memory.

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The C library calls the reader makes.
enum SystemCalls {
    /// Whether this platform has files to map (not in an Embedded build for bare metal).
    #if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
    static let hasFiles = true
    #else
    static let hasFiles = false
    #endif

    /// Why mapping a file failed: what was being done and the C library's error number, or a file of zero bytes.
    enum MappingFailure: Error {
        case system(operation: String, code: Int32)
        case empty
        case tooLarge(GMapError)
        /// Not a regular file: what it is ("a directory", "a character device", …).
        case notAFile(kind: String)
    }

    #if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
    /// Maps the regular file at `path` read-only and whole; `checkedLength` turns its size into a
    /// length this platform can map (or throws). The mapping outlives the descriptor.
    static func mapFile(atPath path: String, checkedLength: (UInt64) throws(GMapError) -> Int) throws(MappingFailure) -> (address: UnsafeRawPointer, length: Int) {
        // O_NONBLOCK: a FIFO without a writer must not hang the open; it is refused below.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw .system(operation: "open", code: errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .system(operation: "read the size of", code: errno) }
        let kind = status.st_mode & S_IFMT
        guard kind == S_IFREG else {
            switch kind {
            case S_IFDIR: throw .notAFile(kind: "a directory")
            case S_IFCHR: throw .notAFile(kind: "a character device")
            case S_IFBLK: throw .notAFile(kind: "a block device")
            case S_IFIFO: throw .notAFile(kind: "a FIFO (a pipe)")
            case S_IFSOCK: throw .notAFile(kind: "a socket")
            default: throw .notAFile(kind: "not a regular file")
            }
        }
        let size = UInt64(status.st_size)
        guard size > 0 else { throw .empty }
        let length: Int
        do { length = try checkedLength(size) } catch { throw .tooLarge(error) }
        guard let address = mmap(nil, length, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else {
            throw .system(operation: "map", code: errno)
        }
        return (UnsafeRawPointer(address), length)
    }
    #endif

    /// Releases a mapping made by `mapFile(atPath:checkedLength:)`.
    static func unmap(_ address: UnsafeRawPointer, length: Int) {
        #if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
        munmap(UnsafeMutableRawPointer(mutating: address), length)
        #endif
    }

    /// The C library's text for an error number (`strerror`), or "error N" where there is none.
    static func errorText(_ code: Int32) -> String {
        #if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
        #else
        return "error \(code)"
        #endif
    }
}

/// A mutual-exclusion lock (the C library's mutex), for what a map fills once and then shares
/// between threads (``MapStorage/cached(_:)``). Where there is no C library (Embedded builds for
/// bare metal) there is no lock: ``isAvailable`` is false and callers keep nothing shared.
final class SystemLock: @unchecked Sendable {
    #if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
    /// Whether this platform has a lock.
    static let isAvailable = true
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// `body`'s result, run while holding the lock.
    func withLock<Result>(_ body: () -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }
    #else
    /// Whether this platform has a lock.
    static let isAvailable = false

    /// `body`'s result: without a lock, only for callers that share nothing (see ``isAvailable``).
    func withLock<Result>(_ body: () -> Result) -> Result { body() }
    #endif
}
