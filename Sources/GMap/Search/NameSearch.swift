/// How a feature's name matches a query, best first (Spec/FORMAT.md section 5.10).
public enum NameMatch: Int, Sendable, Hashable, Comparable, CaseIterable {
    /// A whole key of the feature (``NameFolding/wholeKeys(id:names:)``) equals the query's key:
    /// "cote d ivoire" for "Côte d'Ivoire".
    case exact = 0
    /// A whole key starts with the query's key: "cote d" for "Côte d'Ivoire".
    case prefix = 1
    /// Every word of the query's key is a prefix of some word of one whole key, in any order:
    /// "ivoire", "d ivo", "ivoire cote" for "Côte d'Ivoire".
    case words = 2
    /// Geocoding only, when nothing matched otherwise: a whole key is within an edit or two of
    /// the query's key (``TypoRule``): "londn" for "London". ``GMap/find(_:layer:matching:limit:)``
    /// never gives it.
    case typo = 3

    /// Better matches are smaller.
    public static func < (lhs: NameMatch, rhs: NameMatch) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A feature found by one of its names: how the name matched, and, when it was one of the
/// feature's other names (a layer of named compact points, format 3.6), that name.
public struct FoundFeature: Sendable {
    /// The feature.
    public var feature: Feature
    /// How its best name matched.
    public var match: NameMatch
    /// The other name that matched (`Nueva York` for New York City), as the map spells it; nil
    /// when the id or a name property matched.
    public var otherName: String?
    /// A ``NameMatch/typo``: how many edits its name is from the text (``TypoRule``); else 0.
    public var edits: Int

    /// A result from its parts.
    public init(feature: Feature, match: NameMatch, otherName: String? = nil, edits: Int = 0) {
        self.feature = feature
        self.match = match
        self.otherName = otherName
        self.edits = edits
    }
}

/// A query of the name index: its key (``NameFolding/normalized(_:)``), split into words.
struct NameQuery {
    /// The query's key.
    let key: [UInt8]
    /// The words of the key, in order.
    let words: [[UInt8]]
    /// The query folded as by the 2.1 rules (``NameFolding/fold(_:)``), to search an index written by them.
    let key21: [UInt8]

    init(_ text: String) {
        key = NameFolding.normalized(text)
        words = key.split(separator: 0x20).map { Array($0) }
        key21 = NameFolding.fold(text)
    }

    /// How the whole key `name` matches the query, or nil when it does not.
    func match(_ name: [UInt8]) -> NameMatch? {
        if name == key { return .exact }
        if name.starts(with: key) { return .prefix }
        let nameWords = name.split(separator: 0x20)
        for word in words where !nameWords.contains(where: { $0.starts(with: word) }) { return nil }
        return .words
    }

    /// The best match of the feature's whole keys (``NameFolding/wholeKeys(id:names:)``), or nil.
    func match(_ feature: Feature) -> NameMatch? {
        var best: NameMatch?
        for name in NameFolding.wholeKeys(id: feature.id, names: feature.nameTexts) {
            guard let match = match(name) else { continue }
            if best.map({ match < $0 }) ?? true { best = match }
            if match == .exact { break }
        }
        return best
    }
}

/// Forward lookup: features by id or name, through the `NAME` index (a scan for files without one).
extension GMap {
    /// The features whose id or a kept name property (``NameFolding/isNameKey(_:)``) matches `text`,
    /// compared by their keys (``NameFolding/normalized(_:)``): case, accents, punctuation and
    /// spacing aside ("CÔTE-D'IVOIRE" and "Côte d’Ivoire" are one key), matching exactly, by prefix,
    /// or word by word (``NameMatch``: "d ivo" finds "Côte d'Ivoire"). The last part of a text with
    /// slashes counts too: "buenos aires" is an exact match of `America/Argentina/Buenos_Aires`.
    ///
    /// Searches **every layer of the file** (whichever layer this map reads), or only the layer
    /// named `layer` (none when the file has no such layer). Exact matches of every layer come
    /// first, then prefix matches, then word matches; within each, layer by layer in file order,
    /// smallest area first. Each feature appears once, with its best match; matches looser than
    /// `matching` are left out; at most `limit` features. A name index (format 2.1 and 3) makes
    /// each layer a binary search; older files are scanned (Docs/Building-maps.md#layers-placemarks-and-gmap-find).
    public func find(_ text: String, layer: String? = nil, matching loosest: NameMatch = .words, limit: Int = Int.max) -> [Feature] {
        findMatches(text, layer: layer, matching: loosest, limit: limit).map { $0.feature }
    }

