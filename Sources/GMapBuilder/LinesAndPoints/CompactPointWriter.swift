import GMap

/// Writes a layer of compact points (format 3.4, Spec/FORMAT.md 5.12): the point table that stands
/// for `FEAT`, `PROP` and `LABL`, and its name index of 4-byte records.
///
/// A record is the point (as differences from the previous record within a block of
/// ``FormatLayout/CompactPoints/writtenBlockSize``), the id, and one tagged value per property
/// column: inline bytes, or an entry of the column's dictionary where that saves bytes.
enum CompactPointWriter {
    /// Refuses a set that compact points cannot hold without losing something: a feature with
    /// more than one point, or with two properties of one key.
    static func check(_ set: OpenGeometrySet) throws {
        guard set.vertexCount == set.featureCount else {
            var points = [Int](repeating: 0, count: set.featureCount)
            for feature in set.featureOfVertex { points[Int(feature)] += 1 }
            let feature = points.firstIndex { $0 != 1 } ?? 0
            throw BuildError("compact points hold one point per feature, but feature \(feature) (\(InputExcerpt.text(set.ids[feature]))) has \(points[feature]) distinct points; build this layer without --compact-points")
        }
        for (feature, kept) in set.properties.enumerated() {
            var keys = Set<String>()
            for property in kept where !keys.insert(property.key).inserted {
                throw BuildError("compact points keep one value per property name, but feature \(feature) (\(InputExcerpt.text(set.ids[feature]))) has two values of \(InputExcerpt.text(property.key))")
            }
        }
    }

    /// The greatest common divisor of every coordinate (1 when all are 0): the coarsest step that
    /// stores every point exactly.
    static func step(of set: OpenGeometrySet) -> Int64 {
        func gcd(_ a: Int64, _ b: Int64) -> Int64 { b == 0 ? a : gcd(b, a % b) }
        var step: Int64 = 0
        for index in 0..<set.vertexCount {
            step = gcd(step, abs(set.xs[index]))
            step = gcd(step, abs(set.ys[index]))
            if step == 1 { break }
        }
        return max(1, min(step, Int64(Int32.max)))
    }

    /// The point table, an empty `PROP` (the layer's properties are in the table) and, with
    /// `indexes`, the name index. `order` lists the set's features in file order.
    static func sections(_ set: OpenGeometrySet, order: [Int], step: Int64, indexes: Bool,
                         strings: inout StringPool) throws -> (points: [UInt8], properties: [UInt8], names: [UInt8]?) {
        let field = FormatLayout.CompactPoints.self
        // The columns: every kept key, in order of first use.
        var columns: [String] = [], columnOf: [String: Int] = [:]
        for feature in order {
            for property in set.properties[feature] where columnOf[property.key] == nil {
                columnOf[property.key] = columns.count
                columns.append(property.key)
            }
        }
        guard columns.count <= 255 else { throw BuildError("compact points hold at most 255 property names; this layer keeps \(columns.count)") }
        let dictionaries = columns.indices.map { column in dictionary(set, order: order, key: columns[column]) }
        var table: [UInt8] = []
        table.appendLittleEndian(UInt32(order.count))
        table.appendLittleEndian(UInt32(step))
        table.appendLittleEndian(UInt16(columns.count))
        table.appendLittleEndian(UInt16(field.writtenBlockSize))
        table.appendLittleEndian(UInt32(dictionaries.reduce(0) { $0 + $1.count }))
        let recordsLengthAt = table.count
        table.appendLittleEndian(UInt32(0))
        var first = 0
        for (column, key) in columns.enumerated() {
            let interned = try strings.intern(key)
            table.appendLittleEndian(interned.offset)
            table.appendLittleEndian(interned.length)
            table.appendLittleEndian(UInt32(first))
            first += dictionaries[column].count
        }
        var entryOf: [[DictionaryValue: Int]] = []
        for entries in dictionaries {
            var positions: [DictionaryValue: Int] = [:]
            for (position, value) in entries.enumerated() {
                let interned = try strings.intern(value.text)
                table.appendLittleEndian(interned.offset)
                table.appendLittleEndian(interned.length)
                table.append(value.kind)
                table.append(contentsOf: [0, 0, 0])
                positions[value] = position
            }
            entryOf.append(positions)
        }
        var records: [UInt8] = [], blocks: [UInt32] = []
        var previous = (x: Int64(0), y: Int64(0))
        for (index, feature) in order.enumerated() {
            let x = set.xs[feature] / step, y = set.ys[feature] / step
            if index % field.writtenBlockSize == 0 {
                guard records.count <= Int(UInt32.max) else { throw BuildError("the point table is larger than 4 GiB") }
                blocks.append(UInt32(records.count))
                previous = (0, 0)
            }
            Varint.append(ZigZag.encode(x - previous.x), to: &records)
            Varint.append(ZigZag.encode(y - previous.y), to: &records)
            previous = (x, y)
            let id = Array(set.ids[feature].utf8)
            Varint.append(UInt64(id.count), to: &records)
            records.append(contentsOf: id)
            var values = [SourceFeature.KeptProperty?](repeating: nil, count: columns.count)
            for property in set.properties[feature] { values[columnOf[property.key] ?? 0] = property }
            for (column, value) in values.enumerated() {
                guard let value else {
                    Varint.append(field.absentTag, to: &records)
                    continue
                }
                if let entry = entryOf[column][DictionaryValue(text: value.value, kind: value.kind.rawValue)] {
                    Varint.append(UInt64(entry) << 3 | field.dictionaryTag, to: &records)
                } else {
                    let bytes = Array(value.value.utf8)
                    Varint.append(UInt64(bytes.count) << 3 | UInt64(value.kind.rawValue), to: &records)
                    records.append(contentsOf: bytes)
                }
            }
        }
        guard records.count <= Int(UInt32.max) else { throw BuildError("the point table is larger than 4 GiB") }
        for block in blocks { table.appendLittleEndian(block) }
        table.replaceSubrange(recordsLengthAt..<recordsLengthAt + 4, with: withUnsafeBytes(of: UInt32(records.count).littleEndian, Array.init))
        table.append(contentsOf: records)
        var properties: [UInt8] = []
        properties.appendLittleEndian(UInt32(0))
        properties.appendLittleEndian(UInt32(FormatLayout.PropertyRecord.length))
        return (table, properties, indexes ? try nameIndex(set, order: order) : nil)
    }

