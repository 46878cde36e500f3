/// Unsigned LEB128 variable-length integers, and the zig-zag mapping that makes small signed
/// numbers small unsigned ones. Tile records store vertex deltas this way.
public enum Varint {
    /// The most bytes a 64-bit varint can take.
    public static let maximumLength = 10

    /// Appends `value` as a LEB128 varint: seven bits a byte, least significant first, the high bit set on every byte but the last.
    public static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// Appends a signed value zig-zag encoded, then as a varint.
    public static func appendSigned(_ value: Int64, to bytes: inout [UInt8]) {
        append(ZigZag.encode(value), to: &bytes)
    }

    /// The number of bytes `value` takes as a varint.
    public static func length(of value: UInt64) -> Int {
        var count = 1
        var rest = value >> 7
        while rest != 0 { count += 1; rest >>= 7 }
        return count
    }
}

/// Zig-zag encoding: 0, -1, 1, -2, 2 … become 0, 1, 2, 3, 4 …
public enum ZigZag {
    /// Maps a signed integer to an unsigned one.
    @inlinable public static func encode(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }
    /// Maps an unsigned integer back to the signed one it encodes.
    @inlinable public static func decode(_ value: UInt64) -> Int64 {
        Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    }
}
