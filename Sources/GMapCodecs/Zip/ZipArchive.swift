import GMapChecksum

/// A ZIP archive in memory (PKWARE APPNOTE): its central directory, and entries stored or deflated.
///
/// Enough for shapefiles as distributed (Natural Earth and the like): no ZIP64, encryption or multi-disk archives.
public struct ZipArchive: Sendable {
    /// One file of the archive, as its central directory describes it.
    public struct Entry: Sendable, Equatable {
        /// The path inside the archive ("folder/name.shp").
        public var name: String
        /// 0 stored, 8 deflate.
        public var method: Int
        /// General-purpose flags (bit 0: encrypted).
        public var flags: Int
        /// CRC-32 of the uncompressed data.
        public var checksum: UInt32
        /// Bytes of compressed data.
        public var compressedSize: Int
        /// Bytes once uncompressed.
        public var size: Int
        /// Where the entry's local header starts.
        public var localHeaderOffset: Int

        /// Whether the entry is a folder.
        public var isDirectory: Bool { name.hasSuffix("/") }
    }

    /// The archive's name, for error messages.
    public let name: String
    /// The entries, in central directory order.
    public let entries: [Entry]
    private let data: BinaryBytes

    /// Reads the central directory of the archive `bytes`, named `name` in errors.
    public init(bytes: [UInt8], name: String) throws(ZipError) {
        self.name = name
        data = BinaryBytes(bytes: bytes)
        entries = try Self.readDirectory(data, name: name)
    }

    /// The end-of-central-directory record's signature, "PK\u{5}\u{6}".
    static let endSignature = 0x0605_4B50
    static let directorySignature = 0x0201_4B50
    static let localSignature = 0x0403_4B50

    /// Whether `prefix` starts like a ZIP archive ("PK\u{3}\u{4}", or "PK\u{5}\u{6}" for an empty one).
    public static func hasMagic(_ prefix: [UInt8]) -> Bool {
        prefix.count >= 4 && prefix[0] == 0x50 && prefix[1] == 0x4B && ((prefix[2] == 3 && prefix[3] == 4) || (prefix[2] == 5 && prefix[3] == 6))
    }

    private static func readDirectory(_ data: BinaryBytes, name: String) throws(ZipError) -> [Entry] {
        // The end record is 22 bytes plus a comment of up to 65,535 bytes, at the very end.
        var end = -1
        var offset = data.count - 22
        while offset >= max(0, data.count - 22 - 65_535) {
            if data.uint32(at: offset) == endSignature {
                end = offset
                break
            }
            offset -= 1
        }
        guard end >= 0, let disk = data.uint16(at: end + 4), let directoryDisk = data.uint16(at: end + 6),
              let count = data.uint16(at: end + 10), let directorySize = data.uint32(at: end + 12),
              let directoryOffset = data.uint32(at: end + 16)
        else { throw ZipError(.notZip, archive: name, byteOffset: max(0, data.count)) }
        guard count != 0xFFFF, directoryOffset != 0xFFFF_FFFF, directorySize != 0xFFFF_FFFF else {
            throw ZipError(.zip64, archive: name, byteOffset: end)
        }
        guard disk == 0, directoryDisk == 0 else { throw ZipError(.multiDisk, archive: name, byteOffset: end) }
        guard directoryOffset + directorySize <= end else {
            throw ZipError(.malformed("the central directory (\(directorySize) bytes at \(directoryOffset)) runs past its end record"),
                           archive: name, byteOffset: end)
        }
        var entries: [Entry] = []
        var position = directoryOffset
        for index in 0..<count {
            guard data.uint32(at: position) == directorySignature,
                  let flags = data.uint16(at: position + 8), let method = data.uint16(at: position + 10),
                  let checksum = data.uint32(at: position + 16), let compressedSize = data.uint32(at: position + 20),
                  let size = data.uint32(at: position + 24), let nameLength = data.uint16(at: position + 28),
                  let extraLength = data.uint16(at: position + 30), let commentLength = data.uint16(at: position + 32),
                  let localOffset = data.uint32(at: position + 42),
                  let nameBytes = data.slice(position + 46, nameLength)
            else {
                throw ZipError(.malformed("central directory entry \(index + 1) of \(count) is damaged"), archive: name, byteOffset: position)
            }
            guard compressedSize != 0xFFFF_FFFF, size != 0xFFFF_FFFF, localOffset != 0xFFFF_FFFF else {
                throw ZipError(.zip64, archive: name, byteOffset: position)
            }
            entries.append(Entry(name: String(decoding: nameBytes, as: UTF8.self), method: method, flags: flags,
                                 checksum: UInt32(checksum), compressedSize: compressedSize, size: size,
                                 localHeaderOffset: localOffset))
            position += 46 + nameLength + extraLength + commentLength
        }
        return entries
    }

