/// Checks a layer's name index (`NAME`, Spec/FORMAT.md 5.10) against its features: each feature
/// has exactly the records its id and names give it, so that `find` finds every named feature.
///
/// The keys of a feature are ``NameFolding/indexKeys(id:names:)`` of its id and its kept string
/// properties named by ``NameFolding/isNameKey(_:)``: whole keys and word keys. An index written
/// before word keys (2.1 and 3.0 files until then) holds other keys, ``legacyKeys(of:)``; a
/// feature passes when its records hold exactly one of the two sets. Records whose key or feature
/// cannot be read are reported by ``MapVerifier`` itself and left out here.
enum NameIndexCheck {
    /// The features whose records differ from their names' keys, at most `limit` of them.
    static func problems(map: GMap, limit: Int) -> [MapProblem] {
        let layout = map.layout, names = layout.names, field = FormatLayout.NameRecord.self
        guard names.recordLength > 0 else { return [] }
        let span = map.span, featureCount = layout.features.count
        var keysByFeature = [[[UInt8]]](repeating: [], count: featureCount)
        var firstRecord = [Int](repeating: -1, count: featureCount)
        let compact = layout.compactPoints != nil
        for index in 0..<names.count {
            let record = names.offset(of: index)
            if compact {
                // A feature and where its key starts in the key of its id (5.12).
                guard let entry = map.compactNameEntry(index), let feature = map.feature(at: entry.feature) else { continue }
                guard let key = GMap.compactKey(of: feature.id, start: entry.start) else { continue }
                keysByFeature[feature.index].append(key)
                if firstRecord[feature.index] < 0 { firstRecord[feature.index] = record }
                continue
            }
            guard let keyOffset = span.getUInt32(at: record + field.keyOffset), let keyLength = span.getUInt32(at: record + field.keyLength),
                  let feature = span.getUInt32(at: record + field.feature), Int(feature) < featureCount,
                  let key = map.stringBytes(offset: keyOffset, length: keyLength) else { continue }
            keysByFeature[Int(feature)].append(Array(key))
            if firstRecord[Int(feature)] < 0 { firstRecord[Int(feature)] = record }
        }
        var problems: [MapProblem] = []
        for index in 0..<featureCount where problems.count < limit {
            guard let feature = map.feature(at: index) else { continue }
            let held = keysByFeature[index].sorted { $0.lexicographicallyPrecedes($1) }
            let current = (compact ? compactKeys(of: feature.id) : NameFolding.indexKeys(id: feature.id, names: feature.nameTexts).map { $0.bytes })
                .sorted { $0.lexicographicallyPrecedes($1) }
            if held == current || compact && held.isEmpty && current.isEmpty { continue }
            let legacy = legacyKeys(of: feature)
            if held == legacy { continue }
            // Described against the set it is closer to.
            let (missing, extra) = difference(held, current)
            let (legacyMissing, legacyExtra) = difference(held, legacy)
            let useLegacy = !legacy.isEmpty && legacyMissing.count + legacyExtra.count < missing.count + extra.count
            let lacking = useLegacy ? legacyMissing : missing, surplus = useLegacy ? legacyExtra : extra
            var parts: [String] = []
            if let first = lacking.first {
                parts.append("the name index has no record of its key '\(text(first))'" + (lacking.count > 1 ? " (nor of \(lacking.count - 1) more of its keys)" : "")
                             + " (find cannot find it by that name)")
            }
            if let first = surplus.first {
                parts.append("the index gives it the key '\(text(first))'" + (surplus.count > 1 ? " (and \(surplus.count - 1) more)" : "")
                             + ", which none of its names has")
            }
            let id = feature.id
            problems.append(MapProblem(location: "name index, feature \(index)\(id.isEmpty ? "" : " (\(id))")",
                                       offset: firstRecord[index] >= 0 ? firstRecord[index] : names.offset,
                                       reason: parts.joined(separator: "; ")))
        }
        return problems
    }

    /// The keys of an id a layer of compact points indexes (5.12): its index keys
    /// (``NameFolding/indexKeys(id:names:)``) that are the end of the id's key from its start, from
    /// one of its first 127 spaces, or from just after one.
    static func compactKeys(of id: String) -> [[UInt8]] {
        let whole = NameFolding.normalized(id)
        return NameFolding.indexKeys(id: id, names: []).map { $0.bytes }.filter { key in
            NameFolding.compactKeyStart(of: key, in: whole).map { $0 <= FormatLayout.CompactPoints.maximumKeyStart } ?? false
        }
    }

    /// The keys an index written before word keys holds for `feature` (Spec/FORMAT.md 5.10, "Indexes
    /// written before word keys"), sorted: its id and each name whose key was a name key then
    /// (`name`, `name_…`, `name:…`, `…_name`), folded alone; for each containing `/`, also the part
    /// after the last `/`; for each of those containing `_`, also the same with spaces.
    static func legacyKeys(of feature: Feature) -> [[UInt8]] {
        var texts = [feature.id]
        for position in 0..<feature.propertyCount {
            guard let property = feature.propertyBytes(at: position), property.kind == .string,
                  isLegacyNameKey(NameFolding.fold(utf8: property.key)) else { continue }
            texts.append(String(decoding: property.value, as: UTF8.self))
        }
        var keys: [[UInt8]] = []
        func add(_ key: [UInt8]) {
            if !key.isEmpty && !keys.contains(key) { keys.append(key) }
        }
        for text in texts {
            let folded = NameFolding.fold(text)
            var forms = [folded]
            if let slash = folded.lastIndex(of: 0x2F) { forms.append(Array(folded[(slash + 1)...])) }
            for form in forms {
                add(form)
                if form.contains(0x5F) { add(form.map { $0 == 0x5F ? 0x20 : $0 }) }
            }
        }
        return keys.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// A name key before word keys: `name`, or a key starting with `name_` or `name:`, or ending with `_name` (folded).
    private static func isLegacyNameKey(_ key: [UInt8]) -> Bool {
        let name: [UInt8] = [0x6E, 0x61, 0x6D, 0x65]
        if key == name { return true }
        if key.count > 5, Array(key.prefix(4)) == name, key[4] == 0x5F || key[4] == 0x3A { return true }
        return key.count > 5 && Array(key.suffix(4)) == name && key[key.count - 5] == 0x5F
    }

    /// The keys of `expected` that `held` lacks, and those `held` has beyond it (both sorted).
    private static func difference(_ held: [[UInt8]], _ expected: [[UInt8]]) -> (missing: [[UInt8]], extra: [[UInt8]]) {
        var missing: [[UInt8]] = [], extra: [[UInt8]] = []
        var heldIndex = 0, expectedIndex = 0
        while heldIndex < held.count || expectedIndex < expected.count {
            if heldIndex == held.count {
                missing.append(expected[expectedIndex]); expectedIndex += 1
            } else if expectedIndex == expected.count {
                extra.append(held[heldIndex]); heldIndex += 1
            } else if held[heldIndex] == expected[expectedIndex] {
                heldIndex += 1; expectedIndex += 1
            } else if held[heldIndex].lexicographicallyPrecedes(expected[expectedIndex]) {
                extra.append(held[heldIndex]); heldIndex += 1
            } else {
                missing.append(expected[expectedIndex]); expectedIndex += 1
            }
        }
        return (missing, extra)
    }

    /// A key for a message (its bytes as UTF-8).
    private static func text(_ key: [UInt8]) -> String { String(decoding: key, as: UTF8.self) }
}
