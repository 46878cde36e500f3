/// Checks the lexicon of a layer of named compact points (3.6, Spec/FORMAT.md 5.13) whole, every entry in order
/// from the first, so that what `find` and `geocode` read is what the writer meant:
///
/// * each block's offset is where its first entry starts; the entries end exactly at the lexicon's end;
/// * every entry can be read (13.2): its key shares no more than the key before it has, a block's first
///   shares nothing, and its display form is known;
/// * keys are in strictly ascending byte order (each once), each a key of 5.10: a whole key its own
///   ``NameFolding/normalized(_:)`` key, a word key a space and such a key;
/// * postings name features of the layer, in strictly ascending order; a word key's are all of ids; an
///   entry has a display form exactly when some posting is of an other name, and a spelled one is a
///   spelling of the key; the postings of ids are exactly the index keys of every feature's id
///   (``NameFolding/indexKeys(id:names:)``): no id lacks one, none has one its id does not give.
enum LexiconCheck {
    /// The problems found, at most `limit`, as the verifier reports them (`location`, absolute
    /// offset, reason).
    static func problems(map: GMap, table: LexiconTable, limit: Int) -> [MapProblem] {
        var problems: [MapProblem] = []
        func report(_ location: String, _ offset: Int, _ reason: String) {
            if problems.count < limit { problems.append(MapProblem(location: location, offset: offset, reason: reason)) }
        }
        let span = map.span, featureCount = map.featureCount
        var idKeys = [[[UInt8]]](repeating: [], count: featureCount)
        var firstPosting = [Int](repeating: -1, count: featureCount)
        var cursor = LexiconCursor(table: table, file: span, block: 0)
        var previous: [UInt8]?
        var read = 0
        while read < table.count, var current = cursor {
            cursor = nil
            let name = "lexicon entry \(read)"
            if read % table.blockSize == 0, let stored = span.getUInt32(at: table.blocksOffset + read / table.blockSize * 4),
               table.entriesOffset + Int(stored) != current.position {
                report("lexicon block \(read / table.blockSize)", table.blocksOffset + read / table.blockSize * 4,
                       "offset \(stored), but its first entry starts at \(current.position - table.entriesOffset)")
            }
            guard current.next() else {
                report(name, current.position, "cannot be read (it runs past the entries, shares more bytes than the key before it has, or its display form or a posting is not valid)")
                return problems
            }
            let key = current.key, at = current.entryStart
            if let previous, LexiconTable.compare(previous, key) >= 0 {
                report(name, at, LexiconTable.compare(previous, key) == 0 ? "its key repeats the entry before it" : "keys are not in ascending byte order")
            }
            let isWordKey = key.first == 0x20
            let words = isWordKey ? Array(key.dropFirst()) : key
            if NameFolding.normalized(String(decoding: words, as: UTF8.self)) != words {
                report(name, at, "'\(String(decoding: key, as: UTF8.self))' is not a key (Spec 5.10: folded, single spaces between words)")
            }
            var last = -1, others = 0
            current.forEachPosting { feature, otherName in
                if feature >= featureCount {
                    report(name, at, "a posting names feature \(feature), but the layer has \(featureCount)")
                    return false
                }
                if feature <= last { report(name, at, "its postings are not in strictly ascending feature order") }
                last = feature
                if otherName {
                    others += 1
                } else {
                    idKeys[feature].append(key)
                    if firstPosting[feature] < 0 { firstPosting[feature] = at }
                }
                return true
            }
            if isWordKey && others > 0 { report(name, at, "a word key has a posting of an other name") }
            if (others > 0) != (current.display != FormatLayout.Lexicon.noDisplay) {
                report(name, at, others > 0 ? "it has other names but no spelling (display form 0)" : "it has a spelling but no other name")
            }
            if let spelling = current.otherNameSpelling(), NameFolding.normalized(spelling) != key {
                report(name, at, "its spelling '\(spelling)' is not a spelling of its key '\(String(decoding: key, as: UTF8.self))'")
            }
            previous = key
            read += 1
            cursor = current
        }
        if read == table.count, let end = cursor?.position, end != table.entriesEnd {
            report("lexicon", end, "the entries end \(table.entriesEnd - end) bytes before the \(table.entriesEnd - table.entriesOffset)-byte length says")
        }
        // Every id's keys, and no others.
        for index in 0..<featureCount where problems.count < limit {
            guard let feature = map.feature(at: index) else { continue }
            let expected = NameFolding.indexKeys(id: feature.id, names: []).map { $0.bytes }.sorted { $0.lexicographicallyPrecedes($1) }
            let held = idKeys[index].sorted { $0.lexicographicallyPrecedes($1) }
            guard held != expected else { continue }
            let missing = expected.filter { !held.contains($0) }, extra = held.filter { !expected.contains($0) }
            var parts: [String] = []
            if let first = missing.first { parts.append("the lexicon has no posting of its key '\(String(decoding: first, as: UTF8.self))' (find cannot find it by that name)") }
            if let first = extra.first { parts.append("the lexicon gives its id the key '\(String(decoding: first, as: UTF8.self))', which its id does not have") }
            report("lexicon, feature \(index) (\(feature.id))", firstPosting[index] >= 0 ? firstPosting[index] : table.entriesOffset, parts.joined(separator: "; "))
        }
        return problems
    }
}