    /// The entry called `name` (case-insensitively), if any.
    public func entry(named name: String) -> Entry? {
        let wanted = name.lowercased()
        return entries.first { $0.name.lowercased() == wanted }
    }

    /// The stored bytes of `entry` (compressed for method 8) and where they start in the archive,
    /// after its local header; an encrypted entry, or one whose header or bytes are not where the
    /// directory says, is an error.
    func storedBytes(of entry: Entry) throws(ZipError) -> (bytes: ArraySlice<UInt8>, start: Int) {
        let header = entry.localHeaderOffset
        func fail(_ reason: ZipError.Reason, at offset: Int) -> ZipError {
            ZipError(reason, archive: name, entry: entry.name, byteOffset: offset)
        }
        guard data.uint32(at: header) == Self.localSignature, let nameLength = data.uint16(at: header + 26),
              let extraLength = data.uint16(at: header + 28)
        else { throw fail(.malformed("no local header where the directory says"), at: header) }
        guard entry.flags & 1 == 0 else { throw fail(.encrypted, at: header) }
        let start = header + 30 + nameLength + extraLength
        guard let compressed = data.slice(start, entry.compressedSize) else {
            throw fail(.malformed("the entry's \(entry.compressedSize) bytes run past the end of the archive"), at: start)
        }
        guard entry.method == 0 || entry.method == 8 else { throw fail(.unsupportedMethod(entry.method), at: header) }
        return (compressed, start)
    }

    /// A source of `entry`'s uncompressed bytes, decoded as they are read (memory stays bounded
    /// whatever the entry's size), checked against its size and CRC-32 (see ``ZipEntrySource``).
    public func source(of entry: Entry) throws(ZipError) -> ZipEntrySource {
        let (bytes, start) = try storedBytes(of: entry)
        return ZipEntrySource(entry: entry, archive: name, stored: Array(bytes), start: start)
    }

    /// The uncompressed bytes of `entry`, checked against its size and CRC-32.
    public func contents(of entry: Entry) throws(ZipError) -> [UInt8] {
        func fail(_ reason: ZipError.Reason, at offset: Int) -> ZipError {
            ZipError(reason, archive: name, entry: entry.name, byteOffset: offset)
        }
        let (compressed, start) = try storedBytes(of: entry)
        let result: [UInt8]
        switch entry.method {
        case 0:
            result = Array(compressed)
        case 8:
            do {
                result = try Inflater.inflate(Array(compressed), sizeHint: entry.size, limit: entry.size)
            } catch let error as DeflateError {
                throw fail(.deflate(error.reason), at: start + error.byteOffset)
            } catch {
                throw fail(.malformed("\(error)"), at: start)
            }
        default:
            throw fail(.unsupportedMethod(entry.method), at: entry.localHeaderOffset)
        }
        guard result.count == entry.size else { throw fail(.sizeMismatch(stored: entry.size, computed: result.count), at: start) }
        let computed = CRC32.checksum(result)
        guard computed == entry.checksum else { throw fail(.checksumMismatch(stored: entry.checksum, computed: computed), at: start) }
        return result
    }
}
