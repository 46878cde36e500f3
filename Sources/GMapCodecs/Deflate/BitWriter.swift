/// Collects bits least significant first into bytes, as DEFLATE packs them (RFC 1951 §3.1.1).
struct BitWriter {
    /// The bytes completed so far.
    private(set) var bytes: [UInt8] = []
    /// Bits not yet in `bytes`, the oldest in the lowest positions.
    private var pending: UInt64 = 0
    private var pendingCount = 0

    /// How many bits have been written in all.
    var bitCount: Int { bytes.count * 8 + pendingCount }

    /// Writes the low `count` bits of `value` (count ≤ 32), lowest first.
    mutating func write(_ value: UInt32, count: Int) {
        pending |= UInt64(value & UInt32(truncatingIfNeeded: (UInt64(1) << UInt64(count)) - 1)) << UInt64(pendingCount)
        pendingCount += count
        while pendingCount >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: pending))
            pending >>= 8
            pendingCount -= 8
        }
    }

    /// Fills the current byte with zero bits.
    mutating func alignToByte() {
        if pendingCount > 0 { write(0, count: 8 - pendingCount) }
    }

    /// Appends whole bytes; the writer must be byte-aligned.
    mutating func append<Bytes: Collection>(bytes more: Bytes) where Bytes.Element == UInt8 {
        precondition(pendingCount == 0, "bytes appended between bits")
        bytes.append(contentsOf: more)
    }

    /// Reserves room for `count` more bytes.
    mutating func reserveCapacity(_ count: Int) {
        bytes.reserveCapacity(count)
    }

    /// The bytes written, the last one padded with zero bits.
    mutating func finish() -> [UInt8] {
        alignToByte()
        return bytes
    }
}
