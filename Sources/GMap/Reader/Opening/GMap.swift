/// A `.gmap` map, opened in place: lookups read the file's bytes directly, without parsing it first.
///
/// ```swift
/// let map = try GMap(contentsOf: "world.gmap")
/// if let country = map.lookup(latitude: 36.14, longitude: -5.35) {
///     print(country.id)                    // "GI"
///     print(country.property("name") ?? "") // "Gibraltar"
/// }
/// ```
///
/// Opening reads the header and the section table and checks them, in time that does not grow with the file. A
/// lookup finds the point's tile in O(1) and tests only the edges stored there. A `GMap` is immutable: share it across threads.
public struct GMap: Sendable {
    @usableFromInline let storage: MapStorage
    /// A copy of the layout, for code off the lookup path.
    @usableFromInline var layout: MapLayout { storage.layout }

    @inlinable var span: ByteSpan { ByteSpan(base: storage.base, count: storage.count) }

    /// A map reading `storage` (a layer of an open map).
    init(storage: MapStorage) {
        self.storage = storage
    }

    // Declared only where there is a C library to map files with. In an Embedded build for bare
    // metal an app learns at compile time that it opens maps from memory (`init(unsafeBuffer:)`),
    // not from an error at run time. This condition, `MapStorage.mapping(path:)`'s and CGMap's
    // `gmap_open_path` (which answers GMAP_ERROR_UNAVAILABLE there) are the only platform
    // conditions outside the targets' SystemCalls files. (`hasFeature(Embedded)` in
    // `visitFeatures` and `DirectoryWalker` chooses how the lookup is compiled, not what it can do.)
    #if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
    /// Opens a map file by memory-mapping it read-only.
    ///
    /// Replacing the file later by renaming a new file over it is safe: this map keeps reading the
    /// old bytes. Truncating or rewriting the file in place while it is open is not.
    public init(contentsOf path: String) throws(GMapError) {
        storage = try MapStorage.mapping(path: path)
    }
    #endif

    /// Opens a map held in a caller's memory, without copying it (an app resource, a blob mapped from flash).
    ///
    /// The caller keeps the memory alive and unchanged for as long as this map, or any ``Feature``
    /// from it, is in use.
    public init(unsafeBuffer buffer: UnsafeRawBufferPointer) throws(GMapError) {
        try self.init(unsafeBuffer: buffer, maximumLength: AddressLimit.maximumMapLength)
    }

    /// Opens a caller's buffer as ``init(unsafeBuffer:)`` does, refusing a map whose header says it
    /// is longer than `maximumLength` bytes: how tests exercise the 32-bit limit on a 64-bit machine.
    @_spi(Testing)
    public init(unsafeBuffer buffer: UnsafeRawBufferPointer, maximumLength: UInt64) throws(GMapError) {
        guard let base = buffer.baseAddress else {
            throw .truncated(expected: UInt64(FormatLayout.headerLength), actual: 0)
        }
        storage = try MapStorage.adopting(base: base, count: buffer.count, ownership: .borrowed, maximumLength: maximumLength)
    }

    /// Opens a map from bytes, copying them into memory the map owns.
    public init(bytes: [UInt8]) throws(GMapError) {
        let copy = bytes.withUnsafeBytes { buffer in Result { () throws(GMapError) in try MapStorage.copying(buffer) } }
        storage = try copy.get()
    }

    // MARK: - What the file holds

    /// The format version the file was written with.
    public var formatVersion: (major: Int, minor: Int) { (Int(storage.layout.majorVersion), Int(storage.layout.minorVersion)) }
    /// How coordinates are quantized.
    public var quantizer: Quantizer { storage.layout.quantizer }
    /// The section table.
    public var sections: [SectionInfo] { storage.layout.sections }
    /// The tile grid's shape.
    public var grid: GridInfo { storage.layout.grid }
    /// The file's length in bytes.
    public var byteCount: Int { storage.count }
    /// Number of features.
    public var featureCount: Int { storage.layout.features.count }

    /// The feature at `index`, or nil when out of range. Features are numbered from the smallest area up.
    @inlinable public func feature(at index: Int) -> Feature? {
        guard index >= 0, index < storage.layout.features.count else { return nil }
        return Feature(map: self, index: index)
    }

