/// The parts of one layer's sections, read and checked on open: its grid, tiles, features,
/// properties, and (2.1) label points and name index.
struct LayerParts {
    var grid: GridInfo
    var directoryOffset: Int
    var subdirectoryOffset: Int
    /// The top-level directory: its form and where its parts lie.
    var topDirectory: TopDirectory
    var tiles: (offset: Int, length: Int)
    var features: RecordTable
    var properties: RecordTable
    var labels: RecordTable
    var names: RecordTable
    /// Format 3: the layer's geometry kind (`GRID` byte 26), or nil for a kind this reader does not
    /// know; polygons for older files. A layer of compact points (byte 26 = 3) reads as points, with
    /// its point table in ``compactPoints``.
    var kind: GeometryKind?
    /// `GRID` byte 26 as stored (0 for older files), for messages about a kind this reader does not know.
    var geometryByte: UInt8
    /// A layer of compact points (3.4): its point table, which its features tag names.
    var compactPoints: CompactPointTable? = nil
    /// Whether the layer's runs carry a band byte (banded polygons, 3.5).
    var runBands = false
    /// A layer of named compact points (3.6): the lexicon its names tag names, in place of a name index.
    var lexicon: LexiconTable? = nil

    /// Reads the sections `tags` names. The grid, tiles, features and properties are required.
    /// `usesNodes` says the file is format 3: its `GRID` holds only the top-level directory, and
    /// its split tiles are directory nodes in `TILE`.
    static func read(
        _ file: ByteSpan, ranges: SectionRanges, tags: LayerSectionTags, quantizer: Quantizer, headerLength: Int, usesNodes: Bool
    ) throws(GMapError) -> LayerParts {
        func required(_ tag: UInt32) throws(GMapError) -> (offset: Int, length: Int) {
            guard let range = ranges[tag] else {
                throw .malformed(part: "section table", offset: UInt64(headerLength), reason: "the required section \(SectionTag.name(of: tag)) is missing")
            }
            return range
        }

        // GRID
        let gridRange = try required(tags.grid)
        let g = FormatLayout.Grid.self
        guard gridRange.length >= g.directory else {
            throw .malformed(part: "section \(SectionTag.name(of: tags.grid))", offset: UInt64(gridRange.offset), reason: "shorter than its \(g.directory)-byte preamble")
        }
        let gridBase = gridRange.offset
        var grid = GridInfo(
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
        let topForm = usesNodes ? file.getUInt8(at: gridBase + g.topForm) ?? 0 : FormatLayout.TopForm.entries
        grid.topForm = topForm
        // The grid may reach past the world by up to one tile of at most 20° (the builder's limit),
        // which keeps every product of the even-odd rule within 64 bits.
        let halfTurn = quantizer.halfTurn, quarterTurn = quantizer.quarterTurn, margin = 20 * quantizer.unitsPerDegree
        let gridProblem: String? =
            grid.columns < 1 || grid.rows < 1 ? "the grid has no tiles" :
            grid.tileWidth < 1 || grid.tileHeight < 1 ? "a tile has zero size" :
            grid.tileWidth > margin || grid.tileHeight > margin ? "a tile is larger than 20°" :
            grid.splitFactor < 2 || grid.splitFactor > 16 ? "split factor \(grid.splitFactor) is outside 2…16" :
            grid.maximumDepth > 24 ? "split depth \(grid.maximumDepth) is over 24" :
            topForm != FormatLayout.TopForm.entries && topForm != FormatLayout.TopForm.packed ?
                "top-level directory form \(topForm) is not known (0: one UInt32 per tile, 1: packed)" :
            grid.originX < -halfTurn || grid.originY < -quarterTurn ? "the grid starts outside the world" :
            // columns, rows ≤ 2^32 and tile sizes ≤ 20° keep these products far below 2^63.
            grid.originX + grid.columns * grid.tileWidth > halfTurn + margin ||
            grid.originY + grid.rows * grid.tileHeight > quarterTurn + margin ? "the grid extends more than 20° beyond the world" :
            nil
        if let gridProblem {
            throw .malformed(part: "section \(SectionTag.name(of: tags.grid))", offset: UInt64(gridBase), reason: gridProblem)
        }
        // At most 2^64 directory entries and 2^32 × 256 sub-directory entries: count in UInt64 without overflow.
        let directoryEntries = UInt64(grid.columns) * UInt64(grid.rows)
        let gridEnd = gridBase + gridRange.length
        let topDirectory: TopDirectory
        let subdirectoryOffset: Int
        if topForm == FormatLayout.TopForm.packed {
            topDirectory = try TopDirectory.packed(in: file, grid: gridRange, tiles: directoryEntries, part: "section \(SectionTag.name(of: tags.grid))")
            subdirectoryOffset = gridEnd  // format 3 has no sub-directories
        } else {
            // Format 3 keeps its nodes in TILE: GRID holds the top-level directory only.
            let subdirectoryEntries = usesNodes ? 0 : UInt64(grid.subdirectoryCount) * UInt64(grid.splitFactor * grid.splitFactor)
            let (entries, overflow) = directoryEntries.addingReportingOverflow(subdirectoryEntries)
            guard !overflow, entries <= (UInt64(gridRange.length) - UInt64(g.directory)) / 4 else {
                throw .malformed(part: "section \(SectionTag.name(of: tags.grid))", offset: UInt64(gridBase),
                                 reason: "\(directoryEntries) directory and \(subdirectoryEntries) sub-directory entries do not fit in \(gridRange.length) bytes")
            }
            topDirectory = TopDirectory(entriesAt: gridBase + g.directory, end: gridEnd)
            subdirectoryOffset = gridBase + g.directory + Int(directoryEntries) * 4
        }

        let tiles = try required(tags.tiles)
        let geometryByte = usesNodes ? file.getUInt8(at: gridBase + g.geometry) ?? 0 : GeometryKind.polygons.rawValue
        let encoding = LayerEncoding(rawValue: geometryByte)
        var compactPoints: CompactPointTable?
        let features: RecordTable
        // What each encoding stores beyond its kind's records, in one switch without a default: a
        // new encoding does not compile until the reader says how it reads it.
        var pointTable = false, named = false, bands = false
        switch encoding {
        case .polygons?, .lines?, .points?, nil: break
        case .compactPoints?: pointTable = true
        case .namedCompactPoints?: (pointTable, named) = (true, true)
        case .bandedPolygons?: bands = true
        }
        if pointTable {
            // Its features tag names a point table (5.12), read as the layer's features; named
            // compact points (3.6) are compact points whose names tag names a lexicon (5.13).
            let table = try CompactPointTable.read(file, try required(tags.features), name: SectionTag.name(of: tags.features))
            compactPoints = table
            features = RecordTable(count: table.count, offset: table.recordsOffset, recordLength: 0)
        } else {
            features = try MapLayout.table(file, try required(tags.features), name: SectionTag.name(of: tags.features), minimumRecord: FormatLayout.FeatureRecord.length)
        }
        guard features.count < Int(TileEntry.maximumPayload) else {
            throw .malformed(part: "section \(SectionTag.name(of: tags.features))", offset: UInt64(features.offset), reason: "\(features.count) features is more than the format allows")
        }
        let properties = try MapLayout.table(file, try required(tags.properties), name: SectionTag.name(of: tags.properties), minimumRecord: FormatLayout.PropertyRecord.length)
        let none = RecordTable(count: 0, offset: 0, recordLength: 0)
        var labels = none, names = none
        if tags.labels != 0, let range = ranges[tags.labels] {
            labels = try MapLayout.table(file, range, name: SectionTag.name(of: tags.labels), minimumRecord: FormatLayout.LabelRecord.length)
        }
        var lexicon: LexiconTable?
        if named, tags.names != 0, let range = ranges[tags.names] {
            lexicon = try LexiconTable.read(file, range, name: SectionTag.name(of: tags.names))
        } else if tags.names != 0, let range = ranges[tags.names] {
            names = try MapLayout.table(file, range, name: SectionTag.name(of: tags.names),
                                        minimumRecord: compactPoints == nil ? FormatLayout.NameRecord.length : FormatLayout.CompactPoints.nameRecordMinimum)
        }
        var parts = LayerParts(
            grid: grid, directoryOffset: gridBase + g.directory,
            subdirectoryOffset: subdirectoryOffset, topDirectory: topDirectory,
            tiles: tiles, features: features, properties: properties, labels: labels, names: names,
            kind: encoding?.kind, geometryByte: geometryByte)
        parts.compactPoints = compactPoints
        // Banded polygons (3.5) are polygons whose runs carry a band byte (8.5.1).
        parts.runBands = bands
        parts.lexicon = lexicon
        return parts
    }
}
