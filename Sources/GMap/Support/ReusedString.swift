extension String {
    /// Makes this string `bytes` decoded as UTF-8 (as `String(decoding:as:)` decodes them,
    /// ill-formed sequences repaired the same way), writing them into the string's own storage
    /// when it has room and no other string shares it, so that a text longer than 15 bytes (the
    /// most a Swift string holds without storage of its own) needs no allocation.
    ///
    /// The bytes are appended in pieces of at most 15 bytes, each of which is a string without
    /// storage, and each piece ends before a byte that begins a character's encoding (not a
    /// continuation byte `10xxxxxx`), so that no encoding is split between two pieces and the
    /// pieces decode to what the whole decodes to.
    @_spi(Testing) public mutating func replaceWithUTF8(_ bytes: UnsafeRawBufferPointer) {
        let smallCapacity = 15
        // A short text is written into the storage too (not made a string of its own), so that
        // the storage is still there for the long text after it.
        removeAll(keepingCapacity: true)
        var start = 0
        while start < bytes.count {
            let longest = Swift.min(start + smallCapacity, bytes.count)
            var end = longest
            while end > start + 1, end < bytes.count, bytes[end] & 0xC0 == 0x80 { end -= 1 }
            // Fifteen continuation bytes in a row: each of them past the first three is a repaired
            // byte of its own, so a split among them changes nothing.
            if end == start + 1, longest > end, bytes[end] & 0xC0 == 0x80 { end = longest }
            append(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
            start = end
        }
    }
}
