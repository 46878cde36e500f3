import GMap

/// What a `gmap_map *` points at: a retained box around an open map.
///
/// The C side holds one reference from open to close; every other call borrows it.
final class MapHandle {
    /// The open map.
    let map: GMap

    private init(map: GMap) {
        self.map = map
    }

    /// A retained handle for C; ``release(_:)`` gives it back.
    static func retained(_ map: GMap) -> OpaquePointer {
        OpaquePointer(Unmanaged.passRetained(MapHandle(map: map)).toOpaque())
    }

    /// The map behind a handle, or nil for NULL.
    static func map(_ handle: OpaquePointer?) -> GMap? {
        guard let handle else { return nil }
        return Unmanaged<MapHandle>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue().map
    }

    /// The feature `index` of the map behind a handle, or nil for NULL or an index out of range.
    static func feature(_ handle: OpaquePointer?, _ index: UInt32) -> Feature? {
        // Int(exactly:) and not Int(_:): on a 32-bit target an index over Int32.max must not trap.
        guard let map = map(handle), let index = Int(exactly: index) else { return nil }
        return map.feature(at: index)
    }

    /// Drops the reference C held; NULL is allowed.
    static func release(_ handle: OpaquePointer?) {
        guard let handle else { return }
        Unmanaged<MapHandle>.fromOpaque(UnsafeRawPointer(handle)).release()
    }
}
