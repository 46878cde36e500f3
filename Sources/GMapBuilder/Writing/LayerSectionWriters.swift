import GMap

/// `GRID`: the fixed part, the top-level directory and (format 2) the sub-directories.
enum GridSectionWriter {
    /// The section's bytes. With `nodes` (format 3) byte 26 is the layer's `encoding`, byte 27 the directory
    /// form (`grid.topForm`: UInt32 entries or packed), and the count at 28 is that of the directory
    /// nodes in `TILE`; without, both bytes are 0 and the count is that of the sub-directories.
    static func bytes(_ grid: GridInfo, directory: [UInt32], subdirectories: [UInt32], nodes: Bool,
                      encoding: LayerEncoding) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.appendLittleEndian(Int32(grid.originX))
        bytes.appendLittleEndian(Int32(grid.originY))
        bytes.appendLittleEndian(UInt32(grid.tileWidth))
        bytes.appendLittleEndian(UInt32(grid.tileHeight))
        bytes.appendLittleEndian(UInt32(grid.columns))
        bytes.appendLittleEndian(UInt32(grid.rows))
        bytes.append(UInt8(grid.splitFactor))
        bytes.append(UInt8(grid.maximumDepth))
        bytes.append(nodes ? encoding.rawValue : 0)
        let topForm = nodes ? grid.topForm : FormatLayout.TopForm.entries
        bytes.append(topForm)
        bytes.appendLittleEndian(UInt32(grid.subdirectoryCount))
        bytes.append(contentsOf: TopDirectoryWriter.bytes(directory, form: topForm))
        for entry in subdirectories { bytes.appendLittleEndian(entry) }
        return bytes
    }
}

/// `FEAT` and `PROP`: one feature record per feature in file order, and their properties.
enum FeatureTableWriter {
    /// The two sections for the features `order` lists (indexes into the other arrays), in that order.
    static func sections(ids: [String], properties: [[SourceFeature.KeptProperty]], boxes: [TileBounds], areas: [Double],
                         order: [Int], strings: inout StringPool) throws -> (features: [UInt8], properties: [UInt8]) {
        var features: [UInt8] = [], propertySection: [UInt8] = []
        features.appendLittleEndian(UInt32(order.count))
        features.appendLittleEndian(UInt32(FormatLayout.FeatureRecord.length))
        var propertyCount: UInt32 = 0
        var propertyRecords: [UInt8] = []
        for source in order {
            let id = try strings.intern(ids[source])
            let kept = properties[source]
            features.appendLittleEndian(id.offset)
            features.appendLittleEndian(id.length)
            features.appendLittleEndian(propertyCount)
            features.appendLittleEndian(UInt32(kept.count))
            let box = boxes[source]
            for value in [box.west, box.south, box.east, box.north] { features.appendLittleEndian(Int32(value)) }
            features.appendLittleEndian(areas[source].bitPattern)
            for property in kept {
                let key = try strings.intern(property.key), value = try strings.intern(property.value)
                propertyRecords.appendLittleEndian(key.offset)
                propertyRecords.appendLittleEndian(key.length)
                propertyRecords.appendLittleEndian(value.offset)
                propertyRecords.appendLittleEndian(value.length)
                propertyRecords.append(property.kind.rawValue)
                propertyRecords.append(contentsOf: [0, 0, 0])
                propertyCount += 1
            }
        }
        propertySection.appendLittleEndian(propertyCount)
        propertySection.appendLittleEndian(UInt32(FormatLayout.PropertyRecord.length))
        propertySection.append(contentsOf: propertyRecords)
        return (features, propertySection)
    }
}

/// Format 3's directory nodes (Spec/FORMAT.md 7.3): the 2-bit kinds of the children, a width byte,
/// then the payloads of the non-empty children bit-packed: a covered child's feature index, and
/// for a record or node the distance back from this node to it.
enum DirectoryNodeWriter {
    /// Appends the node for `children` (kind and feature index or `TILE` offset, in slot order) at
    /// the end of `blob`, which already holds every record and node they point at. Returns the node's length.
    static func append(children: [(kind: UInt32, value: Int)], factor: Int, to blob: inout [UInt8]) -> Int {
        let node = blob.count
        var payloads: [UInt64] = []
        var kinds = [UInt8](repeating: 0, count: FormatLayout.DirectoryNode.kindBytes(factor: factor))
        for (slot, child) in children.enumerated() {
            kinds[slot / 4] |= UInt8(child.kind) << UInt8(2 * (slot % 4))
            switch child.kind {
            case TileEntry.emptyKind: continue
            case TileEntry.coveredKind: payloads.append(UInt64(child.value))
            default: payloads.append(UInt64(node - child.value))
            }
        }
        let width = payloads.reduce(0) { max($0, 64 - $1.leadingZeroBitCount) }
        blob.append(contentsOf: kinds)
        blob.append(UInt8(width))
        var packer = BitPacker()
        for payload in payloads { packer.append(payload, width: width) }
        let packed = packer.finish()
        blob.append(contentsOf: packed)
        return kinds.count + 1 + packed.count
    }
}
