// The records of layers of lines and of points (format 3.1, Spec/FORMAT.md 8.7), read whole for
// the survey and the verifier: one conformance to `LayerRecords` for each kind.

/// The records of a layer of lines (8.7.1): slots, then runs of segments with the mask of their slots.
enum LineRecords: LayerRecords {
    /// Lines cross tiles: a segment that meets a neighbouring leaf must be stored there too.
    static var comparesNeighbours: Bool { true }

    static func count(_ reader: inout TileRecordReader) -> (features: Int, items: Int, sound: Bool) {
        var features = 0, items = 0
        let sound = reader.walkLines(slot: { _ in features += 1 }, segment: { mask, _, _, _, _ in items += mask.nonzeroBitCount })
        return (features, items, sound && reader.isSound)
    }

    static func measure(_ entries: [UInt32], of map: GMap, into survey: inout TileSurvey) {
        survey.openRecords = TileSurvey.measureOpen(entries, of: map) { reader in
            reader.walkLines(checkingVertices: false, slot: { _ in }, segment: { _, _, _, _, _ in })
        }
    }

    static func check(_ reader: inout TileRecordReader, into record: inout DecodedRecord, holders: inout [UInt8],
                      problem: (RecordProblem) -> Void) -> (items: Int, sound: Bool) {
        var segments = 0
        let sound = reader.walkLines(slot: { record.addSlot(RecordSlot(featureIndex: $0, cornerInside: false)) },
                                     segment: { mask, ax, ay, bx, by in
                                         segments += 1
                                         record.addSegment(mask: mask, ax, ay, bx, by)
                                     }, problem: problem)
        return (segments, sound)
    }
}

/// The records of a layer of points (8.7.2), or of compact points (8.7.4: ranges of features
/// whose points are in the point table).
enum PointRecords: LayerRecords {
    /// Each point is in the one leaf that holds it (``check(_:into:holders:problem:)`` reports a
    /// point outside its tile): nothing to compare with the neighbours.
    static var comparesNeighbours: Bool { false }

    static func count(_ reader: inout TileRecordReader) -> (features: Int, items: Int, sound: Bool) {
        var features = 0, items = 0
        let sound = reader.walkPoints(slot: { _ in features += 1 }, point: { _, _, _ in items += 1 })
        return (features, items, sound && reader.isSound)
    }

    static func measure(_ entries: [UInt32], of map: GMap, into survey: inout TileSurvey) {
        survey.openRecords = TileSurvey.measureOpen(entries, of: map) { reader in
            reader.walkPoints(checkingVertices: false, slot: { _ in }, point: { _, _, _ in })
        }
    }

    static func check(_ reader: inout TileRecordReader, into record: inout DecodedRecord, holders: inout [UInt8],
                      problem: (RecordProblem) -> Void) -> (items: Int, sound: Bool) {
        var points = 0
        let sound = reader.walkPoints(slot: { feature in
                                          if feature < holders.count, holders[feature] < 255 { holders[feature] += 1 }
                                          record.addSlot(RecordSlot(featureIndex: feature, cornerInside: false))
                                      },
                                      point: { slot, x, y in
                                          points += 1
                                          record.addPoint(slot: slot, x, y)
                                      }, problem: problem)
        return (points, sound)
    }
}

extension TileSurvey {
    /// The distinct records among `entries` of a layer of lines or points, and their bytes, each
    /// read to its end by `walk` (a damaged one counts up to the damage).
    static func measureOpen(_ entries: [UInt32], of map: GMap, walk: (inout TileRecordReader) -> Void) -> (count: Int, bytes: Int) {
        var count = 0, bytes = 0
        forEachDistinctRecord(entries, of: map) { reader in
            count += 1
            let start = reader.cursor.position
            walk(&reader)
            bytes += reader.cursor.position - start
        }
        return (count, bytes)
    }
}
