extension Geocoder {
    // MARK: Names

    /// Every run of words that is a whole name of a feature, with the other words resolved.
    mutating func findNames() {
        for start in 0..<count {
            for end in (start + 1)...min(count, start + Self.maximumNameWords) {
                let others = names(start, end).filter { $0.layer != streets }
                let street = self.street(start, end)
                let roads = self.roads(start, end, street: street)
                guard !others.isEmpty || !roads.isEmpty || street != nil else { continue }
                guard let before = resolve(0, start), let after = resolve(end, count) else { continue }
                let resolution = Resolution(contexts: before.contexts + after.contexts, unmatched: before.unmatched + after.unmatched)
                for hit in others {
                    if let found = candidate(hit, match: .exact, consumed: end - start, start: start, resolution: resolution) { candidates.append(found) }
                }
                addStreetCandidates(roads: roads, street: street, consumed: end - start, start: start, resolution: resolution)
            }
        }
    }

    /// Names that start with a part's words, or whose words start with them (``NameMatch``), when
    /// nothing matched whole: each part in turn, the others resolved around it.
    mutating func findLooseNames() {
        for part in partRanges.indices {
            let range = partRanges[part]
            guard range.start < range.end, range.end - range.start <= Self.maximumNameWords, !isCode(range.start, range.end) else { continue }
            guard let before = resolve(0, range.start), let after = resolve(range.end, count) else { continue }
            let resolution = Resolution(contexts: before.contexts + after.contexts, unmatched: before.unmatched + after.unmatched)
            let query = NameQuery(String(decoding: key(range.start, range.end), as: UTF8.self))
            guard !query.words.isEmpty else { continue }
            for (position, layer) in layers.enumerated() {
                for found in layer.map.nameMatches(query, loosest: .words) {
                    if let candidate = candidate(NameHit(layer: position, feature: found.feature, otherName: found.otherName), match: found.match,
                                                 consumed: range.end - range.start, start: range.start, resolution: resolution) {
                        candidates.append(candidate)
                    }
                }
            }
        }
    }

    /// Names within an edit or two of a run of words (``TypoRule``), when nothing matched whole:
    /// each part whole, then its first words and its last words (the thing and where it is, typed
    /// without commas: `Londn UK`), the other words resolved around it; at most
    /// ``maximumTypoRuns`` runs walk the names. Streets with a house number beside them are tried
    /// too (``findTypoAddresses()``).
    mutating func findTypos() {
        var runs: [(start: Int, end: Int)] = []
        for range in partRanges where range.start < range.end {
            runs.append(range)
            for end in stride(from: range.end - 1, to: range.start, by: -1) { runs.append((range.start, end)) }
            for start in (range.start + 1)..<range.end { runs.append((start, range.end)) }
        }
        var tried = 0
        for run in runs where run.end - run.start <= Self.maximumNameWords && !words[run.start].startsWithDigit && !isCode(run.start, run.end) {
            // Only a run whose other words say where it is.
            guard let before = resolve(0, run.start), let after = resolve(run.end, count) else { continue }
            guard tried < Self.maximumTypoRuns else { break }
            tried += 1
            let resolution = Resolution(contexts: before.contexts + after.contexts, unmatched: before.unmatched + after.unmatched)
            let key = self.key(run.start, run.end)
            for (position, layer) in layers.enumerated() where layer.role.takesTypos {
                for typo in layer.map.typoMatches(key) {
                    let hit = NameHit(layer: position, feature: typo.feature, otherName: typo.otherName, key: typo.key)
                    guard var found = candidate(hit, match: .typo, consumed: run.end - run.start, start: run.start, resolution: resolution) else { continue }
                    found.edits = typo.distance
                    candidates.append(found)
                }
            }
        }
        findTypoAddresses()
    }
}
