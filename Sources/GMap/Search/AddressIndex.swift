/// What a file's address index (`ADDR`, format 3.3, Spec/FORMAT.md 5.11) holds, for `gmap info`.
public struct AddressIndexInfo: Sendable, Hashable {
    /// The name of the layer of addresses the index refers to.
    public var layer: String
    /// The name of the layer of postal codes, if the index names one.
    public var postcodesLayer: String?
    /// The number of street records.
    public var streets: Int
    /// The number of address features the streets' ranges cover.
    public var addresses: Int

    /// Information from its parts.
    public init(layer: String, postcodesLayer: String?, streets: Int, addresses: Int) {
        self.layer = layer
        self.postcodesLayer = postcodesLayer
        self.streets = streets
        self.addresses = addresses
    }
}

extension GMap {
    /// The file's address index (a location map built by gmap 1.1 with format 3.3, or later), or nil
    /// when it has none: forward geocoding (``geocode(_:near:limit:)``) then scans the layer of
    /// addresses instead of searching it.
    public var addressIndexInfo: AddressIndexInfo? {
        guard let reader = AddressIndexReader(map: self) else { return nil }
        var covered = 0
        for record in 0..<reader.streetCount {
            if let range = reader.range(at: record) { covered += range.count }
        }
        let names = layout.layerNames
        let postcodes = reader.table.postcodesLayer.flatMap { $0 < names.count ? names[$0] : nil }
        return AddressIndexInfo(layer: reader.addresses.layerName, postcodesLayer: postcodes, streets: reader.streetCount, addresses: covered)
    }
}

/// How a house number of a street matched the one asked for.
enum HouseNumberMatch: Int, Comparable {
    /// The whole number: `12a` for `12 A`, `12-14` for `12–14`.
    case whole = 0
    /// The first number of a range or list (`12` for `12-14`), or the last of a range of two
    /// numbers (`14` for `12-14`).
    case part = 1

    static func < (lhs: HouseNumberMatch, rhs: HouseNumberMatch) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The address features of one street: a range of the layer of addresses sorted by house number
/// (from the address index), or the features a scan found (a map without one).
struct StreetAddresses {
    /// The features, in layer order.
    var features: [Int]
    /// Whether they are sorted by house-number key (an index's range), so that a number is a binary search.
    var sorted: Bool
}

/// Reads the address index: binary searches over its street records, and over each street's range
/// of address features by house-number key. Every offset is checked; a damaged index gives fewer
/// answers, never a wrong feature (each answer's id and number are checked against the query).
struct AddressIndexReader {
    /// The map of the layer of addresses.
    let addresses: GMap
    /// The index's preamble.
    let table: AddressIndexTable

    /// The index of `map`'s file, or nil when the file has none (or its layer of addresses cannot be read).
    init?(map: GMap) {
        guard let table = map.layout.addressIndex, let addresses = map.layer(at: table.layer) else { return nil }
        self.addresses = addresses
        self.table = table
    }

    /// The number of street records.
    var streetCount: Int { table.streets.count }

    private var span: ByteSpan { addresses.span }

    /// The key of street record `record`, or nil when it lies outside `STRS`.
    func key(at record: Int) -> UnsafeRawBufferPointer? {
        let at = table.streets.offset(of: record), field = FormatLayout.AddressIndexRecord.self
        guard let offset = span.getUInt32(at: at + field.keyOffset), let length = span.getUInt32(at: at + field.keyLength) else { return nil }
        return addresses.stringBytes(offset: offset, length: length)
    }

    /// The features of street record `record`, or nil when the range does not lie in the layer.
    func range(at record: Int) -> Range<Int>? {
        let at = table.streets.offset(of: record), field = FormatLayout.AddressIndexRecord.self
        guard let first = span.getUInt32(at: at + field.first), let count = span.getUInt32(at: at + field.featureCount),
              UInt64(first) + UInt64(count) <= UInt64(addresses.featureCount) else { return nil }
        return Int(first)..<(Int(first) + Int(count))
    }

