import GMap

/// Writes a layer's name index (`NAME`, Spec/FORMAT.md section 5.10): the keys
/// ``NameFolding/indexKeys(id:names:)`` makes from every feature's id and kept string name properties
/// (``NameFolding/isNameKey(_:)``), sorted by key bytes then feature.
///
/// Whole keys go into the string pool in record order; a word key adds no bytes: it is the end of
/// the whole key it was cut from.
enum NameIndexWriter {
    /// The section's bytes. `ids` and `properties` are by source index; `order` lists source indexes in file order.
    static func section(ids: [String], properties: [[SourceFeature.KeptProperty]], order: [Int], strings: inout StringPool) throws -> [UInt8] {
        var records: [(key: NameFolding.IndexKey, feature: UInt32)] = []
        for (position, source) in order.enumerated() {
            let names = properties[source].filter { $0.kind == .string && NameFolding.isNameKey($0.key) }.map(\.value)
            for key in NameFolding.indexKeys(id: ids[source], names: names) {
                records.append((key, UInt32(position)))
            }
        }
        records.sort { lhs, rhs in
            lhs.key.bytes != rhs.key.bytes ? lhs.key.bytes.lexicographicallyPrecedes(rhs.key.bytes) : lhs.feature < rhs.feature
        }
        // Every word key starts with a space and so sorts before every whole key: intern the whole
        // keys first, in record order, then place each word key at the end of its whole key.
        var wholes: [[UInt8]: (offset: UInt32, length: UInt32)] = [:]
        for record in records where !record.key.isWordKey && wholes[record.key.bytes] == nil {
            wholes[record.key.bytes] = try strings.intern(String(decoding: record.key.bytes, as: UTF8.self))
        }
        var bytes: [UInt8] = []
        bytes.appendLittleEndian(UInt32(records.count))
        bytes.appendLittleEndian(UInt32(FormatLayout.NameRecord.length))
        for record in records {
            guard let whole = wholes[record.key.whole] else { throw BuildError("name index: no whole key for a word key") }
            let length = UInt32(record.key.bytes.count)
            bytes.appendLittleEndian(whole.offset + whole.length - length)
            bytes.appendLittleEndian(length)
            bytes.appendLittleEndian(record.feature)
        }
        return bytes
    }
}
