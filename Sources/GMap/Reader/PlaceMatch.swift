/// How a ``PlaceMatch`` relates to its point.
public enum PlaceMatchKind: Sendable, Hashable {
    /// The feature contains the point.
    case inside
    /// No feature contains the point; this feature's boundary is the nearest within the radius asked for.
    case nearby
}

/// An answer of ``GMap/lookup(latitude:longitude:within:)``: a feature, whether it contains the
/// point or only lies near it, and how far its boundary is.
public struct PlaceMatch: Sendable, Hashable {
    /// The feature.
    public var feature: Feature
    /// Whether the feature contains the point or lies near it.
    public var kind: PlaceMatchKind
    /// The geodesic distance in metres (WGS 84) from the point to the feature's boundary: 0 when
    /// inside, otherwise accurate to 0.5 % (in practice to about 0.01 %).
    public var distance: Double

    /// A match from its parts.
    public init(feature: Feature, kind: PlaceMatchKind, distance: Double) {
        self.feature = feature
        self.kind = kind
        self.distance = distance
    }
}

/// What one nearby search read: how many leaf tiles and edges, to show that its work is bounded
/// by the tiles the radius touches.
public struct NearbyCost: Sendable, Hashable {
    /// Leaf tiles whose closed rectangle meets the search box, each visited once.
    public var leafTiles: Int
    /// Of those, tiles with a record (the others are empty or covered and hold no edges).
    public var recordTiles: Int
    /// Edges read from those records.
    public var edges: Int
    /// Edges whose distance was computed exactly (the others were ruled out by a cheap lower bound).
    public var measuredEdges: Int

    /// A cost from its parts.
    public init(leafTiles: Int, recordTiles: Int, edges: Int, measuredEdges: Int) {
        self.leafTiles = leafTiles
        self.recordTiles = recordTiles
        self.edges = edges
        self.measuredEdges = measuredEdges
    }
}
