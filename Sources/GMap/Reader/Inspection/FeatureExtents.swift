/// What the stored geometry of each feature of one layer says about the feature, gathered from its
/// records as the verifier reads them: the box of its vertices, and (lines and points) whether its
/// label point is one of them. ``MapVerifier`` compares them with the feature's `bbox` (5.3) and
/// label point (5.9), which no lookup reads but `find`, `geocode`, `export` and placemarks print.
struct FeatureExtents {
    /// One feature's box of stored vertices, in units (empty: `west > east`).
    struct Box: Equatable {
        var west = Int64.max, south = Int64.max, east = Int64.min, north = Int64.min

        /// Whether no vertex was seen.
        var isEmpty: Bool { west > east }
    }

    /// Per feature, the box of its vertices in the records read.
    private(set) var boxes: [Box]
    /// Per feature, its label point as a ``GridKey/point(_:_:)`` key (lines and points; nil: none to find).
    private var labels: [Int64?]
    /// Per feature, whether a stored vertex or point is its label point.
    private(set) var labelFound: [Bool]
    /// Whether every record of the layer was read whole: only then do the boxes hold every vertex.
    private(set) var isComplete = true

    /// Extents for `featureCount` features; `labels` (lines and points) are the label points to look for.
    init(featureCount: Int, labels: [GridPoint?]) {
        boxes = [Box](repeating: Box(), count: featureCount)
        self.labels = labels.map { $0.map { GridKey.point($0.x, $0.y) } }
        labelFound = [Bool](repeating: false, count: labels.count)
    }

    /// Adds the vertices of a record read whole.
    mutating func add(_ record: DecodedRecord) {
        record.forEachVertex { feature, x, y in
            guard feature < boxes.count else { return }
            boxes[feature].west = min(boxes[feature].west, x)
            boxes[feature].east = max(boxes[feature].east, x)
            boxes[feature].south = min(boxes[feature].south, y)
            boxes[feature].north = max(boxes[feature].north, y)
            if feature < labels.count, let label = labels[feature], label == GridKey.point(x, y) { labelFound[feature] = true }
        }
    }

    /// Notes a record that could not be read whole: the boxes are then incomplete.
    mutating func addUnreadable() { isComplete = false }
}
