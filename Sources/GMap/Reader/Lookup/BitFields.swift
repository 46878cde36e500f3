/// Unsigned fields of up to 64 bits in a bit stream stored least significant bit first: stream bit
/// `i` is bit `i mod 8` of byte `i / 8` (Spec/FORMAT.md, "field(P, s, w)").
///
/// The caller has checked that the fields it reads lie in `start ..< start + byteCount`, and that
/// range lies inside the span; a field is read with one unaligned eight-byte load (and a ninth
/// byte for a field that straddles it) when the span has eight bytes from the field's first byte,
/// and byte by byte otherwise, never past `start + byteCount`.
@usableFromInline
struct BitFields {
    @usableFromInline let base: UnsafeRawPointer
    @usableFromInline let start: Int
    @usableFromInline let byteCount: Int
    /// The end of the span the bytes lie in: loads may read up to it, past the stream's own bytes.
    @usableFromInline let spanEnd: Int

    @inlinable init(base: UnsafeRawPointer, start: Int, byteCount: Int, spanEnd: Int) {
        self.base = base
        self.start = start
        self.byteCount = byteCount
        self.spanEnd = spanEnd
    }

    /// The mask of the low `width` bits (all bits for 64).
    @inlinable static func mask(_ width: UInt64) -> UInt64 {
        width >= 64 ? ~0 : (UInt64(1) &<< width) &- 1
    }

    /// The `width`-bit field (0…64) starting at stream bit `bit`; bits past the stream's bytes read as zero.
    @inlinable @inline(__always) func field(at bit: UInt64, width: UInt64) -> UInt64 {
        guard width > 0 else { return 0 }
        let byte = Int(truncatingIfNeeded: bit &>> 3), shift = bit & 7
        let first = start &+ byte
        if byte < byteCount, spanEnd &- first >= 8 {
            var word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: first, as: UInt64.self)) &>> shift
            if width &+ shift > 64, byte &+ 8 < byteCount {
                word |= UInt64(base.load(fromByteOffset: first &+ 8, as: UInt8.self)) &<< (64 &- shift)
            }
            return word & Self.mask(width)
        }
        return tailField(byte: byte, shift: shift, width: width)
    }

    /// ``field(at:width:)`` for a field whose eight bytes from its first would pass the span's end
    /// (or that starts past the stream's bytes): read byte by byte, bytes past the stream as zero.
    /// Out of line, so that the one-load case stays small where it is inlined.
    @usableFromInline @inline(never)
    func tailField(byte: Int, shift: UInt64, width: UInt64) -> UInt64 {
        let first = start &+ byte
        var word: UInt64 = 0
        var index = 0
        while index < 8, byte &+ index < byteCount {
            word |= UInt64(base.load(fromByteOffset: first &+ index, as: UInt8.self)) &<< UInt64(index &* 8)
            index &+= 1
        }
        word &>>= shift
        if width &+ shift > 64, byte &+ 8 < byteCount {
            word |= UInt64(base.load(fromByteOffset: first &+ 8, as: UInt8.self)) &<< (64 &- shift)
        }
        return word & Self.mask(width)
    }
}
