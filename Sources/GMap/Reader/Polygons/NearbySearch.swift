/// The rectangle of grid units that holds every point within a radius of a point: one latitude
/// range and one or two longitude ranges (two when it crosses the antimeridian, the whole
/// longitude range when the circle reaches a pole). Closed on all sides.
///
/// Why it is safe: the ellipsoid's metric in geodetic coordinates, `ds² = M²dφ² + N²cos²φ dλ²`,
/// is never smaller than that of a sphere of radius `M_min = a(1 − e²)` (both radii of curvature
/// are at least `M_min`), so every point within geodesic distance `r` lies within the spherical
/// cap of angular radius `r / M_min`. The cap spans `±r / M_min` in latitude and, unless it
/// reaches a pole, `±asin(sin(r / M_min) / cos φ)` in longitude. Two units of margin absorb rounding.
struct SearchBox {
    var south: Int64
    var north: Int64
    var west0: Int64
    var east0: Int64
    var west1: Int64
    var east1: Int64
    var hasSecondRange: Bool

    init(latitude: Double, longitude: Double, radius: Double, quantizer: Quantizer) {
        let units = Double(quantizer.unitsPerDegree)
        let halfTurn = quantizer.halfTurn, quarterTurn = quantizer.quarterTurn
        let angle = radius / Geodesic.smallestMeridianRadius
        let latitudeSpan = angle / Geodesic.radiansPerDegree
        south = max(-quarterTurn, Int64((latitude - latitudeSpan) * units) - 2)
        north = min(quarterTurn, Int64((latitude + latitudeSpan) * units) + 2)
        let sine = Trigonometry.sin(angle), cosine = Trigonometry.cos(latitude * Geodesic.radiansPerDegree)
        var halfWidth = Int64.max
        if latitude + latitudeSpan < 90, latitude - latitudeSpan > -90, sine < cosine {
            halfWidth = Int64(Trigonometry.asin(sine / cosine) / Geodesic.radiansPerDegree * units) + 2
        }
        hasSecondRange = false
        west1 = 0
        east1 = -1
        guard halfWidth < halfTurn else {
            west0 = -halfTurn
            east0 = halfTurn
            return
        }
        let x = quantizer.units(longitude)
        west0 = x - halfWidth
        east0 = x + halfWidth
        if west0 <= -halfTurn {
            // Crosses the antimeridian westward: the rest lies at the east end of the grid.
            west1 = west0 + 2 * halfTurn
            east1 = halfTurn
            west0 = -halfTurn
            hasSecondRange = true
        } else if east0 >= halfTurn {
            west1 = -halfTurn
            east1 = east0 - 2 * halfTurn
            east0 = halfTurn
            hasSecondRange = true
        }
    }

    /// Whether the closed rectangle `bounds` meets the box.
    func meets(_ bounds: TileBounds) -> Bool {
        guard bounds.south <= north, bounds.north >= south else { return false }
        if bounds.west <= east0, bounds.east >= west0 { return true }
        return hasSecondRange && bounds.west <= east1 && bounds.east >= west1
    }
}

/// The smallest geodesic distance from a point to an edge, the edge being the straight segment
/// in longitude and latitude between its vertices (the segment the inside test uses).
enum EdgeDistance {
    /// Samples along the edge before the golden-section refinement.
    static let samples = 8
    /// Golden-section steps: the bracket (a quarter of the edge at most) shrinks to 1e-6 of it.
    static let refinements = 28

