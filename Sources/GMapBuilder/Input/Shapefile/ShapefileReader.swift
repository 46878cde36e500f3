import GMapCodecs

/// Reads an ESRI shapefile, its `.shp` with its `.dbf` (and `.cpg`, `.prj` when present), as GeoJSON-like
/// features, from files beside each other or from a ZIP archive.
///
/// - Shapes: Polygon, PolygonZ and PolygonM (Z and M ignored); rings are grouped into polygons by
///   ``RingGrouping``. Null shapes give features whose geometry is `.unsupported("null")`, and records marked
///   deleted in the `.dbf` give `.unsupported("deleted")`, so that a builder skips and counts them.
/// - Properties: the `.dbf` fields, in order, under their names as written (see ``DBFTable``).
/// - Coordinates must be longitude/latitude degrees: a projected `.prj` or an out-of-range coordinate is an error.
public struct ShapefileReader: Sendable {
    private let shapes: ShapeFile
    private let table: DBFTable

    /// A reader of shapefile parts already in memory. The names are used in error messages.
    public init(shp: [UInt8], shpName: String, dbf: [UInt8], dbfName: String,
                cpg: String? = nil, cpgName: String = ".cpg", prj: String? = nil, prjName: String = ".prj") throws(ShapefileError) {
        if let prj { try ProjectionCheck.check(prj, file: prjName) }
        guard let encoding = DBFTextEncoding(codePage: cpg) else {
            throw ShapefileError(.unsupportedCodePage, file: cpgName,
                                 message: "code page \(InputExcerpt.quoted(cpg?.trimmingASCIISpaces() ?? "")) is not one gmap reads (UTF-8, ISO-8859-1, Windows-1252)")
        }
        shapes = try ShapeFile(bytes: shp, file: shpName)
        table = try DBFTable(bytes: dbf, file: dbfName, encoding: encoding)
        guard shapes.records.count == table.recordCount else {
            throw ShapefileError(.recordCountMismatch, file: shpName,
                                 message: "\(shapes.records.count) shapes, but \(dbfName) has \(table.recordCount) records")
        }
    }

    /// Reads the shapefile at `path` (a `.shp`) with the `.dbf`, `.cpg` and `.prj` beside it (same name,
    /// extension in either case; for a path without the `.shp` extension, the path with theirs added).
    /// A missing `.dbf` is an error.
    public init(path: String) throws {
        let lower = path.lowercased()
        guard !lower.hasSuffix(".shx") else {
            throw ShapefileError(.malformed, file: path, message: "this is a shapefile index (.shx); give the .shp file beside it")
        }
        let stem = lower.hasSuffix(".shp") ? String(path.dropLast(4)) : path
        func sibling(_ extensions: [String]) -> String? {
            extensions.map { stem + $0 }.first { SystemCalls.exists($0) }
        }
        guard let dbfPath = sibling([".dbf", ".DBF", ".Dbf"]) else {
            throw ShapefileError(.missingFile, file: path, message: "no \(stem).dbf beside it: a shapefile needs its .dbf (attributes)")
        }
        let cpgPath = sibling([".cpg", ".CPG"]), prjPath = sibling([".prj", ".PRJ"])
        try self.init(shp: try FileByteSource(path: path).readAll(), shpName: path,
                      dbf: try FileByteSource(path: dbfPath).readAll(), dbfName: dbfPath,
                      cpg: try cpgPath.map { String(decoding: try FileByteSource(path: $0).readAll(), as: UTF8.self) }, cpgName: cpgPath ?? ".cpg",
                      prj: try prjPath.map { String(decoding: try FileByteSource(path: $0).readAll(), as: UTF8.self) }, prjName: prjPath ?? ".prj")
    }

    /// Reads the one shapefile in `archive`: its single `.shp` (folders allowed) and the `.dbf`, `.cpg`, `.prj`
    /// with the same path and name. No `.shp`, or several, is an error that lists what the archive holds.
    public init(archive: ZipArchive) throws {
        let candidates = archive.entries.filter { entry in
            let base = entry.name.split(separator: "/").last.map(String.init) ?? entry.name
            return entry.name.lowercased().hasSuffix(".shp") && !base.hasPrefix("._") && !entry.name.hasPrefix("__MACOSX/")
        }
        guard candidates.count == 1, let shp = candidates.first else {
            let message = candidates.isEmpty
                ? "no .shp file in the archive (it holds: \(archive.entries.map(\.name).joined(separator: ", ")))"
                : "\(candidates.count) shapefiles in the archive (\(candidates.map(\.name).joined(separator: ", "))); extract the one to use and build from its .shp"
            throw ShapefileError(candidates.isEmpty ? .missingFile : .ambiguous, file: archive.name, message: message)
        }
        let stem = String(shp.name.dropLast(4))
        guard let dbf = archive.entry(named: stem + ".dbf") else {
            throw ShapefileError(.missingFile, file: archive.name, message: "no \(stem).dbf in the archive beside \(shp.name)")
        }
        let cpg = archive.entry(named: stem + ".cpg"), prj = archive.entry(named: stem + ".prj")
        func text(_ entry: ZipArchive.Entry?) throws -> String? {
            try entry.map { String(decoding: try archive.contents(of: $0), as: UTF8.self) }
        }
        try self.init(shp: try archive.contents(of: shp), shpName: "\(archive.name)/\(shp.name)",
                      dbf: try archive.contents(of: dbf), dbfName: "\(archive.name)/\(dbf.name)",
                      cpg: try text(cpg), cpgName: "\(archive.name)/\(cpg?.name ?? "")",
                      prj: try text(prj), prjName: "\(archive.name)/\(prj?.name ?? "")")
    }

    /// The number of records (features, null and deleted ones included).
    public var recordCount: Int { table.recordCount }

    /// The `.dbf` field names, in order.
    public var fieldNames: [String] { table.fields.map(\.name) }

    /// Calls `body` with each record as a feature, in file order; the feature's index is the record's
    /// 0-based position. Stops at the first error. Returns the number of records.
    @discardableResult
    public func forEachFeature(_ body: (GeoJSONFeature) throws -> Void) throws -> Int {
        for index in 0..<table.recordCount {
            let geometry: GeoJSONGeometry
            var properties: [(key: String, value: JSONValue)] = []
            if table.isDeleted(index) {
                geometry = .unsupported("deleted")
            } else {
                properties = try table.properties(ofRecord: index)
                let polygons = try shapes.rings(ofRecord: index).map(RingGrouping.polygons) ?? []
                geometry = polygons.isEmpty ? .unsupported("null") : .polygons(polygons)
            }
            try body(GeoJSONFeature(index: index, id: nil, properties: properties, geometry: geometry))
        }
        return table.recordCount
    }
}
