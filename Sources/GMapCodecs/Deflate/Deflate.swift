/// Decompression of raw DEFLATE data (RFC 1951) held in memory.
public enum Deflate {
    /// The decompressed bytes of the raw DEFLATE stream `compressed` (no zlib or gzip framing). Bytes after the
    /// stream's final block are ignored.
    public static func inflate(_ compressed: [UInt8]) throws(DeflateError) -> [UInt8] {
        do {
            return try Inflater.inflate(compressed)
        } catch let error as DeflateError {
            throw error
        } catch {
            // A memory source never fails to read, so the inflater throws only DeflateErrors.
            throw DeflateError(.truncated, byteOffset: compressed.count)
        }
    }
}