    /// A value as a dictionary holds it: its text and kind.
    struct DictionaryValue: Hashable {
        let text: String
        let kind: UInt8
    }

    /// The dictionary of column `key`: its most frequent values (first use breaking ties), each
    /// kept while naming it by its position saves more than the 12 bytes of its entry.
    static func dictionary(_ set: OpenGeometrySet, order: [Int], key: String) -> [DictionaryValue] {
        var counts: [DictionaryValue: (count: Int, first: Int)] = [:]
        for (index, feature) in order.enumerated() {
            for property in set.properties[feature] where property.key == key {
                let value = DictionaryValue(text: property.value, kind: property.kind.rawValue)
                counts[value, default: (0, index)].count += 1
            }
        }
        let ranked = counts.sorted { ($1.value.count, $0.value.first) < ($0.value.count, $1.value.first) }
        var kept: [DictionaryValue] = []
        for (value, usage) in ranked {
            let inline = Varint.length(of: UInt64(value.text.utf8.count) << 3) + value.text.utf8.count
            let named = Varint.length(of: UInt64(kept.count) << 3 | FormatLayout.CompactPoints.dictionaryTag)
            guard usage.count * (inline - named) > FormatLayout.CompactPoints.dictionaryEntryLength else { break }
            kept.append(value)
        }
        return kept
    }

    /// The name index: for each feature, each index key of its id (``NameFolding/indexKeys(id:names:)``)
    /// whose start code (``NameFolding/compactKeyStart(of:in:)``) is at most 255, as the feature and
    /// that code; sorted by key, then feature. Records are 3 bytes when every start fits beside the
    /// feature's bits (the bit width of `count − 1`), else 4.
    static func nameIndex(_ set: OpenGeometrySet, order: [Int]) throws -> [UInt8] {
        guard order.count <= FormatLayout.CompactPoints.maximumIndexedFeatures else {
            throw BuildError("a layer of compact points with a name index holds at most \(FormatLayout.CompactPoints.maximumIndexedFeatures) features; this one has \(order.count)")
        }
        var entries: [(key: [UInt8], feature: Int, start: Int)] = []
        for (index, feature) in order.enumerated() {
            let id = set.ids[feature], whole = NameFolding.normalized(id)
            for key in NameFolding.indexKeys(id: id, names: []) {
                if let start = NameFolding.compactKeyStart(of: key.bytes, in: whole), start <= FormatLayout.CompactPoints.maximumKeyStart {
                    entries.append((key.bytes, index, start))
                }
            }
        }
        entries.sort { $0.key != $1.key ? $0.key.lexicographicallyPrecedes($1.key) : $0.feature < $1.feature }
        let featureBits = max(1, Int.bitWidth - max(0, order.count - 1).leadingZeroBitCount)
        let widest = entries.reduce(0) { max($0, $1.start) }
        let recordLength = featureBits < 24 && widest >> (24 - featureBits) == 0 ? 3 : 4
        var bytes: [UInt8] = []
        bytes.appendLittleEndian(UInt32(entries.count))
        bytes.appendLittleEndian(UInt32(recordLength))
        for entry in entries {
            let value = UInt32(entry.feature) | UInt32(entry.start) << UInt32(featureBits)
            bytes.append(contentsOf: withUnsafeBytes(of: value.littleEndian) { Array($0.prefix(recordLength)) })
        }
        return bytes
    }
}
