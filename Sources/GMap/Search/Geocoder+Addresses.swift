extension Geocoder {
    // MARK: Addresses and streets

    /// The address features of the street whose key is the run's (or, for a run ending in an
    /// abbreviation, of the one street whose key starts with it), with that key; nil when none.
    mutating func street(_ start: Int, _ end: Int) -> (key: [UInt8], addresses: StreetAddresses)? {
        let at = slot(start, end)
        if let known = streetMemo[at] { return known }
        var key = self.key(start, end)
        var found = streetAddresses(key)
        if found == nil, let expanded = expansion(start, end) {
            key = expanded
            found = streetAddresses(key)
        }
        let result = found.map { (key, $0) }
        streetMemo[at] = .some(result)
        return result
    }

    /// The one street key of the map (addresses and roads) that starts with the run's key, when
    /// its last word is followed by a full stop and has at least three bytes; nil when none or several.
    mutating func expansion(_ start: Int, _ end: Int) -> [UInt8]? {
        let last = words[end - 1]
        guard last.isAbbreviated, last.bytes.count >= 3, !last.startsWithDigit else { return nil }
        let prefix = key(start, end)
        var keys: [[UInt8]] = []
        func add(_ key: [UInt8]) { if key.count > prefix.count && !keys.contains(key) { keys.append(key) } }
        if let index {
            for key in index.keys(withPrefix: prefix, limit: 3) { add(key) }
        } else if let addresses {
            for key in scannedKeys(addresses) where key.starts(with: prefix) { add(key) }
        }
        if let streets, layers[streets].map.layout.names.count > 0 {
            for key in NameIndexReader(map: layers[streets].map).keys(withPrefix: prefix, limit: 3) { add(key) }
        }
        return keys.count == 1 ? keys[0] : nil
    }

    /// The road features (`roads`) of the street of the run: those whose whole key is the run's key,
    /// or, when there are none, the key of the street of its addresses (`street`), or the one street
    /// an abbreviation stands for.
    mutating func roads(_ start: Int, _ end: Int, street: (key: [UInt8], addresses: StreetAddresses)?) -> [NameHit] {
        guard let streets else { return [] }
        var hits = names(start, end).filter { $0.layer == streets }
        if hits.isEmpty, let other = street?.key ?? expansion(start, end), other != key(start, end) {
            hits = Self.exactFeatures(in: layers[streets].map, key: other).map { NameHit(layer: streets, feature: $0) }
        }
        return hits
    }

    /// The address features whose street key is `key`: a range of the index, or those a scan finds.
    mutating func streetAddresses(_ key: [UInt8]) -> StreetAddresses? {
        if let index {
            guard let record = index.street(key), let range = index.range(at: record), !range.isEmpty else { return nil }
            return StreetAddresses(features: Array(range), sorted: true)
        }
        guard let addresses else { return nil }
        let keys = scannedKeys(addresses)
        let features = keys.indices.filter { keys[$0] == key }
        return features.isEmpty ? nil : StreetAddresses(features: features, sorted: false)
    }

    /// The street key of every address feature (a map without an address index), made once.
    mutating func scannedKeys(_ addresses: GMap) -> [[UInt8]] {
        if let keys = scannedStreetKeys { return keys }
        let keys = (0..<addresses.featureCount).map { index -> [UInt8] in
            // A feature without a house number, or whose id is its house number, has no street.
            let feature = Feature(map: addresses, index: index)
            guard let number = addresses.houseNumberText(ofFeature: index), !feature.idBytes.elementsEqual(number) else { return [] }
            return NameFolding.normalized(feature.id)
        }
        scannedStreetKeys = keys
        return keys
    }

    /// Adds the addresses that a street of `start..<end` and a number of `numberStart..<numberEnd` name.
    /// `anyNumber` lets the number start with a word that is not a number (`Keskuskatu 5` as a house number).
    mutating func findAddresses(anyNumber: Bool) {
        guard addresses != nil else { return }
        for start in 0..<count {
            for end in (start + 1)...min(count, start + Self.maximumStreetWords) {
                guard let street = street(start, end) else { continue }
                if end < count, anyNumber || words[end].startsWithDigit {
                    for numberEnd in (end + 1)...min(count, end + Self.maximumNumberWords) {
                        addAddresses(street, start: start, end: end, number: end..<numberEnd)
                    }
                }
                if start > 0 {
                    for numberStart in max(0, start - Self.maximumNumberWords)..<start where anyNumber || words[numberStart].startsWithDigit {
                        addAddresses(street, start: start, end: end, number: numberStart..<start)
                    }
                }
            }
        }
    }

    /// The addresses of streets within an edit or two of a run of words (``TypoRule``) and a house
    /// number beside it, when nothing matched whole: `Mannerheimintei 1`. A run of a word that
    /// starts with a digit is no street.
    mutating func findTypoAddresses() {
        guard let addresses else { return }
        for start in 0..<count where !words[start].startsWithDigit {
            for end in (start + 1)...min(count, start + Self.maximumStreetWords) where !words[end - 1].startsWithDigit {
                let numbered = (end < count && words[end].startsWithDigit) || (start > 0 && words[start - 1].startsWithDigit)
                guard numbered, street(start, end) == nil else { continue }
                for typo in typoStreetKeys(key(start, end), addresses: addresses) {
                    guard let found = streetAddresses(typo.key) else { continue }
                    let street = (key: typo.key, addresses: found)
                    if end < count, words[end].startsWithDigit {
                        for numberEnd in (end + 1)...min(count, end + Self.maximumNumberWords) {
                            addAddresses(street, start: start, end: end, number: end..<numberEnd, edits: typo.distance)
                        }
                    }
                    if start > 0 {
                        for numberStart in max(0, start - Self.maximumNumberWords)..<start where words[numberStart].startsWithDigit {
                            addAddresses(street, start: start, end: end, number: numberStart..<start, edits: typo.distance)
                        }
                    }
                }
            }
        }
    }

    /// The street keys of the layer of addresses within the edits ``TypoRule`` allows of `key`
    /// (not `key` itself): a walk over the address index's sorted streets, or over the keys a scan
    /// of a map without one made.
    mutating func typoStreetKeys(_ key: [UInt8], addresses: GMap) -> [(key: [UInt8], distance: Int)] {
        var found: [(key: [UInt8], distance: Int)] = []
        guard TypoRule.letters(of: key) >= TypoRule.minimumLetters else { return [] }
        var walk = TypoWalk(query: key)
        if let index {
            var record = index.lowerBound(of: walk.start)
            walking: while record < index.streetCount, let current = index.key(at: record).map(Array.init) {
                switch walk.visit(current) {
                case .match(let distance):
                    if current != key { found.append((current, distance)) }
                    record += 1
                case .prune(let bytes):
                    guard let next = TypoWalk.successor(of: current.prefix(bytes)) else { break walking }
                    record = max(record + 1, index.lowerBound(of: next))
                case .jump(let bytes, let letter):
                    record = max(record + 1, index.lowerBound(of: TypoWalk.key(current.prefix(bytes), then: letter)))
                case .done:
                    break walking
                case .miss:
                    record += 1
                }
            }
        } else {
            var seen: [[UInt8]] = []
            for street in scannedKeys(addresses) where !street.isEmpty && street != key && !seen.contains(street) {
                seen.append(street)
                var single = TypoWalk(query: key)
                if case .match(let distance) = single.visit(street) { found.append((street, distance)) }
            }
        }
        return found
    }

    /// The addresses of `street` with the number of the words `number`, whose other words resolve;
    /// `edits` above 0 when the street is a typo of the words.
    mutating func addAddresses(_ street: (key: [UInt8], addresses: StreetAddresses), start: Int, end: Int, number: Range<Int>, edits: Int = 0) {
        guard let addresses else { return }
        let low = min(start, number.lowerBound), high = max(end, number.upperBound)
        guard let before = resolve(0, low), let after = resolve(high, count) else { return }
        let resolution = Resolution(contexts: before.contexts + after.contexts, unmatched: before.unmatched + after.unmatched)
        let numberKey = NameFolding.houseNumberKey(normalized: key(number.lowerBound, number.upperBound))
        for (feature, match) in addresses.addresses(on: street.addresses, number: numberKey) {
            let found = Feature(map: addresses, index: feature)
            // The index's answer checked: the feature's own street is the one asked for.
            guard !street.addresses.sorted || NameFolding.normalized(found.id) == street.key else { continue }
            let box = found.boundingBox
            let point = (latitude: (box.south + box.north) / 2, longitude: (box.west + box.east) / 2)
            guard let setAside = satisfies(resolution, kind: .address, latitude: point.latitude, longitude: point.longitude, box: box, countryCode: nil) else { continue }
            candidates.append(Candidate(kind: .address, rank: match == .whole ? 0 : 1, layer: addressesPosition, feature: feature,
                                        match: edits > 0 ? .typo : .exact, unmatched: resolution.unmatched + setAside, consumed: high - low,
                                        latitude: point.latitude, longitude: point.longitude, box: box, prominence: 0, start: low, edits: edits))
        }
    }

    /// For each street and number the map does not have together: the street itself. The number
    /// must look like one: a word starting with a digit, then at most two words each a number or a
    /// single letter (`12`, `12 a`, `12 14`), so that other words are never swallowed as one.
    mutating func findStreetsOfAbsentNumbers() {
        for start in 0..<count {
            for end in (start + 1)...min(count, start + Self.maximumStreetWords) {
                for numberEnd in (end + 1)..<(end + 4) where numberEnd <= count && isNumberLike(end..<numberEnd) {
                    addStreet(start: start, end: end, number: end..<numberEnd)
                }
                for numberStart in max(0, start - 3)..<start where isNumberLike(numberStart..<start) {
                    addStreet(start: start, end: end, number: numberStart..<start)
                }
            }
        }
    }

    /// Whether the words look like a house number: in one part, the first starts with a digit,
    /// the others are numbers of at most four digits (a range: not a postal code) or single letters.
    func isNumberLike(_ range: Range<Int>) -> Bool {
        guard !range.isEmpty, words[range.lowerBound].startsWithDigit else { return false }
        let part = words[range.lowerBound].part
        return range.dropFirst().allSatisfy { position in
            let word = words[position].bytes
            return words[position].part == part && ((word.allSatisfy(NameFolding.isDigit) && word.count <= 4) || word.count == 1)
        }
    }

    /// The street of `start..<end` as a match for a street and a number it does not have.
    mutating func addStreet(start: Int, end: Int, number: Range<Int>) {
        let low = min(start, number.lowerBound), high = max(end, number.upperBound)
        let street = self.street(start, end)
        let roads = self.roads(start, end, street: street)
        guard street != nil || !roads.isEmpty else { return }
        // Not when the number is one of the street's: that is an address.
        if let street, let addresses, !addresses.addresses(on: street.addresses, number: NameFolding.houseNumberKey(normalized: key(number.lowerBound, number.upperBound))).isEmpty {
            return
        }
        guard let before = resolve(0, low), let after = resolve(high, count) else { return }
        let resolution = Resolution(contexts: before.contexts + after.contexts, unmatched: before.unmatched + after.unmatched)
        addStreetCandidates(roads: roads, street: street, consumed: end - start, start: low, resolution: resolution)
    }

    /// Street candidates: the road features, or, for a street known only from its addresses, the
    /// address nearest the middle of their box.
    mutating func addStreetCandidates(roads: [NameHit], street: (key: [UInt8], addresses: StreetAddresses)?, consumed: Int, start: Int, resolution: Resolution) {
        for hit in roads {
            if let found = candidate(hit, match: .exact, consumed: consumed, start: start, resolution: resolution) { candidates.append(found) }
        }
        guard roads.isEmpty, let street, let addresses else { return }
        var box = (west: Double.infinity, south: Double.infinity, east: -Double.infinity, north: -Double.infinity)
        var points: [(feature: Int, latitude: Double, longitude: Double)] = []
        for feature in street.addresses.features {
            let b = Feature(map: addresses, index: feature).boundingBox
            box = (min(box.west, b.west), min(box.south, b.south), max(box.east, b.east), max(box.north, b.north))
            points.append((feature, (b.south + b.north) / 2, (b.west + b.east) / 2))
        }
        let middle = (latitude: (box.south + box.north) / 2, longitude: (box.west + box.east) / 2)
        var best: (feature: Int, latitude: Double, longitude: Double)?
        var bestDistance = Double.infinity
        for point in points {
            let distance = Geodesic.distance(latitude: middle.latitude, longitude: middle.longitude, toLatitude: point.latitude, longitude: point.longitude)
            if distance < bestDistance { (best, bestDistance) = (point, distance) }
        }
        guard let best, let setAside = satisfies(resolution, kind: .street, latitude: best.latitude, longitude: best.longitude, box: box, countryCode: nil) else { return }
        var found = Candidate(kind: .street, rank: Self.rank(of: .street), layer: addressesPosition, feature: best.feature, match: .exact,
                              unmatched: resolution.unmatched + setAside, consumed: consumed, latitude: best.latitude, longitude: best.longitude, box: box, prominence: 0,
                              start: start)
        found.addressStreet = true
        candidates.append(found)
    }
}
