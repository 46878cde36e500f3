import GMap

/// Writes a layer's name index (`NAME`): the keys ``NameFolding/keys(id:names:)`` makes from every
/// feature's id and kept string name properties (``NameFolding/isNameKey(_:)``), sorted by key
/// bytes then feature.
enum NameIndexWriter {
    /// The section's bytes. `ids` and `properties` are by source index; `order` lists source indexes in file order.
    static func section(ids: [String], properties: [[SourceFeature.KeptProperty]], order: [Int], strings: inout StringPool) throws -> [UInt8] {
        var records: [(key: [UInt8], feature: UInt32)] = []
        for (position, source) in order.enumerated() {
            let names = properties[source].filter { $0.kind == .string && NameFolding.isNameKey($0.key) }.map(\.value)
            for key in NameFolding.keys(id: ids[source], names: names) {
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
