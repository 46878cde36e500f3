import GMapChecksum

extension MapVerifier {
    // MARK: Grid and tiles

    mutating func checkGrid() {
        if layout.usesNodes, layout.kind?.isReadable != true {
            return report("section GRID", layout.directoryOffset - FormatLayout.Grid.directory + FormatLayout.Grid.geometry,
                          "geometry kind \(layout.geometryByte) is not one this reader checks")
        }
        // Formats 1 and 2 hold polygons only (LayerParts), so every layer here has a kind.
        if let kind = layout.kind { checkTiles(kind) }
    }

    /// The directory and every leaf tile of a layer of `kind`, each record read whole as that
    /// kind's records are (``GeometryKind/withRecords(_:)``).
    mutating func checkTiles(_ kind: GeometryKind) {
        let grid = layout.grid
        var directoryProblems: [(String, Int, String)] = []
        var leaves: [LocatedTile] = []
        var splitTiles: Int64 = 0
        let walker = DirectoryWalker(storage: map.storage)
        // swift-format-ignore: OnlyOneTrailingClosureArgument
        walker.walk(meeting: { _ in true }, problem: { directoryProblems.append(($0.tile, $0.offset, $0.reason)) }) { leaf in
            leaves.append(leaf)
        }
        for (tile, offset, reason) in directoryProblems { report(tile, offset, reason) }
        for problem in walker.topDirectoryProblems() { report(problem.tile, problem.offset, problem.reason) }
        // Polygons and lines: the records are compared with their neighbours' as they are read.
        let comparable = kind.comparesNeighbours
        var consistency = TileConsistencyCheck(map: map, kind: kind, limit: limit)
        compactHolders = layout.compactPoints == nil ? [] : [UInt8](repeating: 0, count: layout.features.count)
        for leaf in leaves {
            tilesVisited += 1
            let payload = TileEntry.payload(of: leaf.entry)
            switch TileEntry.kind(of: leaf.entry) {
            case TileEntry.emptyKind:
                if payload != 0 { report("directory entry of \(tileName(leaf))", layout.directoryOffset, "an empty entry has the non-zero payload \(payload)") }
            case TileEntry.coveredKind where !kind.answersContainment:
                report("directory entry of \(tileName(leaf))", layout.directoryOffset, "a layer of \(kind.name) has no covered tiles")
            case TileEntry.coveredKind:
                if Int(payload) >= layout.features.count {
                    report("directory entry of \(tileName(leaf))", layout.directoryOffset, "covered by feature \(payload), but there are \(layout.features.count) features")
                } else if let box = storedBox(of: Int(payload)), !Self.covers(box, leaf.bounds, quantizer: layout.quantizer) {
                    // A feature that covers a tile holds all of it (in the world), so its box does.
                    report("directory entry of \(tileName(leaf))", layout.directoryOffset,
                           "covered by feature \(payload), whose box \(degrees(box)) does not hold the tile")
                }
            default:
                let record = checkRecord(leaf, kind)
                if comparable {
                    if let record { consistency.add(record, leaf: leaf) } else { consistency.addUnreadable(leaf) }
                }
            }
            if problems.count >= limit { return }
        }
        if let table = layout.compactPoints {
            // Every feature of compact points is in exactly one leaf's range (8.7.4).
            var reported = 0
            for (feature, holders) in compactHolders.enumerated() where holders != 1 && reported < 10 {
                report("point table, feature \(feature)", table.recordsOffset,
                       holders == 0 ? "no leaf record holds the feature" : "\(holders) leaf records hold the feature (one must)")
                reported += 1
            }
        }
        if comparable {
            consistency.finish()
            for problem in consistency.problems { report(problem.location, problem.offset, problem.reason) }
        }
        // Every split tile the grid counts must be reached exactly once.
        splitTiles = countSplitTiles()
        if splitTiles != grid.subdirectoryCount {
            report("section GRID", layout.directoryOffset - FormatLayout.Grid.directory + FormatLayout.Grid.subdirectoryCount,
                   layout.usesNodes
                   ? "the grid counts \(grid.subdirectoryCount) directory nodes, \(splitTiles) are reached"
                   : "the grid counts \(grid.subdirectoryCount) sub-directories, \(splitTiles) are reached")
        }
    }

