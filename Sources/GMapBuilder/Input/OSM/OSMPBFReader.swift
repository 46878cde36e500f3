import GMapCodecs
/// Reads an OpenStreetMap PBF file (https://wiki.openstreetmap.org/wiki/PBF_Format) into ``OSMData``.
///
/// The file is a sequence of blobs, each framed by a 4-byte big-endian length and a `BlobHeader`
/// message (its type and the blob's size); the first is an `OSMHeader` blob, the others
/// `OSMData` blobs holding primitive blocks of nodes (plain or dense), ways and relations. A blob
/// is stored raw or zlib-compressed (RFC 1950: checked header, DEFLATE, Adler-32 of the result);
/// lzma, lz4, zstd and bzip2 blobs are refused with a message. Blob headers are limited to
/// 64 KiB and blobs to 32 MiB, stored or decompressed, as the format requires. Blobs of other
/// types are skipped, as the format asks.
///
/// Every length, index and coordinate is checked: bad input gives an ``OSMPBFError`` naming the
/// blob and the byte, never a trap.
public enum OSMPBFReader {
    /// The largest blob header the format allows.
    public static let maximumBlobHeaderSize = 64 * 1024
    /// The largest blob, stored or decompressed, the format allows.
    public static let maximumBlobSize = 32 * 1024 * 1024
    /// The header block's required features this reader understands.
    public static let supportedFeatures: Set<String> = ["OsmSchema-V0.6", "DenseNodes", "HistoricalInformation"]

    /// Reads the PBF file at `path` ("-" for standard input). Errors: ``FileReadError`` and ``OSMPBFError``.
    public static func read(path: String) throws -> OSMData {
        let bytes = try ByteSources.readAll(try FileByteSource(path: path))
        return try read(bytes, file: path == "-" ? "<stdin>" : path)
    }

    /// Reads PBF bytes; `file` names them in errors.
    public static func read(_ bytes: [UInt8], file: String) throws(OSMPBFError) -> OSMData {
        var data = OSMData()
        var header = OSMData()  // the header block's fields, apart from the elements
        var position = 0
        var blob = 0
        while position < bytes.count {
            blob += 1
            let frame = try readFrame(bytes, at: position, blob: blob, file: file)
            if blob == 1, frame.type != "OSMHeader" {
                throw OSMPBFError(file: file, blob: 1, byte: position, reason: .notPBF(
                    frame.type.isEmpty ? "no OSMHeader blob at the start" : "the first blob is \"\(InputExcerpt.text(frame.type))\", not OSMHeader"))
            }
            let block: [UInt8]
            switch frame.type {
            case "OSMHeader", "OSMData":
                block = try decompress(bytes[frame.blobStart..<frame.end], blob: blob, file: file)
            default:
                position = frame.end
                continue  // The format says readers skip blob types they do not know.
            }
            do {
                try decodeBlock(block, isHeader: frame.type == "OSMHeader", blob: blob, file: file, header: &header, into: &data)
            } catch let error as OSMPBFError {
                throw error
            } catch {
                throw OSMPBFError(file: file, blob: blob, byte: 0, inBlockData: true, reason: .badMessage("\(error)"))
            }
            position = frame.end
        }
        data.boundingBox = header.boundingBox
        data.writingProgram = header.writingProgram
        if blob == 0 { throw OSMPBFError(file: file, blob: 0, byte: 0, reason: .notPBF("the file is empty")) }
        data.blobCount = blob
        data.indexNodes()
        return data
    }

    /// Decodes one blob's block: the header block's bounding box and writing program into `header`,
    /// a data block's elements into `sink`. Errors of the block's messages become ``OSMPBFError``s;
    /// an error the sink throws (a limit) goes through as it is.
    static func decodeBlock<Sink: OSMElementSink>(_ block: [UInt8], isHeader: Bool, blob: Int, file: String,
                                                  header: inout OSMData, into sink: inout Sink) throws {
        do {
            if isHeader {
                try readHeaderBlock(block, into: &header, blob: blob, file: file)
            } else {
                var decoder = PrimitiveBlockDecoder(block: block, blob: blob, file: file)
                try decoder.decode(into: &sink)
            }
        } catch let error as OSMPBFError {
            throw error
        } catch let error as ProtobufError {
            throw OSMPBFError(file: file, blob: blob, byte: error.byteOffset, inBlockData: true, reason: .badMessage(error.reason))
        }
    }

    /// One blob's framing: its type and where its `Blob` message lies in the file.
    struct Frame {
        var type: String
        var blobStart: Int
        var end: Int
    }

