import GMapCodecs
/// The attribute table of a shapefile: a dBASE III `.dbf` file, read from memory.
///
/// Field types C (character), N and F (numbers), L (logical) and D (date) are read as such; other types are
/// read as text, like C. Each record becomes a list of properties in field order.
struct DBFTable {
    /// One column.
    struct Field: Sendable, Equatable {
        /// The name as written in the file (trimmed).
        var name: String
        /// The type letter: C, N, F, L, D, or another.
        var type: UInt8
        /// Where the field starts inside a record (after the deletion flag).
        var offset: Int
        /// Its width in bytes.
        var length: Int
    }

    /// The file's name, for errors.
    let file: String
    /// The columns, in file order.
    let fields: [Field]
    /// The number of records the header announces.
    let recordCount: Int
    private let headerLength: Int
    private let recordLength: Int
    private let data: BinaryBytes
    private let encoding: DBFTextEncoding

    /// Reads the header and field descriptors of the `.dbf` bytes `bytes`; text is decoded with `encoding`.
    init(bytes: [UInt8], file: String, encoding: DBFTextEncoding) throws(ShapefileError) {
        self.file = file
        self.encoding = encoding
        data = BinaryBytes(bytes: bytes)
        guard let count = data.uint32(at: 4), let headerLength = data.uint16(at: 8), let recordLength = data.uint16(at: 10) else {
            throw ShapefileError(.malformed, file: file, byteOffset: 0, message: "shorter than the 32-byte .dbf header (\(bytes.count) bytes)")
        }
        guard headerLength >= 33, headerLength <= bytes.count, recordLength >= 1 else {
            throw ShapefileError(.malformed, file: file, byteOffset: 8,
                                 message: "header length \(headerLength) and record length \(recordLength) do not fit a .dbf of \(bytes.count) bytes")
        }
        var fields: [Field] = []
        var position = 32, offset = 1  // byte 0 of a record is its deletion flag
        while position + 32 <= headerLength, bytes[position] != 0x0D {
            let nameBytes = bytes[position..<(position + 11)].prefix { $0 != 0 }
            let name = encoding.decode(nameBytes).trimmingASCIISpaces()
            let field = Field(name: name, type: bytes[position + 11], offset: offset, length: Int(bytes[position + 16]))
            offset += field.length
            guard offset <= recordLength else {
                throw ShapefileError(.malformed, file: file, field: name, byteOffset: position,
                                     message: "the fields are wider than the record length \(recordLength)")
            }
            fields.append(field)
            position += 32
        }
        guard headerLength + count * recordLength <= bytes.count else {
            let complete = (bytes.count - headerLength) / recordLength
            throw ShapefileError(.malformed, file: file, record: complete + 1, byteOffset: headerLength + complete * recordLength,
                                 message: "the header announces \(count) records of \(recordLength) bytes, the file holds \(complete) (truncated?)")
        }
        self.fields = fields
        self.recordCount = count
        self.headerLength = headerLength
        self.recordLength = recordLength
    }

    /// Whether record `index` (0-based) is marked deleted (`*`).
    func isDeleted(_ index: Int) -> Bool {
        data.bytes[headerLength + index * recordLength] == 0x2A
    }

    /// The values of record `index` (0-based), in field order. Blank numbers, logicals and dates are null.
    func properties(ofRecord index: Int) throws(ShapefileError) -> [(key: String, value: JSONValue)] {
        let start = headerLength + index * recordLength
        var result: [(key: String, value: JSONValue)] = []
        result.reserveCapacity(fields.count)
        for field in fields {
            let raw = data.bytes[(start + field.offset)..<(start + field.offset + field.length)]
            guard let value = value(of: raw, type: field.type) else {
                throw ShapefileError(.malformed, file: file, record: index + 1, field: field.name, byteOffset: start + field.offset,
                                     message: "\(InputExcerpt.quoted(raw.trimmingASCIISpaces())) is not a valid \(Self.typeName(field.type)) value")
            }
            result.append((key: field.name, value: value))
        }
        return result
    }

