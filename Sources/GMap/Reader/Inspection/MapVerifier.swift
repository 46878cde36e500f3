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
    public internal(set) var problems: [MapProblem] = []
    /// Tiles (top-level and parts) walked.
    public internal(set) var tilesVisited = 0
    /// Tile records decoded.
    public internal(set) var recordsDecoded = 0
    /// Edges decoded.
    public internal(set) var edgesDecoded = 0
    /// Features checked, in every layer.
    public internal(set) var featuresChecked = 0
    /// The layer being checked (every layer of the file in turn).
    var map: GMap
    let limit: Int
    /// Put before locations in a file of several layers: "layer NAME: ".
    var layerPrefix = ""
    /// A layer of compact points: how many leaf records hold each feature (each must be in one).
    var compactHolders: [UInt8] = []
    /// The boxes and label points the layer's records give its features, against `FEAT` and `LABL`.
    var extents = FeatureExtents(featureCount: 0, labels: [])

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

    mutating func report(_ location: String, _ offset: Int, _ reason: String) {
        if problems.count < limit { problems.append(MapProblem(location: layerPrefix + location, offset: offset, reason: reason)) }
    }

    // MARK: Boxes and label points against the geometry

    /// The label points of a layer of lines or points, which must be stored vertices or points of
    /// their features (5.9); none for polygons, whose label points are checked by a lookup.
    func pointsToFind() -> [GridPoint?] {
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
    func storedBox(of index: Int) -> [Int64]? {
        let at = layout.features.offset + index * layout.features.recordLength + FormatLayout.FeatureRecord.boundingBox
        let box = (0..<4).compactMap { span.getInt32(at: at + 4 * $0).map(Int64.init) }
        return box.count == 4 ? box : nil
    }

    /// Whether `box` (west, south, east, north) holds the part of `tile` inside the world.
    static func covers(_ box: [Int64], _ tile: TileBounds, quantizer q: Quantizer) -> Bool {
        let west = max(tile.west, -q.halfTurn), east = min(tile.east, q.halfTurn)
        let south = max(tile.south, -q.quarterTurn), north = min(tile.north, q.quarterTurn)
        return box[0] <= west && box[1] <= south && box[2] >= east && box[3] >= north
    }

    /// A box in units as degrees, for messages.
    func degrees(_ box: [Int64]) -> String {
        let q = layout.quantizer
        return "(west \(q.degrees(box[0])), south \(q.degrees(box[1])), east \(q.degrees(box[2])), north \(q.degrees(box[3])))"
    }

    /// Every feature's `bbox` (5.3) is the box of its stored vertices or points (0, 0, 0, 0 when it
    /// has none), and in a layer of lines or points its label point is one of them (5.9): `find`,
    /// `geocode` and `export` print both. Checked when every record of the layer was read whole.
    mutating func checkBoxesAndLabels() {
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
                   "(\(q.degrees(label.y)), \(q.degrees(label.x))) is not a stored \(layout.kind?.joinsVertices == false ? "point" : "vertex") of the feature")
            if problems.count >= limit { return }
        }
    }

    // MARK: Label points and the name index (2.1)

    mutating func checkLayerIndexes() {
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
