import GMapChecksum

/// Damage as a careful attacker or a buggy tool leaves it: every section's CRC-32 and the header's
/// recomputed over the bytes as they are, so that only `gmap verify`'s other checks can see it.
/// For the damage tests and the single-bit search (`Fuzz/bitflips.sh`).
package enum Resealing {
    /// `original` with every CRC-32 recomputed; unchanged when its section table cannot be read.
    package static func resealed(_ original: [UInt8]) -> [UInt8] {
        var bytes = original
        func u32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        func put(_ value: UInt32, _ at: Int) { for index in 0..<4 { bytes[at + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(index))) } }
        let table = u32(FormatLayout.Header.headerLength), count = u32(FormatLayout.Header.sectionCount)
        guard table >= FormatLayout.Header.headerCRC, count < 4096, table + count * FormatLayout.sectionEntryLength <= bytes.count else { return bytes }
        for index in 0..<count {
            let entry = table + index * FormatLayout.sectionEntryLength
            let offset = u32(entry + FormatLayout.SectionEntry.offset) | u32(entry + FormatLayout.SectionEntry.offset + 4) << 32
            let length = u32(entry + FormatLayout.SectionEntry.length) | u32(entry + FormatLayout.SectionEntry.length + 4) << 32
            guard offset <= bytes.count, length <= bytes.count - offset else { continue }
            put(CRC32.checksum(Array(bytes[offset..<offset + length])), entry + FormatLayout.SectionEntry.crc)
        }
        var crc = CRC32()
        crc.update(Array(bytes[0..<FormatLayout.Header.headerCRC]))
        crc.update(Array(bytes[table..<table + count * FormatLayout.sectionEntryLength]))
        put(crc.value, FormatLayout.Header.headerCRC)
        return bytes
    }
}
