/// The sections of a map found so far, by tag: a short list searched in order.
///
/// A file has at most ``FormatLayout/maximumSectionCount`` sections, so a linear search is as fast
/// as hashing, and opening a map needs no `Hasher` (whose random seed a device without a source of
/// randomness, such as an Embedded Swift target, would have to supply).
struct SectionRanges {
    private var tags: [UInt32] = []
    private var ranges: [(offset: Int, length: Int)] = []

    /// An empty list.
    init() {}

    /// The byte range of the section with `tag`, or nil when there is none; setting adds or replaces it.
    subscript(tag: UInt32) -> (offset: Int, length: Int)? {
        get {
            guard let index = tags.firstIndex(of: tag) else { return nil }
            return ranges[index]
        }
        set {
            let index = tags.firstIndex(of: tag)
            switch (index, newValue) {
            case let (index?, range?):
                ranges[index] = range
            case let (index?, nil):
                tags.remove(at: index)
                ranges.remove(at: index)
            case let (nil, range?):
                tags.append(tag)
                ranges.append(range)
            case (nil, nil):
                break
            }
        }
    }
}
