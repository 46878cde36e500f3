// Names within an edit or two of a query's key: a bounded walk over a sorted list of keys (a
// name index, a lexicon, the streets of an address index), never a scan of every name.

/// How many edits a name may be from a query and still be a typo of it: one, or two for a name
/// of ``longNameLetters`` letters or more. An edit is an insertion, a deletion or a substitution
/// of one letter (a Unicode scalar of the key, ``NameFolding/normalized(_:)``), or the
/// transposition of two adjacent letters (the optimal string alignment distance); the spaces
/// between words are letters to edit but are not counted in a name's length.
public enum TypoRule {
    /// Names of this many letters or more may be two edits away; shorter ones one.
    public static let longNameLetters = 8
    /// Words of fewer letters than this are not corrected: an edit changes too much of them
    /// (`中国` is one edit from `英国`, `Rom` from `Row`).
    public static let minimumLetters = 4

    /// The edits allowed for a name whose key has `letters` letters (spaces not counted).
    public static func allowedEdits(letters: Int) -> Int { letters >= longNameLetters ? 2 : 1 }

    /// The most edits any name may be from a query of `letters` letters: two when a name of
    /// ``longNameLetters`` letters can be two edits away (the query has at least that many less
    /// two), else one.
    public static func searchedEdits(queryLetters letters: Int) -> Int { letters + 2 >= longNameLetters ? 2 : 1 }

    /// The number of letters of a key: its scalars that are not spaces.
    public static func letters(of key: [UInt8]) -> Int {
        var count = 0
        for byte in key where byte != 0x20 && byte & 0xC0 != 0x80 { count += 1 }
        return count
    }

    /// The optimal string alignment distance of two keys (edits of scalars; see ``TypoRule``),
    /// for a brute-force check of the walk.
    public static func distance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        let x = scalars(a), y = scalars(b)
        var previous2 = [Int](repeating: 0, count: y.count + 1), previous = Array(0...y.count), current = previous2
        for i in 1...max(1, x.count) where !x.isEmpty {
            current[0] = i
            for j in 1...max(1, y.count) where !y.isEmpty {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                var best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] { best = min(best, previous2[j - 2] + 1) }
                current[j] = best
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return x.isEmpty ? y.count : previous[y.count]
    }

    /// The Unicode scalars of UTF-8 `bytes` (an invalid sequence as U+FFFD).
    static func scalars(_ bytes: [UInt8]) -> [UInt32] {
        var result: [UInt32] = []
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): result.append(scalar.value)
            case .error: result.append(0xFFFD)
            case .emptyInput: return result
            }
        }
    }
}

/// The walk's edit-distance rows for one query: each key is compared letter by letter, the rows
/// of the letters it shares with the key before it kept, and a key whose row passes the bound is
/// given up with every key that starts as it does.
struct TypoWalk {
    /// What ``visit(_:)`` found of a key.
    enum Visit {
        /// The key is within the edits its length allows, at this distance.
        case match(Int)
        /// It is not, nor (perhaps) keys that go on from it.
        case miss
        /// No key that starts with its first `bytes` bytes can be within the bound: skip them.
        case prune(bytes: Int)
    }

    let query: [UInt32]
    let bound: Int
    /// Row `d`: the distances from the key's first `d` letters to each prefix of the query.
    private var rows: [[Int]]
    /// The letters of the key last visited, and where each ends in its bytes.
    private var letters: [UInt32] = []
    private var ends: [Int] = []

    init(query key: [UInt8]) {
        query = TypoRule.scalars(key)
        bound = TypoRule.searchedEdits(queryLetters: TypoRule.letters(of: key))
        rows = [Array(0...query.count)]
    }

    /// Compares `key` with the query, reusing the rows of the letters it shares with the key
    /// visited before.
    mutating func visit(_ key: [UInt8]) -> Visit {
        // The letters shared with the previous key.
        var shared = 0, position = 0
        var decoder = UTF8(), iterator = key.makeIterator()
        var keyLetters: [UInt32] = [], keyEnds: [Int] = []
        keyLetters.reserveCapacity(key.count)
        decoding: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                position += UTF8.width(scalar)
                keyLetters.append(scalar.value)
            case .error:
                position += 1
                keyLetters.append(0xFFFD)
            case .emptyInput:
                break decoding
            }
            keyEnds.append(position)
        }
        while shared < min(letters.count, keyLetters.count), letters[shared] == keyLetters[shared], ends[shared] == keyEnds[shared] { shared += 1 }
        rows.removeSubrange((shared + 1)...)
        letters = keyLetters
        ends = keyEnds
        let width = query.count + 1
        for depth in shared..<keyLetters.count {
            let letter = keyLetters[depth], above = rows[depth]
            var row = [Int](repeating: 0, count: width)
            row[0] = depth + 1
            var smallest = row[0]
            for j in 1..<width {
                let cost = letter == query[j - 1] ? 0 : 1
                var best = min(above[j] + 1, row[j - 1] + 1, above[j - 1] + cost)
                if depth >= 1, j >= 2, letter == query[j - 2], keyLetters[depth - 1] == query[j - 1] {
                    best = min(best, rows[depth - 1][j - 2] + 1)
                }
                row[j] = best
                smallest = min(smallest, best)
            }
            rows.append(row)
            if smallest > bound {
                // Keep the rows up to this letter's parent so the next key starts from there.
                rows.removeLast()
                letters.removeSubrange(depth...)
                ends.removeSubrange(depth...)
                return .prune(bytes: keyEnds[depth])
            }
        }
        let distance = rows[keyLetters.count][query.count]
        return distance <= TypoRule.allowedEdits(letters: TypoRule.letters(of: key)) ? .match(distance) : .miss
    }

    /// The smallest byte string above every string that starts with `prefix` (nil when none is:
    /// every byte 0xFF).
    static func successor(of prefix: some Collection<UInt8>) -> [UInt8]? {
        var bytes = Array(prefix)
        while let last = bytes.last {
            if last < 0xFF {
                bytes[bytes.count - 1] = last + 1
                return bytes
            }
            bytes.removeLast()
        }
        return nil
    }
}

