/// Little-endian reads from a span of bytes, each checked against the span's end.
///
/// Modelled on swift-nio's `ByteBuffer`: `get…(at:)` reads at an absolute offset and answers nil
/// when the value does not lie wholly inside the span.
@usableFromInline
struct ByteSpan: @unchecked Sendable {
    @usableFromInline let base: UnsafeRawPointer
    @usableFromInline let count: Int

    @inlinable init(base: UnsafeRawPointer, count: Int) {
        self.base = base
        self.count = count
    }

    /// Whether `length` bytes starting at `offset` lie inside the span.
    ///
    /// Building with `-D GMAP_UNCHECKED_READS` turns this check off; that exists only to measure
    /// what the checks cost (`Benchmarks/check-cost.sh`) and must never ship.
    @inlinable func contains(offset: Int, length: Int) -> Bool {
        #if GMAP_UNCHECKED_READS
        return true
        #else
        offset >= 0 && length >= 0 && offset <= count && length <= count - offset
        #endif
    }

    /// Whether `length` bytes starting at `offset` (both 64-bit) lie inside the span.
    @inlinable func contains(offset: UInt64, length: UInt64) -> Bool {
        offset <= UInt64(count) && length <= UInt64(count) - offset
    }

    @inlinable func getUInt8(at offset: Int) -> UInt8? {
        guard contains(offset: offset, length: 1) else { return nil }
        return base.load(fromByteOffset: offset, as: UInt8.self)
    }

    @inlinable func getUInt16(at offset: Int) -> UInt16? {
        guard contains(offset: offset, length: 2) else { return nil }
        return UInt16(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }

    @inlinable func getUInt32(at offset: Int) -> UInt32? {
        guard contains(offset: offset, length: 4) else { return nil }
        return UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    @inlinable func getInt32(at offset: Int) -> Int32? {
        getUInt32(at: offset).map { Int32(bitPattern: $0) }
    }

    @inlinable func getUInt64(at offset: Int) -> UInt64? {
        guard contains(offset: offset, length: 8) else { return nil }
        return UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    @inlinable func getFloat64(at offset: Int) -> Double? {
        getUInt64(at: offset).map { Double(bitPattern: $0) }
    }

    /// The bytes `offset..<offset+length` as a buffer, or nil when they are out of bounds.
    @inlinable func getBytes(at offset: Int, length: Int) -> UnsafeRawBufferPointer? {
        guard contains(offset: offset, length: length) else { return nil }
        return UnsafeRawBufferPointer(start: base + offset, count: length)
    }

    /// The bytes as UTF-8 text (invalid sequences repaired), or nil when out of bounds.
    @inlinable func getString(at offset: Int, length: Int) -> String? {
        guard let bytes = getBytes(at: offset, length: length) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A cursor that reads varints forward through a span and stops at its end.
@usableFromInline
struct VarintCursor {
    @usableFromInline let base: UnsafeRawPointer
    @usableFromInline var position: Int
    @usableFromInline let end: Int

    @inlinable init(base: UnsafeRawPointer, position: Int, end: Int) {
        self.base = base
        self.position = position
        self.end = end
    }

    /// Bytes left before the end.
    @inlinable var remaining: Int { end - position }

    /// Reads one LEB128 varint, or nil at the end of the span or for a varint longer than 10 bytes.
    @inlinable mutating func readVarint() -> UInt64? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while position < end {
            let byte = base.load(fromByteOffset: position, as: UInt8.self)
            position &+= 1
            result |= UInt64(byte & 0x7F) &<< shift
            if byte < 0x80 { return result }
            shift &+= 7
            if shift >= 70 { return nil }
        }
        return nil
    }

    /// Reads one zig-zag varint.
    @inlinable mutating func readSigned() -> Int64? {
        readVarint().map(ZigZag.decode)
    }
}