    /// A leaf in messages: "tile (column c, row r) part (i, j), south-west corner (latitude, longitude)" (``TileName``).
    func tileName(_ leaf: LocatedTile) -> String {
        TileName.of(leaf.bounds, depth: leaf.depth, grid: layout.grid, quantizer: layout.quantizer)
    }

    /// The split tiles reached from the top-level directory (each node or sub-directory once in a sound file).
    func countSplitTiles() -> Int64 {
        var count: Int64 = 0
        let grid = layout.grid, limit = layout.splitTileLimit
        func visit(_ entry: UInt32, depth: Int) {
            guard TileEntry.kind(of: entry) == TileEntry.splitKind, depth < Int(grid.maximumDepth),
                  count <= limit else { return }
            count += 1
            for slot in 0..<(grid.splitFactor * grid.splitFactor) {
                if let child = DirectoryWalker.child(of: entry, slot: slot, in: map.storage) { visit(child, depth: depth + 1) }
            }
        }
        for row in 0..<grid.rows {
            for column in 0..<grid.columns {
                if let entry = DirectoryWalker.topEntry(column: column, row: row, in: map.storage) { visit(entry, depth: 0) }
            }
        }
        return count
    }

    /// Decodes one record of a layer of `kind` to its end and reports what is wrong in it; returns
    /// its slots and edges (a layer whose records are compared with their neighbours) when it
    /// could be read whole.
    mutating func checkRecord(_ leaf: LocatedTile, _ kind: GeometryKind) -> DecodedRecord? {
        recordsDecoded += 1
        let relative = Int(TileEntry.payload(of: leaf.entry))
        guard relative < layout.tilesEnd - layout.tilesOffset else {
            report("section TILE, record of \(tileName(leaf))", layout.directoryOffset,
                   "its record offset \(relative) is outside TILE (\(layout.tilesEnd - layout.tilesOffset) bytes)")
            return nil
        }
        var check = RecordCheck(reader: TileRecordReader(storage: map.storage, entry: leaf.entry, bounds: leaf.bounds), holders: compactHolders)
        compactHolders = []
        kind.withRecords(&check)
        compactHolders = check.holders
        edgesDecoded += check.items
        if check.sound && check.reader.isSound && check.found.isEmpty { extents.add(check.record) } else { extents.addUnreadable() }
        if !check.found.isEmpty {
            let name = "section TILE, record of \(tileName(leaf))"
            for problem in check.found { report(name, problem.offset, problem.reason) }
        }
        return check.sound && check.reader.isSound && check.found.isEmpty ? check.record : nil
    }

    /// One record read whole by the conformance of its layer's kind (``LayerRecords/check(_:into:holders:problem:)``).
    struct RecordCheck: LayerRecordsUser {
        var reader: TileRecordReader
        /// A layer of compact points: how many records hold each feature so far.
        var holders: [UInt8]
        var record = DecodedRecord()
        var found: [RecordProblem] = []
        var items = 0, sound = false

        mutating func use<Records: LayerRecords>(_ records: Records.Type) {
            var found: [RecordProblem] = []
            (items, sound) = Records.check(&reader, into: &record, holders: &holders, problem: { found.append($0) })
            self.found = found
        }
    }

    // MARK: Features, properties, strings

