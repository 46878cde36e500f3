/// How large a map this platform can read, and the check every length from a file passes before it
/// becomes an `Int`.
///
/// Offsets and lengths in the format are fixed-width (`u32`, `u64`); the reader converts them to
/// `Int` only after checking them against the file's length, and the file's length is checked
/// here first. On a 32-bit target (`Int` of 32 bits: armv7, wasm32, i686) that refuses maps of
/// 2 GiB or more with ``GMapError/tooLarge(length:)`` instead of trapping; on a 64-bit target the
/// limit is far beyond any file.
public enum AddressLimit {
    /// The largest map, in bytes, that a reader on this platform opens: `Int.max`, which is
    /// 2,147,483,647 (2 GiB − 1) on 32-bit targets.
    public static let maximumMapLength = UInt64(Int.max)

    /// `length` as an `Int` when it is at most `limit`; otherwise throws ``GMapError/tooLarge(length:)``.
    ///
    /// `limit` is ``maximumMapLength`` except in tests, which pass a smaller one to exercise the
    /// 32-bit path on a 64-bit machine.
    @inlinable
    public static func checkedLength(_ length: UInt64, limit: UInt64 = maximumMapLength) throws(GMapError) -> Int {
        guard length <= limit, length <= maximumMapLength else { throw .tooLarge(length: length) }
        return Int(length)
    }
}
