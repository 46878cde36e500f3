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
    /// Whether tile runs are bit-packed (version 2) rather than varints (version 1).
    @usableFromInline var packedRuns: Bool { majorVersion >= 2 }
    @usableFromInline var quantizer: Quantizer
    @usableFromInline var sections: [SectionInfo]
    @usableFromInline var grid: GridInfo
    /// Absolute offset of the top-level directory.
    @usableFromInline var directoryOffset: Int
    /// Absolute offset of the first sub-directory.
    @usableFromInline var subdirectoryOffset: Int
    /// Absolute range of `TILE`.
    @usableFromInline var tilesOffset: Int
    @usableFromInline var tilesEnd: Int
    /// Feature records.
    @usableFromInline var featureCount: Int
    @usableFromInline var featureRecordsOffset: Int
    @usableFromInline var featureRecordLength: Int
    /// Property records.
    @usableFromInline var propertyCount: Int
    @usableFromInline var propertyRecordsOffset: Int
    @usableFromInline var propertyRecordLength: Int
    /// The string pool.
    @usableFromInline var stringsOffset: Int
    @usableFromInline var stringsLength: Int
    /// Metadata records, if any.
    @usableFromInline var metadataCount: Int
    @usableFromInline var metadataRecordsOffset: Int
    @usableFromInline var metadataRecordLength: Int

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
        let addressableLength = try AddressLimit.checkedLength(fileLength, limit: maximumLength)
        guard fileLength <= UInt64(span.count) else { throw .truncated(expected: fileLength, actual: UInt64(span.count)) }
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
            let name = SectionTag(rawValue: tag)?.name ?? "#\(index)"
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
        func required(_ tag: SectionTag) throws(GMapError) -> (offset: Int, length: Int) {
            guard let range = ranges[tag.rawValue] else {
                throw .malformed(part: "section table", offset: UInt64(headerLength), reason: "the required section \(tag.name) is missing")
            }
            return range
        }

        // GRID
        let gridRange = try required(.grid)
        let g = FormatLayout.Grid.self
        guard gridRange.length >= g.directory else {
            throw .malformed(part: "section GRID", offset: UInt64(gridRange.offset), reason: "shorter than its \(g.directory)-byte preamble")
        }
        let gridBase = gridRange.offset
        let grid = GridInfo(
            originX: Int64(file.getInt32(at: gridBase + g.originX) ?? 0),
            originY: Int64(file.getInt32(at: gridBase + g.originY) ?? 0),
            tileWidth: Int64(file.getUInt32(at: gridBase + g.tileWidth) ?? 0),
            tileHeight: Int64(file.getUInt32(at: gridBase + g.tileHeight) ?? 0),
            columns: Int64(file.getUInt32(at: gridBase + g.columns) ?? 0),
            rows: Int64(file.getUInt32(at: gridBase + g.rows) ?? 0),
            splitFactor: Int64(file.getUInt8(at: gridBase + g.splitFactor) ?? 0),
            maximumDepth: Int64(file.getUInt8(at: gridBase + g.maximumDepth) ?? 0),
            subdirectoryCount: Int64(file.getUInt32(at: gridBase + g.subdirectoryCount) ?? 0)
        )
        // The grid may reach past the world by up to one tile of at most 20° (the builder's limit),
        // which keeps every product of the even-odd rule within 64 bits.
        let halfTurn = quantizer.halfTurn, quarterTurn = quantizer.quarterTurn, margin = 20 * quantizer.unitsPerDegree
        let gridProblem: String? =
            grid.columns < 1 || grid.rows < 1 ? "the grid has no tiles" :
            grid.tileWidth < 1 || grid.tileHeight < 1 ? "a tile has zero size" :
            grid.tileWidth > margin || grid.tileHeight > margin ? "a tile is larger than 20°" :
            grid.splitFactor < 2 || grid.splitFactor > 16 ? "split factor \(grid.splitFactor) is outside 2…16" :
            grid.maximumDepth > 24 ? "split depth \(grid.maximumDepth) is over 24" :
            grid.originX < -halfTurn || grid.originY < -quarterTurn ? "the grid starts outside the world" :
            // columns, rows ≤ 2^32 and tile sizes ≤ 20° keep these products far below 2^63.
            grid.originX + grid.columns * grid.tileWidth > halfTurn + margin ||
            grid.originY + grid.rows * grid.tileHeight > quarterTurn + margin ? "the grid extends more than 20° beyond the world" :
            nil
        if let gridProblem {
            throw .malformed(part: "section GRID", offset: UInt64(gridBase), reason: gridProblem)
        }
        // At most 2^64 directory entries and 2^32 × 256 sub-directory entries: count in UInt64 without overflow.
        let directoryEntries = UInt64(grid.columns) * UInt64(grid.rows)
        let subdirectoryEntries = UInt64(grid.subdirectoryCount) * UInt64(grid.splitFactor * grid.splitFactor)
        let (entries, overflow) = directoryEntries.addingReportingOverflow(subdirectoryEntries)
        guard !overflow, entries <= (UInt64(gridRange.length) - UInt64(g.directory)) / 4 else {
            throw .malformed(part: "section GRID", offset: UInt64(gridBase),
                             reason: "\(directoryEntries) directory and \(subdirectoryEntries) sub-directory entries do not fit in \(gridRange.length) bytes")
        }

        let tiles = try required(.tiles)
        let strings = try required(.strings)
        let features = try table(file, try required(.features), name: "FEAT", minimumRecord: FormatLayout.FeatureRecord.length)
        guard features.count < Int(TileEntry.maximumPayload) else {
            throw .malformed(part: "section FEAT", offset: UInt64(features.offset), reason: "\(features.count) features is more than the format allows")
        }
        let properties = try table(file, try required(.properties), name: "PROP", minimumRecord: FormatLayout.PropertyRecord.length)
        let metadata = try ranges[SectionTag.metadata.rawValue].map { range throws(GMapError) in
            try table(file, range, name: "META", minimumRecord: FormatLayout.MetadataRecord.length)
        } ?? (offset: 0, count: 0, recordLength: FormatLayout.MetadataRecord.length)

        return MapLayout(
            majorVersion: major, minorVersion: minor, quantizer: quantizer, sections: sections, grid: grid,
            directoryOffset: gridBase + g.directory,
            subdirectoryOffset: gridBase + g.directory + Int(directoryEntries) * 4,
            tilesOffset: tiles.offset, tilesEnd: tiles.offset + tiles.length,
            featureCount: features.count, featureRecordsOffset: features.offset, featureRecordLength: features.recordLength,
            propertyCount: properties.count, propertyRecordsOffset: properties.offset, propertyRecordLength: properties.recordLength,
            stringsOffset: strings.offset, stringsLength: strings.length,
            metadataCount: metadata.count, metadataRecordsOffset: metadata.offset, metadataRecordLength: metadata.recordLength
        )
    }

    /// Checks a table section: UInt32 count, UInt32 record length, then the records.
    private static func table(
        _ file: ByteSpan, _ range: (offset: Int, length: Int), name: String, minimumRecord: Int
    ) throws(GMapError) -> (offset: Int, count: Int, recordLength: Int) {
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
        return (range.offset + 8, Int(count), Int(recordLength))
    }
}
