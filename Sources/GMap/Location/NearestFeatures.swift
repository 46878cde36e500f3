/// A line feature (a street) near a point: the nearest point of the feature's lines.
public struct LineMatch: Sendable, Equatable {
    /// The line feature.
    public var feature: Feature
    /// The geodesic distance from the asked point to ``latitude``/``longitude``, in metres.
    public var distance: Double
    /// The nearest point of the feature, in degrees.
    public var latitude: Double
    /// The nearest point of the feature, in degrees.
    public var longitude: Double
    /// The direction of the segment holding the nearest point, degrees clockwise from north
    /// (0 ..< 360, in the direction the segment is stored; a street runs both ways).
    public var direction: Double

    /// A match from its parts.
    public init(feature: Feature, distance: Double, latitude: Double, longitude: Double, direction: Double) {
        self.feature = feature
        self.distance = distance
        self.latitude = latitude
        self.longitude = longitude
        self.direction = direction
    }
}

/// A point feature (a place, an address, an intersection) near a point.
public struct PointMatch: Sendable, Equatable {
    /// The point feature.
    public var feature: Feature
    /// The geodesic distance from the asked point, in metres.
    public var distance: Double
    /// The initial bearing from the asked point to the feature's point, degrees clockwise from north.
    public var bearing: Double
    /// The feature's point, in degrees.
    public var latitude: Double
    /// The feature's point, in degrees.
    public var longitude: Double

    /// A match from its parts.
    public init(feature: Feature, distance: Double, bearing: Double, latitude: Double, longitude: Double) {
        self.feature = feature
        self.distance = distance
        self.bearing = bearing
        self.latitude = latitude
        self.longitude = longitude
    }
}
