import GMapCodecs
/// The polygon shapes of a `.shp` file (ESRI Shapefile Technical Description, 1998), read from memory.
///
/// Reads shape types 5 (Polygon), 15 (PolygonZ) and 25 (PolygonM), whose Z and M values are ignored, and
/// null shapes. Every offset is checked against the record's and the file's length.
struct ShapeFile {
    /// The shape types read, by name.
    static let polygonTypes: [Int: String] = [5: "Polygon", 15: "PolygonZ", 25: "PolygonM"]
    /// Names of the other shape types, for error messages.
    static let otherTypes: [Int: String] = [1: "Point", 3: "PolyLine", 8: "MultiPoint", 11: "PointZ", 13: "PolyLineZ",
                                            18: "MultiPointZ", 21: "PointM", 23: "PolyLineM", 28: "MultiPointM", 31: "MultiPatch"]

    /// Where one record's content lies in the file.
    struct RecordSpan {
        /// The first byte of the content (its shape type).
        var start: Int
        /// The byte after the content.
        var end: Int
    }

    /// The file's name, for errors.
    let file: String
    /// The records, in file order.
    let records: [RecordSpan]
    private let data: BinaryBytes

    /// Reads the header and finds the records of the `.shp` bytes `bytes`.
    init(bytes: [UInt8], file: String) throws(ShapefileError) {
        self.file = file
        data = BinaryBytes(bytes: bytes)
        guard let code = data.int32BigEndian(at: 0), let words = data.int32BigEndian(at: 24), let type = data.int32(at: 32) else {
            throw ShapefileError(.malformed, file: file, byteOffset: 0, message: "shorter than the 100-byte .shp header (\(bytes.count) bytes)")
        }
        guard code == 9994 else {
            throw ShapefileError(.malformed, file: file, byteOffset: 0, message: "not a .shp file (file code \(code), expected 9994)")
        }
        guard type == 0 || Self.polygonTypes[type] != nil else { throw Self.unsupported(type, file: file, record: nil, at: 32) }
        guard bytes.count >= 100 else {
            throw ShapefileError(.malformed, file: file, byteOffset: 0, message: "shorter than the 100-byte .shp header (\(bytes.count) bytes)")
        }
        let length = words * 2
        guard length >= 100 else {
            throw ShapefileError(.malformed, file: file, byteOffset: 24, message: "the header's file length \(length) is shorter than the header")
        }
        guard length <= bytes.count else {
            throw ShapefileError(.malformed, file: file, byteOffset: 24,
                                 message: "the header says the file has \(length) bytes, it has \(bytes.count) (truncated?)")
        }
        var records: [RecordSpan] = []
        var position = 100
        while position + 8 <= length {
            guard let words = data.int32BigEndian(at: position + 4), words >= 0, position + 8 + words * 2 <= length else {
                throw ShapefileError(.malformed, file: file, record: records.count + 1, byteOffset: position,
                                     message: "the record runs past the end of the file")
            }
            records.append(RecordSpan(start: position + 8, end: position + 8 + words * 2))
            position += 8 + words * 2
        }
        self.records = records
    }

    /// The error for a shape type that is not a polygon.
    private static func unsupported(_ type: Int, file: String, record: Int?, at offset: Int) -> ShapefileError {
        let name = otherTypes[type].map { "\(type) (\($0))" } ?? "\(type)"
        return ShapefileError(.unsupportedShapeType(type), file: file, record: record, byteOffset: offset,
                              message: "shape type \(name) is not a polygon; gmap builds maps from polygons (shape types 5, 15, 25)")
    }

    /// The rings of record `index` (0-based) as (longitude, latitude) positions, or nil for a null shape.
    /// A coordinate that is not a longitude in [-180, 180] or a latitude in [-90, 90] is an error.
    func rings(ofRecord index: Int) throws(ShapefileError) -> [[GeoJSONPosition]]? {
        let span = records[index], number = index + 1
        func fail(_ message: String, at offset: Int) -> ShapefileError {
            ShapefileError(.malformed, file: file, record: number, byteOffset: offset, message: message)
        }
        guard span.end - span.start >= 4, let type = data.int32(at: span.start) else {
            throw fail("the record is too short to hold a shape type", at: span.start)
        }
        if type == 0 { return nil }
        guard Self.polygonTypes[type] != nil else { throw Self.unsupported(type, file: file, record: number, at: span.start) }
        guard span.start + 44 <= span.end, let partCount = data.int32(at: span.start + 36), let pointCount = data.int32(at: span.start + 40) else {
            throw fail("the record is too short for a polygon header", at: span.start)
        }
        let partsAt = span.start + 44, pointsAt = partsAt + 4 * partCount
        guard partCount >= 0, pointCount >= 0, pointsAt + 16 * pointCount <= span.end else {
            throw fail("\(partCount) parts and \(pointCount) points do not fit in the record's \(span.end - span.start) bytes", at: span.start + 36)
        }
        var rings: [[GeoJSONPosition]] = []
        rings.reserveCapacity(partCount)
        for part in 0..<partCount {
            let first = data.int32(at: partsAt + 4 * part) ?? -1
            let stop = part + 1 < partCount ? (data.int32(at: partsAt + 4 * part + 4) ?? -1) : pointCount
            guard first >= 0, first <= stop, stop <= pointCount else {
                throw fail("part \(part) spans points \(first)..<\(stop) of \(pointCount)", at: partsAt + 4 * part)
            }
            var ring: [GeoJSONPosition] = []
            ring.reserveCapacity(stop - first)
            for point in first..<stop {
                let offset = pointsAt + 16 * point
                guard let x = data.double(at: offset), let y = data.double(at: offset + 8) else { throw fail("point \(point) is missing", at: offset) }
                guard x >= -180, x <= 180, y >= -90, y <= 90 else {
                    throw ShapefileError(.coordinateOutOfRange, file: file, record: number, byteOffset: offset,
                                         message: "point \(point) (\(x), \(y)) is not a longitude/latitude in degrees; gmap needs geographic coordinates (WGS 84): reproject the shapefile first (for example with ogr2ogr -t_srs EPSG:4326)")
                }
                ring.append(GeoJSONPosition(longitude: x, latitude: y))
            }
            rings.append(ring)
        }
        return rings
    }
}
