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
/// Opening reads the header and the section table and checks them, in time that does not grow
/// with the file. A lookup finds the point's tile in O(1) and tests only the edges stored in that
/// tile. A `GMap` is an immutable value: share it freely across threads.
public struct GMap: Sendable {
    @usableFromInline let storage: MapStorage
    @usableFromInline let layout: MapLayout

    @inlinable var span: ByteSpan { ByteSpan(base: storage.base, count: storage.count) }

    /// Opens a map file by memory-mapping it read-only.
    ///
    /// Replacing the file later by renaming a new file over it is safe: this map keeps reading the
    /// old bytes. Truncating or rewriting the file in place while it is open is not.
    public init(contentsOf path: String) throws(GMapError) {
        try self.init(storage: MapStorage.mapping(path: path))
    }

    /// Opens a map held in a caller's memory, without copying it (an app resource, a blob mapped from flash).
    ///
    /// The caller keeps the memory alive and unchanged for as long as this map, or any ``Feature``
    /// from it, is in use.
    public init(unsafeBuffer buffer: UnsafeRawBufferPointer) throws(GMapError) {
        guard let base = buffer.baseAddress else {
            throw .truncated(expected: UInt64(FormatLayout.headerLength), actual: 0)
        }
        try self.init(storage: MapStorage(base: base, count: buffer.count, ownership: .borrowed))
    }

    /// Opens a map from bytes, copying them into memory the map owns.
    public init(bytes: [UInt8]) throws(GMapError) {
        let storage = bytes.withUnsafeBytes { MapStorage.copying($0) }
        try self.init(storage: storage)
    }

    init(storage: MapStorage) throws(GMapError) {
        self.storage = storage
        self.layout = try MapLayout.read(ByteSpan(base: storage.base, count: storage.count))
    }

    // MARK: - What the file holds

    /// The format version the file was written with.
    public var formatVersion: (major: Int, minor: Int) { (Int(layout.majorVersion), Int(layout.minorVersion)) }
    /// How coordinates are quantized.
    public var quantizer: Quantizer { layout.quantizer }
    /// The section table.
    public var sections: [SectionInfo] { layout.sections }
    /// The tile grid's shape.
    public var grid: GridInfo { layout.grid }
    /// The file's length in bytes.
    public var byteCount: Int { storage.count }
    /// Number of features.
    public var featureCount: Int { layout.featureCount }

    /// The feature at `index`, or nil when out of range. Features are numbered from the smallest area up.
    @inlinable public func feature(at index: Int) -> Feature? {
        guard index >= 0, index < layout.featureCount else { return nil }
        return Feature(map: self, index: index)
    }

    /// All features, smallest area first.
    public var features: [Feature] { (0..<featureCount).map { Feature(map: self, index: $0) } }

    /// The build metadata as key–value pairs (source file, id property, options), in file order.
    public var metadata: [(key: String, value: String)] {
        var pairs: [(key: String, value: String)] = []
        let file = span
        for index in 0..<layout.metadataCount {
            let record = layout.metadataRecordsOffset + index * layout.metadataRecordLength
            guard let keyOffset = file.getUInt32(at: record), let keyLength = file.getUInt32(at: record + 4),
                  let valueOffset = file.getUInt32(at: record + 8), let valueLength = file.getUInt32(at: record + 12),
                  let key = string(offset: keyOffset, length: keyLength),
                  let value = string(offset: valueOffset, length: valueLength) else { continue }
            pairs.append((key, value))
        }
        return pairs
    }

    /// Text from the string pool, or nil when the range lies outside it.
    @usableFromInline func string(offset: UInt32, length: UInt32) -> String? {
        guard UInt64(offset) + UInt64(length) <= UInt64(layout.stringsLength) else { return nil }
        return span.getString(at: layout.stringsOffset + Int(offset), length: Int(length))
    }

    // MARK: - Lookups

    /// The smallest-area feature that contains the point, or nil when none does or the coordinates
    /// are not valid (NaN, latitude outside [-90, 90], longitude outside [-180, 180]).
    ///
    /// Allocates nothing.
    @inlinable public func lookup(latitude: Double, longitude: Double) -> Feature? {
        guard let point = layout.quantizer.queryPoint(latitude: latitude, longitude: longitude) else { return nil }
        var found = -1
        visitFeatures(containing: point) { index in
            found = index
            return false
        }
        return found >= 0 ? Feature(map: self, index: found) : nil
    }

    /// Every feature that contains the point, smallest area first; empty when none does or the coordinates are not valid.
    public func lookupAll(latitude: Double, longitude: Double) -> [Feature] {
        guard let point = layout.quantizer.queryPoint(latitude: latitude, longitude: longitude) else { return [] }
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
        var locator = TileLocator(layout: layout, span: span)
        guard let tile = locator.locate(point) else { return }
        evaluate(tile: tile, point: point, body)
    }

    /// Tests one tile's features against the point.
    @inlinable func evaluate(tile: LocatedTile, point: GridPoint, _ body: (Int) -> Bool) {
        let featureCount = layout.featureCount
        switch TileEntry.kind(of: tile.entry) {
        case TileEntry.coveredKind:
            let index = Int(TileEntry.payload(of: tile.entry))
            if index < featureCount { _ = body(index) }
        case TileEntry.recordKind:
            var reader = TileRecordReader(span: span, layout: layout, entry: tile.entry, bounds: tile.bounds)
            reader.evaluate(point: point, body)
        default:
            return
        }
    }
}
