/// The Adler-32 checksum of RFC 1950, which ends every zlib stream: two sums modulo 65521,
/// the running sum of the bytes plus one, and the sum of those sums.
package struct Adler32: Sendable {
    /// The largest prime below 2^16.
    private static let modulus: UInt32 = 65_521
    /// How many bytes can be added before the sums must be reduced (so that they stay below 2^32).
    private static let bytesBetweenReductions = 5_552

    private var low: UInt32 = 1
    private var high: UInt32 = 0

    /// A checksum with nothing added yet (value 1).
    package init() {}

    /// Adds bytes to the checksum.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var low = self.low, high = self.high
        var start = 0
        while start < bytes.count {
            let end = min(start + Self.bytesBetweenReductions, bytes.count)
            for index in start..<end {
                low &+= UInt32(bytes[index])
                high &+= low
            }
            low %= Self.modulus
            high %= Self.modulus
            start = end
        }
        self.low = low
        self.high = high
    }

    /// Adds bytes to the checksum.
    package mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The checksum of everything added so far.
    package var value: UInt32 { high << 16 | low }

    /// The checksum of one array.
    package static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var adler = Adler32()
        adler.update(bytes)
        return adler.value
    }
}
