/// Text passed between Swift and C: in place in the map, copied into a caller's buffer, or read
/// from a NUL-terminated C string. None of it allocates or needs the C library.
enum CText {
    /// A NUL byte, the text given for an empty range that has no address.
    private static let empty: StaticString = ""

    /// Stores the address and length of `bytes` (in place in the map) in the out-pointers, either of which may be NULL.
    static func expose(
        _ bytes: UnsafeRawBufferPointer, _ pointer: UnsafeMutablePointer<UnsafePointer<CChar>?>?, _ length: UnsafeMutablePointer<Int>?
    ) {
        let start = bytes.baseAddress ?? UnsafeRawPointer(empty.utf8Start)
        pointer?.pointee = start.assumingMemoryBound(to: CChar.self)
        length?.pointee = bytes.count
    }

    /// Copies `bytes` and a NUL into `buffer[capacity]`, or as much as fits when it is too small.
    ///
    /// `length` (may be NULL) gets `bytes.count`. Returns `GMAP_OK`, or `GMAP_ERROR_BUFFER_TOO_SMALL`
    /// when `bytes.count >= capacity` (a NULL buffer with capacity 0 asks only for the length).
    static func copy(_ bytes: UnsafeRawBufferPointer, into buffer: UnsafeMutablePointer<CChar>?, capacity: Int,
                     length: UnsafeMutablePointer<Int>?) -> Int32 {
        length?.pointee = bytes.count
        guard let buffer, capacity > 0 else { return capacity == 0 ? Status.bufferTooSmall : Status.argument }
        let copied = min(bytes.count, capacity - 1)
        if copied > 0, let source = bytes.baseAddress {
            UnsafeMutableRawPointer(buffer).copyMemory(from: source, byteCount: copied)
        }
        buffer[copied] = 0
        return copied == bytes.count ? Status.ok : Status.bufferTooSmall
    }

    /// The bytes of a NUL-terminated C string, without the NUL.
    static func bytes(of string: UnsafePointer<CChar>) -> UnsafeRawBufferPointer {
        var count = 0
        while string[count] != 0 { count += 1 }
        return UnsafeRawBufferPointer(start: string, count: count)
    }
}
