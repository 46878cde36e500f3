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

/// Metres per degree of latitude and of longitude near a latitude, on the WGS 84 ellipsoid: the
/// local plane that nearby searches rank in.
public struct LocalPlane: Sendable {
    /// Metres per degree northward.
    public let metresPerDegreeNorth: Double
    /// Metres per degree eastward.
    public let metresPerDegreeEast: Double
    /// The plane's origin, in degrees.
    public let latitude: Double, longitude: Double

    /// The plane around (`latitude`, `longitude`).
    public init(latitude: Double, longitude: Double) {
        let radians = latitude * Double.pi / 180
        let sine = Trigonometry.sin(radians)
        let e2 = Geodesic.flattening * (2 - Geodesic.flattening)
        let w = (1 - e2 * sine * sine).squareRoot()
        metresPerDegreeNorth = Geodesic.equatorialRadius * (1 - e2) / (w * w * w) * Double.pi / 180
        metresPerDegreeEast = Geodesic.equatorialRadius / w * Trigonometry.cos(radians) * Double.pi / 180
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Metres east and north of the origin (longitudes taken on the origin's side of the antimeridian).
    @inlinable public func project(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
        var dLongitude = longitude - self.longitude
        if dLongitude > 180 { dLongitude -= 360 } else if dLongitude < -180 { dLongitude += 360 }
        return (dLongitude * metresPerDegreeEast, (latitude - self.latitude) * metresPerDegreeNorth)
    }

    /// The parameter `t` in 0 … 1 of the point of segment A–B (metres in this plane) nearest the
    /// origin, and the squared planar distance to it.
    @inlinable public static func nearest(ax: Double, ay: Double, bx: Double, by: Double) -> (t: Double, squared: Double) {
        let dx = bx - ax, dy = by - ay
        let length2 = dx * dx + dy * dy
        var t = length2 > 0 ? -(ax * dx + ay * dy) / length2 : 0
        t = t < 0 ? 0 : (t > 1 ? 1 : t)
        let x = ax + t * dx, y = ay + t * dy
        return (t, x * x + y * y)
    }
}

extension GMap {
    /// How far planar distances in a ``LocalPlane`` at `latitude` may stray from geodesic ones, for
    /// points within `radius` metres of its origin, as a factor taken twice over: planar ranking keeps
    /// candidates up to this share beyond a distance, and the geodesic re-measurement then decides.
    ///
    /// Why it is safe: the plane measures east–west with the origin's parallel, while within the
    /// radius the parallels' lengths range over `cos(φ ± Δ) / cos φ` of it (`Δ = radius / M_min`,
    /// as for ``SearchBox``); the ellipsoid's other departures from the plane over 100 km are below
    /// 0.01 %. So a planar distance `p` and the geodesic `d` satisfy `d / s ≤ p ≤ s · d` with `s`
    /// the larger of those ratios times 1.005, and a point as near as one at planar distance `p₀`
    /// lies within planar `s² · p₀`. This returns `s²`: 1.01 at street range, 1.05 at 60° over
    /// 62.5 km (the 1.01 used before this was too tight there), and 10⁶ when the radius reaches a
    /// pole, where the plane means nothing and every point of the search box is measured.
    static func planarSlack(latitude: Double, radius: Double) -> Double {
        let reach = (radius.isFinite ? max(0, radius) : 0) / Geodesic.smallestMeridianRadius
        let phi = min(90, abs(latitude.isFinite ? latitude : 90)) * Double.pi / 180
        guard phi + reach < Double.pi / 2 * 0.999 else { return 1e6 }
        let cosine = Trigonometry.cos(phi)
        let spread = 1.005 * max(Trigonometry.cos(max(0, phi - reach)) / cosine, cosine / Trigonometry.cos(phi + reach))
        return spread * spread
    }

    /// The line features of this layer (a layer of lines, format 3.1) within `radius` metres of the
    /// point, each once with its nearest point, nearest first (ties by feature index), at most `limit`.
    ///
    /// Only the leaf tiles that the radius's bounding box meets are read. Segments are ranked in
    /// a local plane around the point (metres east and north on the WGS 84 ellipsoid); each
    /// feature's nearest point is then measured geodesically, and features farther than `radius`
    /// are left out. Empty for a layer of another kind, invalid coordinates or a radius that is
    /// negative or not finite.
    public func nearestLines(latitude: Double, longitude: Double, within radius: Double, limit: Int = Int.max) -> [LineMatch] {
        guard layout.kind == .lines, Quantizer.isValid(latitude: latitude, longitude: longitude),
              radius.isFinite, radius >= 0, limit > 0 else { return [] }
        let plane = LocalPlane(latitude: latitude, longitude: longitude)
        let q = quantizer, box = SearchBox(latitude: latitude, longitude: longitude, radius: radius, quantizer: q)
        let slack = Self.planarSlack(latitude: latitude, radius: radius)
        let reach = radius * slack + 1, reach2 = reach * reach
        // Per feature (by its index in `position`): the best squared distance and its segment.
        var best: [(feature: Int, squared: Double, t: Double, a: (x: Int64, y: Int64), b: (x: Int64, y: Int64))] = []
        var position = FeaturePositions(featureCount: featureCount)
        let count = featureCount
        var slots: [Int] = []
        let unitsPerDegree = Double(q.unitsPerDegree)
        DirectoryWalker(storage: storage).walk(within: box) { tile in
            guard TileEntry.kind(of: tile.entry) == TileEntry.recordKind else { return }
            var reader = TileRecordReader(storage: storage, entry: tile.entry, bounds: tile.bounds)
            slots.removeAll(keepingCapacity: true)
            reader.walkLines(checkingVertices: false, slot: { slots.append($0) }, segment: { mask, ax, ay, bx, by in
                let a = plane.project(latitude: Double(ay) / unitsPerDegree, longitude: Double(ax) / unitsPerDegree)
                let b = plane.project(latitude: Double(by) / unitsPerDegree, longitude: Double(bx) / unitsPerDegree)
                let found = LocalPlane.nearest(ax: a.x, ay: a.y, bx: b.x, by: b.y)
                guard found.squared <= reach2 else { return }
                var pending = mask
                while pending != 0 {
                    let slot = pending.trailingZeroBitCount
                    pending &= pending &- 1
                    guard slot < slots.count, slots[slot] < count else { continue }
                    let feature = slots[slot]
                    if let index = position[feature] {
                        if found.squared < best[index].squared { best[index] = (feature, found.squared, found.t, (ax, ay), (bx, by)) }
                    } else {
                        position[feature] = best.count
                        best.append((feature, found.squared, found.t, (ax, ay), (bx, by)))
                    }
                }
            })
        }
        best.sort { ($0.squared, $0.feature) < ($1.squared, $1.feature) }
        var matches: [LineMatch] = []
        for candidate in best {
            // Planar order is geodesic order to well within 1 %: once `limit` matches are in hand,
            // a candidate beyond the last of them (with that margin) cannot displace it.
            if matches.count >= limit, let last = matches.last, candidate.squared.squareRoot() > last.distance * slack + 0.05 { break }
            let aLatitude = Double(candidate.a.y) / unitsPerDegree, aLongitude = Double(candidate.a.x) / unitsPerDegree
            let bLatitude = Double(candidate.b.y) / unitsPerDegree, bLongitude = Double(candidate.b.x) / unitsPerDegree
            var dLongitude = bLongitude - aLongitude
            if dLongitude > 180 { dLongitude -= 360 } else if dLongitude < -180 { dLongitude += 360 }
            let pointLatitude = aLatitude + (bLatitude - aLatitude) * candidate.t
            var pointLongitude = aLongitude + dLongitude * candidate.t
            if pointLongitude > 180 { pointLongitude -= 360 } else if pointLongitude < -180 { pointLongitude += 360 }
            let distance = Geodesic.distance(latitude: latitude, longitude: longitude, toLatitude: pointLatitude, longitude: pointLongitude)
            guard distance <= radius else { continue }
            let direction = Compass.bearing(fromLatitude: aLatitude, longitude: aLongitude, toLatitude: bLatitude, longitude: bLongitude)
            matches.append(LineMatch(feature: Feature(map: self, index: candidate.feature), distance: distance,
                                     latitude: pointLatitude, longitude: pointLongitude, direction: direction))
            if matches.count >= limit {
                matches.sort { ($0.distance, $0.feature.index) < ($1.distance, $1.feature.index) }
                if matches.count > limit { matches.removeLast() }
            }
        }
        matches.sort { ($0.distance, $0.feature.index) < ($1.distance, $1.feature.index) }
        return Array(matches.prefix(limit))
    }

    /// The points of this layer (a layer of points) whose planar distance in `plane` is within
    /// `radius` (with the planar slack), each feature once at its nearest point, nearest first by
    /// planar distance: what ``nearestPoints(latitude:longitude:within:limit:)`` ranks.
    func pointCandidates(plane: LocalPlane, within radius: Double, limit: Int = Int.max) -> [PointCandidate] {
        let q = quantizer, box = SearchBox(latitude: plane.latitude, longitude: plane.longitude, radius: radius, quantizer: q)
        let reach = radius * Self.planarSlack(latitude: plane.latitude, radius: radius) + 1, reach2 = reach * reach
        let unitsPerDegree = Double(q.unitsPerDegree)
        // The record leaves meeting the box, nearest first (planar distance from the point to the leaf).
        var leaves: [(distance: Double, tile: LocatedTile)] = []
        let x = q.units(plane.longitude), y = q.units(plane.latitude)
        DirectoryWalker(storage: storage).walk(within: box) { tile in
            guard TileEntry.kind(of: tile.entry) == TileEntry.recordKind else { return }
            let nearestX = min(max(x, tile.bounds.west), tile.bounds.east), nearestY = min(max(y, tile.bounds.south), tile.bounds.north)
            let p = plane.project(latitude: Double(nearestY) / unitsPerDegree, longitude: Double(nearestX) / unitsPerDegree)
            leaves.append(((p.x * p.x + p.y * p.y).squareRoot(), tile))
        }
        if limit < Int.max { leaves.sort { $0.distance < $1.distance } }
        var best: [PointCandidate] = []
        var position = FeaturePositions(featureCount: featureCount)
        let count = featureCount
        var slots: [Int] = []
        for leaf in leaves {
            // With `limit` candidates in hand, a leaf farther than the limit-th (with a unit of
            // slack for the rounding of its corner) cannot hold a nearer one.
            if best.count >= limit {
                var distances = best.map { $0.squared }
                distances.sort()
                if leaf.distance > distances[limit - 1].squareRoot() + 0.5 { break }
            }
            var reader = TileRecordReader(storage: storage, entry: leaf.tile.entry, bounds: leaf.tile.bounds)
            slots.removeAll(keepingCapacity: true)
            reader.walkPoints(checkingVertices: false, slot: { slots.append($0) }, point: { slot, x, y in
                let p = plane.project(latitude: Double(y) / unitsPerDegree, longitude: Double(x) / unitsPerDegree)
                let squared = p.x * p.x + p.y * p.y
                guard squared <= reach2, slot < slots.count, slots[slot] < count else { return }
                let feature = slots[slot]
                if let index = position[feature] {
                    if squared < best[index].squared { best[index] = PointCandidate(feature: feature, squared: squared, x: x, y: y, east: p.x, north: p.y) }
                } else {
                    position[feature] = best.count
                    best.append(PointCandidate(feature: feature, squared: squared, x: x, y: y, east: p.x, north: p.y))
                }
            })
        }
        best.sort { ($0.squared, $0.feature) < ($1.squared, $1.feature) }
        return best
    }

    /// The geodesic match of a point candidate.
    func pointMatch(_ candidate: PointCandidate,
                    from latitude: Double, _ longitude: Double) -> PointMatch {
        let unitsPerDegree = Double(quantizer.unitsPerDegree)
        let pointLatitude = Double(candidate.y) / unitsPerDegree, pointLongitude = Double(candidate.x) / unitsPerDegree
        return PointMatch(feature: Feature(map: self, index: candidate.feature),
                          distance: Geodesic.distance(latitude: latitude, longitude: longitude, toLatitude: pointLatitude, longitude: pointLongitude),
                          bearing: Compass.bearing(fromLatitude: latitude, longitude: longitude, toLatitude: pointLatitude, longitude: pointLongitude),
                          latitude: pointLatitude, longitude: pointLongitude)
    }

    /// The point features of this layer (a layer of points, format 3.1) within `radius` metres of
    /// the point, each once at its nearest point, nearest first (ties by feature index), at most
    /// `limit`. Distances are geodesic (WGS 84). Empty for a layer of another kind, invalid
    /// coordinates or a radius that is negative or not finite.
    public func nearestPoints(latitude: Double, longitude: Double, within radius: Double, limit: Int = Int.max) -> [PointMatch] {
        guard layout.kind == .points, Quantizer.isValid(latitude: latitude, longitude: longitude),
              radius.isFinite, radius >= 0, limit > 0 else { return [] }
        // Planar candidates, with room for the geodesic re-ranking near the limit-th.
        let wanted = limit < Int.max / 2 ? limit * 2 + 2 : Int.max
        let candidates = pointCandidates(plane: LocalPlane(latitude: latitude, longitude: longitude), within: radius, limit: wanted)
        let slack = Self.planarSlack(latitude: latitude, radius: radius)
        var matches: [PointMatch] = []
        for candidate in candidates {
            if matches.count >= limit, let last = matches.last, candidate.squared.squareRoot() > last.distance * slack + 0.05 { break }
            let match = pointMatch(candidate, from: latitude, longitude)
            guard match.distance <= radius else { continue }
            matches.append(match)
            if matches.count >= limit {
                matches.sort { ($0.distance, $0.feature.index) < ($1.distance, $1.feature.index) }
                if matches.count > limit { matches.removeLast() }
            }
        }
        matches.sort { ($0.distance, $0.feature.index) < ($1.distance, $1.feature.index) }
        return Array(matches.prefix(limit))
    }

    /// ``nearestLines(latitude:longitude:within:limit:)`` in the layer named `layer`; empty when
    /// the file has no such layer or it is not a layer of lines.
    public func nearestLines(in layer: String, latitude: Double, longitude: Double, within radius: Double, limit: Int = Int.max) -> [LineMatch] {
        self.layer(named: layer)?.nearestLines(latitude: latitude, longitude: longitude, within: radius, limit: limit) ?? []
    }

    /// ``nearestPoints(latitude:longitude:within:limit:)`` in the layer named `layer`; empty when
    /// the file has no such layer or it is not a layer of points.
    public func nearestPoints(in layer: String, latitude: Double, longitude: Double, within radius: Double, limit: Int = Int.max) -> [PointMatch] {
        self.layer(named: layer)?.nearestPoints(latitude: latitude, longitude: longitude, within: radius, limit: limit) ?? []
    }
}

/// Where each feature met by a nearby search is in its list of candidates: a short list searched
/// in turn while few features have been met (most searches: a street or an address within metres),
/// then a table indexed by feature for a layer of up to 65,536 features (256 KB at most, zeroed
/// once it is needed), or a dictionary of the features met for a larger one (a region's layers),
/// so that a search costs what the features near it cost, however large the layer.
struct FeaturePositions {
    private enum Mode { case few, table, dictionary }
    private var mode = Mode.few
    private var few: [(feature: Int, position: Int)] = []
    private var table: [Int32] = []
    private var found: [Int: Int] = [:]
    private let featureCount: Int
    /// How many features the short list holds before a table or dictionary takes over.
    private static let fewLimit = 16

    /// Positions for a layer of `featureCount` features, none known yet.
    init(featureCount: Int) {
        self.featureCount = featureCount
    }

    /// The position of `feature` in the candidates, nil when it has none yet.
    subscript(feature: Int) -> Int? {
        get {
            switch mode {
            case .few:
                for entry in few where entry.feature == feature { return entry.position }
                return nil
            case .table:
                let index = table[feature]
                return index >= 0 ? Int(index) : nil
            case .dictionary:
                return found[feature]
            }
        }
        set {
            switch mode {
            case .few:
                if let index = few.firstIndex(where: { $0.feature == feature }) {
                    if let newValue { few[index].position = newValue } else { few.remove(at: index) }
                    return
                }
                guard let newValue else { return }
                if few.count < Self.fewLimit {
                    if few.isEmpty { few.reserveCapacity(Self.fewLimit) }
                    few.append((feature, newValue))
                    return
                }
                if featureCount <= 1 << 16 {
                    table = [Int32](repeating: -1, count: featureCount)
                    for entry in few { table[entry.feature] = Int32(entry.position) }
                    mode = .table
                } else {
                    for entry in few { found[entry.feature] = entry.position }
                    mode = .dictionary
                }
                few = []
                self[feature] = newValue
            case .table:
                table[feature] = Int32(newValue ?? -1)
            case .dictionary:
                found[feature] = newValue
            }
        }
    }
}

extension GMap {
    /// The points of this layer (a layer of points) whose planar distance in `plane` is within
    /// `radius` (with the planar slack), each feature once at its nearest point, nearest first by
    /// planar distance (ties by feature index): the candidates of
    /// ``nearestPoints(latitude:longitude:within:limit:)``, but with no table per feature of the
    /// layer. Every point within reach is collected (work and memory grow with the points near
    /// the asked one, not with the layer), then sorted by feature to keep each one's nearest.
    func pointsWithin(plane: LocalPlane, radius: Double) -> [PointCandidate] {
        let q = quantizer, box = SearchBox(latitude: plane.latitude, longitude: plane.longitude, radius: radius, quantizer: q)
        let reach = radius * Self.planarSlack(latitude: plane.latitude, radius: radius) + 1, reach2 = reach * reach
        let unitsPerDegree = Double(q.unitsPerDegree)
        var leaves: [LocatedTile] = []
        DirectoryWalker(storage: storage).walk(within: box) { tile in
            if TileEntry.kind(of: tile.entry) == TileEntry.recordKind { leaves.append(tile) }
        }
        var points: [PointCandidate] = []
        var slots: [Int] = []
        let count = featureCount
        for leaf in leaves {
            var reader = TileRecordReader(storage: storage, entry: leaf.entry, bounds: leaf.bounds)
            slots.removeAll(keepingCapacity: true)
            reader.walkPoints(checkingVertices: false, slot: { slots.append($0) }, point: { slot, x, y in
                let p = plane.project(latitude: Double(y) / unitsPerDegree, longitude: Double(x) / unitsPerDegree)
                let squared = p.x * p.x + p.y * p.y
                guard squared <= reach2, slot < slots.count, slots[slot] < count else { return }
                points.append(PointCandidate(feature: slots[slot], squared: squared, x: x, y: y, east: p.x, north: p.y))
            })
        }
        // Each feature's nearest point: by feature, nearest first, the first of each run.
        points.sort { ($0.feature, $0.squared) < ($1.feature, $1.squared) }
        var kept = 0
        for index in points.indices where index == 0 || points[index].feature != points[index - 1].feature {
            points[kept] = points[index]
            kept += 1
        }
        points.removeLast(points.count - kept)
        points.sort { ($0.squared, $0.feature) < ($1.squared, $1.feature) }
        return points
    }
}

/// A point of a layer near the query, before it becomes a ``PointMatch``: its feature, its squared
/// planar distance (m²), its stored position (units) and its offsets east and north of the query (m).
struct PointCandidate {
    var feature: Int
    var squared: Double
    var x: Int64
    var y: Int64
    var east: Double
    var north: Double
}
