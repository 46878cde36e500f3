import GMapChecksum

/// The decompressed bytes of gzip data (RFC 1952), decoded as they are read.
///
/// Every member of a multi-member file (gzip files concatenated) is decoded in turn, each checked against
/// its trailer's CRC-32 and size; zero bytes after the last member are ignored, as gzip does. Memory stays
/// bounded (about 0.5 MiB: input buffer, 32 KiB window plus 256 KiB of output, Huffman tables) whatever the
/// size of the data.
public final class GzipByteSource: ByteSource {
    private enum Phase {
        case header
        case body
        case ended
    }

    private let input: BitInput
    private let inflater: Inflater
    private var phase = Phase.header
    private var member = 0
    private var checksum = CRC32()
    private var size: UInt32 = 0

    /// Decompresses the gzip data that `source` yields.
    public init(compressed source: any ByteSource) {
        input = BitInput(source: source)
        inflater = Inflater(input: input)
    }

    /// Whether `prefix` starts with the gzip magic bytes 1f 8b.
    public static func hasMagic(_ prefix: [UInt8]) -> Bool {
        prefix.count >= 2 && prefix[0] == 0x1F && prefix[1] == 0x8B
    }

    /// Reads decompressed bytes; 0 after the last member. Throws ``GzipError`` for corrupt data, and whatever
    /// the compressed source throws.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            switch phase {
            case .ended:
                return 0
            case .header:
                guard try readHeader() else {
                    phase = .ended
                    return 0
                }
                phase = .body
            case .body:
                let count: Int
                do {
                    count = try inflater.read(into: buffer)
                } catch let error as DeflateError {
                    throw GzipError(.deflate(error.reason), member: member, byteOffset: error.byteOffset)
                }
                if count > 0 {
                    checksum.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                    size &+= UInt32(truncatingIfNeeded: count)
                    return count
                }
                try readTrailer()
                phase = .header
            }
        }
    }

    private func fail(_ reason: GzipError.Reason) -> GzipError {
        GzipError(reason, member: max(member, 1), byteOffset: input.byteOffset)
    }

    /// Reads the next member's header; returns false at the end of the data (or zero padding after a member).
    private func readHeader() throws -> Bool {
        guard let first = try input.readByte() else {
            if member == 0 { throw fail(.notGzip) }
            return false
        }
        if member > 0 && first == 0 {
            while let byte = try input.readByte() {
                if byte != 0 { throw fail(.trailingData) }
            }
            return false
        }
        guard first == 0x1F, try input.readByte() == 0x8B else {
            throw fail(member == 0 ? .notGzip : .trailingData)
        }
        member += 1
        var header = CRC32()
        header.update([0x1F, 0x8B])
        func next() throws -> UInt8 {
            guard let byte = try input.readByte() else { throw fail(.truncatedHeader) }
            header.update([byte])
            return byte
        }
        let method = try next()
        guard method == 8 else { throw fail(.unsupportedMethod(Int(method))) }
        let flags = try next()
        guard flags & 0xE0 == 0 else { throw fail(.reservedFlags(Int(flags & 0xE0))) }
        for _ in 0..<6 { _ = try next() }  // MTIME, XFL, OS
        if flags & 0x04 != 0 {  // FEXTRA
            let length = Int(try next()) | Int(try next()) << 8
            for _ in 0..<length { _ = try next() }
        }
        for flag: UInt8 in [0x08, 0x10] where flags & flag != 0 {  // FNAME, FCOMMENT: zero-terminated
            while try next() != 0 {}
        }
        if flags & 0x02 != 0 {  // FHCRC
            let computed = Int(header.value & 0xFFFF)
            let stored = Int(try next()) | Int(try next()) << 8
            guard stored == computed else { throw fail(.headerChecksumMismatch(stored: stored, computed: computed)) }
        }
        checksum = CRC32()
        size = 0
        inflater.startNextStream()
        return true
    }

    /// Reads and checks the member's trailer: CRC-32 and ISIZE, little-endian.
    private func readTrailer() throws {
        var value: UInt64 = 0
        for index in 0..<8 {
            guard let byte = try input.readByte() else { throw fail(.truncatedTrailer) }
            value |= UInt64(byte) << (8 * UInt64(index))
        }
        let storedChecksum = UInt32(truncatingIfNeeded: value), storedSize = UInt32(truncatingIfNeeded: value >> 32)
        guard storedChecksum == checksum.value else { throw fail(.checksumMismatch(stored: storedChecksum, computed: checksum.value)) }
        guard storedSize == size else { throw fail(.sizeMismatch(stored: storedSize, computed: size)) }
    }
}
