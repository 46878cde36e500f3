/// One entry of the section table.
public struct SectionInfo: Sendable, Hashable {
    /// The section's four-letter tag, such as `GRID`.
    public var tag: String
    /// Offset from the start of the file.
    public var offset: UInt64
    /// Length in bytes.
    public var length: UInt64
    /// The CRC-32 the section table records for the section's bytes.
    public var crc: UInt32
}

/// The tile grid's shape, as the builder chose it.
public struct GridInfo: Sendable, Hashable {
    /// Longitude of the west edge, in units.
    public var originX: Int64
    /// Latitude of the south edge, in units.
    public var originY: Int64
    /// Width of a top-level tile, in units.
    public var tileWidth: Int64
    /// Height of a top-level tile, in units.
    public var tileHeight: Int64
    /// Number of columns.
    public var columns: Int64
    /// Number of rows.
    public var rows: Int64
    /// Parts per axis of a split tile.
    public var splitFactor: Int64
    /// The deepest split level in the file.
    public var maximumDepth: Int64
    /// Number of sub-directories (split tiles).
    public var subdirectoryCount: Int64
    /// How the top-level directory is stored (format 3's `GRID` byte 27, ``FormatLayout/TopForm``):
    /// 0, one UInt32 entry per tile (always, before format 3), or 1, packed.
    public var topForm: UInt8 = FormatLayout.TopForm.entries

    /// A grid from its parts.
    public init(originX: Int64, originY: Int64, tileWidth: Int64, tileHeight: Int64, columns: Int64, rows: Int64,
                splitFactor: Int64, maximumDepth: Int64, subdirectoryCount: Int64) {
        self.originX = originX
        self.originY = originY
        self.tileWidth = tileWidth
        self.tileHeight = tileHeight
        self.columns = columns
        self.rows = rows
        self.splitFactor = splitFactor
        self.maximumDepth = maximumDepth
        self.subdirectoryCount = subdirectoryCount
    }
}

