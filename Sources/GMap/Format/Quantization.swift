/// A point on the map's integer grid: longitude and latitude in quantization units.
public struct GridPoint: Sendable, Hashable {
    /// Longitude in units (x grows eastward).
    public var x: Int64
    /// Latitude in units (y grows northward).
    public var y: Int64

    /// A point from its coordinates in units.
    @inlinable public init(x: Int64, y: Int64) {
        self.x = x
        self.y = y
    }
}

/// Turns degrees into integer units and back, and states the semantics of the edges of the world.
///
/// A coordinate is rounded to the nearest unit (`unitsPerDegree` units per degree, 10,000,000 by
/// default, so 1e-7°). Query points are then normalised: longitude +180 is the same meridian as
/// −180 and is answered as −180; latitude +90 (the north pole) is answered as the point one unit
/// south of it, because the half-open rule puts a point exactly on a polygon's northernmost edge
/// outside it.
public struct Quantizer: Sendable, Hashable {
    /// Units per degree.
    public let unitsPerDegree: Int64

    /// The default: 10,000,000 units per degree (1e-7°, about 1.1 cm).
    public static let standard = Quantizer(unitsPerDegreeUnchecked: 10_000_000)

    /// The smallest units-per-degree the format allows (one unit = 1°).
    public static let minimumUnitsPerDegree: Int64 = 1
    /// The largest units-per-degree the format allows (1e-7°); larger values would overflow 32-bit coordinates.
    public static let maximumUnitsPerDegree: Int64 = 10_000_000

    /// A quantizer, or nil when `unitsPerDegree` is outside 1…10,000,000.
    public init?(unitsPerDegree: Int64) {
        guard unitsPerDegree >= Self.minimumUnitsPerDegree, unitsPerDegree <= Self.maximumUnitsPerDegree else { return nil }
        self.unitsPerDegree = unitsPerDegree
    }

    private init(unitsPerDegreeUnchecked: Int64) {
        self.unitsPerDegree = unitsPerDegreeUnchecked
    }

    /// Longitude 180° in units.
    @inlinable public var halfTurn: Int64 { 180 * unitsPerDegree }
    /// Latitude 90° in units.
    @inlinable public var quarterTurn: Int64 { 90 * unitsPerDegree }

    /// The largest distance, in metres on the equator, between a coordinate and its quantized
    /// position: half a unit diagonally, on a sphere of radius 6,371,008.8 m.
    public var maximumPositionError: Double {
        let unitMetres = 6_371_008.8 * Double.pi / 180 / Double(unitsPerDegree)
        return unitMetres * 0.5 * 2.0.squareRoot()
    }

    /// Rounds degrees to units (half away from zero). The caller has checked the range.
    @inlinable public func units(_ degrees: Double) -> Int64 {
        Int64((degrees * Double(unitsPerDegree)).rounded(.toNearestOrAwayFromZero))
    }

    /// Converts units back to degrees.
    @inlinable public func degrees(_ units: Int64) -> Double {
        Double(units) / Double(unitsPerDegree)
    }

    /// Whether a latitude and longitude are valid query coordinates: finite, latitude in [-90, 90], longitude in [-180, 180].
    @inlinable public static func isValid(latitude: Double, longitude: Double) -> Bool {
        latitude >= -90 && latitude <= 90 && longitude >= -180 && longitude <= 180
    }

    /// The grid point a query answers for, or nil when the coordinates are not valid.
    ///
    /// Applies the normalisation rules: longitude +180 becomes −180, latitude +90 becomes one unit less.
    @inlinable public func queryPoint(latitude: Double, longitude: Double) -> GridPoint? {
        guard Self.isValid(latitude: latitude, longitude: longitude) else { return nil }
        var x = units(longitude)
        var y = units(latitude)
        if x >= halfTurn { x = -halfTurn }
        if y >= quarterTurn { y = quarterTurn - 1 }
        return GridPoint(x: x, y: y)
    }
}
