import GMapCodecs
/// Colours for the features of a picture, so that features that touch or overlap in it get
/// different colours: a greedy colouring of the adjacency graph read from the pixels.
///
/// Two features are neighbours when pixels of theirs are side by side, or when one pixel lies in
/// both. Features are coloured most neighbours first, each with the least used palette colour
/// that no coloured neighbour has; when every palette colour is taken, a new colour slot is opened.
struct FeatureColouring {
    /// The colour slot of each feature, -1 for a feature not in the picture.
    let slots: [Int]
    /// How many slots are used.
    let slotCount: Int

    init(answers: PixelAnswers, featureCount: Int, paletteSize: Int) {
        var neighbours = [Set<Int32>](repeating: [], count: featureCount)
        var drawn = [Bool](repeating: false, count: featureCount)
        func connect(_ a: Int32, _ b: Int32) {
            guard a != b, a >= 0, b >= 0, Int(a) < featureCount, Int(b) < featureCount else { return }
            neighbours[Int(a)].insert(b)
            neighbours[Int(b)].insert(a)
        }
        for y in 0..<answers.height {
            for x in 0..<answers.width {
                let here = answers.answer(x: x, y: y)
                if here >= 0, Int(here) < featureCount { drawn[Int(here)] = true }
                let overlap = answers.overlap(x: x, y: y)
                if overlap >= 0, Int(overlap) < featureCount { drawn[Int(overlap)] = true }
                connect(here, overlap)
                if x + 1 < answers.width { connect(here, answers.answer(x: x + 1, y: y)) }
                if y + 1 < answers.height { connect(here, answers.answer(x: x, y: y + 1)) }
            }
        }
        let order = (0..<featureCount).filter { drawn[$0] }.sorted { (neighbours[$0].count, -$0) > (neighbours[$1].count, -$1) }
        var slots = [Int](repeating: -1, count: featureCount)
        var uses = [Int](repeating: 0, count: max(1, paletteSize))
        for feature in order {
            let taken = Set(neighbours[feature].map { slots[Int($0)] })
            var choice = -1
            for slot in uses.indices where !taken.contains(slot) && (choice < 0 || uses[slot] < uses[choice]) { choice = slot }
            if choice < 0 {
                choice = uses.count
                uses.append(0)
            }
            uses[choice] += 1
            slots[feature] = choice
        }
        self.slots = slots
        slotCount = order.isEmpty ? 0 : uses.count
    }

    /// The slot of a feature, or -1.
    func slot(of feature: Int32) -> Int {
        feature >= 0 && Int(feature) < slots.count ? slots[Int(feature)] : -1
    }
}
