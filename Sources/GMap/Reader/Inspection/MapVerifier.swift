import GMapChecksum

/// One thing wrong with a map: where it is and what is wrong.
public struct MapProblem: Sendable, Hashable, CustomStringConvertible {
    /// The part of the file: a section, a tile, a feature record.
    public var location: String
    /// The byte offset from the start of the file where the problem was found.
    public var offset: Int
    /// What is wrong.
    public var reason: String

    /// A problem from its parts.
    public init(location: String, offset: Int, reason: String) {
        self.location = location
        self.offset = offset
        self.reason = reason
    }

    /// `location at byte offset: reason`.
    public var description: String { "\(location) at byte \(offset): \(reason)" }
}

/// Checks a whole map: every CRC-32, and every structure a lookup can reach.
///
/// Opening a map checks only what is needed to use it safely in O(1); lookups check each byte
/// they read. `MapVerifier` walks everything once, in time proportional to the file, and lists
/// what is wrong, so that `gmap verify` can tell a sound file from a damaged one. Besides each
/// structure on its own it checks that the parts agree, which recomputed CRCs cannot vouch for:
/// neighbouring tiles (``TileConsistencyCheck``, ``RecordRingCheck``), the name index and the
/// features (``NameIndexCheck``), the layer table and the sections (``LayerTableCheck``).
public struct MapVerifier {
    /// The problems found, in file order of discovery.
    public private(set) var problems: [MapProblem] = []
    /// Tiles (top-level and parts) walked.
    public private(set) var tilesVisited = 0
    /// Tile records decoded.
    public private(set) var recordsDecoded = 0
    /// Edges decoded.
    public private(set) var edgesDecoded = 0
    /// Features checked, in every layer.
    public private(set) var featuresChecked = 0
    /// The layer being checked (every layer of the file in turn).
    private var map: GMap
    private let limit: Int
    /// Put before locations in a file of several layers: "layer NAME: ".
    private var layerPrefix = ""
    /// A layer of compact points: how many leaf records hold each feature (each must be in one).
    private var compactHolders: [UInt8] = []
    /// The boxes and label points the layer's records give its features, against `FEAT` and `LABL`.
    private var extents = FeatureExtents(featureCount: 0, labels: [])

    /// Verifies `map` (every layer of its file), keeping at most `limit` problems.
    public init(map: GMap, limit: Int = 1000) {
        self.map = map.layer(at: 0) ?? map
        self.limit = limit
        checkChecksums()
        checkSectionPlacement()
        for problem in LayerTableCheck.problems(map: self.map) { report(problem.location, problem.offset, problem.reason) }
        for layer in map.layers {
            self.map = layer
            layerPrefix = map.layerNames.count > 1 ? "layer \(layer.layerName): " : ""
            extents = FeatureExtents(featureCount: layout.compactPoints == nil ? layout.features.count : 0, labels: pointsToFind())
            checkGrid()
            checkFeatures()
            checkBoxesAndLabels()
            checkLayerIndexes()
            featuresChecked += layer.featureCount
        }
        layerPrefix = ""
        checkMetadata()
        checkAddressIndex()
    }

    /// Whether no problem was found.
    public var isSound: Bool { problems.isEmpty }

    private mutating func report(_ location: String, _ offset: Int, _ reason: String) {
        if problems.count < limit { problems.append(MapProblem(location: layerPrefix + location, offset: offset, reason: reason)) }
    }

    // MARK: Boxes and label points against the geometry

    /// The label points of a layer of lines or points, which must be stored vertices or points of
    /// their features (5.9); none for polygons, whose label points are checked by a lookup.
    private func pointsToFind() -> [GridPoint?] {
        let labels = layout.labels
        guard labels.recordLength > 0, layout.compactPoints == nil, layout.kind?.answersContainment == false else { return [] }
        let field = FormatLayout.LabelRecord.self
        return (0..<min(labels.count, layout.features.count)).map { index in
            let record = labels.offset + index * labels.recordLength
            guard let x = span.getInt32(at: record + field.x), let y = span.getInt32(at: record + field.y),
                  x != field.none || y != field.none else { return nil }
            return GridPoint(x: Int64(x), y: Int64(y))
        }
    }

