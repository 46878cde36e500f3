// Names within an edit or two of a query's key: a bounded walk over a sorted list of keys (a
// name index, a lexicon, the streets of an address index), never a scan of every name.

/// How many edits a name may be from a query and still be a typo of it: one, or two for a name
/// of ``longNameLetters`` letters or more. An edit is an insertion, a deletion or a substitution
/// of one letter (a Unicode scalar of the key, ``NameFolding/normalized(_:)``), or the
/// transposition of two adjacent letters (the optimal string alignment distance); the spaces
/// between words are letters to edit but are not counted in a name's length. Two more rules keep
/// the search a short walk (as search engines do: Lucene's prefix length, Algolia's first-letter
/// rule): a typo keeps the name's first letter, and of two edits at most one falls in its first
/// ``startLetters`` letters (those letters are within one edit of a start of the query).
public enum TypoRule {
    /// Names of this many letters or more may be two edits away; shorter ones one.
    public static let longNameLetters = 8
    /// Words of fewer letters than this are not corrected: an edit changes too much of them
    /// (`中国` is one edit from `英国`, `Rom` from `Row`).
    public static let minimumLetters = 4
    /// A name's first letters (scalars, spaces included) that hold at most one edit.
    public static let startLetters = 5

    /// The edits allowed for a name whose key has `letters` letters (spaces not counted).
    public static func allowedEdits(letters: Int) -> Int { letters >= longNameLetters ? 2 : 1 }

    /// The most edits any name may be from a query of `letters` letters: two when a name of
    /// ``longNameLetters`` letters can be two edits away (the query has at least that many less
    /// two), else one.
    public static func searchedEdits(queryLetters letters: Int) -> Int { letters + 2 >= longNameLetters ? 2 : 1 }

    /// The most edits a name's first `count` letters may be from a start of the query, in a
    /// search for names up to `searched` edits away: none in the first letter, one in the first
    /// ``startLetters``, then `searched`.
    static func editsAllowed(inFirst count: Int, searched: Int) -> Int {
        count <= 1 ? 0 : count <= startLetters ? min(1, searched) : searched
    }

    /// Whether the key `name` is a typo of the key `query` by this rule, computed plainly (for
    /// checks, and for one name at a time): the query has ``minimumLetters`` letters, the two
    /// differ, start with the same letter, are within ``allowedEdits(letters:)`` of each other,
    /// and the name's first ``startLetters`` letters are within one edit of a start of the query.
    public static func accepts(_ name: [UInt8], asTypoOf query: [UInt8]) -> Bool {
        guard letters(of: query) >= minimumLetters, name != query else { return false }
        let x = scalars(name), y = scalars(query)
        guard let first = x.first, first == y.first,
              distances(x, y)[y.count] <= allowedEdits(letters: letters(of: name)) else { return false }
        return (distances(Array(x.prefix(startLetters)), y).min() ?? 0) <= 1
    }