    private static func typeName(_ type: UInt8) -> String {
        switch type {
        case UInt8(ascii: "N"), UInt8(ascii: "F"): return "number"
        case UInt8(ascii: "L"): return "logical (T/F/Y/N/?)"
        case UInt8(ascii: "D"): return "date (YYYYMMDD)"
        default: return "text"
        }
    }

    /// The value of one field's bytes, or nil when they are not valid for the type.
    private func value(of raw: ArraySlice<UInt8>, type: UInt8) -> JSONValue? {
        let trimmed = raw.trimmingASCIISpaces()
        switch type {
        case UInt8(ascii: "N"), UInt8(ascii: "F"):
            if trimmed.isEmpty || trimmed.allSatisfy({ $0 == UInt8(ascii: "*") }) { return .null }
            return DBFNumber.jsonText(trimmed).map { .number($0) }
        case UInt8(ascii: "L"):
            switch trimmed.first {
            case nil, UInt8(ascii: "?"): return .null
            case UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: "Y"), UInt8(ascii: "y"): return .bool(true)
            case UInt8(ascii: "F"), UInt8(ascii: "f"), UInt8(ascii: "N"), UInt8(ascii: "n"): return .bool(false)
            default: return nil
            }
        case UInt8(ascii: "D"):
            if trimmed.isEmpty || trimmed.allSatisfy({ $0 == UInt8(ascii: "0") }) { return .null }
            return DBFNumber.isoDate(trimmed).map { .string($0) }
        default:
            return .string(encoding.decode(trimmed))
        }
    }
}

/// Number and date text of `.dbf` fields.
enum DBFNumber {
    /// A dBASE number (`-12.50`, `+3`, `.5`, `1.E5`) as JSON number text (`-12.50`, `3`, `0.5`, `1e5`),
    /// or nil when it is not a number.
    static func jsonText(_ bytes: ArraySlice<UInt8>) -> String? {
        var index = bytes.startIndex
        var negative = false
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        func digits() -> ArraySlice<UInt8> {
            let start = index
            while index < bytes.endIndex, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return bytes[start..<index]
        }
        let whole = digits()
        var fraction: ArraySlice<UInt8> = []
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: ".") {
            index += 1
            fraction = digits()
        }
        guard !(whole.isEmpty && fraction.isEmpty) else { return nil }
        var exponent = ""
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            var sign = ""
            if index < bytes.endIndex, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                sign = bytes[index] == UInt8(ascii: "-") ? "-" : ""
                index += 1
            }
            let power = digits()
            guard !power.isEmpty else { return nil }
            exponent = "e" + sign + String(decoding: power, as: UTF8.self)
        }
        guard index == bytes.endIndex else { return nil }
        let integer = whole.drop { $0 == UInt8(ascii: "0") }
        var text = negative ? "-" : ""
        text += integer.isEmpty ? "0" : String(decoding: integer, as: UTF8.self)
        if !fraction.isEmpty { text += "." + String(decoding: fraction, as: UTF8.self) }
        return text + exponent
    }

    /// `YYYYMMDD` as `YYYY-MM-DD`, or nil when it is not a date.
    static func isoDate(_ bytes: ArraySlice<UInt8>) -> String? {
        guard bytes.count == 8, bytes.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        let month = Int(text.dropFirst(4).prefix(2)) ?? 0, day = Int(text.suffix(2)) ?? 0
        guard (1...12).contains(month), (1...31).contains(day) else { return nil }
        return "\(text.prefix(4))-\(text.dropFirst(4).prefix(2))-\(text.suffix(2))"
    }
}

extension ArraySlice where Element == UInt8 {
    /// Without leading and trailing spaces, tabs, line breaks and NULs.
    func trimmingASCIISpaces() -> ArraySlice<UInt8> {
        let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else { return [] }
        return self[first...last]
    }
}

extension String {
    /// Without leading and trailing spaces, tabs, line breaks and NULs.
    func trimmingASCIISpaces() -> String {
        String(decoding: ArraySlice(utf8).trimmingASCIISpaces(), as: UTF8.self)
    }
}
