/// Compressed bytes from a ``ByteSource``, read a few bits at a time, least significant bit first (RFC 1951 §3.1.1),
/// or a byte at a time between DEFLATE streams (gzip and ZIP framing).
///
/// Bits are held in a 64-bit buffer. Past the end of the source, zero bytes are fed in and counted, so a decoder
/// can run without a bounds check per bit and find out afterwards (``overran``) whether it used bits that are
/// not there.
final class BitInput {
    /// Bytes read from the source at a time.
    static let bufferSize = 1 << 17

    private let source: any ByteSource
    /// The buffered bytes: `buffer[position..<end]` are not yet consumed.
    let buffer: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    /// The next byte of `buffer` to move into `bits`.
    var position = 0
    /// The end of the bytes in `buffer`.
    var end = 0
    /// Input bits not yet consumed, the next one in bit 0.
    var bits: UInt64 = 0
    /// How many of `bits` are input (the bits above them may hold copies of the bytes at `position`).
    var bitCount = 0
    /// Zero bytes fed into `bits` after the source ended.
    var paddingBytes = 0
    private var sourceEnded = false
    /// Bytes of the source before `buffer[0]`.
    private var discarded = 0

    /// Reads from `source`.
    init(source: any ByteSource) {
        self.source = source
        capacity = Self.bufferSize
        buffer = .allocate(capacity: capacity + 8)
    }

    deinit {
        buffer.deallocate()
    }

    /// The offset in the source of the byte holding the next unconsumed bit.
    var byteOffset: Int { byteOffset(position: position, bitCount: bitCount) }

    /// ``byteOffset`` for a decoder that holds `position` and `bitCount` in locals.
    func byteOffset(position: Int, bitCount: Int) -> Int {
        min(max(0, discarded + position + paddingBytes - bitCount / 8), discarded + end)
    }

    /// Whether the consumed bits include padding, i.e. the data ended too soon.
    var overran: Bool { paddingBytes > 0 && bitCount < paddingBytes * 8 }

    /// Reads more of the source into the buffer, keeping the 8 bytes before `position` (so that whole bytes
    /// in `bits` can be given back). Returns false at the end of the source.
    func reload() throws -> Bool {
        if sourceEnded { return false }
        let keepFrom = max(position - 8, 0)
        let kept = end - keepFrom
        if keepFrom > 0 {
            UnsafeMutableRawPointer(buffer).copyMemory(from: buffer + keepFrom, byteCount: kept)  // overlapping: a memmove
            discarded += keepFrom
            position -= keepFrom
            end = kept
        }
        if end == capacity { return true }
        let got = try source.read(into: UnsafeMutableRawBufferPointer(start: buffer + end, count: capacity - end))
        if got == 0 {
            sourceEnded = true
            return false
        }
        end += got
        return true
    }

    /// Fills `bits` to at least 56 bits, with zero padding past the end of the source.
    @inline(__always)
    func refill() throws {
        if end - position >= 8 {
            let word = UInt64(littleEndian: UnsafeRawPointer(buffer + position).loadUnaligned(as: UInt64.self))
            bits |= word << UInt64(bitCount)
            position += (63 - bitCount) >> 3
            bitCount |= 56
        } else {
            try refillSlowly()
        }
    }

    /// Fills `bits` byte by byte near the end of the buffer.
    func refillSlowly() throws {
        while bitCount <= 56 {
            if position < end {
                bits |= UInt64(buffer[position]) << UInt64(bitCount)
                position += 1
                bitCount += 8
            } else if try !reload() {
                paddingBytes += 1
                bitCount += 8
            }
        }
    }

    /// Consumes and returns the next `count` bits (at most 32; `bitCount` must be at least `count`).
    @inline(__always)
    func take(_ count: Int) -> Int {
        let value = Int(truncatingIfNeeded: bits & ((1 << UInt64(count)) - 1))
        bits >>= UInt64(count)
        bitCount -= count
        return value
    }

    /// Consumes the next `count` bits, refilling first if needed.
    func read(_ count: Int) throws -> Int {
        if bitCount < count { try refill() }
        return take(count)
    }

    /// Drops the bits up to the next byte boundary, then gives the whole bytes still in `bits` back to the
    /// buffer, so that byte reads continue exactly after the last consumed bit.
    func alignToByte() {
        let realBytes = bitCount / 8 - paddingBytes
        if realBytes > 0 { position -= realBytes }
        bits = 0
        bitCount = 0
        paddingBytes = 0
    }

    /// The next byte (after ``alignToByte()``), or nil at the end of the source.
    func readByte() throws -> UInt8? {
        if position == end, try !reload() { return nil }
        let byte = buffer[position]
        position += 1
        return byte
    }

    /// Copies up to `count` bytes (after ``alignToByte()``) to `destination`; returns how many, 0 at the end.
    func copyBytes(to destination: UnsafeMutablePointer<UInt8>, count: Int) throws -> Int {
        if position == end, try !reload() { return 0 }
        let n = min(count, end - position)
        destination.update(from: buffer + position, count: n)
        position += n
        return n
    }
}