    /// The features ``find(_:layer:matching:limit:)`` finds, in its order, each with how its best
    /// name matched and, when that was one of its other names (a layer of named compact points:
    /// "Peking" for Beijing), that name as the map spells it.
    public func findMatches(_ text: String, layer: String? = nil, matching loosest: NameMatch = .words, limit: Int = Int.max) -> [FoundFeature] {
        let query = NameQuery(text)
        guard !query.words.isEmpty, limit > 0 else { return [] }
        return Self.ranked(query, in: searchedLayers(named: layer), loosest: loosest, limit: limit)
    }

    /// The layer named `layer` (none when the map has no such layer), or every layer when nil:
    /// the layers a name search reads.
    func searchedLayers(named layer: String?) -> [GMap] {
        guard let layer else { return layers }
        return self.layer(named: layer).map { [$0] } ?? []
    }

    /// The matches of `query` in the layers `searched`: every layer's exact matches first, then
    /// prefix, then word matches (down to `loosest`), each rank in the layers' order; at most `limit`.
    /// ``find(_:layer:matching:limit:)`` and ``MapStack/find(_:layer:matching:limit:)`` rank alike.
    static func ranked(_ query: NameQuery, in searched: [GMap], loosest: NameMatch, limit: Int) -> [FoundFeature] {
        let matches = searched.map { $0.nameMatches(query, loosest: loosest) }
        var found: [FoundFeature] = []
        for rank in NameMatch.allCases where rank <= loosest && rank != .typo {
            for (map, layerMatches) in zip(searched, matches) {
                for match in layerMatches where match.match == rank {
                    found.append(FoundFeature(feature: Feature(map: map, index: match.feature), match: rank, otherName: match.otherName))
                    if found.count >= limit { return found }
                }
            }
        }
        return found
    }

    /// This layer's features matching `query` no looser than `loosest`, each once with its best
    /// match (the id's or a name property's before an other name's of the same rank) and the
    /// other name that gave it, best first and then by feature index: through the lexicon of a
    /// layer of named compact points (5.13), else as ``matches(_:loosest:)``.
    func nameMatches(_ query: NameQuery, loosest: NameMatch) -> [(feature: Int, match: NameMatch, otherName: String?)] {
        guard lexicon != nil else { return matches(query, loosest: loosest).map { ($0.feature, $0.match, nil) } }
        var found: [(feature: Int, match: NameMatch, otherName: String?)] = []
        // Exact and prefix matches: the whole keys (of ids and other names) that start with the query's key.
        forEachLexiconEntry(withPrefix: query.key) { entry in
            let match: NameMatch = entry.key == query.key ? .exact : .prefix
            guard match <= loosest else { return false }
            var spelling: String??
            entry.forEachPosting { feature, otherName in
                guard feature < featureCount else { return true }
                if otherName, spelling == nil { spelling = .some(entry.otherNameSpelling()) }
                found.append((feature, match, otherName ? spelling ?? nil : nil))
                return true
            }
            return true
        }
        // Word matches, of the ids only: a candidate has, for every word, a key starting with it
        // (a whole key) or with a space and it (a word key); the words' candidates are met longest
        // word first (the fewest, most often), and the few left are checked against their ids.
        if loosest >= .words, !query.words.isEmpty {
            var candidates: [Int]?
            for word in query.words.sorted(by: { $0.count > $1.count }) {
                var features: [Int] = []
                for prefix in [word, [0x20] + word] {
                    forEachLexiconEntry(withPrefix: prefix) { entry in
                        entry.forEachPosting { feature, otherName in
                            if !otherName, feature < featureCount { features.append(feature) }
                            return true
                        }
                        return true
                    }
                }
                features.sort()
                if let kept = candidates {
                    var both: [Int] = [], at = 0
                    for feature in kept {
                        while at < features.count, features[at] < feature { at += 1 }
                        if at < features.count, features[at] == feature { both.append(feature) }
                    }
                    candidates = both
                } else {
                    var unique: [Int] = []
                    for feature in features where unique.last != feature { unique.append(feature) }
                    candidates = unique
                }
                // A few left: checking them costs less than gathering a shorter word's many.
                if (candidates?.count ?? 0) <= 256 { break }
            }
            for feature in candidates ?? [] where query.match(Feature(map: self, index: feature)) == .words {
                found.append((feature, .words, nil))
            }
        }
        // Each feature once, with its best match: by match, then the id before an other name, then the first met.
        found.sort { a, b in
            if a.feature != b.feature { return a.feature < b.feature }
            if a.match != b.match { return a.match < b.match }
            return a.otherName == nil && b.otherName != nil
        }
        var best: [(feature: Int, match: NameMatch, otherName: String?)] = []
        for item in found where best.last?.feature != item.feature { best.append(item) }
        var ordered: [(feature: Int, match: NameMatch, otherName: String?)] = []
        for rank in NameMatch.allCases { ordered += best.filter { $0.match == rank } }
        return ordered
    }

