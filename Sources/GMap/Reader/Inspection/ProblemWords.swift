/// How the checks of a layer name features, points, edges and tiles in their messages: plain
/// words and integers only (``TileName``).
struct ProblemWords {
    /// The layer the messages are about.
    let map: GMap

    /// "feature 12 (DE)", or "feature 12" when it has no id.
    func feature(_ index: Int) -> String {
        let id = map.feature(at: index)?.id ?? ""
        return id.isEmpty ? "feature \(index)" : "feature \(index) (\(id))"
    }

    /// A point packed by ``GridKey/point(_:_:)``, as `(latitude, longitude)`.
    func point(_ key: Int64) -> String {
        let (x, y) = GridKey.coordinates(key)
        return TileName.point(x: x, y: y, map.layout.quantizer)
    }

    /// An edge as its two ends: `(47.5, 8.25)–(47.6, 8.3)`.
    func edge(_ low: Int64, _ high: Int64) -> String { point(low) + "–" + point(high) }

    /// A leaf: "tile (column c, row r) part (i, j), south-west corner (…)".
    func tile(_ leaf: LocatedTile) -> String {
        TileName.of(leaf.bounds, depth: leaf.depth, grid: map.layout.grid, quantizer: map.layout.quantizer)
    }

    /// " (its parity group 2)" for a slot of a feature with several slots in a 3.2 record; "" otherwise.
    func group(_ record: DecodedRecord, slot: Int) -> String {
        let slots = record.slots
        guard slot < slots.count else { return "" }
        var group = 0
        while slot - group > 0, slots[slot - group - 1].featureIndex == slots[slot].featureIndex { group += 1 }
        let repeated = slot + 1 < slots.count && slots[slot + 1].featureIndex == slots[slot].featureIndex
        return group > 0 || repeated ? " (its parity group \(group))" : ""
    }
}