    /// Feature `index`'s stored `bbox` in units (west, south, east, north), when it can be read.
    private func storedBox(of index: Int) -> [Int64]? {
        let at = layout.features.offset + index * layout.features.recordLength + FormatLayout.FeatureRecord.boundingBox
        let box = (0..<4).compactMap { span.getInt32(at: at + 4 * $0).map(Int64.init) }
        return box.count == 4 ? box : nil
    }

    /// Whether `box` (west, south, east, north) holds the part of `tile` inside the world.
    private static func covers(_ box: [Int64], _ tile: TileBounds, quantizer q: Quantizer) -> Bool {
        let west = max(tile.west, -q.halfTurn), east = min(tile.east, q.halfTurn)
        let south = max(tile.south, -q.quarterTurn), north = min(tile.north, q.quarterTurn)
        return box[0] <= west && box[1] <= south && box[2] >= east && box[3] >= north
    }

    /// A box in units as degrees, for messages.
    private func degrees(_ box: [Int64]) -> String {
        let q = layout.quantizer
        return "(west \(q.degrees(box[0])), south \(q.degrees(box[1])), east \(q.degrees(box[2])), north \(q.degrees(box[3])))"
    }

    /// Every feature's `bbox` (5.3) is the box of its stored vertices or points (0, 0, 0, 0 when it
    /// has none), and in a layer of lines or points its label point is one of them (5.9): `find`,
    /// `geocode` and `export` print both. Checked when every record of the layer was read whole.
    private mutating func checkBoxesAndLabels() {
        guard extents.isComplete, layout.compactPoints == nil else { return }
        let field = FormatLayout.FeatureRecord.self, q = layout.quantizer
        for index in 0..<min(layout.features.count, extents.boxes.count) {
            let record = layout.features.offset + index * layout.features.recordLength
            guard let stored = storedBox(of: index) else { continue }
            let box = extents.boxes[index]
            let expected = box.isEmpty ? [0, 0, 0, 0] : [box.west, box.south, box.east, box.north]
            if stored != expected {
                report("feature \(index)", record + field.boundingBox,
                       "bbox \(degrees(stored)) is not the box of its stored \(box.isEmpty ? "geometry, which is empty" : "vertices \(degrees(expected))")")
            }
            if problems.count >= limit { return }
        }
        let points = pointsToFind()
        for (index, label) in points.enumerated() where index < extents.labelFound.count && !extents.labelFound[index] {
            guard let label else { continue }
            report("feature \(index) label point", layout.labels.offset + index * layout.labels.recordLength,
                   "(\(q.degrees(label.y)), \(q.degrees(label.x))) is not a stored \(layout.kind == .points ? "point" : "vertex") of the feature")
            if problems.count >= limit { return }
        }
    }

    // MARK: Label points and the name index (2.1)