    /// The features of this layer whose whole key (5.10; of a layer of named compact points, also
    /// the key of an other name, 5.13) is `key`, in feature order, each with the other name that
    /// has the key (nil when the id or a name property has it): by the name index or the
    /// lexicon, checked against the features' names; a layer without either is scanned.
    func exactNameMatches(_ key: [UInt8]) -> [(feature: Int, otherName: String?)] {
        guard lexicon != nil else {
            var candidates: [Int] = []
            if layout.names.count > 0 {
                NameIndexReader(map: self).forEachExact(key) { feature in
                    if feature < featureCount && !candidates.contains(feature) { candidates.append(feature) }
                }
                candidates.sort()
            } else {
                candidates = Array(0..<featureCount)
            }
            return candidates.filter { index in
                let feature = Feature(map: self, index: index)
                return NameFolding.wholeKeys(id: feature.id, names: feature.nameTexts).contains(key)
            }.map { ($0, nil) }
        }
        var found: [(feature: Int, otherName: String?)] = []
        guard !key.isEmpty, let table = lexicon, let entry = table.firstEntry(notBelow: key, in: span), entry.key == key else { return [] }
        let spelling = entry.otherNameSpelling()
        entry.forEachPosting { feature, otherName in
            // A word key's postings are not whole keys of their features; an id's whole key is checked against the id.
            guard feature < featureCount, otherName || NameFolding.wholeKeys(id: Feature(map: self, index: feature).id, names: []).contains(key) else { return true }
            if found.last?.feature != feature { found.append((feature, otherName ? spelling : nil)) }
            return true
        }
        return found
    }

    /// This layer's features matching `query` no looser than `loosest`, each once with its best
    /// match, best first and then by feature index.
    func matches(_ query: NameQuery, loosest: NameMatch) -> [(feature: Int, match: NameMatch)] {
        var candidates: [Int] = []
        if layout.names.count > 0 {
            var marked = [Bool](repeating: false, count: featureCount)
            let reader = NameIndexReader(map: self), first = query.words[0]
            func mark(_ feature: Int) {
                if feature < marked.count && !marked[feature] {
                    marked[feature] = true
                    candidates.append(feature)
                }
            }
            reader.forEachPrefix(first, mark)
            reader.forEachPrefix([0x20] + first, mark)
            if !query.key21.starts(with: first) { reader.forEachPrefix(query.key21, mark) }
            candidates.sort()
        } else {
            candidates = Array(0..<featureCount)
        }
        var found: [(feature: Int, match: NameMatch)] = []
        for index in candidates {
            if let match = query.match(Feature(map: self, index: index)), match <= loosest { found.append((index, match)) }
        }
        // A stable order: by match, then by feature index (candidates are in index order).
        var ordered: [(feature: Int, match: NameMatch)] = []
        for rank in NameMatch.allCases { ordered += found.filter { $0.match == rank } }
        return ordered
    }
}

extension Feature {
    /// The values of the feature's kept string properties that are names (``NameFolding/isNameKey(_:)``), in kept order.
    var nameTexts: [String] {
        var texts: [String] = []
        // In a layer of compact points the id is the only name (Spec/FORMAT.md 5.12).
        guard map.storage.layout.compactPoints == nil else { return texts }
        for position in 0..<propertyCount {
            guard let property = propertyBytes(at: position), property.kind == .string,
                  NameFolding.isNameKey(String(decoding: property.key, as: UTF8.self)) else { continue }
            texts.append(String(decoding: property.value, as: UTF8.self))
        }
        return texts
    }