    mutating func checkFeatures() {
        if let table = layout.compactPoints { return checkPointTable(table) }
        let field = FormatLayout.FeatureRecord.self, property = FormatLayout.PropertyRecord.self
        var previousArea = -Double.infinity
        for index in 0..<layout.features.count {
            let record = layout.features.offset + index * layout.features.recordLength
            guard let idOffset = span.getUInt32(at: record + field.idOffset), let idLength = span.getUInt32(at: record + field.idLength),
                  let first = span.getUInt32(at: record + field.firstProperty), let count = span.getUInt32(at: record + field.propertyCount),
                  let area = span.getFloat64(at: record + field.area) else { continue }
            checkString(offset: idOffset, length: idLength, location: "feature \(index) id", at: record)
            if UInt64(first) + UInt64(count) > UInt64(layout.properties.count) {
                report("feature \(index)", record + field.firstProperty, "properties \(first)…\(UInt64(first) + UInt64(count)) are past the \(layout.properties.count) in PROP")
            }
            if layout.kind?.answersContainment != true {
                if area.bitPattern != 0 { report("feature \(index)", record + field.area, "area \(area) of a feature of \(map.geometryKind?.name ?? "lines or points") is not +0.0 (all bytes zero)") }
            } else if !(area >= previousArea) {
                report("feature \(index)", record + field.area, "area \(area) is not in ascending order")
            }
            previousArea = area
        }
        for index in 0..<layout.properties.count {
            let record = layout.properties.offset + index * layout.properties.recordLength
            guard let keyOffset = span.getUInt32(at: record + property.keyOffset), let keyLength = span.getUInt32(at: record + property.keyLength),
                  let valueOffset = span.getUInt32(at: record + property.valueOffset), let valueLength = span.getUInt32(at: record + property.valueLength),
                  let kind = span.getUInt8(at: record + property.kind) else { continue }
            checkString(offset: keyOffset, length: keyLength, location: "property \(index) key", at: record)
            checkString(offset: valueOffset, length: valueLength, location: "property \(index) value", at: record + property.valueOffset)
            if PropertyKind(rawValue: kind) == nil { report("property \(index)", record + property.kind, "unknown value kind \(kind)") }
        }
    }

    /// A point table (3.4, Spec/FORMAT.md 5.12): column keys and dictionary entries in `STRS`,
    /// every record read in order from the first (each block's offset where its first record
    /// starts), ids in `STRS`' sense (valid ranges), dictionary references in their column's
    /// entries, and the records ending exactly at the table's end.
    /// The name index of a layer of compact points: features in range, keys (cut from the folded
    /// ids) in ascending order, records of one key by feature. Which keys each feature has is
    /// ``NameIndexCheck``'s.
    mutating func checkCompactNameIndex() {
        var previous: (key: [UInt8], feature: Int)?
        for index in 0..<layout.names.count {
            let record = layout.names.offset(of: index)
            guard let (feature, start) = map.compactNameEntry(index) else { continue }
            guard let found = map.feature(at: feature) else {
                report("name \(index)", record, "feature \(feature), but there are \(layout.features.count) features")
                continue
            }
            guard let key = GMap.compactKey(of: found.id, start: start) else {
                report("name \(index)", record, "its key starts at the \(start / 2)th space of the key of feature \(feature)'s id, which has fewer")
                continue
            }
            if let previous {
                if previous.key.lexicographicallyPrecedes(key) || previous.key == key && previous.feature <= feature {
                    // In order.
                } else {
                    report("name \(index)", record, previous.key == key ? "records of one key are not in ascending feature order"
                                                                          : "keys are not in ascending byte order")
                }
            }
            previous = (key, feature)
        }
    }