/// Where everything is, read from the header and section table in O(1) on open.
@usableFromInline
struct MapLayout: Sendable {
    @usableFromInline var majorVersion: UInt16
    @usableFromInline var minorVersion: UInt16
    /// Whether tile runs are bit-packed (version 2 and 3) rather than varints (version 1).
    @usableFromInline var packedRuns: Bool { majorVersion >= 2 }
    /// Whether split tiles are directory nodes in `TILE` and records hold shared edges with slot masks (format 3).
    @usableFromInline var usesNodes: Bool { majorVersion >= 3 }
    /// The most split tiles a walk of the directory may visit: the grid's count (a sound file visits
    /// each split tile once), and in format 3 no more than the nodes `TILE` can hold (each at least
    /// its kinds and width byte). `node_count` is only informational and, unlike format 2's
    /// sub-directory count, not bounded by the file's length; and since a node's children may all
    /// point back at one shared node, a corrupt chain of a few dozen bytes would otherwise make a
    /// walk (survey, verify, export) visit exponentially many tiles under a huge `node_count`.
    var splitTileLimit: Int64 {
        guard usesNodes else { return grid.subdirectoryCount }
        let smallestNode = Int64(FormatLayout.DirectoryNode.kindBytes(factor: Int(grid.splitFactor)) + 1)
        return min(grid.subdirectoryCount, Int64(tilesEnd - tilesOffset) / smallestNode)
    }
    /// The layer's kind (`GRID` byte 26 in format 3; polygons before), read once on open: what
    /// code that differs by kind looks at, never the stored byte. Nil for a kind this reader does
    /// not know, which only a later layer can have (a first layer of such a kind is refused on
    /// open, ``GMapError/unsupportedGeometry(layer:kind:)``): such a layer answers nothing.
    @usableFromInline var kind: GeometryKind?
    /// `GRID` byte 26 as stored, for messages about a kind this reader does not know (3 for a
    /// layer of compact points, whose ``kind`` is points).
    var geometryByte: UInt8
    @usableFromInline var quantizer: Quantizer
    @usableFromInline var sections: [SectionInfo]
    @usableFromInline var grid: GridInfo
    /// Absolute offset of the top-level directory.
    @usableFromInline var directoryOffset: Int
    /// Absolute offset of the first sub-directory.
    @usableFromInline var subdirectoryOffset: Int
    /// The top-level directory's form and parts (``DirectoryWalker/topEntry(column:row:in:)`` reads it).
    @usableFromInline var topDirectory: TopDirectory
    /// Absolute range of `TILE`.
    @usableFromInline var tilesOffset: Int
    @usableFromInline var tilesEnd: Int
    /// Feature records (`FEAT`).
    @usableFromInline var features: RecordTable
    /// Property records (`PROP`).
    @usableFromInline var properties: RecordTable
    /// The string pool.
    @usableFromInline var stringsOffset: Int
    @usableFromInline var stringsLength: Int
    /// Metadata records (`META`), if any.
    @usableFromInline var metadata: RecordTable
    /// The layer this layout reads (0 for the first), and the names of all the file's layers.
    @usableFromInline var layerIndex: Int
    @usableFromInline var layerNames: [String]
    /// Label points (`LABL`), if any: one record per feature.
    @usableFromInline var labels: RecordTable
    /// The name index (`NAME`), if any.
    @usableFromInline var names: RecordTable
    /// In the first layer's layout: the layouts of the other layers, in file order.
    @usableFromInline var otherLayers: [MapLayout]
    /// A layer of compact points (3.4): its point table, which stands for `FEAT` and `PROP`; its
    /// ``kind`` is points, and its name index holds 4-byte records (Spec/FORMAT.md 5.12).
    @usableFromInline var compactPoints: CompactPointTable? = nil
    /// Whether every run of the layer's records carries a band byte: a layer of banded polygons
    /// (3.5, `GRID` byte 26 = 4, ``RunBand``), whose ``kind`` is polygons.
    @usableFromInline var runBands = false
    /// A layer of named compact points (3.6): its lexicon (Spec/FORMAT.md 5.13), which stands for
    /// its name index (``names`` is then empty).
    @usableFromInline var lexicon: LexiconTable? = nil
    /// Where that point table's section lies (offset −1 for other layers).
    @usableFromInline var compactPointsSection: (offset: Int, length: Int) = (-1, 0)
    /// The file's address index (`ADDR`, 3.3), if any: the same in every layer's layout.
    @usableFromInline var addressIndex: AddressIndexTable? = nil