    /// The distance in metres from (`latitude`, `longitude`) to the segment from A to B (degrees;
    /// the segment's longitudes on the point's side of the antimeridian).
    ///
    /// A seed from a local plane (longitudes scaled by `cosLatitude`), samples every 1/8 of the
    /// edge and the two ends, then a golden-section search around the best of them, every value
    /// an exact ``Geodesic`` distance.
    static func minimum(latitude: Double, longitude: Double, cosLatitude: Double,
                        latitudeA: Double, longitudeA: Double, latitudeB: Double, longitudeB: Double) -> Double {
        let dLatitude = latitudeB - latitudeA, dLongitude = longitudeB - longitudeA
        func distance(_ t: Double) -> Double {
            Geodesic.distance(latitude: latitude, longitude: longitude,
                              toLatitude: latitudeA + t * dLatitude, longitude: longitudeA + t * dLongitude)
        }
        let u = (longitudeA - longitude) * cosLatitude, v = latitudeA - latitude
        let du = dLongitude * cosLatitude, dv = dLatitude
        let lengthSquared = du * du + dv * dv
        guard lengthSquared > 0 else { return distance(0) }
        var bestT = min(1, max(0, -(u * du + v * dv) / lengthSquared))
        var best = distance(bestT)
        for step in 0...samples {
            let t = Double(step) / Double(samples)
            let value = distance(t)
            if value < best {
                best = value
                bestT = t
            }
        }
        let spacing = 1 / Double(samples)
        var low = max(0, bestT - spacing), high = min(1, bestT + spacing)
        let ratio = 0.6180339887498949
        var c = high - ratio * (high - low), d = low + ratio * (high - low)
        var fc = distance(c), fd = distance(d)
        for _ in 0..<refinements {
            if fc < fd {
                high = d
                d = c
                fd = fc
                c = high - ratio * (high - low)
                fc = distance(c)
            } else {
                low = c
                c = d
                fc = fd
                d = low + ratio * (high - low)
                fd = distance(d)
            }
        }
        return min(best, min(fc, fd))
    }
}

/// One nearby search: walks only the leaf tiles that meet the ``SearchBox`` of the radius, and
/// measures the distance from the point to each edge stored there that a cheap lower bound does
/// not rule out.
///
/// Every boundary point within the radius lies in the box, so in the closed rectangle of some leaf
/// tile that meets the box, and the edge it lies on is stored in that tile's record (Spec/FORMAT.md
/// 8.4). Empty and covered tiles hold no edges: a covered tile's feature has its boundary outside
/// the tile, and where that boundary is within the radius it is in other tiles of the box.
/// An edge stored in several tiles is measured in each: the answer does not change.
struct NearbySearch {
    let storage: MapStorage
    let latitude: Double
    let longitude: Double
    let radius: Double
    let cosLatitude: Double
    let box: SearchBox
    /// Whether to keep every feature's smallest distance, not only the nearest feature.
    let collectsAll: Bool
    var bestDistance: Double
    var bestFeature = -1
    /// With ``collectsAll``: each feature within the radius and its distance, unsorted.
    var found: [(feature: Int, distance: Double)] = []
    var cost = NearbyCost(leafTiles: 0, recordTiles: 0, edges: 0, measuredEdges: 0)

    init(storage: MapStorage, latitude: Double, longitude: Double, radius: Double, collectsAll: Bool) {
        self.storage = storage
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
        self.collectsAll = collectsAll
        cosLatitude = Trigonometry.cos(latitude * Geodesic.radiansPerDegree)
        box = SearchBox(latitude: latitude, longitude: longitude, radius: radius, quantizer: storage.layout.quantizer)
        bestDistance = radius
    }

    /// Visits every leaf tile that meets the box (through the one ``DirectoryWalker``) and measures
    /// the edges of its record.
    mutating func run() {
        let box = self.box
        var records: [LocatedTile] = []
        DirectoryWalker(storage: storage).walk(within: box) { leaf in
            cost.leafTiles += 1
            if TileEntry.kind(of: leaf.entry) == TileEntry.recordKind { records.append(leaf) }
        }
        for leaf in records {
            cost.recordTiles += 1
            walk(record: leaf.entry, bounds: leaf.bounds)
        }
    }

    /// Measures every edge of one tile record, once, for every feature the edge counts for; stops at the first unreadable byte.
    private mutating func walk(record entry: UInt32, bounds: TileBounds) {
        var reader = TileRecordReader(storage: storage, entry: entry, bounds: bounds)
        var slots: [Int] = []
        var window = (first: 0, mask: UInt64(0))
        var edges: [(Int64, Int64, Int64, Int64, first: Int, mask: UInt64)] = []
        reader.walk(slot: { slots.append($0.featureIndex) }, run: { first, mask in window = (first, mask) },
                    edge: { ax, ay, bx, by in edges.append((ax, ay, bx, by, window.first, window.mask)) })
        for edge in edges {
            var features: [Int] = []
            var pending = edge.mask
            while pending != 0 {
                let index = edge.first + pending.trailingZeroBitCount
                pending &= pending - 1
                if index < slots.count { features.append(slots[index]) }
            }
            measure(edge.0, edge.1, edge.2, edge.3, features: features)
        }
    }

