import GMapCodecs
/// Why a shapefile (its .shp, .dbf, .cpg or .prj) could not be read, and where.
public struct ShapefileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of problem.
    public enum Kind: Sendable, Equatable {
        /// A companion file the shapefile needs is missing (the .dbf).
        case missingFile
        /// The bytes do not follow the format (bad header, truncated record, bad value).
        case malformed
        /// The shapefile holds shapes other than polygons (points, lines, multipatches), by shape type.
        case unsupportedShapeType(Int)
        /// The .prj describes coordinates that are not longitude/latitude degrees.
        case notGeographic
        /// A coordinate is not a longitude/latitude in degrees.
        case coordinateOutOfRange
        /// The .cpg names a code page gmap cannot decode.
        case unsupportedCodePage
        /// The .shp and .dbf hold different numbers of records.
        case recordCountMismatch
        /// Several shapefiles where one was expected (in a ZIP archive).
        case ambiguous
    }

    /// The kind of problem.
    public var kind: Kind
    /// The file concerned, e.g. "countries.shp" or "countries.zip/countries.dbf".
    public var file: String
    /// The 1-based record, if the problem is in one.
    public var record: Int?
    /// The .dbf field, if the problem is in one.
    public var field: String?
    /// The byte offset in the file, where useful.
    public var byteOffset: Int?
    /// What is wrong, as a sentence.
    public var message: String

    /// An error from its parts.
    public init(_ kind: Kind, file: String, record: Int? = nil, field: String? = nil, byteOffset: Int? = nil, message: String) {
        self.kind = kind
        self.file = file
        self.record = record
        self.field = field
        self.byteOffset = byteOffset
        self.message = message
    }

    /// E.g. "countries.dbf: record 12, field POP_EST, byte 4821: 'abc' is not a number".
    public var description: String {
        var place: [String] = []
        if let record { place.append("record \(record)") }
        if let field { place.append("field \(field)") }
        if let byteOffset { place.append("byte \(byteOffset)") }
        return place.isEmpty ? "\(file): \(message)" : "\(file): \(place.joined(separator: ", ")): \(message)"
    }
}