    mutating func checkPointTable(_ table: CompactPointTable) {
        let field = FormatLayout.CompactPoints.self
        var columns: [Range<Int>] = []
        for column in 0..<table.columnCount {
            let at = table.columnsOffset + column * field.columnLength
            guard let info = table.column(column, in: span) else { continue }
            checkString(offset: info.keyOffset, length: info.keyLength, location: "point table column \(column) key", at: at)
            if let first = span.getUInt32(at: at + 8), Int(first) > table.dictionaryCount || (column > 0 && Int(first) < columns.last?.lowerBound ?? 0) {
                report("point table column \(column)", at + 8, "its first dictionary entry \(first) is not between the previous column's and the \(table.dictionaryCount) entries")
            }
            columns.append(info.dictionary)
        }
        for entry in 0..<table.dictionaryCount {
            let at = table.dictionaryOffset + entry * field.dictionaryEntryLength
            guard let offset = span.getUInt32(at: at), let length = span.getUInt32(at: at + 4), let kind = span.getUInt8(at: at + 8) else { continue }
            checkString(offset: offset, length: length, location: "point table dictionary entry \(entry)", at: at)
            if PropertyKind(rawValue: kind) == nil { report("point table dictionary entry \(entry)", at + 8, "unknown value kind \(kind)") }
        }
        var cursor = VarintCursor(base: span.base, position: table.recordsOffset, end: table.recordsEnd)
        var previous = (x: Int64(0), y: Int64(0))
        let quantizer = layout.quantizer
        for index in 0..<table.count {
            featuresChecked += 1
            let at = cursor.position
            if index % table.blockSize == 0, let start = span.getUInt32(at: table.blocksOffset + index / table.blockSize * 4),
               table.recordsOffset + Int(start) != at {
                report("point table block \(index / table.blockSize)", table.blocksOffset + index / table.blockSize * 4,
                       "the block's offset \(start) is not where its first record, feature \(index), starts (\(at - table.recordsOffset))")
            }
            func fail(_ reason: String) { report("point table, feature \(index)", at, reason) }
            guard let dx = cursor.readSigned(), let dy = cursor.readSigned(), dx.magnitude < 1 << 40, dy.magnitude < 1 << 40 else { return fail("its point cannot be read") }
            let x = index % table.blockSize == 0 ? dx : previous.x + dx, y = index % table.blockSize == 0 ? dy : previous.y + dy
            previous = (x, y)
            if abs(x) > quantizer.halfTurn / table.step || abs(y) > quantizer.quarterTurn / table.step {
                fail("its point (\(x) × \(table.step), \(y) × \(table.step) units) lies outside the world")
            }
            guard let idLength = cursor.readVarint(), idLength <= UInt64(cursor.remaining) else { return fail("its id cannot be read") }
            cursor.position += Int(idLength)
            for column in 0..<table.columnCount {
                guard let value = CompactPointCursor.readValue(&cursor) else { return fail("its value of column \(column) cannot be read") }
                switch value {
                case .inline(_, let offset, let length): cursor.position = offset + length
                case .dictionary(let entry):
                    if column < columns.count, entry >= columns[column].count {
                        fail("its value of column \(column) names dictionary entry \(entry), but the column has \(columns[column].count)")
                    }
                case .absent: break
                }
            }
            if problems.count >= limit { return }
        }
        if cursor.position != table.recordsEnd {
            report("point table", cursor.position, "\(table.recordsEnd - cursor.position) bytes of records are left after the last feature")
        }
    }

    mutating func checkMetadata() {
        for index in 0..<layout.metadata.count {
            let record = layout.metadata.offset(of: index), m = FormatLayout.MetadataRecord.self
            guard let keyOffset = span.getUInt32(at: record + m.keyOffset), let keyLength = span.getUInt32(at: record + m.keyLength),
                  let valueOffset = span.getUInt32(at: record + m.valueOffset), let valueLength = span.getUInt32(at: record + m.valueLength) else { continue }
            checkString(offset: keyOffset, length: keyLength, location: "metadata \(index) key", at: record)
            checkString(offset: valueOffset, length: valueLength, location: "metadata \(index) value", at: record + m.valueOffset)
        }
    }

    mutating func checkString(offset: UInt32, length: UInt32, location: String, at recordOffset: Int) {
        guard UInt64(offset) + UInt64(length) <= UInt64(layout.stringsLength),
              let bytes = span.getBytes(at: layout.stringsOffset + Int(offset), length: Int(length)) else {
            return report(location, recordOffset, "string \(offset)+\(length) lies outside STRS (\(layout.stringsLength) bytes)")
        }
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return
            case .error: return report(location, layout.stringsOffset + Int(offset), "string is not valid UTF-8")
            }
        }
    }

    func hex(_ value: UInt32) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 8 - text.count) + text
    }
}
