/// The records of a layer of polygons (Spec/FORMAT.md 8.5; 8.1 to 8.4 for formats 1 and 2), read
/// whole for the survey and the verifier: slots with corner bits, and runs of edges.
enum PolygonRecords: LayerRecords {
    /// Rings cross tiles: each record's edges and corner bits are compared with its neighbours'.
    static var comparesNeighbours: Bool { true }

    static func count(_ reader: inout TileRecordReader) -> (features: Int, items: Int, sound: Bool) {
        let (features, edges) = reader.count()
        return (features, edges, reader.isSound)
    }

    /// Format 3: the bytes of the distinct records by part (heads, masks, first vertices, widths,
    /// deltas), and the directory's as the rest of `GRID` and `TILE`. Nothing for older formats.
    static func measure(_ entries: [UInt32], of map: GMap, into survey: inout TileSurvey) {
        let layout = map.layout
        guard layout.usesNodes else { return }
        var recordBytes = RecordBits()
        TileSurvey.forEachDistinctRecord(entries, of: map) { reader in
            if let sizes = reader.measureShared() { recordBytes.add(sizes) }
        }
        let gridLength = map.sections.first { $0.offset == UInt64(layout.directoryOffset - FormatLayout.Grid.directory) }?.length ?? 0
        // Everything in TILE that no record holds is directory nodes.
        survey.bytes = TileBytes(directoryBytes: Int(gridLength) + (layout.tilesEnd - layout.tilesOffset) - recordBytes.totalBytes, records: recordBytes)
    }

    static func check(_ reader: inout TileRecordReader, into record: inout DecodedRecord, holders: inout [UInt8],
                      problem: (RecordProblem) -> Void) -> (items: Int, sound: Bool) {
        var edges = 0
        let sound = reader.walk(slot: { record.addSlot($0) }, run: { record.startRun(firstSlot: $0, mask: $1) }, edge: { ax, ay, bx, by in
            edges += 1
            record.addEdge(ax, ay, bx, by)
        }, problem: problem)
        return (edges, sound)
    }
}

extension TileRecordReader {
    /// The sizes of the parts of a format 3 record, or nil when it cannot be read to its end.
    mutating func measureShared() -> RecordBits? {
        let start = cursor.position
        guard let header = readSharedHeader() else { return nil }
        var bits = RecordBits()
        bits.headBytes = cursor.position - start
        let maskBits = header.slotCount > 1 ? Int(header.slotCount) : 0
        for _ in 0..<header.runCount {
            let runStart = cursor.position
            _ = cursor.readVarint()
            bits.vertexCountBytes += cursor.position - runStart
            cursor.position = runStart
            var run = PackedRunHead()
            guard readSharedRun(header, into: &run) == nil else { return nil }
            bits.maskBits += maskBits
            bits.firstVertexBits += Int(header.firstWidthX + header.firstWidthY)
            bits.widthBits += 2 * Int(FormatLayout.SharedRecord.widthFieldBits)
            if runBands { bits.bandBytes += 1 }
        }
        bits.totalBytes = cursor.position - start
        return bits
    }
}
