import GMapChecksum

/// The uncompressed bytes of one ZIP entry, decoded as they are read (``ZipArchive/source(of:)``).
///
/// Decoding stops with an error as soon as the entry yields more bytes than the central directory
/// says it holds, so an entry that lies about its size (a ZIP bomb) costs no more than it declares;
/// at its end, its size and CRC-32 are checked. Memory is the stored bytes and the decoder's window.
public final class ZipEntrySource: ByteSource {
    private let entry: ZipArchive.Entry
    private let archive: String
    /// Where the entry's stored bytes start in the archive, for error offsets.
    private let start: Int
    private let stored: MemoryByteSource
    private let inflater: Inflater?
    private var checksum = CRC32()
    private var size = 0
    private var ended = false

    /// Reads the stored bytes `stored` of `entry` (method 0 or 8), which start at byte `start` of the archive called `archive`.
    init(entry: ZipArchive.Entry, archive: String, stored: [UInt8], start: Int) {
        self.entry = entry
        self.archive = archive
        self.start = start
        self.stored = MemoryByteSource(stored)
        inflater = entry.method == 8 ? Inflater(input: BitInput(source: self.stored)) : nil
    }

    private func fail(_ reason: ZipError.Reason, at offset: Int) -> ZipError {
        ZipError(reason, archive: archive, entry: entry.name, byteOffset: offset)
    }

    /// The next uncompressed bytes; 0 at the entry's end. Throws ``ZipError`` for corrupt data, more
    /// bytes than the directory says, or a size or CRC-32 that differ from the directory's.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard !ended, buffer.count > 0 else { return 0 }
        // One byte more than the entry should hold shows a lie without decoding further.
        let room = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<min(buffer.count, entry.size - size + 1)])
        let count: Int
        do {
            count = try inflater.map { try $0.read(into: room) } ?? stored.read(into: room)
        } catch let error as DeflateError {
            throw fail(.deflate(error.reason), at: start + error.byteOffset)
        }
        if count == 0 {
            ended = true
            guard size == entry.size else { throw fail(.sizeMismatch(stored: entry.size, computed: size), at: start) }
            guard checksum.value == entry.checksum else {
                throw fail(.checksumMismatch(stored: entry.checksum, computed: checksum.value), at: start)
            }
            return 0
        }
        size += count
        guard size <= entry.size else {
            ended = true
            throw fail(.sizeMismatch(stored: entry.size, computed: size), at: start)
        }
        checksum.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        return count
    }
}