    /// The distance to one edge, when a lower bound does not already put it beyond the best so far.
    private mutating func measure(_ ax: Int64, _ ay: Int64, _ bx: Int64, _ by: Int64, features: [Int]) {
        guard let feature = features.min() else { return }
        cost.edges += 1
        let limit = collectsAll ? radius : bestDistance
        // The same edge, stored for two features or in either direction, is measured the same way,
        // so that features sharing a border tie exactly.
        let swap = ax > bx || (ax == bx && ay > by)
        let quantizer = storage.layout.quantizer
        let latitudeA = quantizer.degrees(swap ? by : ay), latitudeB = quantizer.degrees(swap ? ay : by)
        var longitudeA = quantizer.degrees(swap ? bx : ax) - longitude, longitudeB = quantizer.degrees(swap ? ax : bx) - longitude
        // Lower bound 1: the latitude gap. No geodesic is shorter than M_min times its latitude change.
        let latitudeGap = max(0, max(min(latitudeA, latitudeB) - latitude, latitude - max(latitudeA, latitudeB)))
        if latitudeGap * Geodesic.radiansPerDegree * Geodesic.smallestMeridianRadius * 0.999_999 > limit { return }
        // The edge's longitudes relative to the point, on the point's side of the antimeridian.
        let middle = (longitudeA + longitudeB) / 2
        if middle > 180 {
            longitudeA -= 360
            longitudeB -= 360
        } else if middle < -180 {
            longitudeA += 360
            longitudeB += 360
        }
        // Lower bound 2: the longitude gap δ. On the sphere of radius M_min (which is never longer,
        // see SearchBox), points at least δ ≤ 90° of longitude away are at least
        // M_min·asin(cos φ·sin δ) ≥ M_min·cos φ·sin δ away: the distance to the meridian at δ.
        let west = min(longitudeA, longitudeB), east = max(longitudeA, longitudeB)
        let longitudeGap = west > 0 ? min(west, 360 - east) : (east < 0 ? min(-east, 360 + west) : 0)
        if longitudeGap > 0 {
            let sine = longitudeGap >= 90 ? 1 : Trigonometry.sin(longitudeGap * Geodesic.radiansPerDegree)
            if Geodesic.smallestMeridianRadius * cosLatitude * sine * 0.999_999 > limit { return }
        }
        cost.measuredEdges += 1
        let distance = EdgeDistance.minimum(latitude: latitude, longitude: 0, cosLatitude: cosLatitude,
                                            latitudeA: latitudeA, longitudeA: longitudeA, latitudeB: latitudeB, longitudeB: longitudeB)
        guard distance <= radius else { return }
        if collectsAll {
            for feature in features { keep(feature, distance) }
        } else if distance < bestDistance || (distance == bestDistance && (bestFeature < 0 || feature < bestFeature)) {
            bestDistance = distance
            bestFeature = feature
        }
    }
}

extension NearbySearch {
    /// Keeps `distance` for `feature` when it is the feature's smallest so far.
    fileprivate mutating func keep(_ feature: Int, _ distance: Double) {
        for index in found.indices where found[index].feature == feature {
            if distance < found[index].distance { found[index].distance = distance }
            return
        }
        found.append((feature, distance))
    }
}

extension GMap {
    /// The largest radius a nearby search takes, in metres (100 km); larger radii are reduced to it.
    /// The work grows with the square of the radius: this keeps it to a few dozen top-level tiles.
    public static let maximumNearbyRadius = 100_000.0