    private mutating func checkLayerIndexes() {
        let layout = self.layout
        if layout.labels.recordLength > 0 {
            if layout.labels.count != layout.features.count {
                report("label points", layout.labels.offset, "\(layout.labels.count) label points for \(layout.features.count) features")
            }
            // A label point of lines or points is a vertex of the feature: nothing contains it.
            let inside = layout.kind?.answersContainment == true
            for index in 0..<min(layout.labels.count, layout.features.count) where inside {
                let record = layout.labels.offset + index * layout.labels.recordLength
                let field = FormatLayout.LabelRecord.self
                guard let feature = map.feature(at: index), let point = feature.labelPoint,
                      let x = span.getInt32(at: record + field.x), let y = span.getInt32(at: record + field.y) else { continue }
                // The stored point itself, in whole units (its degrees, turned back into a query point, may lie a
                // fraction of a unit away, on the other side of an edge through it).
                var inside = false
                map.visitFeatures(containing: GridPoint(x: Int64(x), y: Int64(y))) { found in
                    inside = found == index
                    return !inside
                }
                if !inside {
                    report("feature \(index) label point", layout.labels.offset + index * layout.labels.recordLength,
                           "(\(point.latitude), \(point.longitude)) is not inside the feature")
                }
            }
        }
        if layout.compactPoints != nil { checkCompactNameIndex() }
        if let lexicon = layout.lexicon {
            for problem in LexiconCheck.problems(map: map, table: lexicon, limit: limit) { report(problem.location, problem.offset, problem.reason) }
        }
        var previous: (key: UnsafeRawBufferPointer, feature: UInt32)?
        let field = FormatLayout.NameRecord.self
        for index in 0..<layout.names.count where layout.compactPoints == nil {
            let record = layout.names.offset + index * layout.names.recordLength
            guard let keyOffset = span.getUInt32(at: record + field.keyOffset), let keyLength = span.getUInt32(at: record + field.keyLength),
                  let feature = span.getUInt32(at: record + field.feature) else { continue }
            checkString(offset: keyOffset, length: keyLength, location: "name \(index) key", at: record)
            if Int(feature) >= layout.features.count {
                report("name \(index)", record + field.feature, "feature \(feature), but there are \(layout.features.count) features")
            }
            guard let key = map.stringBytes(offset: keyOffset, length: keyLength) else { continue }
            if let previous {
                let order = NameIndexReader.compare(previous.key, Array(key))
                if order > 0 {
                    report("name \(index)", record, "keys are not in ascending byte order")
                } else if order == 0 && feature < previous.feature {
                    report("name \(index)", record + field.feature, "records of one key are not in ascending feature order")
                }
            }
            previous = (key, feature)
        }
        // Every feature's names have their records, and no record gives a feature a name it lacks.
        for problem in NameIndexCheck.problems(map: map, limit: limit) { report(problem.location, problem.offset, problem.reason) }
    }

    // MARK: The address index (3.3)

    /// `ADDR` (Spec/FORMAT.md 5.11): its layers, every street record's key (in `STRS`, UTF-8, not
    /// empty, strictly ascending) and range (at least one feature, inside the layer, after the
    /// previous range), and every feature of each range (its id's key is the street's, it has a
    /// house number, and the house-number keys do not descend).
    private mutating func checkAddressIndex() {
        guard let table = layout.addressIndex else { return }
        let location = "address index"
        guard let addresses = map.layer(at: table.layer) else { return }
        let preamble = table.streets.offset - FormatLayout.AddressIndexRecord.preambleLength
        if addresses.geometryKind != .points {
            report(location, preamble + FormatLayout.AddressIndexRecord.layer, "layer \(addresses.layerName) is not a layer of points")
        }
        if let postcodes = table.postcodesLayer, let layer = map.layer(at: postcodes) {
            if layer.geometryKind != .points {
                report(location, preamble + FormatLayout.AddressIndexRecord.postcodesLayer, "postcodes layer \(layer.layerName) is not a layer of points")
            } else if postcodes == table.layer {
                report(location, preamble + FormatLayout.AddressIndexRecord.postcodesLayer, "postcodes layer \(layer.layerName) is the layer of addresses")
            } else if let stray = Self.firstPoint(of: layer, notIn: Self.points(of: addresses)) {
                // Every point of a postal code is an address's point (5.11): another layer of points named here fails.
                report(location, preamble + FormatLayout.AddressIndexRecord.postcodesLayer,
                       "postcodes layer \(layer.layerName) has a point, \(TileName.point(x: stray.x, y: stray.y, layout.quantizer)), at no address of layer \(addresses.layerName)")
            }
        }
        let reader = AddressIndexReader(map: addresses)
        let field = FormatLayout.AddressIndexRecord.self
        var previousKey: [UInt8]?
        var previousEnd = 0
        for record in 0..<table.streets.count {
            let at = table.streets.offset(of: record)
            guard let keyOffset = span.getUInt32(at: at + field.keyOffset), let keyLength = span.getUInt32(at: at + field.keyLength),
                  let first = span.getUInt32(at: at + field.first), let count = span.getUInt32(at: at + field.featureCount) else { continue }
            let name = "address index street \(record)"
            checkString(offset: keyOffset, length: keyLength, location: name + " key", at: at)
            let key = reader?.key(at: record).map { Array($0) }
            if let key {
                if key.isEmpty { report(name, at, "the key is empty") }
                if let previousKey, !previousKey.lexicographicallyPrecedes(key) { report(name, at, "keys are not in strictly ascending byte order") }
                previousKey = key
            }
            if count == 0 { report(name, at + field.featureCount, "the street has no address") }
            guard UInt64(first) + UInt64(count) <= UInt64(addresses.featureCount) else {
                report(name, at + field.first, "features \(first)+\(count) lie outside the \(addresses.featureCount) of layer \(addresses.layerName)")
                continue
            }
            if Int(first) < previousEnd { report(name, at + field.first, "its features overlap or precede the previous street's") }
            if Int(first) > previousEnd {
                report(name, at + field.first, "features \(previousEnd)…\(Int(first) - 1) before its range are in no street's range (only the addresses without a street, after every range, are)")
            }
            previousEnd = Int(first) + Int(count)
            var previousNumber: [UInt8]?
            for feature in Int(first)..<previousEnd {
                if let key, NameFolding.normalized(Feature(map: addresses, index: feature).id) != key {
                    report(name, at, "feature \(feature)'s street is not the record's key")
                }
                guard let number = addresses.houseNumberKey(ofFeature: feature) else {
                    report(name, at, "feature \(feature) has no \(field.houseNumberKey)")
                    continue
                }
                if let previousNumber, number.lexicographicallyPrecedes(previousNumber) {
                    report(name, at, "feature \(feature)'s house number is out of order")
                }
                previousNumber = number
            }
        }
        // After the ranges, the addresses without a street: a street count or a range lowered by
        // damage leaves addresses of a street there.
        for feature in previousEnd..<max(previousEnd, addresses.featureCount) {
            let address = Feature(map: addresses, index: feature)
            let key = NameFolding.normalized(address.id)
            guard !key.isEmpty, address.property(field.houseNumberKey) != address.id else { continue }
            report(location, table.streets.offset - FormatLayout.AddressIndexRecord.preambleLength,
                   "feature \(feature) of layer \(addresses.layerName), on the street \"\(String(address.id.prefix(60)))\", is in no street's range")
            break
        }
    }