    /// Reads the length, the `BlobHeader` and the extent of the blob at `position`.
    static func readFrame(_ bytes: [UInt8], at position: Int, blob: Int, file: String) throws(OSMPBFError) -> Frame {
        func fail(_ byte: Int, _ reason: OSMPBFError.Reason) -> OSMPBFError {
            OSMPBFError(file: file, blob: blob, byte: byte, reason: reason)
        }
        guard bytes.count - position >= 4 else { throw fail(position, .truncated("a blob's 4-byte length")) }
        let headerLength = Int(bytes[position]) << 24 | Int(bytes[position + 1]) << 16 | Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
        guard headerLength <= maximumBlobHeaderSize else {
            throw blob == 1 ? fail(position, .notPBF("it does not start with a blob header length")) : fail(position, .blobHeaderTooLarge(headerLength))
        }
        let headerStart = position + 4
        guard bytes.count - headerStart >= headerLength else { throw fail(headerStart, .truncated("a blob header of \(headerLength) bytes")) }
        let (type, dataSize) = try readBlobHeader(bytes[headerStart..<headerStart + headerLength], blob: blob, file: file)
        let blobStart = headerStart + headerLength
        guard Int64(bytes.count - blobStart) >= dataSize else {
            throw fail(blobStart, .truncated("a blob of \(dataSize) bytes (\(bytes.count - blobStart) remain)"))
        }
        return Frame(type: type, blobStart: blobStart, end: blobStart + Int(dataSize))
    }

    /// The type and data size of a `BlobHeader` message (`bytes` keep their file offsets for errors);
    /// the size is checked against ``maximumBlobSize``.
    static func readBlobHeader(_ bytes: ArraySlice<UInt8>, blob: Int, file: String) throws(OSMPBFError) -> (type: String, dataSize: Int64) {
        func fail(_ byte: Int, _ reason: OSMPBFError.Reason) -> OSMPBFError {
            OSMPBFError(file: file, blob: blob, byte: byte, reason: reason)
        }
        let headerStart = bytes.startIndex
        var reader = ProtobufReader(bytes)
        var type = "", dataSize: Int64 = -1
        do {
            while let field = try reader.nextField() {
                switch field.number {
                case 1:
                    try reader.expect(field.wireType, .lengthDelimited, field: "BlobHeader.type")
                    type = try reader.readString()
                case 3:
                    try reader.expect(field.wireType, .varint, field: "BlobHeader.datasize")
                    dataSize = try reader.readInt64()
                default:
                    try reader.skip(field.wireType)
                }
            }
        } catch {
            throw blob == 1 ? fail(error.byteOffset, .notPBF("its first blob header does not decode: \(error.reason)"))
                            : fail(error.byteOffset, .badMessage("blob header: \(error.reason)"))
        }
        guard !type.isEmpty, dataSize >= 0 else {
            throw blob == 1 ? fail(headerStart, .notPBF("its first blob header has no type or size"))
                            : fail(headerStart, .badMessage("the blob header has no type or no size"))
        }
        guard dataSize <= Int64(maximumBlobSize) else { throw fail(headerStart, .blobTooLarge(Int(dataSize))) }
        return (type, dataSize)
    }

    /// The block held by the `Blob` message `blob`: raw, or zlib-decompressed and checked.
    static func decompress(_ message: ArraySlice<UInt8>, blob: Int, file: String) throws(OSMPBFError) -> [UInt8] {
        func fail(_ byte: Int, _ reason: OSMPBFError.Reason) -> OSMPBFError {
            OSMPBFError(file: file, blob: blob, byte: byte, reason: reason)
        }
        var reader = ProtobufReader(message)
        var raw: ArraySlice<UInt8>?, zlib: ArraySlice<UInt8>?, rawSize: Int64?
        var unsupported: (method: String, byte: Int)?
        do throws(ProtobufError) {
            fields: while let field = try reader.nextField() {
                let start = reader.position
                switch field.number {
                case 1:
                    try reader.expect(field.wireType, .lengthDelimited, field: "Blob.raw")
                    raw = try reader.readLengthDelimited()
                case 2:
                    try reader.expect(field.wireType, .varint, field: "Blob.raw_size")
                    rawSize = try reader.readInt64()
                case 3:
                    try reader.expect(field.wireType, .lengthDelimited, field: "Blob.zlib_data")
                    zlib = try reader.readLengthDelimited()
                case 4, 5, 6, 7:
                    unsupported = ([4: "lzma", 5: "bzip2", 6: "lz4", 7: "zstd"][field.number] ?? "?", start)
                    break fields
                default:
                    try reader.skip(field.wireType)
                }
            }
        } catch {
            throw fail(error.byteOffset, .badMessage("blob: \(error.reason)"))
        }
        if let unsupported { throw fail(unsupported.byte, .unsupportedCompression(unsupported.method)) }
        if let raw {
            guard raw.count <= maximumBlobSize else { throw fail(raw.startIndex, .blobTooLarge(raw.count)) }
            return Array(raw)
        }
        guard let zlib else { throw fail(message.startIndex, .badMessage("the blob holds neither raw nor zlib data")) }
        if let rawSize, rawSize < 0 || rawSize > Int64(maximumBlobSize) { throw fail(message.startIndex, .blobTooLarge(Int(clamping: rawSize))) }
        return try inflateZlib(zlib, expectedSize: rawSize.map(Int.init), fail: fail)
    }

