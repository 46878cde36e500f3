import GMap

/// Why a Protocol Buffers message could not be read, and where (a byte offset in the message's
/// buffer). ``OSMPBFReader`` turns it into an ``OSMPBFError`` that names the file and the blob.
struct ProtobufError: Error, Equatable {
    /// Byte offset in the buffer being decoded.
    var byteOffset: Int
    /// What is wrong, as a phrase ("a varint longer than 10 bytes").
    var reason: String
}

/// A field's wire type (the low three bits of its key).
enum ProtobufWireType: UInt64 {
    case varint = 0
    case fixed64 = 1
    case lengthDelimited = 2
    case startGroup = 3
    case endGroup = 4
    case fixed32 = 5
}

/// A forward reader of Protocol Buffers wire format over a byte buffer, every read bounds-checked.
///
/// `nextField()` gives each field's number and wire type; the caller then reads its value with
/// the matching method or skips it with `skip(_:)`. Lengths and varints that run past the end of
/// the buffer throw a ``ProtobufError`` naming the byte; nothing traps on hostile input.
struct ProtobufReader {
    /// The message's bytes (a slice of a larger buffer keeps its indexes).
    let bytes: ArraySlice<UInt8>
    /// The next byte to read.
    private(set) var position: Int

    /// A reader of the whole of `bytes`.
    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        self.position = bytes.startIndex
    }

    /// Whether every byte has been read.
    var isAtEnd: Bool { position >= bytes.endIndex }

    /// The key of the next field, or nil at the end of the message.
    mutating func nextField() throws(ProtobufError) -> (number: UInt64, wireType: ProtobufWireType)? {
        guard !isAtEnd else { return nil }
        let start = position
        let key = try readVarint()
        guard let wireType = ProtobufWireType(rawValue: key & 7) else {
            throw ProtobufError(byteOffset: start, reason: "a field of unknown wire type \(key & 7)")
        }
        guard key >> 3 != 0 else { throw ProtobufError(byteOffset: start, reason: "a field numbered 0") }
        return (key >> 3, wireType)
    }

    /// An unsigned LEB128 varint of at most 10 bytes.
    mutating func readVarint() throws(ProtobufError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        let start = position
        while true {
            guard position < bytes.endIndex else {
                throw ProtobufError(byteOffset: start, reason: "a varint cut off by the end of the message")
            }
            let byte = bytes[position]
            position += 1
            guard shift < 64 else { throw ProtobufError(byteOffset: start, reason: "a varint longer than 10 bytes") }
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
    }

    /// A `sint64` (zig-zag) varint.
    mutating func readSignedVarint() throws(ProtobufError) -> Int64 {
        ZigZag.decode(try readVarint())
    }

    /// An `int64`/`int32` varint (two's complement).
    mutating func readInt64() throws(ProtobufError) -> Int64 {
        Int64(bitPattern: try readVarint())
    }

    /// The bytes of a length-delimited field (a string, bytes, a message or a packed array).
    mutating func readLengthDelimited() throws(ProtobufError) -> ArraySlice<UInt8> {
        let start = position
        let length = try readVarint()
        guard length <= UInt64(bytes.endIndex - position) else {
            throw ProtobufError(byteOffset: start, reason: "a field of \(length) bytes where \(bytes.endIndex - position) remain")
        }
        let end = position + Int(length)
        defer { position = end }
        return bytes[position..<end]
    }

    /// A length-delimited field as UTF-8 text (invalid sequences repaired).
    mutating func readString() throws(ProtobufError) -> String {
        String(decoding: try readLengthDelimited(), as: UTF8.self)
    }

    /// Skips the value of a field of `wireType`.
    mutating func skip(_ wireType: ProtobufWireType) throws(ProtobufError) {
        let start = position
        switch wireType {
        case .varint: _ = try readVarint()
        case .lengthDelimited: _ = try readLengthDelimited()
        case .fixed64, .fixed32:
            let size = wireType == .fixed64 ? 8 : 4
            guard bytes.endIndex - position >= size else {
                throw ProtobufError(byteOffset: start, reason: "a \(size)-byte field cut off by the end of the message")
            }
            position += size
        case .startGroup, .endGroup:
            throw ProtobufError(byteOffset: start, reason: "a group field (deprecated groups are not used by OSM PBF)")
        }
    }

    /// The values of a repeated integer field: a packed array (wire type 2) or one value (wire type 0).
    /// `signed` decodes zig-zag (`sint32`/`sint64`); otherwise values are two's complement.
    mutating func readIntegers(_ wireType: ProtobufWireType, signed: Bool, into values: inout [Int64]) throws(ProtobufError) {
        switch wireType {
        case .varint:
            values.append(signed ? try readSignedVarint() : try readInt64())
        case .lengthDelimited:
            var packed = ProtobufReader(try readLengthDelimited())
            while !packed.isAtEnd {
                values.append(signed ? try packed.readSignedVarint() : try packed.readInt64())
            }
        default:
            throw ProtobufError(byteOffset: position, reason: "an integer field of wire type \(wireType.rawValue)")
        }
    }

    /// Checks that a field expected as `expected` came with that wire type.
    func expect(_ wireType: ProtobufWireType, _ expected: ProtobufWireType, field: String) throws(ProtobufError) {
        guard wireType == expected else {
            throw ProtobufError(byteOffset: position, reason: "field \(field) has wire type \(wireType.rawValue), expected \(expected.rawValue)")
        }
    }
}
