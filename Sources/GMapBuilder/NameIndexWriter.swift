import GMap

/// Writes a layer's name index (`NAME`): every feature's id and kept name properties
/// (``NameFolding/isNameKey(_:)``), folded by ``NameFolding``, sorted by key bytes then feature.
enum NameIndexWriter {
    /// The section's bytes. `ids` and `properties` are by source index; `order` lists source indexes in file order.
    static func section(ids: [String], properties: [[SourceFeature.KeptProperty]], order: [Int], strings: inout StringPool) throws -> [UInt8] {
        var records: [(key: [UInt8], feature: UInt32)] = []
        for (position, source) in order.enumerated() {
            var keys = [NameFolding.fold(ids[source])]
            for property in properties[source] where property.kind == .string && NameFolding.isNameKey(property.key) {
                keys.append(NameFolding.fold(property.value))
            }
            var seen: [[UInt8]] = []
            for key in keys where !key.isEmpty && !seen.contains(key) {
                seen.append(key)
                records.append((key, UInt32(position)))
            }
        }
        records.sort { lhs, rhs in
            lhs.key != rhs.key ? lhs.key.lexicographicallyPrecedes(rhs.key) : lhs.feature < rhs.feature
        }
        var bytes: [UInt8] = []
        bytes.appendLittleEndian(UInt32(records.count))
        bytes.appendLittleEndian(UInt32(FormatLayout.NameRecord.length))
        for record in records {
            let key = try strings.intern(String(decoding: record.key, as: UTF8.self))
            bytes.appendLittleEndian(key.offset)
            bytes.appendLittleEndian(key.length)
            bytes.appendLittleEndian(record.feature)
        }
        return bytes
    }
}
