import GMapCodecs

/// What a streamed read learnt besides the elements: the header's fields and the blob count.
public struct OSMPBFHeader: Sendable {
    /// The header's bounding box in degrees (west, south, east, north), when it has one.
    public var boundingBox: (west: Double, south: Double, east: Double, north: Double)?
    /// The header's `writingprogram`, when present.
    public var writingProgram: String?
    /// The number of blobs read (the header blob included).
    public var blobCount = 0
}

extension OSMPBFReader {
    /// Reads the PBF file at `path` ("-" for standard input) blob by blob, giving each element to
    /// `sink` in file order: only one blob (at most 32 MiB stored and 32 MiB decompressed) and its
    /// decoded block are held at a time, never the file. The framing, checks and errors are those
    /// of ``read(_:file:)`` (the same ``OSMPBFError``s, naming the same blob and byte); an error
    /// the sink throws goes through as it is. Errors: ``FileReadError``, ``OSMPBFError``, the sink's.
    public static func stream<Sink: OSMElementSink>(path: String, into sink: inout Sink) throws -> OSMPBFHeader {
        try stream(try FileByteSource(path: path), file: path == "-" ? "<stdin>" : path, into: &sink)
    }

    /// Reads PBF bytes from `source` blob by blob into `sink` (see ``stream(path:into:)``); `file` names them in errors.
    public static func stream<Sink: OSMElementSink>(_ source: any ByteSource, file: String, into sink: inout Sink) throws -> OSMPBFHeader {
        var headerData = OSMData()
        var position = 0  // the file offset of the next frame
        var blob = 0
        var buffer: [UInt8] = []
        var readError: (any Error)?
        /// Reads up to `count` bytes into `buffer` (replacing it); returns how many were read (fewer only at the end).
        func fill(_ count: Int) throws -> Int {
            var filled = 0
            readError = nil
            // Read straight into the array's storage, as much as the source gives at a time.
            buffer = [UInt8](unsafeUninitializedCapacity: count) { storage, initialised in
                initialised = 0
                while filled < count {
                    let got: Int
                    do {
                        got = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(storage)[filled..<count]))
                    } catch {
                        readError = error
                        break
                    }
                    if got == 0 { break }
                    filled += got
                }
                initialised = filled
            }
            if let error = readError { throw error }
            return filled
        }
        func fail(_ byte: Int, _ reason: OSMPBFError.Reason) -> OSMPBFError {
            OSMPBFError(file: file, blob: blob, byte: byte, reason: reason)
        }
        while true {
            let got = try fill(4)
            if got == 0 { break }
            blob += 1
            guard got == 4 else { throw fail(position, .truncated("a blob's 4-byte length")) }
            let headerLength = Int(buffer[0]) << 24 | Int(buffer[1]) << 16 | Int(buffer[2]) << 8 | Int(buffer[3])
            guard headerLength <= maximumBlobHeaderSize else {
                throw blob == 1 ? fail(position, .notPBF("it does not start with a blob header length")) : fail(position, .blobHeaderTooLarge(headerLength))
            }
            let headerStart = position + 4
            guard try fill(headerLength) == headerLength else { throw fail(headerStart, .truncated("a blob header of \(headerLength) bytes")) }
            // Errors name file offsets: rebase the header's bytes there.
            let header: (type: String, dataSize: Int64)
            do {
                header = try readBlobHeader(buffer[...], blob: blob, file: file)
            } catch {
                throw OSMPBFError(file: file, blob: blob, byte: error.byte + headerStart, reason: error.reason)
            }
            let blobStart = headerStart + headerLength
            let size = Int(header.dataSize)
            let read = try fill(size)
            guard read == size else { throw fail(blobStart, .truncated("a blob of \(size) bytes (\(read) remain)")) }
            if blob == 1, header.type != "OSMHeader" {
                throw OSMPBFError(file: file, blob: 1, byte: position, reason: .notPBF("the first blob is \"\(InputExcerpt.text(header.type))\", not OSMHeader"))
            }
            position = blobStart + size
            guard header.type == "OSMHeader" || header.type == "OSMData" else { continue }  // readers skip unknown blob types
            let block: [UInt8]
            do {
                block = try decompress(buffer[...], blob: blob, file: file)
            } catch {
                throw OSMPBFError(file: file, blob: blob, byte: error.inBlockData ? error.byte : error.byte + blobStart, inBlockData: error.inBlockData,
                                  reason: error.reason)
            }
            try decodeBlock(block, isHeader: header.type == "OSMHeader", blob: blob, file: file, header: &headerData, into: &sink)
        }
        if blob == 0 { throw OSMPBFError(file: file, blob: 0, byte: 0, reason: .notPBF("the file is empty")) }
        return OSMPBFHeader(boundingBox: headerData.boundingBox, writingProgram: headerData.writingProgram, blobCount: blob)
    }
}
