/// One property of a feature as UTF-8 bytes in place in the map's memory: nothing is copied or allocated.
///
/// The buffers point into the map's bytes (the file mapping, or the caller's buffer for
/// ``GMap/init(unsafeBuffer:)``) and stay valid for as long as that map is open. They are not
/// NUL-terminated.
public struct PropertyBytes {
    /// The key's UTF-8 bytes.
    public var key: UnsafeRawBufferPointer
    /// The value's text as UTF-8 bytes (see ``Property/value``).
    public var value: UnsafeRawBufferPointer
    /// What kind of JSON value it was.
    public var kind: PropertyKind

    /// A property from its parts.
    public init(key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, kind: PropertyKind) {
        self.key = key
        self.value = value
        self.kind = kind
    }
}

extension GMap {
    /// Where the `FEAT` record of feature `index` starts in the file (not checked against the table).
    @inlinable func recordOffset(ofFeature index: Int) -> Int { layout.features.offset + index * layout.features.recordLength }

    /// The id's UTF-8 bytes of feature `index` (``Feature/idBytes``), in place in the map; empty
    /// when `index` is not a feature's or the record is corrupt. Allocates nothing, and makes no
    /// `Feature` (a batch answering on several threads keeps off the map's reference count).
    package func idBytes(ofFeature index: Int) -> UnsafeRawBufferPointer {
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        if storage.layout.compactPoints != nil { return compactIdBytes(index) }
        guard index >= 0, index < storage.layout.features.count else { return empty }
        let file = span, field = FormatLayout.FeatureRecord.self, record = recordOffset(ofFeature: index)
        guard let offset = file.getUInt32(at: record + field.idOffset),
              let length = file.getUInt32(at: record + field.idLength),
              let bytes = stringBytes(offset: offset, length: length) else { return empty }
        return bytes
    }

    /// Bytes of the string pool, or nil when the range lies outside it.
    @usableFromInline func stringBytes(offset: UInt32, length: UInt32) -> UnsafeRawBufferPointer? {
        guard UInt64(offset) + UInt64(length) <= UInt64(storage.layout.stringsLength) else { return nil }
        return span.getBytes(at: storage.layout.stringsOffset + Int(offset), length: Int(length))
    }
}

/// Access to a feature's id and properties without making `String`s: for Embedded Swift, for the
/// C interface, and for callers that must not allocate. Nothing here needs Unicode tables.
extension Feature {
    /// The id's UTF-8 bytes, in place in the map (empty when the record is corrupt). Allocates nothing.
    public var idBytes: UnsafeRawBufferPointer { map.idBytes(ofFeature: index) }

    /// The index in `PROP` of the feature's first property and the number of its properties; (0, 0) when corrupt.
    private var propertyRange: (first: Int, count: Int) {
        let file = map.span, field = FormatLayout.FeatureRecord.self
        guard let first = file.getUInt32(at: record + field.firstProperty),
              let count = file.getUInt32(at: record + field.propertyCount),
              UInt64(first) + UInt64(count) <= UInt64(map.layout.properties.count) else { return (0, 0) }
        return (Int(first), Int(count))
    }

    /// How many properties the feature keeps (0 when the record is corrupt).
    public var propertyCount: Int {
        if map.storage.layout.compactPoints != nil { return map.compactRecord(index).map { map.compactPropertyCount($0) } ?? 0 }
        return propertyRange.count
    }

    /// The property at `position` (`0..<propertyCount`, in the order the builder wrote them), or nil
    /// when out of range or corrupt. Allocates nothing.
    public func propertyBytes(at position: Int) -> PropertyBytes? {
        if map.storage.layout.compactPoints != nil { return map.compactRecord(index).flatMap { map.compactProperty($0, at: position) } }
        let range = propertyRange
        guard position >= 0, position < range.count else { return nil }
        let record = map.layout.properties.offset + (range.first + position) * map.layout.properties.recordLength
        let file = map.span, field = FormatLayout.PropertyRecord.self
        guard let keyOffset = file.getUInt32(at: record + field.keyOffset),
              let keyLength = file.getUInt32(at: record + field.keyLength),
              let valueOffset = file.getUInt32(at: record + field.valueOffset),
              let valueLength = file.getUInt32(at: record + field.valueLength),
              let rawKind = file.getUInt8(at: record + field.kind),
              let key = map.stringBytes(offset: keyOffset, length: keyLength),
              let value = map.stringBytes(offset: valueOffset, length: valueLength) else { return nil }
        return PropertyBytes(key: key, value: value, kind: PropertyKind(rawValue: rawKind) ?? .json)
    }

    /// The value of the first property whose key is byte for byte `key` (UTF-8), or nil when the
    /// feature has none. Allocates nothing.
    public func propertyValueBytes(forKey key: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        if map.storage.layout.compactPoints != nil, let record = map.compactRecord(index) {
            // One pass over the record's values, not one decoding per position.
            var position = 0, found: UnsafeRawBufferPointer?
            let count = map.compactPropertyCount(record)
            while position < count, found == nil {
                if let property = map.compactProperty(record, at: position), property.key.count == key.count, property.key.elementsEqual(key) {
                    found = property.value
                }
                position += 1
            }
            return found
        }
        for position in 0..<propertyCount {
            guard let property = propertyBytes(at: position) else { continue }
            if property.key.count == key.count, property.key.elementsEqual(key) { return property.value }
        }
        return nil
    }

    /// The value of the first property whose key is `key`, compared byte for byte, or nil. Allocates nothing.
    public func propertyValueBytes(forKey key: StaticString) -> UnsafeRawBufferPointer? {
        guard key.hasPointerRepresentation else { return nil }
        return propertyValueBytes(forKey: UnsafeRawBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
    }
}
