#if canImport(Glibc)
/// glibc's `malloc_trim` (declared in malloc.h, which the Glibc module leaves out).
@_silgen_name("malloc_trim")
private func glibcMallocTrim(_ pad: Int) -> Int32
#endif

/// Gives freed heap memory back to the system between the stages of a large build.
///
/// glibc keeps what a program frees in the middle of its heap for later allocations; when one
/// stage frees much (a layer's source features, the node positions of an extract) and the next
/// allocates differently sized blocks, that memory stays resident, and the process's peak becomes
/// the sum of its stages instead of the largest. `malloc_trim(0)` returns those free pages (it
/// takes a few milliseconds on a heap of hundreds of megabytes). Elsewhere it does nothing.
enum MemoryRelease {
    /// Returns free heap pages to the system (glibc), or does nothing.
    static func trim() {
        #if canImport(Glibc)
        _ = glibcMallocTrim(0)
        #endif
    }
}
