/// The bytes a map reads: a read-only file mapping, a copy it owns, or a caller's buffer.
///
/// The bytes never change after opening, so sharing them across threads is safe.
@usableFromInline
final class MapStorage: @unchecked Sendable {
    @usableFromInline enum Ownership {
        case mapped      // munmap on release
        case allocated   // deallocate on release
        case borrowed    // the caller owns the memory
    }

    @usableFromInline let base: UnsafeRawPointer
    @usableFromInline let count: Int
    /// Where everything is, read once on open. Kept here so that a `GMap` is one reference wide.
    @usableFromInline let layout: MapLayout
    let ownership: Ownership
    /// For a layer after the first: the storage that owns the bytes, kept alive by this one.
    let owner: MapStorage?
    /// What a layer above the reader finds once per map and keeps (a placemark's layer roles), read
    /// and written only under ``cacheLock``. Whatever it holds must not keep this storage alive
    /// (it would never be freed): it reads the bytes through ``view(_:)``s.
    private var cache: AnyObject?
    /// The one lock of every map's ``cache``: taken for a pointer's read or write, so it is never held long.
    private static let cacheLock = SystemLock()

    private init(base: UnsafeRawPointer, count: Int, layout: MapLayout, ownership: Ownership, owner: MapStorage? = nil) {
        self.base = base
        self.count = count
        self.layout = layout
        self.ownership = ownership
        self.owner = owner
    }

    /// The same bytes read through another layer's layout; the new storage keeps this one alive.
    func layer(_ layout: MapLayout) -> MapStorage {
        MapStorage(base: base, count: count, layout: layout, ownership: .borrowed, owner: owner ?? self)
    }

    /// The same bytes read through `layout` without keeping this storage alive: for what this
    /// storage itself keeps (``cache``), which must not own it back. Nothing made from a view may
    /// outlive this storage.
    func view(_ layout: MapLayout) -> MapStorage {
        MapStorage(base: base, count: count, layout: layout, ownership: .borrowed, owner: nil)
    }

    /// The object kept in this storage's cache, made by `make` on the first call (or again if
    /// another thread's was not of type `Kept`); nil where there is no lock (``SystemLock/isAvailable``).
    /// `make` runs outside the lock: two threads may both make one, and the first stored is kept.
    func cached<Kept: AnyObject>(_ make: () -> Kept) -> Kept? {
        guard SystemLock.isAvailable else { return nil }
        if let kept = Self.cacheLock.withLock({ cache }) as? Kept { return kept }
        let made = make()
        return Self.cacheLock.withLock {
            if let kept = cache as? Kept { return kept }
            cache = made
            return made
        }
    }

    /// Reads the layout of the bytes and takes charge of them; on failure releases them as `ownership` says.
    static func adopting(
        base: UnsafeRawPointer, count: Int, ownership: Ownership, maximumLength: UInt64 = AddressLimit.maximumMapLength
    ) throws(GMapError) -> MapStorage {
        do {
            let layout = try MapLayout.read(ByteSpan(base: base, count: count), maximumLength: maximumLength)
            return MapStorage(base: base, count: count, layout: layout, ownership: ownership)
        } catch {
            release(base: base, count: count, ownership: ownership)
            throw error
        }
    }

    deinit {
        Self.release(base: base, count: count, ownership: ownership)
    }

    private static func release(base: UnsafeRawPointer, count: Int, ownership: Ownership) {
        switch ownership {
        case .mapped:
            SystemCalls.unmap(base, length: count)
        case .allocated:
            UnsafeMutableRawPointer(mutating: base).deallocate()
        case .borrowed:
            break
        }
    }

    #if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
    /// Maps a whole file read-only. Replacing the file by renaming a new one over it keeps this mapping valid.
    static func mapping(path: String) throws(GMapError) -> MapStorage {
        let mapped: (address: UnsafeRawPointer, length: Int)
        do {
            mapped = try SystemCalls.mapFile(atPath: path) { size throws(GMapError) in try AddressLimit.checkedLength(size) }
        } catch {
            switch error {
            case let .system(operation, code): throw .cannotOpen(path: path, operation: operation, code: code)
            case .empty: throw .truncated(expected: UInt64(FormatLayout.headerLength), actual: 0)
            case let .tooLarge(failure): throw failure
            case let .notAFile(kind): throw .notAFile(path: path, kind: kind)
            }
        }
        return try adopting(base: mapped.address, count: mapped.length, ownership: .mapped)
    }
    #endif

    /// Copies bytes into memory the storage owns.
    static func copying(_ bytes: UnsafeRawBufferPointer) throws(GMapError) -> MapStorage {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        if let source = bytes.baseAddress, bytes.count > 0 {
            memory.copyMemory(from: source, byteCount: bytes.count)
        }
        return try adopting(base: UnsafeRawPointer(memory), count: bytes.count, ownership: .allocated)
    }
}
