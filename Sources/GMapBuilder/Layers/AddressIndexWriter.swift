import GMap

/// Writes the address index (`ADDR`, format 3.3, Spec/FORMAT.md 5.11): one record per street of a
/// layer of addresses, sorted by the street's key (``NameFolding/normalized(_:)``), each giving the
/// range of the layer's features on that street.
///
/// The layer's features must already be in the index's order: grouped by street key, each group's
/// features sorted by house-number key (``NameFolding/houseNumberKey(_:)``), the features without a
/// street after every group (``order(_:)`` gives that order). Keys go into the string pool, where
/// they are usually the roads' name keys already.
enum AddressIndexWriter {
    /// One address: its street (nil when it has none), house number and position.
    struct Address {
        var street: String?
        var number: String
        var latitude = 0.0, longitude = 0.0
    }

    /// The street key of an address, or nil when it has no street (or one whose key is empty).
    static func streetKey(_ address: Address) -> [UInt8]? {
        guard let street = address.street else { return nil }
        let key = NameFolding.normalized(street)
        return key.isEmpty ? nil : key
    }

    /// The positions of `addresses` in the index's order: by street key, then house-number key;
    /// of the addresses of one street and number (OSM often gives an address at several points:
    /// the building and its entrances, the shops in it), the most central first (the least sum of
    /// distances to the others), so that a search that takes the first lands in their middle; then
    /// by position. The addresses without a street last, in their order.
    static func order(_ addresses: [Address]) -> [Int] {
        let keys = addresses.map { (street: streetKey($0), number: NameFolding.houseNumberKey($0.number)) }
        var sorted = addresses.indices.sorted { a, b in
            switch (keys[a].street, keys[b].street) {
            case (nil, nil): return a < b
            case (nil, _): return false
            case (_, nil): return true
            case let (left?, right?):
                if left != right { return left.lexicographicallyPrecedes(right) }
                if keys[a].number != keys[b].number { return keys[a].number.lexicographicallyPrecedes(keys[b].number) }
                return a < b
            }
        }
        // Each run of one street and number: the most central first.
        var start = 0
        while start < sorted.count {
            var end = start + 1
            while end < sorted.count, keys[sorted[end]].street != nil, keys[sorted[end]].street == keys[sorted[start]].street,
                  keys[sorted[end]].number == keys[sorted[start]].number { end += 1 }
            if end - start > 2, keys[sorted[start]].street != nil {
                let group = Array(sorted[start..<end])
                func spread(_ member: Int) -> Double {
                    group.reduce(0) { sum, other in
                        sum + Geodesic.distance(latitude: addresses[member].latitude, longitude: addresses[member].longitude,
                                                toLatitude: addresses[other].latitude, longitude: addresses[other].longitude)
                    }
                }
                let spreads = group.map(spread)
                let order = group.indices.sorted { spreads[$0] != spreads[$1] ? spreads[$0] < spreads[$1] : group[$0] < group[$1] }
                for (offset, index) in order.enumerated() { sorted[start + offset] = group[index] }
            }
            start = end
        }
        return sorted
    }

    /// The section's bytes for `addresses`, the layer's features in file order (already in the
    /// index's order, else a ``BuildError``); `layer` and `postcodes` are indexes in `LAYR`.
    static func section(addresses: [Address], layer: Int, postcodes: Int?, strings: inout StringPool) throws -> [UInt8] {
        var records: [(key: [UInt8], first: Int, count: Int)] = []
        var previousNumber: [UInt8] = []
        var streetless = false
        for (position, address) in addresses.enumerated() {
            guard let key = streetKey(address) else {
                streetless = true
                continue
            }
            guard !streetless else { throw BuildError("address index: an address with a street follows one without") }
            let number = NameFolding.houseNumberKey(address.number)
            if let last = records.last, last.key == key {
                guard !number.lexicographicallyPrecedes(previousNumber) else { throw BuildError("address index: the house numbers of \(address.street ?? "") are not in order") }
                records[records.count - 1].count += 1
            } else {
                if let last = records.last, !last.key.lexicographicallyPrecedes(key) {
                    throw BuildError("address index: the streets are not in order of their keys at \(address.street ?? "")")
                }
                records.append((key, position, 1))
            }
            previousNumber = number
        }
        let field = FormatLayout.AddressIndexRecord.self
        var bytes: [UInt8] = []
        bytes.appendLittleEndian(UInt32(records.count))
        bytes.appendLittleEndian(UInt32(field.length))
        bytes.appendLittleEndian(UInt32(layer))
        bytes.appendLittleEndian(postcodes.map { UInt32($0) } ?? field.noLayer)
        for record in records {
            let key = try strings.intern(String(decoding: record.key, as: UTF8.self))
            bytes.appendLittleEndian(key.offset)
            bytes.appendLittleEndian(key.length)
            bytes.appendLittleEndian(UInt32(record.first))
            bytes.appendLittleEndian(UInt32(record.count))
        }
        return bytes
    }
}
