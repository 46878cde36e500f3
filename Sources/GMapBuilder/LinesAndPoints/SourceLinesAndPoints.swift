import GMap

/// A feature of a layer of lines (format 3.1) to build: its id, kept properties and polylines.
public struct SourceLineFeature: Sendable {
    /// The id the map stores.
    public var id: String
    /// The properties the map stores.
    public var properties: [SourceFeature.KeptProperty]
    /// Open polylines, each a list of `(longitude, latitude)` in degrees. A line keeps its
    /// vertices in order; repeated consecutive positions (after quantization) are dropped, and a
    /// line left with fewer than two positions is dropped.
    public var lines: [[(longitude: Double, latitude: Double)]]

    /// A feature from its parts.
    public init(id: String, properties: [SourceFeature.KeptProperty] = [], lines: [[(longitude: Double, latitude: Double)]]) {
        self.id = id
        self.properties = properties
        self.lines = lines
    }
}

/// A feature of a layer of points (format 3.1) to build: its id, kept properties and points.
public struct SourcePointFeature: Sendable {
    /// The id the map stores.
    public var id: String
    /// The properties the map stores.
    public var properties: [SourceFeature.KeptProperty]
    /// Its points, `(longitude, latitude)` in degrees (usually one; repeats after quantization are dropped).
    public var points: [(longitude: Double, latitude: Double)]
    /// Its other names (another language's, an old one, an abbreviation), which only a layer of
    /// compact points keeps: in its lexicon (format 3.6), where they find the feature as its id does.
    public var otherNames: [String]

    /// A feature from its parts.
    public init(id: String, properties: [SourceFeature.KeptProperty] = [], points: [(longitude: Double, latitude: Double)],
                otherNames: [String] = []) {
        self.id = id
        self.properties = properties
        self.points = points
        self.otherNames = otherNames
    }
}