    /// Every point a layer of points stores, as ``GridKey/point(_:_:)`` keys.
    private static func points(of layer: GMap) -> Set<Int64> {
        var points = Set<Int64>()
        _ = layer.forEachLeafTile { tile in layer.forEachPoint(in: tile) { points.insert(GridKey.point($0.x, $0.y)) } }
        return points
    }

    /// The first point `layer` stores that is not in `points`.
    private static func firstPoint(of layer: GMap, notIn points: Set<Int64>) -> (x: Int64, y: Int64)? {
        var stray: (x: Int64, y: Int64)?
        _ = layer.forEachLeafTile { tile in
            guard stray == nil else { return }
            layer.forEachPoint(in: tile) { point in
                if stray == nil, !points.contains(GridKey.point(point.x, point.y)) { stray = (point.x, point.y) }
            }
        }
        return stray
    }

    private var layout: MapLayout { map.layout }
    private var span: ByteSpan { map.span }

    private mutating func checkChecksums() {
        let header = FormatLayout.Header.self
        let tableLength = map.sections.count * FormatLayout.sectionEntryLength
        let headerLength = Int(span.getUInt32(at: header.headerLength) ?? 0)
        if let head = span.getBytes(at: 0, length: header.headerCRC),
           let table = span.getBytes(at: headerLength, length: tableLength),
           let stored = span.getUInt32(at: header.headerCRC) {
            var crc = CRC32()
            crc.update(head)
            crc.update(table)
            if crc.value != stored {
                report("header", header.headerCRC, "CRC-32 of the header and section table is \(hex(crc.value)), the header says \(hex(stored))")
            }
        }
        if span.getUInt32(at: header.flags) != 0 { report("header", header.flags, "flags are not zero") }
        for (index, section) in map.sections.enumerated() {
            guard let bytes = span.getBytes(at: Int(section.offset), length: Int(section.length)) else { continue }
            let crc = CRC32.checksum(bytes)
            if crc != section.crc {
                report("section \(section.tag)", Int(section.offset),
                       "CRC-32 of its \(section.length) bytes is \(hex(crc)), the section table says \(hex(section.crc))")
            }
            let entry = headerLength + index * FormatLayout.sectionEntryLength
            if span.getUInt32(at: entry + FormatLayout.SectionEntry.flags) != 0 {
                report("section table entry \(index) (\(section.tag))", entry + FormatLayout.SectionEntry.flags, "flags are not zero")
            }
        }
    }