    /// The feature that contains the point (``PlaceMatchKind/inside``, distance 0, the smallest
    /// area first as ``lookup(latitude:longitude:)`` answers); when none does, the feature whose
    /// boundary is nearest to the point within `radius` metres (``PlaceMatchKind/nearby``, with
    /// its geodesic distance on WGS 84, accurate to 0.5 %); nil when there is neither, or the
    /// coordinates are not valid.
    ///
    /// Overlapping features at the same distance (a shared border): the smaller feature index,
    /// that is the smaller area, answers. `radius` is at most ``maximumNearbyRadius``; a negative
    /// or NaN radius finds only containing features. The search reads only the leaf tiles that
    /// meet the radius's bounding box (see ``nearbyCost(latitude:longitude:within:)``).
    public func lookup(latitude: Double, longitude: Double, within radius: Double) -> PlaceMatch? {
        if let feature = lookup(latitude: latitude, longitude: longitude) {
            return PlaceMatch(feature: feature, kind: .inside, distance: 0)
        }
        guard let (feature, distance, _) = nearest(latitude: latitude, longitude: longitude, radius: radius), feature >= 0 else { return nil }
        return PlaceMatch(feature: Feature(map: self, index: feature), kind: .nearby, distance: distance)
    }

    /// The feature whose boundary is nearest within `radius` (−1 when none), its distance, and
    /// what the search read; nil when the coordinates or the radius are not valid.
    ///
    /// Searches radius/64, radius/16, radius/4 and then the radius, stopping at the first that
    /// finds a boundary: a boundary found within a smaller radius is the nearest overall (anything
    /// nearer lies within that radius too), so a point near a coast reads only the few tiles around
    /// it, while a point with nothing in range pays at most 1/16 + 1/256 + 1/4096 (7 %) more.
    func nearest(latitude: Double, longitude: Double, radius: Double) -> (feature: Int, distance: Double, cost: NearbyCost)? {
        guard radius >= 0 else { return nil }
        let limit = min(radius, Self.maximumNearbyRadius)
        var cost = NearbyCost(leafTiles: 0, recordTiles: 0, edges: 0, measuredEdges: 0)
        var divisor = 64.0
        while divisor >= 1 {
            guard let search = nearbySearch(latitude: latitude, longitude: longitude, radius: limit / divisor, collectsAll: false) else { return nil }
            cost.leafTiles += search.cost.leafTiles
            cost.recordTiles += search.cost.recordTiles
            cost.edges += search.cost.edges
            cost.measuredEdges += search.cost.measuredEdges
            if search.bestFeature >= 0 { return (search.bestFeature, search.bestDistance, cost) }
            divisor /= 4
        }
        return (-1, 0, cost)
    }

    /// Every feature that contains the point (``PlaceMatchKind/inside``, smallest area first),
    /// then every other feature whose boundary lies within `radius` metres (``PlaceMatchKind/nearby``,
    /// nearest first, ties by smaller index). Empty when there are none or the coordinates are not valid.
    public func lookupAll(latitude: Double, longitude: Double, within radius: Double) -> [PlaceMatch] {
        let inside = lookupAll(latitude: latitude, longitude: longitude)
        var matches = inside.map { PlaceMatch(feature: $0, kind: .inside, distance: 0) }
        guard let search = nearbySearch(latitude: latitude, longitude: longitude, radius: radius, collectsAll: true) else { return matches }
        var near = search.found.filter { candidate in !inside.contains { $0.index == candidate.feature } }
        near.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.feature < $1.feature }
        matches += near.map { PlaceMatch(feature: Feature(map: self, index: $0.feature), kind: .nearby, distance: $0.distance) }
        return matches
    }

    /// What the nearby search of ``lookup(latitude:longitude:within:)`` reads around the point
    /// (tiles and edges, over all its passes), or nil when the coordinates or the radius are not
    /// valid. For tests and tuning: shows that the work is bounded by the tiles the radius touches.
    /// (It searches even when a feature contains the point, which `lookup` does not.)
    public func nearbyCost(latitude: Double, longitude: Double, within radius: Double) -> NearbyCost? {
        nearest(latitude: latitude, longitude: longitude, radius: radius)?.cost
    }

    /// Runs a nearby search, or nil when the coordinates or the radius are not valid.
    func nearbySearch(latitude: Double, longitude: Double, radius: Double, collectsAll: Bool) -> NearbySearch? {
        // A layer of lines or points (format 3.1) has no polygon boundaries; this reader does not read it.
        guard storage.layout.kind == .polygons,
              Quantizer.isValid(latitude: latitude, longitude: longitude), radius >= 0 else { return nil }
        var search = NearbySearch(storage: storage, latitude: latitude, longitude: longitude,
                                  radius: min(radius, Self.maximumNearbyRadius), collectsAll: collectsAll)
        search.run()
        return search
    }
}
