import GMapCodecs
/// Why an OpenStreetMap PBF file could not be read: which file, which blob, which byte, and what.
///
/// Printed as `x.osm.pbf: blob 3, byte 812: …`. `byte` is an offset in the file for the framing
/// (headers, blob sizes, compression) and, when ``inBlockData`` is true, an offset in the blob's
/// decompressed data (a block's messages).
public struct OSMPBFError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public enum Reason: Sendable, Equatable {
        /// The file does not start with an `OSMHeader` blob: not an OSM PBF file.
        case notPBF(String)
        /// A blob header's length is over the 64 KiB the format allows.
        case blobHeaderTooLarge(Int)
        /// A blob's stored or decompressed size is over the 32 MiB the format allows.
        case blobTooLarge(Int)
        /// The file ends inside a blob header or a blob.
        case truncated(String)
        /// A blob compressed with a method gmap does not read (lzma, lz4, zstd, bzip2).
        case unsupportedCompression(String)
        /// A zlib stream whose header, DEFLATE data or Adler-32 is wrong.
        case badZlib(String)
        /// A message that does not decode (Protocol Buffers wire format).
        case badMessage(String)
        /// The header block requires a feature gmap does not know.
        case unsupportedFeature(String)
        /// A node whose coordinates lie outside the world (|latitude| > 90°, |longitude| > 180°).
        case coordinateOutOfRange(nodeID: Int64, latitude: Double, longitude: Double)
        /// A string index outside the block's string table.
        case badStringIndex(Int64, tableSize: Int)
        /// Parallel arrays of different lengths (keys and values, or a dense group's ids and coordinates).
        case mismatchedArrays(String)
    }

    /// The file's name as given.
    public var file: String
    /// The 1-based blob (0 when the problem is before the first blob).
    public var blob: Int
    /// Where: a byte offset in the file, or in the blob's decompressed data when ``inBlockData``.
    public var byte: Int
    /// Whether ``byte`` counts in the blob's decompressed data rather than in the file.
    public var inBlockData: Bool
    /// What is wrong.
    public var reason: Reason

    /// An error from its parts.
    public init(file: String, blob: Int, byte: Int, inBlockData: Bool = false, reason: Reason) {
        self.file = file
        self.blob = blob
        self.byte = byte
        self.inBlockData = inBlockData
        self.reason = reason
    }

    /// E.g. "x.osm.pbf: blob 3, byte 812: blob compressed with lzma: not supported; zlib or raw only".
    public var description: String {
        let place = inBlockData ? "byte \(byte) of its decompressed data" : "byte \(byte)"
        return "\(file): blob \(blob), \(place): \(reasonText)"
    }

    private var reasonText: String {
        switch reason {
        case .notPBF(let detail): return "not an OpenStreetMap PBF file (\(detail))"
        case .blobHeaderTooLarge(let size): return "a blob header of \(size) bytes, more than the 65,536 the format allows"
        case .blobTooLarge(let size): return "a blob of \(size) bytes, more than the 33,554,432 (32 MiB) the format allows"
        case .truncated(let what): return "the file ends inside \(what) (truncated file?)"
        case .unsupportedCompression(let method): return "blob compressed with \(InputExcerpt.text(method)): not supported; zlib or raw only"
        case .badZlib(let detail): return "bad zlib data: \(detail)"
        case .badMessage(let detail): return "cannot decode: \(detail)"
        case .unsupportedFeature(let feature): return "the file requires \"\(InputExcerpt.text(feature))\", which gmap does not support (it reads OsmSchema-V0.6, DenseNodes and HistoricalInformation)"
        case let .coordinateOutOfRange(node, latitude, longitude):
            return "node \(node) has coordinates (\(latitude), \(longitude)) outside the world"
        case let .badStringIndex(index, size): return "string index \(index) outside the block's string table of \(size) strings"
        case .mismatchedArrays(let detail): return detail
        }
    }
}
