import GMapChecksum

extension MapVerifier {
    // MARK: The address index (3.3)

    /// `ADDR` (Spec/FORMAT.md 5.11): its layers, every street record's key (in `STRS`, UTF-8, not
    /// empty, strictly ascending) and range (at least one feature, inside the layer, after the
    /// previous range), and every feature of each range (its id's key is the street's, it has a
    /// house number, and the house-number keys do not descend).
    mutating func checkAddressIndex() {
        guard let table = layout.addressIndex else { return }
        let location = "address index"
        guard let addresses = map.layer(at: table.layer) else { return }
        let preamble = table.streets.offset - FormatLayout.AddressIndexRecord.preambleLength
        if addresses.geometryKind != .points {
            report(location, preamble + FormatLayout.AddressIndexRecord.layer, "layer \(addresses.layerName) is not a layer of points")
        }
        if let postcodes = table.postcodesLayer, let layer = map.layer(at: postcodes) {
            if layer.geometryKind != .points {
                report(location, preamble + FormatLayout.AddressIndexRecord.postcodesLayer, "postcodes layer \(layer.layerName) is not a layer of points")
            } else if postcodes == table.layer {
                report(location, preamble + FormatLayout.AddressIndexRecord.postcodesLayer, "postcodes layer \(layer.layerName) is the layer of addresses")
            } else if let stray = Self.firstPoint(of: layer, notIn: Self.points(of: addresses)) {
                // Every point of a postal code is an address's point (5.11): another layer of points named here fails.
                report(location, preamble + FormatLayout.AddressIndexRecord.postcodesLayer,
                       "postcodes layer \(layer.layerName) has a point, \(TileName.point(x: stray.x, y: stray.y, layout.quantizer)), at no address of layer \(addresses.layerName)")
            }
        }
        let reader = AddressIndexReader(map: addresses)
        let field = FormatLayout.AddressIndexRecord.self
        var previousKey: [UInt8]?
        var previousEnd = 0
        for record in 0..<table.streets.count {
            let at = table.streets.offset(of: record)
            guard let keyOffset = span.getUInt32(at: at + field.keyOffset), let keyLength = span.getUInt32(at: at + field.keyLength),
                  let first = span.getUInt32(at: at + field.first), let count = span.getUInt32(at: at + field.featureCount) else { continue }
            let name = "address index street \(record)"
            checkString(offset: keyOffset, length: keyLength, location: name + " key", at: at)
            let key = reader?.key(at: record).map { Array($0) }
            if let key {
                if key.isEmpty { report(name, at, "the key is empty") }
                if let previousKey, !previousKey.lexicographicallyPrecedes(key) { report(name, at, "keys are not in strictly ascending byte order") }
                previousKey = key
            }
            if count == 0 { report(name, at + field.featureCount, "the street has no address") }
            guard UInt64(first) + UInt64(count) <= UInt64(addresses.featureCount) else {
                report(name, at + field.first, "features \(first)+\(count) lie outside the \(addresses.featureCount) of layer \(addresses.layerName)")
                continue
            }
            if Int(first) < previousEnd { report(name, at + field.first, "its features overlap or precede the previous street's") }
            if Int(first) > previousEnd {
                report(name, at + field.first, "features \(previousEnd)…\(Int(first) - 1) before its range are in no street's range (only the addresses without a street, after every range, are)")
            }
            previousEnd = Int(first) + Int(count)
            var previousNumber: [UInt8]?
            for feature in Int(first)..<previousEnd {
                if let key, NameFolding.normalized(Feature(map: addresses, index: feature).id) != key {
                    report(name, at, "feature \(feature)'s street is not the record's key")
                }
                guard let number = addresses.houseNumberKey(ofFeature: feature) else {
                    report(name, at, "feature \(feature) has no \(field.houseNumberKey)")
                    continue
                }
                if let previousNumber, number.lexicographicallyPrecedes(previousNumber) {
                    report(name, at, "feature \(feature)'s house number is out of order")
                }
                previousNumber = number
            }
        }
        // After the ranges, the addresses without a street: a street count or a range lowered by
        // damage leaves addresses of a street there.
        for feature in previousEnd..<max(previousEnd, addresses.featureCount) {
            let address = Feature(map: addresses, index: feature)
            let key = NameFolding.normalized(address.id)
            guard !key.isEmpty, address.property(field.houseNumberKey) != address.id else { continue }
            report(location, table.streets.offset - FormatLayout.AddressIndexRecord.preambleLength,
                   "feature \(feature) of layer \(addresses.layerName), on the street \"\(String(address.id.prefix(60)))\", is in no street's range")
            break
        }
    }

    /// Every point a layer of points stores, as ``GridKey/point(_:_:)`` keys.
    static func points(of layer: GMap) -> Set<Int64> {
        var points = Set<Int64>()
        _ = layer.forEachLeafTile { tile in layer.forEachPoint(in: tile) { points.insert(GridKey.point($0.x, $0.y)) } }
        return points
    }

    /// The first point `layer` stores that is not in `points`.
    static func firstPoint(of layer: GMap, notIn points: Set<Int64>) -> (x: Int64, y: Int64)? {
        var stray: (x: Int64, y: Int64)?
        _ = layer.forEachLeafTile { tile in
            guard stray == nil else { return }
            layer.forEachPoint(in: tile) { point in
                if stray == nil, !points.contains(GridKey.point(point.x, point.y)) { stray = (point.x, point.y) }
            }
        }
        return stray
    }

    var layout: MapLayout { map.layout }
    var span: ByteSpan { map.span }

    mutating func checkChecksums() {
        let header = FormatLayout.Header.self
        let tableLength = map.sections.count * FormatLayout.sectionEntryLength
        let headerLength = Int(span.getUInt32(at: header.headerLength) ?? 0)
        if let head = span.getBytes(at: 0, length: header.headerCRC),
           let table = span.getBytes(at: headerLength, length: tableLength),
           let stored = span.getUInt32(at: header.headerCRC) {
            var crc = CRC32()
            crc.update(head)
            crc.update(table)
            if crc.value != stored {
                report("header", header.headerCRC, "CRC-32 of the header and section table is \(hex(crc.value)), the header says \(hex(stored))")
            }
        }
        if span.getUInt32(at: header.flags) != 0 { report("header", header.flags, "flags are not zero") }
        for (index, section) in map.sections.enumerated() {
            guard let bytes = span.getBytes(at: Int(section.offset), length: Int(section.length)) else { continue }
            let crc = CRC32.checksum(bytes)
            if crc != section.crc {
                report("section \(section.tag)", Int(section.offset),
                       "CRC-32 of its \(section.length) bytes is \(hex(crc)), the section table says \(hex(section.crc))")
            }
            let entry = headerLength + index * FormatLayout.sectionEntryLength
            if span.getUInt32(at: entry + FormatLayout.SectionEntry.flags) != 0 {
                report("section table entry \(index) (\(section.tag))", entry + FormatLayout.SectionEntry.flags, "flags are not zero")
            }
        }
    }

    mutating func checkSectionPlacement() {
        let tableEnd = FormatLayout.headerLength + map.sections.count * FormatLayout.sectionEntryLength
        let sorted = map.sections.sorted { $0.offset < $1.offset }
        var previousEnd = UInt64(tableEnd), previousName = "the section table"
        for section in sorted {
            if section.offset < previousEnd {
                report("section \(section.tag)", Int(section.offset), "overlaps \(previousName)")
            }
            previousEnd = max(previousEnd, section.offset + section.length)
            previousName = "section \(section.tag)"
        }
    }
}
