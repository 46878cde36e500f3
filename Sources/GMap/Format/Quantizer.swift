/// A point on the map's grid: longitude and latitude in quantization units, with the query's
/// fraction of a unit kept below them.
///
/// The point's exact position is `x + fractionX / 2^24` units east and `y + fractionY / 2^24`
/// units north: lookups test it against the stored edges at that precision, so a query is not
/// moved to the nearest unit (Spec/FORMAT.md, "Normalisation of the query point"). A point made
/// from whole units has zero fractions and answers as a vertex of the grid.
public struct GridPoint: Sendable, Hashable {
    /// The bits of a unit kept below it: a fraction is `0 ..< 2^fractionBits`.
    public static let fractionBits: Int64 = 24
    /// One unit in fractions: `2^fractionBits`. (A literal, not `1 << fractionBits`, so that it is
    /// a constant in the lookup's code rather than a global read through an accessor.)
    public static let fractionScale: Int64 = 16_777_216

    /// Longitude in whole units, rounded down (x grows eastward).
    public var x: Int64
    /// Latitude in whole units, rounded down (y grows northward).
    public var y: Int64
    /// The part of a unit east of `x`, in 2^-24 units.
    public var fractionX: Int64
    /// The part of a unit north of `y`, in 2^-24 units.
    public var fractionY: Int64

    /// A point from its coordinates in whole units.
    @inlinable public init(x: Int64, y: Int64) {
        self.x = x
        self.y = y
        fractionX = 0
        fractionY = 0
    }

    /// A point from its coordinates in 2^-24 units, split into whole units (rounded down) and fractions.
    @inlinable public init(fineX: Int64, fineY: Int64) {
        x = fineX >> Self.fractionBits
        y = fineY >> Self.fractionBits
        fractionX = fineX & (Self.fractionScale - 1)
        fractionY = fineY & (Self.fractionScale - 1)
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
    @inlinable public var halfTurn: Int64 { 180 &* unitsPerDegree }
    /// Latitude 90° in units.
    @inlinable public var quarterTurn: Int64 { 90 &* unitsPerDegree }

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

    /// The point a query answers for, or nil when the coordinates are not valid.
    ///
    /// The point keeps 24 bits below a unit (``GridPoint``): each coordinate is multiplied by
    /// `unitsPerDegree · 2^24` (exact as a double) and rounded half away from zero, so it is not
    /// moved to the nearest unit. Then the normalisation rules apply: longitude +180 becomes −180,
    /// latitude +90 becomes one unit less.
    @inlinable public func queryPoint(latitude: Double, longitude: Double) -> GridPoint? {
        guard Self.isValid(latitude: latitude, longitude: longitude) else { return nil }
        // unitsPerDegree ≤ 10^7 (checked when the quantizer is made): 180 · 10^7 · 2^24 < 2^55, so
        // the products below cannot overflow and are written unchecked.
        let scale = Double(unitsPerDegree &* GridPoint.fractionScale)
        var x = Self.roundedHalfAway(longitude * scale)
        var y = Self.roundedHalfAway(latitude * scale)
        if x >= halfTurn &* GridPoint.fractionScale { x = 0 &- halfTurn &* GridPoint.fractionScale }
        if y >= quarterTurn &* GridPoint.fractionScale { y = (quarterTurn &- 1) &* GridPoint.fractionScale }
        return GridPoint(fineX: x, fineY: y)
    }

    /// `value` rounded to the nearest whole number, halves away from zero, as
    /// `Int64(value.rounded(.toNearestOrAwayFromZero))` gives it, without the C library's `round`
    /// (a call on every lookup). `value` must lie within ±2^62.
    ///
    /// Exact: the integer conversion truncates toward zero, and `value − truncated` is computed
    /// without rounding (below 2^52 both lie within a factor of two of each other or the truncated
    /// value is 0; from 2^52 on every double is a whole number and the difference is 0).
    @inlinable @inline(__always) static func roundedHalfAway(_ value: Double) -> Int64 {
        let truncated = Int64(value)
        let fraction = value - Double(truncated)
        return fraction >= 0.5 ? truncated &+ 1 : (fraction <= -0.5 ? truncated &- 1 : truncated)
    }

    /// The point a query answers for, rounded to whole units as format 1 and 2 readers did:
    /// what `gmap` 2.x answered, for comparisons. Nil when the coordinates are not valid.
    @inlinable public func roundedQueryPoint(latitude: Double, longitude: Double) -> GridPoint? {
        guard Self.isValid(latitude: latitude, longitude: longitude) else { return nil }
        var x = units(longitude)
        var y = units(latitude)
        if x >= halfTurn { x = -halfTurn }
        if y >= quarterTurn { y = quarterTurn - 1 }
        return GridPoint(x: x, y: y)
    }
}