    /// Reads and checks the header, the section table and each section's fixed part. Never scans the file.
    ///
    /// A file longer than `maximumLength` (``AddressLimit/maximumMapLength``: 2 GiB − 1 on 32-bit
    /// targets) is refused before any of its offsets becomes an `Int`.
    static func read(_ span: ByteSpan, maximumLength: UInt64 = AddressLimit.maximumMapLength) throws(GMapError) -> MapLayout {
        let header = FormatLayout.Header.self
        // The magic first, as far as the bytes go, so that a short foreign file is "not a gmap".
        for (index, byte) in FormatLayout.magic.enumerated() where index < span.count && span.getUInt8(at: index) != byte {
            throw .notAGMap
        }
        guard span.count >= FormatLayout.headerLength else {
            throw .truncated(expected: UInt64(FormatLayout.headerLength), actual: UInt64(span.count))
        }
        let major = span.getUInt16(at: header.majorVersion) ?? 0
        let minor = span.getUInt16(at: header.minorVersion) ?? 0
        guard major <= FormatLayout.majorVersion else { throw .unsupportedVersion(major: major, minor: minor) }
        guard major >= FormatLayout.oldestReadableMajorVersion else {
            throw .malformed(part: "header", offset: UInt64(header.majorVersion), reason: "major version \(major) is not valid")
        }
        let fileLength = span.getUInt64(at: header.fileLength) ?? 0
        // Longer than the bytes at hand: say so in those words (a damaged length or a cut file),
        // whatever this platform could address.
        guard fileLength <= UInt64(span.count) else { throw .truncated(expected: fileLength, actual: UInt64(span.count)) }
        let addressableLength = try AddressLimit.checkedLength(fileLength, limit: maximumLength)
        let file = ByteSpan(base: span.base, count: addressableLength)
        // u32 fields are clamped, not converted, so that a huge value is refused below instead of trapping on 32-bit.
        let headerLength = Int(clamping: span.getUInt32(at: header.headerLength) ?? 0)
        guard headerLength >= FormatLayout.headerLength, headerLength <= file.count else {
            throw .malformed(part: "header", offset: UInt64(header.headerLength), reason: "header length \(headerLength) is not valid")
        }
        let units = Int64(span.getUInt32(at: header.unitsPerDegree) ?? 0)
        guard let quantizer = Quantizer(unitsPerDegree: units) else {
            throw .malformed(part: "header", offset: UInt64(header.unitsPerDegree), reason: "units per degree \(units) is outside 1…10000000")
        }
        let sectionCount = Int(clamping: span.getUInt32(at: header.sectionCount) ?? 0)
        guard sectionCount <= FormatLayout.maximumSectionCount,
              file.contains(offset: headerLength, length: sectionCount * FormatLayout.sectionEntryLength) else {
            throw .malformed(part: "section table", offset: UInt64(headerLength), reason: "\(sectionCount) sections do not fit in the file")
        }

        var sections: [SectionInfo] = []
        var ranges = SectionRanges()
        for index in 0..<sectionCount {
            let entry = headerLength + index * FormatLayout.sectionEntryLength
            let tag = file.getUInt32(at: entry + FormatLayout.SectionEntry.tag) ?? 0
            let offset = file.getUInt64(at: entry + FormatLayout.SectionEntry.offset) ?? 0
            let length = file.getUInt64(at: entry + FormatLayout.SectionEntry.length) ?? 0
            let crc = file.getUInt32(at: entry + FormatLayout.SectionEntry.crc) ?? 0
            let name = SectionTag.name(of: tag)
            guard file.contains(offset: offset, length: length) else {
                throw .malformed(part: "section \(name)", offset: UInt64(entry), reason: "bytes \(offset)+\(length) lie outside the \(file.count)-byte file")
            }
            guard offset % UInt64(FormatLayout.sectionAlignment) == 0 else {
                throw .malformed(part: "section \(name)", offset: UInt64(entry), reason: "offset \(offset) is not a multiple of \(FormatLayout.sectionAlignment)")
            }
            guard ranges[tag] == nil else {
                throw .malformed(part: "section \(name)", offset: UInt64(entry), reason: "the tag appears twice")
            }
            ranges[tag] = (Int(offset), Int(length))
            sections.append(SectionInfo(tag: name, offset: offset, length: length, crc: crc))
        }
        let metadata = try ranges[SectionTag.metadata.rawValue].map { range throws(GMapError) in
            try table(file, range, name: "META", minimumRecord: FormatLayout.MetadataRecord.length)
        } ?? RecordTable(count: 0, offset: 0, recordLength: FormatLayout.MetadataRecord.length)
        guard let stringsRange = ranges[SectionTag.strings.rawValue] else {
            throw .malformed(part: "section table", offset: UInt64(headerLength), reason: "the required section STRS is missing")
        }
        let strings = (offset: stringsRange.offset, length: stringsRange.length)

        // The layers: LAYR's records, or one unnamed layer in the 2.0 sections.
        var entries: [(name: String, tags: LayerSectionTags)] = []
        if let range = ranges[SectionTag.layers.rawValue] {
            let layers = try table(file, range, name: "LAYR", minimumRecord: FormatLayout.LayerRecord.length)
            guard layers.count >= 1, layers.count <= FormatLayout.maximumLayerCount else {
                throw .malformed(part: "section LAYR", offset: UInt64(range.offset), reason: "\(layers.count) layers is outside 1…\(FormatLayout.maximumLayerCount)")
            }
            let r = FormatLayout.LayerRecord.self
            for index in 0..<layers.count {
                let record = layers.offset + index * layers.recordLength
                let nameOffset = UInt64(file.getUInt32(at: record + r.nameOffset) ?? 0)
                let nameLength = UInt64(file.getUInt32(at: record + r.nameLength) ?? 0)
                guard nameOffset + nameLength <= UInt64(strings.length),
                      let nameBytes = file.getBytes(at: strings.offset + Int(nameOffset), length: Int(nameLength)) else {
                    throw .malformed(part: "section LAYR", offset: UInt64(record), reason: "layer \(index)'s name lies outside STRS")
                }
                let tags = LayerSectionTags(
                    grid: file.getUInt32(at: record + r.gridTag) ?? 0, tiles: file.getUInt32(at: record + r.tilesTag) ?? 0,
                    features: file.getUInt32(at: record + r.featuresTag) ?? 0, properties: file.getUInt32(at: record + r.propertiesTag) ?? 0,
                    labels: file.getUInt32(at: record + r.labelsTag) ?? 0, names: file.getUInt32(at: record + r.namesTag) ?? 0)
                if index == 0, tags.grid != SectionTag.grid.rawValue || tags.tiles != SectionTag.tiles.rawValue
                    || tags.features != SectionTag.features.rawValue || tags.properties != SectionTag.properties.rawValue {
                    throw .malformed(part: "section LAYR", offset: UInt64(record), reason: "the first layer does not use GRID, TILE, FEAT and PROP")
                }
                entries.append((String(decoding: nameBytes, as: UTF8.self), tags))
            }
        } else {
            var tags = LayerSectionTags.standard(layer: 0)
            if ranges[tags.labels] == nil { tags.labels = 0 }
            if ranges[tags.names] == nil { tags.names = 0 }
            entries.append(("", tags))
        }

        var layouts: [MapLayout] = []
        for (index, entry) in entries.enumerated() {
            let parts = try LayerParts.read(file, ranges: ranges, tags: entry.tags, quantizer: quantizer, headerLength: headerLength,
                                            usesNodes: major >= 3)
            if index == 0, parts.kind == nil {
                throw .unsupportedGeometry(layer: entry.name, kind: parts.geometryByte)
            }
            layouts.append(MapLayout(
                majorVersion: major, minorVersion: minor, kind: parts.kind, geometryByte: parts.geometryByte, quantizer: quantizer, sections: sections, grid: parts.grid,
                directoryOffset: parts.directoryOffset, subdirectoryOffset: parts.subdirectoryOffset, topDirectory: parts.topDirectory,
                tilesOffset: parts.tiles.offset, tilesEnd: parts.tiles.offset + parts.tiles.length,
                features: parts.features, properties: parts.properties,
                stringsOffset: strings.offset, stringsLength: strings.length,
                metadata: metadata,
                layerIndex: index, layerNames: entries.map { $0.name },
                labels: parts.labels, names: parts.names,
                otherLayers: []
            ))
            layouts[layouts.count - 1].compactPoints = parts.compactPoints
            layouts[layouts.count - 1].runBands = parts.runBands
            layouts[layouts.count - 1].lexicon = parts.lexicon
            if parts.compactPoints != nil, let range = ranges[entry.tags.features] { layouts[layouts.count - 1].compactPointsSection = range }
        }
        if let range = ranges[SectionTag.addressIndex.rawValue] {
            let index = try addressTable(file, range, layerCount: layouts.count)
            for position in layouts.indices { layouts[position].addressIndex = index }
        }
        var root = layouts[0]
        root.otherLayers = Array(layouts.dropFirst())
        return root
    }

