/// A box of latitudes and longitudes, in degrees: what a map of a ``MapStack`` can answer for.
public struct MapBounds: Sendable, Equatable {
    /// The south edge, in degrees.
    public var south: Double
    /// The west edge, in degrees.
    public var west: Double
    /// The north edge, in degrees.
    public var north: Double
    /// The east edge, in degrees.
    public var east: Double

    /// A box from its edges (west ≤ east: a box does not cross the antimeridian).
    public init(south: Double, west: Double, north: Double, east: Double) {
        self.south = south
        self.west = west
        self.north = north
        self.east = east
    }

    /// The smallest box holding both.
    public func union(_ other: MapBounds) -> MapBounds {
        MapBounds(south: min(south, other.south), west: min(west, other.west), north: max(north, other.north), east: max(east, other.east))
    }

    /// This box widened by at least `metres` on every side, in degrees (a longitude span past ±180
    /// is kept, for ``holds(latitude:longitude:)`` to wrap). Metres per degree are taken smaller
    /// than the ellipsoid's anywhere (110 km of latitude, 110 km × cos of the widened box's
    /// farthest latitude of longitude), so a point within `metres` of the box is always inside;
    /// near a pole, where that cosine vanishes, every longitude is.
    public func widened(by metres: Double) -> MapBounds {
        guard metres > 0 else { return self }
        let latitudeSpan = metres / 110_000 + 1e-6
        let south = self.south - latitudeSpan, north = self.north + latitudeSpan
        let farthest = min(90, max(abs(south), abs(north)))
        let cosine = Trigonometry.cos(farthest * Double.pi / 180)
        guard cosine > 0.01, metres.isFinite else { return MapBounds(south: south, west: -540, north: north, east: 540) }
        let longitudeSpan = metres / (110_000 * cosine) + 1e-6
        return MapBounds(south: south, west: west - longitudeSpan, north: north, east: east + longitudeSpan)
    }

    /// Whether the circle of `metres` around the point lies inside the box (by degrees taken
    /// larger than the ellipsoid's, so a circle said inside is inside). False near a pole.
    public func holds(latitude: Double, longitude: Double, within metres: Double) -> Bool {
        guard holds(latitude: latitude, longitude: longitude), metres.isFinite, metres >= 0 else { return false }
        let latitudeSpan = metres / 110_000 + 1e-6
        let cosine = Trigonometry.cos(min(90, abs(latitude) + latitudeSpan) * Double.pi / 180)
        guard cosine > 0.01 else { return false }
        let longitudeSpan = metres / (110_000 * cosine) + 1e-6
        return latitude - latitudeSpan >= south && latitude + latitudeSpan <= north && longitude - longitudeSpan >= west && longitude + longitudeSpan <= east
    }

    /// Whether the point is inside, edges included; a longitude also counts 360° east or west
    /// (a widened box may reach past the antimeridian).
    public func holds(latitude: Double, longitude: Double) -> Bool {
        guard latitude >= south, latitude <= north else { return false }
        return (longitude >= west && longitude <= east) || (longitude + 360 >= west && longitude + 360 <= east)
            || (longitude - 360 >= west && longitude - 360 <= east)
    }
}

extension GMap {
    /// The box of every layer's tile grid, in degrees: no layer has a feature, a line or a point
    /// outside it, so a containment test outside gives nothing and a nearest search only finds what
    /// lies within its radius of the box. Nil for a map whose grids hold no tile.
    public var bounds: MapBounds? {
        var box: MapBounds?
        for layer in layers {
            let grid = layer.grid, q = layer.quantizer
            guard grid.columns > 0, grid.rows > 0, grid.tileWidth > 0, grid.tileHeight > 0 else { continue }
            // In Double: a damaged grid's product may pass Int64.
            let west = Double(grid.originX), south = Double(grid.originY)
            let east = west + Double(grid.columns) * Double(grid.tileWidth), north = south + Double(grid.rows) * Double(grid.tileHeight)
            let units = Double(q.unitsPerDegree)
            let one = MapBounds(south: max(-90, south / units), west: max(-180, west / units), north: min(90, north / units), east: min(180, east / units))
            box = box.map { $0.union(one) } ?? one
        }
        return box
    }
}

extension GMap {
    /// The box of every feature's bounding box in every layer, in degrees: tighter than
    /// ``bounds`` (a grid's tiles reach past the data by up to a tile), read from the feature
    /// table once (about 20 ns a feature). A box of zeros (a feature with no geometry, or a damaged
    /// record) is left out. Nil for a map without features.
    public var featureBounds: MapBounds? {
        var box: MapBounds?
        for layer in layers {
            for index in 0..<layer.featureCount {
                let b = Feature(map: layer, index: index).boundingBox
                guard b.west != 0 || b.south != 0 || b.east != 0 || b.north != 0, b.west <= b.east, b.south <= b.north else { continue }
                let one = MapBounds(south: b.south, west: b.west, north: b.north, east: b.east)
                box = box.map { $0.union(one) } ?? one
            }
        }
        return box
    }

    /// The metadata key of a location map's extract box (`gmap build --osm` writes it from the PBF
    /// header's box: "south,west,north,east" in degrees).
    public static let extractKey = "extract"

    /// The box of the extract a location map was built from (its PBF header's box): the region
    /// where the map knows every way and node, as an extract tool cut it; nil when the map does not
    /// say (a map built before gmap wrote it, a PBF without a header box, any other map).
    public var extractBounds: MapBounds? {
        guard let text = metadata.first(where: { $0.key == Self.extractKey })?.value else { return nil }
        let parts = text.split(separator: ",").compactMap { Double(String($0)) }
        guard parts.count == 4, parts.allSatisfy({ $0.isFinite }), parts[0] <= parts[2], parts[1] <= parts[3] else { return nil }
        return MapBounds(south: parts[0], west: parts[1], north: parts[2], east: parts[3])
    }
}