    /// All features, smallest area first.
    public var features: [Feature] { (0..<featureCount).map { Feature(map: self, index: $0) } }

    /// The build metadata as key–value pairs (source file, id property, options), in file order.
    public var metadata: [(key: String, value: String)] {
        var pairs: [(key: String, value: String)] = []
        let file = span
        for index in 0..<layout.metadata.count {
            let record = layout.metadata.offset(of: index), m = FormatLayout.MetadataRecord.self
            guard let keyOffset = file.getUInt32(at: record + m.keyOffset), let keyLength = file.getUInt32(at: record + m.keyLength),
                  let valueOffset = file.getUInt32(at: record + m.valueOffset), let valueLength = file.getUInt32(at: record + m.valueLength),
                  let key = string(offset: keyOffset, length: keyLength),
                  let value = string(offset: valueOffset, length: valueLength) else { continue }
            pairs.append((key, value))
        }
        return pairs
    }

    /// Text from the string pool, or nil when the range lies outside it.
    @usableFromInline func string(offset: UInt32, length: UInt32) -> String? {
        stringBytes(offset: offset, length: length).map { String(decoding: $0, as: UTF8.self) }
    }

    // MARK: - Lookups

    /// The smallest-area feature that contains the point, or nil when none does or the coordinates
    /// are not valid (NaN, latitude outside [-90, 90], longitude outside [-180, 180]).
    ///
    /// Allocates nothing.
    @inlinable public func lookup(latitude: Double, longitude: Double) -> Feature? {
        guard let point = storage.layout.quantizer.queryPoint(latitude: latitude, longitude: longitude) else { return nil }
        var found = -1
        visitFeatures(containing: point) { index in
            found = index
            return false
        }
        return found >= 0 ? Feature(map: self, index: found) : nil
    }

    /// Every feature that contains the point, smallest area first; empty when none does or the coordinates are not valid.
    public func lookupAll(latitude: Double, longitude: Double) -> [Feature] {
        guard let point = storage.layout.quantizer.queryPoint(latitude: latitude, longitude: longitude) else { return [] }
        var found: [Feature] = []
        visitFeatures(containing: point) { index in
            found.append(Feature(map: self, index: index))
            return true
        }
        return found
    }

    /// Calls `body` with the index of each feature containing the grid point, smallest area first,
    /// until `body` returns false. Allocates nothing.
    ///
    /// `point` is already quantized and normalised (see ``Quantizer/queryPoint(latitude:longitude:)``).
    @inlinable public func visitFeatures(containing point: GridPoint, _ body: (Int) -> Bool) {
        // A layer of lines or points (format 3.1) contains no point; this reader does not read it.
        guard storage.layout.kind == .polygons else { return }
        #if hasFeature(Embedded)
        // On a device the stack a lookup needs counts more than a few instructions: the tile is found
        // first, in calls the compiler is free to keep, then read.
        guard let tile = DirectoryWalker.locate(point, in: storage) else { return }
        evaluate(tile: tile, point: point, body)
        #else
        guard let top = DirectoryWalker.topTile(holding: point, in: storage) else { return }
        // Most of a world's points lie in a top-level tile that is empty or wholly one feature's:
        // answered from its entry, without its bounds.
        switch TileEntry.kind(of: top.entry) {
        case TileEntry.emptyKind:
            return
        case TileEntry.coveredKind:
            let index = Int(TileEntry.payload(of: top.entry))
            if index < storage.layout.features.count { _ = body(index) }
        default:
            guard let tile = DirectoryWalker.leaf(below: top, holding: point, in: storage) else { return }
            evaluate(tile: tile, point: point, body)
        }
        #endif
    }

    /// Tests one tile's features against the point.
    @inlinable func evaluate(tile: LocatedTile, point: GridPoint, _ body: (Int) -> Bool) {
        let featureCount = storage.layout.features.count
        switch TileEntry.kind(of: tile.entry) {
        case TileEntry.coveredKind:
            let index = Int(TileEntry.payload(of: tile.entry))
            if index < featureCount { _ = body(index) }
        case TileEntry.recordKind:
            var reader = TileRecordReader(storage: storage, entry: tile.entry, bounds: tile.bounds)
            reader.evaluate(point: point, body)
        default:
            return
        }
    }
}