    /// Checks the fixed part of `ADDR` (3.3, Spec/FORMAT.md 5.11): its preamble, that its records
    /// fit, and that the layers it names exist.
    static func addressTable(_ file: ByteSpan, _ range: (offset: Int, length: Int), layerCount: Int) throws(GMapError) -> AddressIndexTable {
        let field = FormatLayout.AddressIndexRecord.self
        guard range.length >= field.preambleLength,
              let count = file.getUInt32(at: range.offset + field.count),
              let recordLength = file.getUInt32(at: range.offset + field.recordLength),
              let layer = file.getUInt32(at: range.offset + field.layer),
              let postcodes = file.getUInt32(at: range.offset + field.postcodesLayer) else {
            throw .malformed(part: "section ADDR", offset: UInt64(range.offset), reason: "shorter than its \(field.preambleLength)-byte preamble")
        }
        guard recordLength >= UInt32(field.length), recordLength <= 4096 else {
            throw .malformed(part: "section ADDR", offset: UInt64(range.offset + field.recordLength),
                             reason: "record length \(recordLength) is outside \(field.length)…4096")
        }
        guard UInt64(count) * UInt64(recordLength) <= UInt64(range.length - field.preambleLength) else {
            throw .malformed(part: "section ADDR", offset: UInt64(range.offset), reason: "\(count) records of \(recordLength) bytes do not fit in \(range.length) bytes")
        }
        guard UInt64(layer) < UInt64(layerCount) else {
            throw .malformed(part: "section ADDR", offset: UInt64(range.offset + field.layer), reason: "layer \(layer) is not one of the file's \(layerCount) layers")
        }
        guard postcodes == field.noLayer || UInt64(postcodes) < UInt64(layerCount) else {
            throw .malformed(part: "section ADDR", offset: UInt64(range.offset + field.postcodesLayer),
                             reason: "postcodes layer \(postcodes) is not one of the file's \(layerCount) layers")
        }
        return AddressIndexTable(streets: RecordTable(count: Int(count), offset: range.offset + field.preambleLength, recordLength: Int(recordLength)),
                                 layer: Int(layer), postcodesLayer: postcodes == field.noLayer ? nil : Int(postcodes))
    }

