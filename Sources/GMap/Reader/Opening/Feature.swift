/// One property kept from the source: its key, its value's text, and what kind of JSON value it was.
public struct Property: Sendable, Hashable {
    /// The property's key.
    public var key: String
    /// The value's text: the string itself, a number as written, `true`/`false`, empty for null, or compact JSON.
    public var value: String
    /// What kind of JSON value it was.
    public var kind: PropertyKind

    /// A property from its parts.
    public init(key: String, value: String, kind: PropertyKind) {
        self.key = key
        self.value = value
        self.kind = kind
    }
}

/// A feature of a map: its id, its kept properties, its bounding box and area.
///
/// A `Feature` refers into its map's bytes; it is cheap to copy and to compare.
public struct Feature: Sendable, Hashable {
    @usableFromInline let map: GMap
    /// The feature's index in the map (features are numbered from the smallest area up).
    public let index: Int

    @inlinable init(map: GMap, index: Int) {
        self.map = map
        self.index = index
    }

    /// Features are equal when they are the same feature of the same layer of the same map bytes.
    public static func == (lhs: Feature, rhs: Feature) -> Bool {
        lhs.index == rhs.index && lhs.map == rhs.map
    }

    /// Hashes the index.
    public func hash(into hasher: inout Hasher) { hasher.combine(index) }

    @inlinable var record: Int { map.recordOffset(ofFeature: index) }

    /// The feature's id (the builder's `--id` property). Empty when the record is corrupt.
    public var id: String { String(decoding: idBytes, as: UTF8.self) }

    /// The kept properties in the order the builder wrote them.
    public var properties: [Property] {
        (0..<propertyCount).compactMap { position in
            propertyBytes(at: position).map {
                Property(key: String(decoding: $0.key, as: UTF8.self), value: String(decoding: $0.value, as: UTF8.self), kind: $0.kind)
            }
        }
    }

    /// The text of the property named `key`, or nil when the feature does not have it.
    public func property(_ key: String) -> String? {
        // Keys compared as bytes: only the value found becomes a String (placemarks ask often).
        var key = key
        if let value = key.withUTF8({ propertyValueBytes(forKey: UnsafeRawBufferPointer($0)) }) {
            return String(decoding: value, as: UTF8.self)
        }
        // A key with U+FFFD may be how ``properties`` showed a key whose bytes are not UTF-8 (a
        // damaged file): compare the decoded keys then, so every key it lists is found.
        guard key.unicodeScalars.contains("\u{FFFD}") else { return nil }
        for position in 0..<propertyCount {
            if let bytes = propertyBytes(at: position), String(decoding: bytes.key, as: UTF8.self) == key {
                return String(decoding: bytes.value, as: UTF8.self)
            }
        }
        return nil
    }

    /// The bounding box in degrees: west, south, east, north. Zeros when the record is corrupt.
    public var boundingBox: (west: Double, south: Double, east: Double, north: Double) {
        let file = map.span, at = record + FormatLayout.FeatureRecord.boundingBox
        let q = map.quantizer
        if map.storage.layout.compactPoints != nil {
            guard let point = map.compactRecord(index) else { return (0, 0, 0, 0) }
            return (q.degrees(point.x), q.degrees(point.y), q.degrees(point.x), q.degrees(point.y))
        }
        func value(_ slot: Int) -> Double { q.degrees(Int64(file.getInt32(at: at + slot * 4) ?? 0)) }
        return (value(0), value(1), value(2), value(3))
    }

    /// The area in square kilometres on a sphere of radius 6371.0088 km (approximate; used to order overlapping features).
    public var area: Double {
        if map.storage.layout.compactPoints != nil { return 0 }
        return map.span.getFloat64(at: record + FormatLayout.FeatureRecord.area) ?? 0
    }
}

extension GMap: Hashable {
    /// Maps are equal when they read the same layer of the same bytes (the same storage, or the
    /// same layer opened from it with ``layer(named:)``).
    public static func == (lhs: GMap, rhs: GMap) -> Bool {
        lhs.storage === rhs.storage
            || (lhs.storage.base == rhs.storage.base && lhs.rootStorage === rhs.rootStorage && lhs.layout.layerIndex == rhs.layout.layerIndex)
    }
    /// Hashes the identity of the bytes' owner and the layer.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(lhs: rootStorage))
        hasher.combine(layout.layerIndex)
    }
}

extension ObjectIdentifier {
    fileprivate init(lhs: AnyObject) { self.init(lhs) }
}
