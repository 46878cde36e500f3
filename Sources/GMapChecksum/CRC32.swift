/// CRC-32 as in zlib, PNG and gzip (IEEE 802.3 polynomial 0xEDB88320, reflected, initial and final XOR 0xFFFFFFFF).
public struct CRC32: Sendable {
    private static let table: [UInt32] = (0..<256).map { index -> UInt32 in
        var value = UInt32(index)
        for _ in 0..<8 {
            value = (value & 1) != 0 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1
        }
        return value
    }

    private var state: UInt32 = 0xFFFF_FFFF

    /// A checksum with nothing added yet.
    public init() {}

    /// Adds bytes to the checksum.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var crc = state
        Self.table.withUnsafeBufferPointer { table in
            for byte in bytes {
                crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
            }
        }
        state = crc
    }

    /// Adds bytes to the checksum.
    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The checksum of everything added so far.
    public var value: UInt32 { state ^ 0xFFFF_FFFF }

    /// The checksum of one buffer.
    public static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }

    /// The checksum of one array.
    public static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0) }
    }
}
