/// Checksums computed the slow, obvious way, to check the fast ones against.
package enum ReferenceChecksums {
    /// Adler-32 straight from RFC 1950, one modulo per byte: the reference for the fast one.
    package static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }
}