    /// The optimal string alignment distance of two keys (edits of scalars; see ``TypoRule``),
    /// for a brute-force check of the walk.
    public static func distance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        let y = scalars(b)
        return distances(scalars(a), y)[y.count]
    }

    /// The optimal string alignment distances of `x` to each start of `y` (`y`'s first 0, 1, …
    /// letters).
    static func distances(_ x: [UInt32], _ y: [UInt32]) -> [Int] {
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
        return previous
    }

    /// The number of letters of a key: its scalars that are not spaces.
    public static func letters(of key: [UInt8]) -> Int {
        var count = 0
        for byte in key where byte != 0x20 && byte & 0xC0 != 0x80 { count += 1 }
        return count
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
        /// No key that starts with its first `bytes` bytes and then a letter below `letter` can be
        /// within the bound: go on from the first key not below those bytes and `letter`.
        case jump(bytes: Int, letter: UInt32)
        /// The key does not start with the query's first letter: nor does any key above it, when
        /// the walk started at ``TypoWalk/start`` (a typo keeps the first letter).
        case done
    }

    let query: [UInt32]
    let bound: Int
    /// Where a walk over sorted keys starts: the query's first letter (its UTF-8 bytes), below
    /// which no key starts with it.
    let start: [UInt8]
    /// `query.count + 1`: the length of a row.
    private let width: Int
    /// Rows 0 … `depth`, one after another: row `d` holds the distances from the first `d`
    /// letters of the key visited last to each prefix of the query (room for ``maximumDepth``).
    private var rows: [Int]
    /// The letters of the key visited last whose rows are kept, and where each ends in its bytes.
    private var letters: [UInt32]
    private var ends: [Int]
    private var depth = 0
    /// The key visited last, its bytes (for walks that do not say what a key shares).
    private var previous: [UInt8] = []
    /// The most letters of a key compared: a longer key is farther than any bound from a query
    /// of at most ``maximumDepth`` − 3 letters, and is left out.
    static let maximumDepth = 260

    init(query key: [UInt8]) {
        query = Array(TypoRule.scalars(key).prefix(Self.maximumDepth - 3))
        bound = TypoRule.searchedEdits(queryLetters: TypoRule.letters(of: key))
        start = key.isEmpty ? [] : key.withUnsafeBufferPointer { Array(key.prefix(Self.scalar(in: $0, at: 0).next)) }
        width = query.count + 1
        rows = [Int](repeating: 0, count: (Self.maximumDepth + 1) * width)
        for j in 0..<width { rows[j] = j }
        letters = [UInt32](repeating: 0, count: Self.maximumDepth)
        ends = [Int](repeating: 0, count: Self.maximumDepth)
        previous.reserveCapacity(64)
    }

    /// The scalar of UTF-8 `key` at `position` and where the next starts (an invalid sequence is
    /// U+FFFD of one byte).
    static func scalar(in key: UnsafeBufferPointer<UInt8>, at position: Int) -> (value: UInt32, next: Int) {
        let lead = key[position]
        let count: Int, initial: UInt32
        switch lead {
        case 0..<0x80: return (UInt32(lead), position + 1)
        case 0xC2..<0xE0: (count, initial) = (2, UInt32(lead & 0x1F))
        case 0xE0..<0xF0: (count, initial) = (3, UInt32(lead & 0x0F))
        case 0xF0..<0xF5: (count, initial) = (4, UInt32(lead & 0x07))
        default: return (0xFFFD, position + 1)
        }
        guard position + count <= key.count else { return (0xFFFD, position + 1) }
        var value = initial
        for offset in 1..<count {
            let byte = key[position + offset]
            guard byte & 0xC0 == 0x80 else { return (0xFFFD, position + 1) }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        let smallest: UInt32 = count == 2 ? 0x80 : count == 3 ? 0x800 : 0x10000
        guard value >= smallest, value <= 0x10FFFF, !(0xD800...0xDFFF).contains(value) else { return (0xFFFD, position + 1) }
        return (value, position + count)
    }

    /// Compares `key` with the query, reusing the rows of the letters it shares with the key
    /// visited before (found by comparing their bytes).
    mutating func visit(_ key: [UInt8]) -> Visit {
        var common = 0
        let most = min(key.count, previous.count)
        while common < most, key[common] == previous[common] { common += 1 }
        previous.removeAll(keepingCapacity: true)
        previous.append(contentsOf: key)
        return visit(key, sharing: common)
    }

    /// Compares `key` with the query, reusing the rows of the letters in its first `sharedBytes`
    /// bytes, which it shares with the key visited before (a walk that knows this, as a lexicon's
    /// front coding does, saves comparing them). Makes no storage: the rows and letters are kept
    /// in buffers made once.
    mutating func visit(_ key: [UInt8], sharing sharedBytes: Int) -> Visit {
        while depth > 0, ends[depth - 1] > sharedBytes { depth -= 1 }
        let width = self.width, bound = self.bound
        return key.withUnsafeBufferPointer { bytes in
            query.withUnsafeBufferPointer { query in
                rows.withUnsafeMutableBufferPointer { rows in
                    letters.withUnsafeMutableBufferPointer { letters in
                        ends.withUnsafeMutableBufferPointer { ends in
                            var position = depth == 0 ? 0 : ends[depth - 1]
                            while position < bytes.count {
                                guard depth < Self.maximumDepth else { return .prune(bytes: position) }
                                let (letter, next) = Self.scalar(in: bytes, at: position)
                                let above = depth * width, row = above + width
                                rows[row] = depth + 1
                                var smallest = depth + 1
                                let before = depth >= 1 ? letters[depth - 1] : 0xFFFF_FFFF
                                // Only the cells within `bound` of the diagonal can be within the
                                // bound; the two beside that band read as above it.
                                let low = Swift.max(1, depth + 1 - bound), high = Swift.min(width - 1, depth + 1 + bound)
                                if low - 1 >= 1 { rows[row + low - 1] = bound + 1 }
                                if high + 1 < width { rows[row + high + 1] = bound + 1 }
                                for j in Swift.stride(from: low, through: high, by: 1) {
                                    let q = query[j - 1]
                                    var best = Swift.min(rows[above + j] + 1, rows[row + j - 1] + 1, rows[above + j - 1] + (letter == q ? 0 : 1))
                                    if j >= 2, letter == query[j - 2], before == q { best = Swift.min(best, rows[above - width + j - 2] + 1) }
                                    rows[row + j] = best
                                    if best < smallest { smallest = best }
                                }
                                let limit = TypoRule.editsAllowed(inFirst: depth + 1, searched: bound)
                                if smallest > limit {
                                    guard depth > 0 else { return .done }
                                    // The letters after this start that keep a row within the limit: beyond
                                    // the next of them above this letter, or past the start when none is.
                                    let after = Self.nextLetter(after: letter, rows: rows, above: above, width: width, depth: depth,
                                                                bound: bound, limit: limit, query: query, before: before)
                                    return after.map { .jump(bytes: position, letter: $0) } ?? .prune(bytes: position)
                                }
                                letters[depth] = letter
                                ends[depth] = next
                                depth += 1
                                position = next
                            }
                            let distance = abs(width - 1 - depth) > bound ? bound + 1 : rows[depth * width + width - 1]
                            var counted = 0
                            for index in 0..<depth where letters[index] != 0x20 { counted += 1 }
                            return distance <= TypoRule.allowedEdits(letters: counted) ? .match(distance) : .miss
                        }
                    }
                }
            }
        }
    }

    /// The smallest letter above `letter` that may follow the key's first `depth` letters (whose
    /// row starts at `above`, its least value `limit`) and keep the next row within `limit`: a
    /// letter of the query matching a cell of the row at the limit on the diagonal, or swapped
    /// with the letter `before` (a transposition). Nil when no letter above `letter` can.
    static func nextLetter(after letter: UInt32, rows: UnsafeMutableBufferPointer<Int>, above: Int, width: Int, depth: Int,
                           bound: Int, limit: Int, query: UnsafeBufferPointer<UInt32>, before: UInt32) -> UInt32? {
        var best: UInt32?
        func consider(_ candidate: UInt32) {
            if candidate > letter, best.map({ candidate < $0 }) ?? true { best = candidate }
        }
        // The row's cells outside `bound` of its diagonal are above every limit (and not kept).
        for column in Swift.stride(from: Swift.max(0, depth - bound), through: Swift.min(width - 2, depth + bound), by: 1) where rows[above + column] <= limit {
            consider(query[column])
        }
        if depth >= 1 {
            let earlier = above - width, row = depth - 1
            for column in Swift.stride(from: Swift.max(0, row - bound), through: Swift.min(width - 3, row + bound), by: 1) {
                if query[column + 1] == before, rows[earlier + column] + 1 <= limit { consider(query[column]) }
            }
        }
        return best
    }

    /// `prefix` and then the UTF-8 bytes of `letter`: where a ``Visit/jump(bytes:letter:)`` goes.
    static func key(_ prefix: some Collection<UInt8>, then letter: UInt32) -> [UInt8] {
        var bytes = Array(prefix)
        if let scalar = Unicode.Scalar(letter) { UTF8.encode(scalar) { bytes.append($0) } }
        return bytes
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
    /// `key` itself (none for a key of fewer than ``TypoRule/minimumLetters`` letters): by a
    /// bounded walk over the layer's lexicon or name index (whole keys only), or, for a layer
    /// without either, over its features' keys. Each feature once, at its smallest distance, in
    /// feature order.
    func typoMatches(_ key: [UInt8]) -> [TypoMatch] {
        guard TypoRule.letters(of: key) >= TypoRule.minimumLetters, key.first != 0x20 else { return [] }
        var found: [TypoMatch] = []
        var walk = TypoWalk(query: key)
        if let table = lexicon {
            // One cursor reads the entries in order from the query's first letter (whole keys: a
            // word key starts with a space), and skips past every key a pruned start begins.
            guard var cursor = table.firstEntry(notBelow: walk.start, in: span) else { return [] }
            var going = true, first = true
            while going {
                // The bytes shared with the key visited before: the least any entry read since shared.
                let visit = walk.visit(cursor.key, sharing: first ? 0 : cursor.leastShared)
                first = false
                cursor.markShared()
                if case .match(let distance) = visit, cursor.key != key {
                    let spelling = cursor.otherNameSpelling(), matched = cursor.key
                    cursor.forEachPosting { feature, otherName in
                        if feature < featureCount { found.append(TypoMatch(feature: feature, key: matched, distance: distance, otherName: otherName ? spelling : nil)) }
                        return true
                    }
                }
                switch visit {
                case .prune(let bytes): going = cursor.skip(pastPrefixOf: bytes)
                case .jump(let bytes, let letter): going = cursor.skip(toNotBelow: TypoWalk.key(cursor.key.prefix(bytes), then: letter))
                case .done: going = false
                default: going = cursor.next()
                }
            }
        } else if layout.names.count > 0 {
            let index = NameIndexReader(map: self)
            var position = index.lowerBound(walk.start)
            walking: while position < layout.names.count, let current = index.key(at: position) {
                switch walk.visit(current) {
                case .match(let distance) where current != key:
                    if let feature = index.feature(at: position), feature < featureCount,
                       NameFolding.wholeKeys(id: Feature(map: self, index: feature).id, names: Feature(map: self, index: feature).nameTexts).contains(current) {
                        found.append(TypoMatch(feature: feature, key: current, distance: distance))
                    }
                    position += 1
                case .prune(let bytes):
                    guard let next = TypoWalk.successor(of: current.prefix(bytes)) else { break walking }
                    position = max(position + 1, index.lowerBound(next))
                case .jump(let bytes, let letter):
                    position = max(position + 1, index.lowerBound(TypoWalk.key(current.prefix(bytes), then: letter)))
                case .done:
                    break walking
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
        var found: [FoundFeature] = []
        for map in searchedLayers(named: layer) {
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
