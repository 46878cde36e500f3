// The C interface's one C library call, in one place: setting `errno` for a caller of gmap_open_path.

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The C library calls the C interface makes.
enum SystemCalls {
    /// Sets the C library's `errno` to `code`, so a C caller can read why a file did not open
    /// (nothing where there is no C library).
    static func setLastError(_ code: Int32) {
        #if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
        errno = code
        #endif
    }
}
