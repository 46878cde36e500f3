/// Bounds-checked reads of fixed-size numbers from bytes in memory, for the binary input formats
/// (ZIP, shapefile, dBASE). Each read returns nil when it would run past the end (or start before 0).
package struct BinaryBytes {
    /// The bytes read.
    package let bytes: [UInt8]

    /// Reads `bytes`.
    package init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The number of bytes.
    var count: Int { bytes.count }

    /// Whether `length` bytes from `offset` lie inside the bytes.
    @inline(__always)
    func contains(_ offset: Int, _ length: Int) -> Bool {
        offset >= 0 && length >= 0 && offset <= bytes.count - length
    }

    /// An unsigned integer of `size` bytes, least significant byte first.
    func littleEndian(at offset: Int, size: Int) -> UInt64? {
        guard contains(offset, size) else { return nil }
        var value: UInt64 = 0
        for index in (0..<size).reversed() { value = value << 8 | UInt64(bytes[offset + index]) }
        return value
    }

    /// An unsigned integer of `size` bytes, most significant byte first.
    func bigEndian(at offset: Int, size: Int) -> UInt64? {
        guard contains(offset, size) else { return nil }
        var value: UInt64 = 0
        for index in 0..<size { value = value << 8 | UInt64(bytes[offset + index]) }
        return value
    }

    /// A 16-bit little-endian unsigned integer.
    package func uint16(at offset: Int) -> Int? { littleEndian(at: offset, size: 2).map { Int($0) } }
    /// A 32-bit little-endian unsigned integer.
    package func uint32(at offset: Int) -> Int? { littleEndian(at: offset, size: 4).map { Int($0) } }
    /// A 32-bit little-endian signed integer.
    package func int32(at offset: Int) -> Int? { littleEndian(at: offset, size: 4).map { Int(Int32(truncatingIfNeeded: $0)) } }
    /// A 32-bit big-endian signed integer.
    package func int32BigEndian(at offset: Int) -> Int? { bigEndian(at: offset, size: 4).map { Int(Int32(truncatingIfNeeded: $0)) } }
    /// A little-endian IEEE 754 double.
    package func double(at offset: Int) -> Double? { littleEndian(at: offset, size: 8).map { Double(bitPattern: $0) } }

    /// `length` bytes from `offset`, or nil when they are not all there.
    func slice(_ offset: Int, _ length: Int) -> ArraySlice<UInt8>? {
        guard contains(offset, length) else { return nil }
        return bytes[offset..<(offset + length)]
    }
}