    /// The first record whose key is not below `key`.
    /// The first street record whose key is not below `key`.
    func lowerBound(of key: [UInt8]) -> Int { lowerBound(key) }

    private func lowerBound(_ key: [UInt8]) -> Int {
        var low = 0, high = streetCount
        while low < high {
            let middle = low + (high - low) / 2
            if let stored = self.key(at: middle), NameIndexReader.compare(stored, key) < 0 { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The record of the street whose key is exactly `key`, or nil.
    func street(_ key: [UInt8]) -> Int? {
        let record = lowerBound(key)
        guard record < streetCount, let stored = self.key(at: record), NameIndexReader.compare(stored, key) == 0 else { return nil }
        return record
    }

    /// The keys of the streets whose key starts with `prefix`, in order, at most `limit`.
    func keys(withPrefix prefix: [UInt8], limit: Int) -> [[UInt8]] {
        var found: [[UInt8]] = []
        var record = lowerBound(prefix)
        while record < streetCount, found.count < limit, let stored = key(at: record), stored.count >= prefix.count,
              NameIndexReader.compare(UnsafeRawBufferPointer(rebasing: stored[0..<prefix.count]), prefix) == 0 {
            found.append(Array(stored))
            record += 1
        }
        return found
    }
}

extension GMap {
    /// The house-number key (``NameFolding/houseNumberKey(_:)``) of address feature `index` of this
    /// layer: of its `housenumber` property, or nil when it has none.
    func houseNumberKey(ofFeature index: Int) -> [UInt8]? {
        houseNumberText(ofFeature: index).map { NameFolding.houseNumberKey(utf8: $0) }
    }

    /// The bytes of the `housenumber` property of feature `index` of this layer, or nil.
    func houseNumberText(ofFeature index: Int) -> UnsafeRawBufferPointer? {
        let feature = Feature(map: self, index: index)
        let name = FormatLayout.AddressIndexRecord.houseNumberKey.utf8
        for position in 0..<feature.propertyCount {
            if let property = feature.propertyBytes(at: position), property.key.elementsEqual(name) { return property.value }
        }
        return nil
    }

    /// The addresses of `street` on `street`'s features whose house number matches `number` (a
    /// house-number key), best first: whole matches, then parts of ranges and lists, each in
    /// layer order.
    func addresses(on street: StreetAddresses, number: [UInt8]) -> [(feature: Int, match: HouseNumberMatch)] {
        guard !number.isEmpty else { return [] }
        var whole: [Int] = [], parts: [Int] = []
        func classify(_ feature: Int, _ key: [UInt8]) {
            if key == number {
                whole.append(feature)
            } else if key.count > number.count, key[number.count] == 0x20, key.starts(with: number) {
                parts.append(feature)  // the first number of a range or a list: 12 of 12 14
            }
        }
        if street.sorted {
            // The first feature whose key is not below the number; then every key starting with it.
            var low = 0, high = street.features.count
            while low < high {
                let middle = low + (high - low) / 2
                if let key = houseNumberKey(ofFeature: street.features[middle]), key.lexicographicallyPrecedes(number) { low = middle + 1 } else { high = middle }
            }
            var position = low
            while position < street.features.count, let key = houseNumberKey(ofFeature: street.features[position]), key.starts(with: number) {
                classify(street.features[position], key)
                position += 1
            }
        } else {
            for feature in street.features {
                if let key = houseNumberKey(ofFeature: feature) { classify(feature, key) }
            }
        }
        if whole.isEmpty && parts.isEmpty {
            // The last number of a range of two: 14 of 12-14 (keys of two numbers, anywhere in the street).
            for feature in street.features {
                guard let key = houseNumberKey(ofFeature: feature), let space = key.firstIndex(of: 0x20),
                      key[..<space].allSatisfy(NameFolding.isDigit), Array(key[(space + 1)...]) == number,
                      number.allSatisfy(NameFolding.isDigit) else { continue }
                parts.append(feature)
            }
        }
        return whole.map { ($0, .whole) } + parts.map { ($0, .part) }
    }
}
