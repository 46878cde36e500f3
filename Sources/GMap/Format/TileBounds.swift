/// A rectangle of the grid in units: `west ≤ x < east`, `south ≤ y < north` for the points it answers.
public struct TileBounds: Sendable, Hashable {
    /// West edge, in units.
    public var west: Int64
    /// South edge, in units.
    public var south: Int64
    /// East edge, in units.
    public var east: Int64
    /// North edge, in units.
    public var north: Int64

    /// A rectangle from its edges.
    @inlinable public init(west: Int64, south: Int64, east: Int64, north: Int64) {
        self.west = west
        self.south = south
        self.east = east
        self.north = north
    }

    /// Width in units.
    @inlinable public var width: Int64 { east - west }
    /// Height in units.
    @inlinable public var height: Int64 { north - south }

    /// The part `(column, row)` of this tile cut into `factor × factor` parts.
    ///
    /// Part `i` along an axis of length `w` starts at `⌈i·w/factor⌉`, so that the part holding an
    /// offset `d` is `⌊d·factor/w⌋`: see ``partIndex(offset:length:factor:)``.
    @inlinable public func part(column: Int64, row: Int64, factor: Int64) -> TileBounds {
        let w = width, h = height
        return TileBounds(
            west: west + (column * w + factor - 1) / factor,
            south: south + (row * h + factor - 1) / factor,
            east: west + ((column + 1) * w + factor - 1) / factor,
            north: south + ((row + 1) * h + factor - 1) / factor
        )
    }

    /// The index of the part that holds `offset` (0 ≤ offset < length) when a length is cut into `factor` parts.
    @inlinable public static func partIndex(offset: Int64, length: Int64, factor: Int64) -> Int64 {
        (offset * factor) / length
    }
}