    /// The feature's name: its first non-empty kept name property (``NameFolding/isNameKey(_:)``),
    /// or nil when it has none.
    public var name: String? {
        nameTexts.first { !$0.isEmpty }
    }
}

/// Binary search over a layer's `NAME` records, sorted by key bytes. In a layer of compact points
/// (3.4) a record is a feature and where its key starts in the key of the feature's id.
struct NameIndexReader {
    let map: GMap

    /// Calls `body` with the key of record `position`; nil when the record is corrupt.
    private func withKey<Result>(at position: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result? {
        let layout = map.storage.layout
        let record = layout.names.offset + position * layout.names.recordLength
        if layout.compactPoints != nil {
            guard let entry = map.compactNameEntry(position), let feature = map.feature(at: entry.feature) else { return nil }
            guard let key = GMap.compactKey(of: feature.id, start: entry.start) else { return nil }
            return key.withUnsafeBytes(body)
        }
        let field = FormatLayout.NameRecord.self
        guard let offset = map.span.getUInt32(at: record + field.keyOffset),
              let length = map.span.getUInt32(at: record + field.keyLength),
              let key = map.stringBytes(offset: offset, length: length) else { return nil }
        return body(key)
    }

    func feature(at position: Int) -> Int? {
        let layout = map.storage.layout
        let record = layout.names.offset + position * layout.names.recordLength
        if layout.compactPoints != nil { return map.compactNameEntry(position)?.feature }
        return map.span.getUInt32(at: record + FormatLayout.NameRecord.feature).map { Int($0) }
    }

    /// Whether record `position`'s key starts with `prefix` (false when corrupt).
    private func key(at position: Int, startsWith prefix: [UInt8]) -> Bool {
        withKey(at: position) { key in
            key.count >= prefix.count && Self.compare(UnsafeRawBufferPointer(rebasing: key[0..<prefix.count]), prefix) == 0
        } ?? false
    }

    /// Calls `body` with the feature of each record whose key starts with `prefix`, in record order.
    func forEachPrefix(_ prefix: [UInt8], _ body: (Int) -> Void) {
        guard !prefix.isEmpty else { return }
        var position = lowerBound(prefix)
        while position < map.layout.names.count, key(at: position, startsWith: prefix) {
            if let feature = feature(at: position) { body(feature) }
            position += 1
        }
    }

    /// Calls `body` with the feature of each record whose key is exactly `key`, in record order.
    func forEachExact(_ key: [UInt8], _ body: (Int) -> Void) {
        guard !key.isEmpty else { return }
        var position = lowerBound(key)
        while position < map.layout.names.count, withKey(at: position, { Self.compare($0, key) == 0 }) == true {
            if let feature = feature(at: position) { body(feature) }
            position += 1
        }
    }

    /// The distinct keys of the records that start with `prefix`, in order, at most `limit`.
    func keys(withPrefix prefix: [UInt8], limit: Int) -> [[UInt8]] {
        guard !prefix.isEmpty else { return [] }
        var found: [[UInt8]] = []
        var position = lowerBound(prefix)
        while position < map.layout.names.count, found.count < limit, key(at: position, startsWith: prefix),
              let key = withKey(at: position, { Array($0) }) {
            if found.last != key { found.append(key) }
            position += 1
        }
        return found
    }

    /// The key of record `position`, or nil when it is corrupt.
    func key(at position: Int) -> [UInt8]? {
        withKey(at: position) { Array($0) }
    }

    /// The first record whose key is not less than `key`.
    func lowerBound(_ key: [UInt8]) -> Int {
        var low = 0, high = map.layout.names.count
        while low < high {
            let middle = low + (high - low) / 2
            if withKey(at: middle, { Self.compare($0, key) < 0 }) == true { low = middle + 1 } else { high = middle }
        }
        return low
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

extension GMap {
    /// The search of gmap 1.1: this layer only, exact matches then (with `prefixes`) prefix matches.
    @available(*, deprecated, message: "use find(_:layer:matching:limit:), which also matches words and searches every layer")
    public func find(_ text: String, prefixes: Bool, limit: Int = Int.max) -> [Feature] {
        find(text, layer: layerName, matching: prefixes ? .prefix : .exact, limit: limit)
    }
}