/// A name within the edits ``TypoRule`` allows of a query: the layer's feature, its key and the
/// distance, and the other name that has the key (a layer of named compact points), if any.
struct TypoMatch {
    var feature: Int
    var key: [UInt8]
    var distance: Int
    var otherName: String?
}

extension GMap {
    /// The features of this layer with a whole key (5.10; of a layer of named compact points
    /// also an other name's key, 5.13) within the edits ``TypoRule`` allows of `key`, other than
    /// `key` itself (none for a key of fewer than ``TypoRule/minimumLetters`` letters): by a bounded walk over the layer's lexicon or name index (whole keys only),
    /// or, for a layer without either, over its features' keys. Each feature once, at its
    /// smallest distance, in feature order.
    func typoMatches(_ key: [UInt8]) -> [TypoMatch] {
        guard TypoRule.letters(of: key) >= TypoRule.minimumLetters else { return [] }
        var found: [TypoMatch] = []
        var walk = TypoWalk(query: key)
        if let table = lexicon {
            // The whole keys start after every word key (a space, 0x20): at 0x21.
            var entry = table.firstEntry(notBelow: [0x21], in: span)
            while var current = entry {
                entry = nil  // so that `current` holds its key alone and reads on in place
                let visit = walk.visit(current.key)
                if case .match(let distance) = visit, current.key != key {
                    let spelling = current.otherNameSpelling(), matched = current.key
                    current.forEachPosting { feature, otherName in
                        if feature < featureCount { found.append(TypoMatch(feature: feature, key: matched, distance: distance, otherName: otherName ? spelling : nil)) }
                        return true
                    }
                }
                if case .prune(let bytes) = visit {
                    entry = TypoWalk.successor(of: current.key.prefix(bytes)).flatMap { table.firstEntry(notBelow: $0, in: span) }
                } else if current.next() {
                    entry = current
                }
            }
        } else if layout.names.count > 0 {
            let index = NameIndexReader(map: self)
            var position = index.lowerBound([0x21])
            while position < layout.names.count, let current = index.key(at: position) {
                switch walk.visit(current) {
                case .match(let distance) where current != key:
                    if let feature = index.feature(at: position), feature < featureCount,
                       NameFolding.wholeKeys(id: Feature(map: self, index: feature).id, names: Feature(map: self, index: feature).nameTexts).contains(current) {
                        found.append(TypoMatch(feature: feature, key: current, distance: distance))
                    }
                    position += 1
                case .prune(let bytes):
                    guard let next = TypoWalk.successor(of: current.prefix(bytes)) else { position = layout.names.count; break }
                    position = max(position + 1, index.lowerBound(next))
                default:
                    position += 1
                }
            }
        } else {
            for feature in 0..<featureCount {
                let item = Feature(map: self, index: feature)
                for whole in NameFolding.wholeKeys(id: item.id, names: item.nameTexts) where whole != key {
                    var single = TypoWalk(query: key)
                    if case .match(let distance) = single.visit(whole) { found.append(TypoMatch(feature: feature, key: whole, distance: distance)) }
                }
            }
        }
        // Each feature once, at its smallest distance (the id's key before an other name's).
        found.sort { ($0.feature, $0.distance, $0.otherName == nil ? 0 : 1) < ($1.feature, $1.distance, $1.otherName == nil ? 0 : 1) }
        var unique: [TypoMatch] = []
        for match in found where unique.last?.feature != match.feature { unique.append(match) }
        return unique
    }
}

extension GMap {
    /// The features of every layer of the file (or of the layer named `layer`) with a whole name
    /// within the edits ``TypoRule`` allows of `text`'s key (``NameFolding/normalized(_:)``), not
    /// equal to it: its id, a name property, or an other name (a layer of named compact points),
    /// each feature once at its fewest edits; by layer in file order, then fewest edits, then
    /// feature index. Found by a walk over each layer's sorted names (its lexicon or name index)
    /// that leaves out every name sharing a start too far from the text, not by a scan (a layer
    /// without either is scanned). Geocoding (``geocode(_:near:limit:)``) uses it when nothing
    /// matches whole.
    public func typos(of text: String, layer: String? = nil) -> [FoundFeature] {
        let key = NameFolding.normalized(text)
        let searched: [GMap]
        if let layer {
            guard let named = self.layer(named: layer) else { return [] }
            searched = [named]
        } else {
            searched = layers
        }
        var found: [FoundFeature] = []
        for map in searched {
            let matches = map.typoMatches(key).sorted { ($0.distance, $0.feature) < ($1.distance, $1.feature) }
            found += matches.map { FoundFeature(feature: Feature(map: map, index: $0.feature), match: .typo, otherName: $0.otherName, edits: $0.distance) }
        }
        return found
    }

    /// Calls `body` with each other name of this layer's features (a layer of named compact
    /// points, format 3.6; none for another layer), in the order of their keys, as the lexicon
    /// spells it; stops when `body` returns false.
    public func forEachOtherName(_ body: (_ feature: Feature, _ name: String) -> Bool) {
        guard let table = lexicon, var cursor = LexiconCursor(table: table, file: span, block: 0) else { return }
        var going = true
        while going, cursor.next() {
            guard let spelling = cursor.otherNameSpelling() else { continue }
            cursor.forEachPosting { feature, otherName in
                if otherName, feature < featureCount { going = body(Feature(map: self, index: feature), spelling) }
                return going
            }
        }
    }
}