    /// Decompresses a zlib stream (RFC 1950) whose bytes are exactly `stream`, checking its header,
    /// its size against `expectedSize` and its Adler-32.
    static func inflateZlib(_ stream: ArraySlice<UInt8>, expectedSize: Int?,
                            fail: (Int, OSMPBFError.Reason) -> OSMPBFError) throws(OSMPBFError) -> [UInt8] {
        let start = stream.startIndex
        guard stream.count >= 6 else { throw fail(start, .badZlib("\(stream.count) bytes, too short for a zlib stream")) }
        let method = stream[start], flags = stream[start + 1]
        guard method & 0x0F == 8, method >> 4 <= 7 else {
            throw fail(start, .badZlib("compression method byte 0x\(String(method, radix: 16)) is not DEFLATE with a window of at most 32 KiB"))
        }
        guard (UInt16(method) << 8 | UInt16(flags)) % 31 == 0 else { throw fail(start, .badZlib("the header's check bits are wrong")) }
        guard flags & 0x20 == 0 else { throw fail(start, .badZlib("the stream needs a preset dictionary")) }
        let limit = expectedSize ?? maximumBlobSize
        let output: [UInt8]
        do {
            output = try Inflater.inflate(Array(stream[(start + 2)..<(stream.endIndex - 4)]), sizeHint: limit, limit: limit)
        } catch let error as DeflateError {
            throw fail(start + 2 + error.byteOffset, .badZlib(error.reasonText))
        } catch {
            throw fail(start + 2, .badZlib("\(error)"))
        }
        if let expectedSize, output.count != expectedSize {
            throw fail(start, .badZlib(output.count > expectedSize ? "it decompresses to more than the blob's raw_size of \(expectedSize) bytes"
                                                                   : "it decompresses to \(output.count) bytes, the blob says \(expectedSize)"))
        }
        guard output.count <= maximumBlobSize else { throw fail(start, .blobTooLarge(output.count)) }
        let end = stream.endIndex
        let stored = UInt32(stream[end - 4]) << 24 | UInt32(stream[end - 3]) << 16 | UInt32(stream[end - 2]) << 8 | UInt32(stream[end - 1])
        let computed = Adler32.checksum(output)
        guard stored == computed else {
            throw fail(end - 4, .badZlib("Adler-32 of the data is \(HexText.digits(computed, count: 8)), the stream says \(HexText.digits(stored, count: 8))"))
        }
        return output
    }

    /// Reads the `HeaderBlock`: required features (all must be known), bounding box, writing program.
    static func readHeaderBlock(_ block: [UInt8], into data: inout OSMData, blob: Int, file: String) throws {
        var reader = ProtobufReader(block[...])
        while let field = try reader.nextField() {
            let start = reader.position
            switch field.number {
            case 1:
                try reader.expect(field.wireType, .lengthDelimited, field: "HeaderBlock.bbox")
                var box = ProtobufReader(try reader.readLengthDelimited())
                var sides: [UInt64: Int64] = [:]
                while let side = try box.nextField() {
                    if (1...4).contains(side.number), side.wireType == .varint { sides[side.number] = try box.readSignedVarint() } else { try box.skip(side.wireType) }
                }
                if let left = sides[1], let right = sides[2], let top = sides[3], let bottom = sides[4] {
                    data.boundingBox = (Double(left) / 1e9, Double(bottom) / 1e9, Double(right) / 1e9, Double(top) / 1e9)
                }
            case 4:
                try reader.expect(field.wireType, .lengthDelimited, field: "HeaderBlock.required_features")
                let feature = try reader.readString()
                guard supportedFeatures.contains(feature) else {
                    throw OSMPBFError(file: file, blob: blob, byte: start, inBlockData: true, reason: .unsupportedFeature(feature))
                }
            case 16:
                try reader.expect(field.wireType, .lengthDelimited, field: "HeaderBlock.writingprogram")
                data.writingProgram = try reader.readString()
            default:
                try reader.skip(field.wireType)
            }
        }
    }
}
