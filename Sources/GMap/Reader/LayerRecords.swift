/// How the records of one kind of layer are read whole, apart from the queries: by the survey
/// (``TileSurvey``, `gmap info`) and the verifier (``MapVerifier``, `gmap verify`).
///
/// One conformance per kind, in the kind's folder: ``PolygonRecords`` (`Reader/Polygons`),
/// ``LineRecords`` and ``PointRecords`` (`Reader/LinesAndPoints`). ``GeometryKind/withRecords(_:)``
/// is the one switch that picks it; the survey and the verifier are written once, generic over it.
/// (The queries of each kind are that kind's own: ``GMap/lookup(latitude:longitude:)``,
/// ``GMap/nearestLines(latitude:longitude:within:limit:)``,
/// ``GMap/nearestPoints(latitude:longitude:within:limit:)``, each answering nothing for a layer
/// of another kind.)
protocol LayerRecords {
    /// Whether the verifier compares each record with its neighbours (``TileConsistencyCheck``):
    /// what reaches beyond a tile must be stored in the tiles it reaches.
    static var comparesNeighbours: Bool { get }

    /// Reads one record to its end for the survey: its slots (features), the items it stores
    /// (edges, segments or points, ``GeometryKind/itemsName``), and whether it could be read whole.
    static func count(_ reader: inout TileRecordReader) -> (features: Int, items: Int, sound: Bool)

    /// The survey's measure of the layer's distinct records, given by their directory entries in
    /// any order and with repeats (tiles may share a record): ``TileSurvey/bytes`` or
    /// ``TileSurvey/openRecords``.
    static func measure(_ entries: [UInt32], of map: GMap, into survey: inout TileSurvey)

    /// Reads one record to its end for the verifier: tells `problem` of everything wrong with it;
    /// puts its slots and items into `record` when ``comparesNeighbours``; counts in `holders`
    /// each feature a slot names, when `holders` has room for it (a layer of compact points,
    /// whose every feature is in exactly one record). Returns the items read, and whether the
    /// record could be read to its end.
    static func check(_ reader: inout TileRecordReader, into record: inout DecodedRecord, holders: inout [UInt8],
                      problem: (RecordProblem) -> Void) -> (items: Int, sound: Bool)
}

/// Code written once for the records of every kind: ``GeometryKind/withRecords(_:)`` hands it the
/// conformance of a layer's kind.
protocol LayerRecordsUser {
    /// Does the work with the records of the kind `records` reads.
    mutating func use<Records: LayerRecords>(_ records: Records.Type)
}

extension GeometryKind {
    /// Calls `user` with the conformance that reads this kind's records: the one place the reader
    /// goes from a layer's kind to the code of that kind.
    func withRecords<User: LayerRecordsUser>(_ user: inout User) {
        switch self {
        case .polygons: user.use(PolygonRecords.self)
        case .lines: user.use(LineRecords.self)
        case .points: user.use(PointRecords.self)
        }
    }

    /// Whether the verifier compares the records of this kind with their neighbours
    /// (``LayerRecords/comparesNeighbours``).
    var comparesNeighbours: Bool {
        var fact = ComparesNeighbours()
        withRecords(&fact)
        return fact.value
    }
}

/// A kind's ``LayerRecords/comparesNeighbours``.
private struct ComparesNeighbours: LayerRecordsUser {
    var value = false

    mutating func use<Records: LayerRecords>(_ records: Records.Type) {
        value = Records.comparesNeighbours
    }
}
