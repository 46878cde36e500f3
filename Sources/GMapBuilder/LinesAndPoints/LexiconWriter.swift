import GMap

/// Writes the lexicon of a layer of named compact points (format 3.6, Spec/FORMAT.md 5.13): every
/// index key of every feature's id (5.10: its whole keys and their word keys) and the key of each
/// of its other names, each key once, sorted, front-coded in blocks of
/// ``FormatLayout/Lexicon/writtenBlockSize``, with the features it names.
enum LexiconWriter {
    /// One key of the lexicon: how its other names are spelled (of the spellings met, the one
    /// with the most letters outside ASCII, which keeps its accents, "München" before "Munchen";
    /// then the first in file order), and the features it names, in file order, each once.
    struct Entry {
        var spelling: String?
        var postings: [(feature: Int, otherName: Bool)] = []
    }

    /// The section's bytes and the number of other names it keeps (after those that are the id
    /// again, or another name again, once folded). `ids` and `otherNames` are by source index;
    /// `order` lists the source indexes in file order.
    static func section(ids: [String], otherNames: [[String]], order: [Int]) throws -> (bytes: [UInt8], otherNames: Int) {
        var entries: [[UInt8]: Entry] = [:]
        var kept = 0
        for (position, source) in order.enumerated() {
            let id = ids[source]
            for key in NameFolding.indexKeys(id: id, names: []) {
                entries[key.bytes, default: Entry()].postings.append((position, false))
            }
            let idKeys = NameFolding.wholeKeys(id: id, names: [])
            var keys: [[UInt8]] = []
            for name in otherNames[source] {
                let key = NameFolding.normalized(name)
                guard !key.isEmpty, !idKeys.contains(key) else { continue }
                if !keys.contains(key) {
                    keys.append(key)
                    kept += 1
                    entries[key, default: Entry()].postings.append((position, true))
                }
                if entries[key]?.spelling.map({ Self.accents(name) > Self.accents($0) }) ?? true { entries[key]?.spelling = name }
            }
        }
        let sorted = entries.keys.sorted { $0.lexicographicallyPrecedes($1) }
        let lexicon = FormatLayout.Lexicon.self
        var bytes: [UInt8] = [], blocks: [UInt32] = []
        var previous: [UInt8] = []
        for (index, key) in sorted.enumerated() {
            guard key.count <= lexicon.maximumKeyLength else {
                throw BuildError("a name's key is \(key.count) bytes long; a lexicon holds keys of at most \(lexicon.maximumKeyLength) (\(InputExcerpt.text(String(decoding: key.prefix(60), as: UTF8.self))))")
            }
            var shared = 0
            if index % lexicon.writtenBlockSize == 0 {
                guard bytes.count <= Int(UInt32.max) else { throw BuildError("the lexicon is larger than 4 GiB") }
                blocks.append(UInt32(bytes.count))
            } else {
                while shared < min(key.count, previous.count), key[shared] == previous[shared] { shared += 1 }
            }
            let entry = entries[key] ?? Entry()
            let form = displayForm(of: entry.spelling, key: key)
            Varint.append(UInt64(shared), to: &bytes)
            Varint.append(UInt64(key.count - shared) << 3 | UInt64(form), to: &bytes)
            bytes.append(contentsOf: key[shared...])
            if form == lexicon.displaySpelled, let spelling = entry.spelling {
                let utf8 = Array(spelling.utf8)
                Varint.append(UInt64(utf8.count), to: &bytes)
                bytes.append(contentsOf: utf8)
            }
            var last = 0
            for (number, posting) in entry.postings.enumerated() {
                var value = UInt64(posting.feature - last) << 2
                if posting.otherName { value |= lexicon.otherNameBit }
                if number + 1 < entry.postings.count { value |= lexicon.morePostingsBit }
                Varint.append(value, to: &bytes)
                last = posting.feature
            }
            previous = key
        }
        guard bytes.count <= Int(UInt32.max) else { throw BuildError("the lexicon is larger than 4 GiB") }
        var section: [UInt8] = []
        section.appendLittleEndian(UInt32(sorted.count))
        section.appendLittleEndian(UInt32(lexicon.writtenBlockSize))
        section.appendLittleEndian(UInt32(bytes.count))
        for block in blocks { section.appendLittleEndian(block) }
        section.append(contentsOf: bytes)
        return (section, kept)
    }

    /// The number of scalars of `text` outside ASCII.
    static func accents(_ text: String) -> Int { text.unicodeScalars.reduce(0) { $0 + ($1.isASCII ? 0 : 1) } }

    /// How an entry stores the spelling of its other names: none (no other name has the key), the
    /// key itself, its words capitalized, in capitals (ASCII letters), or spelled out.
    static func displayForm(of spelling: String?, key: [UInt8]) -> UInt8 {
        let lexicon = FormatLayout.Lexicon.self
        guard let spelling else { return lexicon.noDisplay }
        let utf8 = Array(spelling.utf8)
        if utf8 == key { return lexicon.displayAsKey }
        func upper(_ byte: UInt8) -> UInt8 { byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte }
        let capitalized = key.indices.map { index in index == 0 || key[index - 1] == 0x20 ? upper(key[index]) : key[index] }
        if utf8 == capitalized { return lexicon.displayCapitalized }
        if utf8 == key.map(upper) { return lexicon.displayInCapitals }
        return lexicon.displaySpelled
    }
}
