/// House numbers and the words of a geocoding query, folded as the name index folds names
/// (``NameFolding``), so that the builder, the address index (`ADDR`, Spec/FORMAT.md 5.11) and
/// every reader agree byte for byte.
extension NameFolding {
    /// The key of a house number (Spec/FORMAT.md 5.11): its ``normalized(_:)`` key with every space
    /// removed that follows a digit and comes before a word of one scalar that is not a digit, so
    /// that `12a`, `12 A` and `12A` are one key, `12a`, and a letter stays joined to its number:
    /// `11 B 9` → `11b 9`. A range or a list keeps its words: `12-14`, `12–14` and `12, 14` are all
    /// `12 14`; `2, 2. krs./Floor 2` is `2 2 krs floor 2`.
    public static func houseNumberKey(_ text: String) -> [UInt8] {
        houseNumberKey(normalized: normalized(text))
    }

    /// ``houseNumberKey(_:)`` of UTF-8 text (invalid sequences become U+FFFD).
    public static func houseNumberKey(utf8 text: UnsafeRawBufferPointer) -> [UInt8] {
        houseNumberKey(normalized: normalized(String(decoding: text, as: UTF8.self)))
    }

    /// ``houseNumberKey(_:)`` of a text already made a key by ``normalized(_:)`` (or the words of
    /// one, joined by single spaces).
    public static func houseNumberKey(normalized key: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(key.count)
        var index = 0
        while index < key.count {
            let byte = key[index]
            if byte == 0x20, let last = result.last, isDigit(last), isSingleNonDigit(key, from: index + 1) {
                index += 1
                continue
            }
            result.append(byte)
            index += 1
        }
        return result
    }

    /// Whether the word of `key` starting at `start` (up to the next space or the end) is one scalar
    /// that is not an ASCII digit.
    private static func isSingleNonDigit(_ key: [UInt8], from start: Int) -> Bool {
        guard start < key.count, key[start] != 0x20, !isDigit(key[start]) else { return false }
        var end = start + 1
        // UTF-8 continuation bytes belong to the same scalar.
        while end < key.count, key[end] & 0xC0 == 0x80 { end += 1 }
        return end == key.count || key[end] == 0x20
    }

    /// Whether `byte` is an ASCII digit.
    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// One word of a query, folded as by ``normalized(_:)``, with what the text said around it.
    package struct QueryWord: Sendable, Equatable {
        /// The folded word: a word of the query's ``normalized(_:)`` key.
        package var bytes: [UInt8]
        /// The comma-separated part of the text it is in (0 for the first).
        package var part: Int
        /// Whether a full stop follows it directly (`Mannerheimint.`): it may be cut short.
        package var isAbbreviated: Bool
        /// Whether it was typed as two or three capital letters A–Z (`TX`, `ON`, `USA`): a code.
        package var isCode = false

        /// Whether it starts with an ASCII digit (a house number or a postal code does).
        package var startsWithDigit: Bool { bytes.first.map(NameFolding.isDigit) ?? false }
    }

    /// The words of a geocoding query, in order: the words of its ``normalized(_:)`` key (joined by
    /// single spaces they are that key), each with the comma-separated part of the text it is in and
    /// whether a full stop follows it; and each part's text as typed, without spaces at its ends.
    package static func queryWords(_ text: String) -> (words: [QueryWord], parts: [String]) {
        var words: [QueryWord] = []
        var parts: [String] = []
        var partText: [UInt8] = []
        var current: [UInt8] = []
        var capitals = 0, others = 0  // of the word being read: capitals A–Z, and any other scalar
        var wordCapitals: [Int] = []  // of each word: its capitals when it has nothing else
        var part = 0
        var afterWord = false  // the separators right after a word: the first may be a full stop
        func endWord() {
            if !current.isEmpty {
                words.append(QueryWord(bytes: current, part: part, isAbbreviated: false, isCode: others == 0 && capitals >= 2 && capitals <= 3))
                wordCapitals.append(others == 0 ? capitals : 0)
                current = []
                afterWord = true
            }
            capitals = 0
            others = 0
        }
        func endPart() {
            parts.append(trimmed(partText))
            partText = []
        }
        for scalar in text.unicodeScalars {
            if scalar == "," {
                endWord()
                afterWord = false
                endPart()
                part += 1
                continue
            }
            appendUTF8(scalar.value, to: &partText)
            if isSeparator(scalar) {
                endWord()
                if afterWord, scalar == ".", !words.isEmpty { words[words.count - 1].isAbbreviated = true }
                afterWord = false
                continue
            }
            if isIgnorable(scalar) { continue }
            afterWord = false
            if scalar.value >= 0x41 && scalar.value <= 0x5A { capitals += 1 } else { others += 1 }
            append(scalar, to: &current)
        }
        endWord()
        endPart()
        return (joiningInitials(words, capitals: wordCapitals), parts)
    }

    /// The words with each run of two or more initials (letters each followed by a full stop, in
    /// one part: `N.Y.C.`, `U.S.A.`) made one word (`nyc`), a code when they were capitals.
    private static func joiningInitials(_ words: [QueryWord], capitals: [Int]) -> [QueryWord] {
        func isInitial(_ index: Int) -> Bool {
            words[index].isAbbreviated && words[index].bytes.count == 1 && words[index].bytes[0] >= 0x61 && words[index].bytes[0] <= 0x7A
        }
        var result: [QueryWord] = []
        var index = 0
        while index < words.count {
            var end = index
            while end < words.count, isInitial(end), words[end].part == words[index].part { end += 1 }
            if end - index >= 2 {
                let bytes = words[index..<end].flatMap { $0.bytes }
                let allCapitals = (index..<end).allSatisfy { capitals.indices.contains($0) && capitals[$0] == 1 }
                result.append(QueryWord(bytes: bytes, part: words[index].part, isAbbreviated: false,
                                        isCode: allCapitals && bytes.count <= 3))
                index = end
            } else {
                result.append(words[index])
                index += 1
            }
        }
        return result
    }

    /// The key itself, then (for a key with an abbreviated word of a place name, or the word an
    /// abbreviation stands for) the key with each such word the other way (at most two such words:
    /// four keys): `st` and `saint`, `ste` and `sainte`, `mt` and `mount`, `ft` and `fort`. So
    /// `St. Louis` finds `Saint Louis` and `Saint Petersburg` finds `St Petersburg`.
    public static func abbreviationVariants(of key: [UInt8]) -> [[UInt8]] {
        let pairs: [(short: [UInt8], long: [UInt8])] = [
            (Array("st".utf8), Array("saint".utf8)), (Array("ste".utf8), Array("sainte".utf8)),
            (Array("mt".utf8), Array("mount".utf8)), (Array("ft".utf8), Array("fort".utf8)),
        ]
        let words = key.split(separator: 0x20, omittingEmptySubsequences: false).map(Array.init)
        var variants: [[[UInt8]]] = [words]
        var changed = 0
        for (position, word) in words.enumerated() where changed < 2 {
            guard let other = pairs.first(where: { $0.short == word }).map({ $0.long }) ?? pairs.first(where: { $0.long == word }).map({ $0.short }) else { continue }
            changed += 1
            variants += variants.map { variant in
                var copy = variant
                copy[position] = other
                return copy
            }
        }
        return variants.map { Array($0.joined(separator: [0x20])) }
    }

    /// `bytes` without ASCII spaces and tabs at either end, as a `String`.
    private static func trimmed(_ bytes: [UInt8]) -> String {
        var start = 0, end = bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
