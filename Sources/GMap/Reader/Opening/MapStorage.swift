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