    private mutating func checkSectionPlacement() {
        let tableEnd = FormatLayout.headerLength + map.sections.count * FormatLayout.sectionEntryLength
        let sorted = map.sections.sorted { $0.offset < $1.offset }
        var previousEnd = UInt64(tableEnd), previousName = "the section table"
        for section in sorted {
            if section.offset < previousEnd {
                report("section \(section.tag)", Int(section.offset), "overlaps \(previousName)")
            }
            previousEnd = max(previousEnd, section.offset + section.length)
            previousName = "section \(section.tag)"
        }
    }

    // MARK: Grid and tiles

    private mutating func checkGrid() {
        if layout.usesNodes, layout.kind?.isReadable != true {
            return report("section GRID", layout.directoryOffset - FormatLayout.Grid.directory + FormatLayout.Grid.geometry,
                          "geometry kind \(layout.geometryByte) is not one this reader checks")
        }
        // Formats 1 and 2 hold polygons only (LayerParts), so every layer here has a kind.
        if let kind = layout.kind { checkTiles(kind) }
    }

    /// The directory and every leaf tile of a layer of `kind`, each record read whole as that
    /// kind's records are (``GeometryKind/withRecords(_:)``).
    private mutating func checkTiles(_ kind: GeometryKind) {
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
    private func tileName(_ leaf: LocatedTile) -> String {
        TileName.of(leaf.bounds, depth: leaf.depth, grid: layout.grid, quantizer: layout.quantizer)
    }

    /// The split tiles reached from the top-level directory (each node or sub-directory once in a sound file).
    private func countSplitTiles() -> Int64 {
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
    private mutating func checkRecord(_ leaf: LocatedTile, _ kind: GeometryKind) -> DecodedRecord? {
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
    private struct RecordCheck: LayerRecordsUser {
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

    private mutating func checkFeatures() {
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
    private mutating func checkCompactNameIndex() {
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

    private mutating func checkPointTable(_ table: CompactPointTable) {
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
            guard let dx = cursor.readSigned(), let dy = cursor.readSigned(), abs(dx) < 1 << 40, abs(dy) < 1 << 40 else { return fail("its point cannot be read") }
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

    private mutating func checkMetadata() {
        for index in 0..<layout.metadata.count {
            let record = layout.metadata.offset(of: index), m = FormatLayout.MetadataRecord.self
            guard let keyOffset = span.getUInt32(at: record + m.keyOffset), let keyLength = span.getUInt32(at: record + m.keyLength),
                  let valueOffset = span.getUInt32(at: record + m.valueOffset), let valueLength = span.getUInt32(at: record + m.valueLength) else { continue }
            checkString(offset: keyOffset, length: keyLength, location: "metadata \(index) key", at: record)
            checkString(offset: valueOffset, length: valueLength, location: "metadata \(index) value", at: record + m.valueOffset)
        }
    }

    private mutating func checkString(offset: UInt32, length: UInt32, location: String, at recordOffset: Int) {
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

    private func hex(_ value: UInt32) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 8 - text.count) + text
    }
}

extension GMap {
    /// The sections of the file whose bytes do not match the CRC-32 in the section table, or that
    /// lie outside the file: a quick check that the bytes are the ones the writer wrote, in time
    /// proportional to the file. ``MapVerifier`` checks this and every structure besides.
    public var sectionsFailingChecksum: [SectionInfo] {
        let span = self.span
        return sections.filter { section in
            guard section.offset <= UInt64(Int.max), section.length <= UInt64(Int.max),
                  let bytes = span.getBytes(at: Int(section.offset), length: Int(section.length)) else { return true }
            return CRC32.checksum(bytes) != section.crc
        }
    }
}