    /// Checks a table section: UInt32 count, UInt32 record length, then the records.
    static func table(
        _ file: ByteSpan, _ range: (offset: Int, length: Int), name: String, minimumRecord: Int
    ) throws(GMapError) -> RecordTable {
        guard range.length >= 8,
              let count = file.getUInt32(at: range.offset),
              let recordLength = file.getUInt32(at: range.offset + 4) else {
            throw .malformed(part: "section \(name)", offset: UInt64(range.offset), reason: "shorter than its 8-byte preamble")
        }
        guard recordLength >= UInt32(minimumRecord), recordLength <= 4096 else {
            throw .malformed(part: "section \(name)", offset: UInt64(range.offset + 4), reason: "record length \(recordLength) is outside \(minimumRecord)…4096")
        }
        guard UInt64(count) * UInt64(recordLength) <= UInt64(range.length - 8) else {
            throw .malformed(part: "section \(name)", offset: UInt64(range.offset), reason: "\(count) records of \(recordLength) bytes do not fit in \(range.length) bytes")
        }
        return RecordTable(count: Int(count), offset: range.offset + 8, recordLength: Int(recordLength))
    }
}

/// The address index (`ADDR`, 3.3) as its preamble gives it: the street records, and the layers they refer to.
@usableFromInline
struct AddressIndexTable: Sendable, Equatable {
    /// The street records.
    @usableFromInline var streets: RecordTable
    /// The index of the layer of addresses.
    @usableFromInline var layer: Int
    /// The index of the layer of postal codes, if any.
    @usableFromInline var postcodesLayer: Int?
}

/// A table section's records, as its preamble gives them: how many, where the first one starts,
/// and how long each is (a reader takes the fields it knows from each record and skips the rest).
@usableFromInline
struct RecordTable: Sendable, Equatable {
    /// The number of records.
    @usableFromInline var count: Int
    /// The absolute offset of the first record.
    @usableFromInline var offset: Int
    /// The length of every record, in bytes.
    @usableFromInline var recordLength: Int

    /// A table from its parts.
    @inlinable init(count: Int, offset: Int, recordLength: Int) {
        self.count = count
        self.offset = offset
        self.recordLength = recordLength
    }

    /// The absolute offset of record `index`.
    @inlinable func offset(of index: Int) -> Int { offset + index * recordLength }
}
