/// Checks one polygon record against the rules of what it must hold (Spec/FORMAT.md 8.4, 8.6),
/// beyond its structure: every edge meeting the closed tile is stored, and rings are closed, so at
/// each vertex in the closed tile each slot has an even number of stored edges ending there; in
/// format 3 each distinct edge is stored once, and only edges that meet the closed tile are.
///
/// A ring with an edge dropped, moved or stored twice fails this, even when every record is well
/// formed; the reasons name the feature and the vertex.
enum RecordRingCheck {
    /// What is wrong with `record`, the record of a leaf with `bounds`, in plain words (at most a few
    /// reasons); `sharedEdges` says the file is format 3.
    static func reasons(_ record: DecodedRecord, bounds: TileBounds, sharedEdges: Bool, words: ProblemWords) -> [String] {
        var reasons: [String] = []
        if sharedEdges, let reason = storedOnce(record, bounds: bounds, words: words) { reasons.append(reason) }
        reasons += ringsClose(record, bounds: bounds, words: words)
        return reasons
    }

    /// Format 3: each distinct edge once, and only edges that meet the closed tile (8.6 rule 2).
    private static func storedOnce(_ record: DecodedRecord, bounds: TileBounds, words: ProblemWords) -> String? {
        var keys: [(low: Int64, high: Int64)] = []
        keys.reserveCapacity(record.edges.count)
        for edge in record.edges {
            let key = GridKey.edge(edge)
            if !SegmentPlacement.meetsClosed(bounds, edge.ax, edge.ay, edge.bx, edge.by) {
                return "stores the edge \(words.edge(key.low, key.high)), which does not meet the tile"
            }
            keys.append(key)
        }
        keys.sort { $0.low != $1.low ? $0.low < $1.low : $0.high < $1.high }
        for index in keys.indices.dropFirst() where keys[index] == keys[index - 1] {
            return "stores the edge \(words.edge(keys[index].low, keys[index].high)) twice (each distinct edge is stored once, with the mask of all its slots)"
        }
        return nil
    }

    /// Every vertex in the closed tile ends an even number of each slot's edges.
    private static func ringsClose(_ record: DecodedRecord, bounds: TileBounds, words: ProblemWords) -> [String] {
        var ends: [(vertex: Int64, slot: Int)] = []
        func addEnd(_ x: Int64, _ y: Int64, of edge: DecodedRecord.Edge) {
            guard x >= bounds.west && x <= bounds.east && y >= bounds.south && y <= bounds.north else { return }
            let vertex = GridKey.point(x, y)
            record.forEachSlot(of: edge) { ends.append((vertex, $0)) }
        }
        for edge in record.edges {
            addEnd(edge.ax, edge.ay, of: edge)
            addEnd(edge.bx, edge.by, of: edge)
        }
        ends.sort { $0.vertex != $1.vertex ? $0.vertex < $1.vertex : $0.slot < $1.slot }
        var reasons: [String] = []
        var start = 0, open = 0
        while start < ends.count {
            var end = start + 1
            while end < ends.count, ends[end].vertex == ends[start].vertex, ends[end].slot == ends[start].slot { end += 1 }
            if (end - start) % 2 == 1 {
                open += 1
                if reasons.count < 3 {
                    let slot = ends[start].slot
                    reasons.append("the rings of \(words.feature(record.slots[slot].featureIndex))\(words.group(record, slot: slot)) "
                                   + "do not close at \(words.point(ends[start].vertex)): an odd number (\(end - start)) of its edges stored here "
                                   + "end there (an edge is missing or one too many)")
                }
            }
            start = end
        }
        if open > reasons.count { reasons.append("and \(open - reasons.count) more vertices where rings do not close") }
        return reasons
    }
}
