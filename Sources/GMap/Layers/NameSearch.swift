/// Forward lookup: features by id or name (the `NAME` index of format 2.1 and 3; a scan for older files).
extension GMap {
    /// The features of this layer whose id or a kept name property (see ``NameFolding/isNameKey(_:)``)
    /// equals `text`, or, when `prefixes` is true, starts with it, compared after ``NameFolding``
    /// (case- and accent-insensitive). The last part of an id with slashes counts too, with
    /// underscores as spaces (``NameFolding/keys(id:names:)``): "buenos aires" finds
    /// `America/Argentina/Buenos_Aires`.
    ///
    /// Exact matches come first, smallest area first; then prefix matches in the order of their
    /// folded names. Each feature appears once. With a name index (files of format 2.1) the search
    /// is a binary search; older files are scanned.
    public func find(_ text: String, prefixes: Bool = true, limit: Int = Int.max) -> [Feature] {
        find(folded: NameFolding.fold(text), prefixes: prefixes, limit: limit)
    }

    /// ``find(_:prefixes:limit:)`` for a key already folded by ``NameFolding``.
    public func find(folded key: [UInt8], prefixes: Bool = true, limit: Int = Int.max) -> [Feature] {
        guard !key.isEmpty, limit > 0 else { return [] }
        var exact: [Int] = [], prefixed: [Int] = []
        if layout.nameCount > 0 {
            NameIndexReader(map: self).matches(key) { feature, isExact in
                if isExact { exact.append(feature) } else if prefixes { prefixed.append(feature) }
            }
        } else {
            scanNames(key) { feature, isExact in
                if isExact { exact.append(feature) } else if prefixes { prefixed.append(feature) }
            }
        }
        var seen: [Bool] = Array(repeating: false, count: featureCount)
        var found: [Feature] = []
        for index in exact.sorted() + prefixed where index < featureCount && !seen[index] {
            seen[index] = true
            found.append(Feature(map: self, index: index))
            if found.count >= limit { break }
        }
        return found
    }

    /// Without an index: every feature's id and name properties, folded and compared.
    private func scanNames(_ key: [UInt8], _ body: (Int, Bool) -> Void) {
        for index in 0..<featureCount {
            let feature = Feature(map: self, index: index)
            var values: [String] = []
            for position in 0..<feature.propertyCount {
                guard let property = feature.propertyBytes(at: position), property.kind == .string,
                      NameFolding.isNameKey(String(decoding: property.key, as: UTF8.self)) else { continue }
                values.append(String(decoding: property.value, as: UTF8.self))
            }
            let names = NameFolding.keys(id: feature.id, names: values)
            if names.contains(key) {
                body(index, true)
            } else if names.contains(where: { $0.count > key.count && $0.starts(with: key) }) {
                body(index, false)
            }
        }
    }
}

/// Binary search over a layer's `NAME` records, sorted by folded key bytes.
struct NameIndexReader {
    let map: GMap

    /// The folded key of record `position`, or nil when corrupt.
    private func key(at position: Int) -> UnsafeRawBufferPointer? {
        let layout = map.layout, field = FormatLayout.NameRecord.self
        let record = layout.nameRecordsOffset + position * layout.nameRecordLength
        guard let offset = map.span.getUInt32(at: record + field.keyOffset),
              let length = map.span.getUInt32(at: record + field.keyLength) else { return nil }
        return map.stringBytes(offset: offset, length: length)
    }

    private func feature(at position: Int) -> Int? {
        let layout = map.layout
        let record = layout.nameRecordsOffset + position * layout.nameRecordLength
        return map.span.getUInt32(at: record + FormatLayout.NameRecord.feature).map { Int($0) }
    }

    /// Calls `body` with the feature of each record whose key starts with `query`, and whether the key equals it.
    func matches(_ query: [UInt8], _ body: (Int, Bool) -> Void) {
        // The first record whose key is not less than the query.
        var low = 0, high = map.layout.nameCount
        while low < high {
            let middle = low + (high - low) / 2
            if let key = key(at: middle), Self.compare(key, query) < 0 { low = middle + 1 } else { high = middle }
        }
        var position = low
        while position < map.layout.nameCount, let key = key(at: position), key.count >= query.count,
              Self.compare(UnsafeRawBufferPointer(rebasing: key[0..<query.count]), query) == 0 {
            if let feature = feature(at: position) { body(feature, key.count == query.count) }
            position += 1
        }
    }

    /// Byte-wise lexicographic order: negative, zero or positive.
    static func compare(_ lhs: UnsafeRawBufferPointer, _ rhs: [UInt8]) -> Int {
        let common = min(lhs.count, rhs.count)
        for index in 0..<common where lhs[index] != rhs[index] {
            return lhs[index] < rhs[index] ? -1 : 1
        }
        return lhs.count - rhs.count
    }
}
