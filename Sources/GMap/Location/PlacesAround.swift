/// Where a place lies relative to the way the user faces: the four quarters around them.
///
/// The relative bearing `d` (the place's bearing minus the heading, in -180 … 180, exclusive of
/// -180) decides, boundaries included as written:
///
/// | `d` | direction | words |
/// |---|---|---|
/// | -45 ≤ d ≤ 45 | ``ahead`` | "ahead" |
/// | 45 < d ≤ 135 | ``right`` | "to your right" |
/// | -135 ≤ d < -45 | ``left`` | "to your left" |
/// | d < -135 or d > 135 (180 included) | ``behind`` | "behind" |
public enum RelativeDirection: String, Sendable, Equatable, CaseIterable {
    /// Within 45° either side of the heading (both 45° lines included).
    case ahead
    /// More than 45° and up to 135° clockwise of the heading.
    case right
    /// More than 45° and up to 135° anticlockwise of the heading.
    case left
    /// More than 135° either side of the heading.
    case behind

    /// The quarter that a relative bearing (degrees, as ``relativeBearing(_:heading:)`` gives it) lies in.
    public init(relativeBearing d: Double) {
        let magnitude = d < 0 ? -d : d
        if magnitude <= 45 {
            self = .ahead
        } else if magnitude <= 135 {
            self = d > 0 ? .right : .left
        } else {
            self = .behind
        }
    }

    /// The words a callout uses: "ahead", "to your right", "to your left", "behind".
    public var words: String {
        switch self {
        case .ahead: return "ahead"
        case .right: return "to your right"
        case .left: return "to your left"
        case .behind: return "behind"
        }
    }

    /// `bearing` relative to `heading` (both degrees clockwise from north, any finite values):
    /// positive clockwise (to the right), in -180 … 180 with -180 excluded (straight behind is 180).
    public static func relativeBearing(_ bearing: Double, heading: Double) -> Double {
        let d = Compass.normalised(Compass.normalised(bearing) - Compass.normalised(heading))
        return d > 180 ? d - 360 : d
    }
}

/// A named place around the user, as ``MapLocationSource/placesAround(latitude:longitude:heading:within:category:aheadOnly:limit:)`` finds it.
public struct PlaceAround: Sendable, Equatable {
    /// The place's name.
    public var name: String
    /// What it is, as `key=value` (`tourism=museum`, `railway=tram_stop`, `amenity=cafe`).
    public var category: String
    /// The category as a word to say: ``spokenCategory(_:)`` of ``category`` ("museum", "tram stop").
    public var kind: String
    /// The geodesic distance from the asked point (WGS 84), in metres.
    public var distance: Double
    /// The initial bearing from the asked point to the place, degrees clockwise from north (0 ..< 360).
    public var bearing: Double
    /// ``bearing`` relative to the heading, in -180 … 180 (-180 excluded; positive to the right);
    /// nil when no heading was given.
    public var relativeBearing: Double?
    /// The quarter ``relativeBearing`` lies in (see ``RelativeDirection``); nil when no heading was given.
    public var direction: RelativeDirection?
    /// The place's feature index in the map's `places` layer (ties in distance go to the lower index).
    public var featureIndex: Int

    /// A place from its parts; ``kind`` is derived from `category`.
    public init(name: String, category: String, distance: Double, bearing: Double,
                relativeBearing: Double? = nil, direction: RelativeDirection? = nil, featureIndex: Int) {
        self.name = name
        self.category = category
        self.kind = Self.spokenCategory(category)
        self.distance = distance
        self.bearing = bearing
        self.relativeBearing = relativeBearing
        self.direction = direction
        self.featureIndex = featureIndex
    }

    /// A `key=value` category as a word to say: the value (`tourism=museum` → "museum"), or the
    /// key when the value is `yes` or empty (`building=yes` → "building"); underscores become
    /// spaces (`railway=tram_stop` → "tram stop"). Text without `=` is taken whole.
    public static func spokenCategory(_ category: String) -> String {
        LocationWords.kind(of: category)
    }

    /// Whether `filter` names `category`: it equals the whole `key=value`, the key, the value or
    /// the spoken word (``spokenCategory(_:)``), ASCII letters compared without case
    /// (`Museum`, `tourism`, `tourism=museum`, `tram stop` and `tram_stop` all match as expected).
    public static func category(_ category: String, matches filter: String) -> Bool {
        let bytes = Array(category.utf8), wanted = Array(filter.utf8)
        if equalIgnoringCase(bytes[...], wanted) { return true }
        if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
            if equalIgnoringCase(bytes[..<equals], wanted) || equalIgnoringCase(bytes[(equals + 1)...], wanted) { return true }
        }
        return equalIgnoringCase(Array(spokenCategory(category).utf8)[...], wanted)
    }

    /// Byte equality with ASCII letters folded to lower case.
    static func equalIgnoringCase(_ a: ArraySlice<UInt8>, _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        func lower(_ byte: UInt8) -> UInt8 { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte }
        return zip(a, b).allSatisfy { lower($0) == lower($1) }
    }
}

extension MapLocationSource {
    /// The named places of the map's `places` layer within `radius` metres of the point ("around
    /// me"), nearest first (ties by feature index), at most `limit`.
    ///
    /// - `heading`: where the user faces, degrees clockwise from north (any finite value, taken modulo
    ///   360); nil or NaN for none. With it, each place has ``PlaceAround/relativeBearing`` and ``PlaceAround/direction``.
    /// - `category`: when given, only places whose category it names (``PlaceAround/category(_:matches:)``).
    /// - `aheadOnly`: only places ``RelativeDirection/ahead`` ("ahead of me"); none without a heading.
    ///
    /// Distances are geodesic (WGS 84), bearings initial bearings from the point, as for
    /// ``GMap/nearestPoints(latitude:longitude:within:limit:)``. Empty when the map has no layer of points
    /// named `places`, for invalid coordinates, a radius that is negative or not finite, or a limit below 1.
    /// Only the leaf tiles the radius meets are read, and nothing is allocated per feature of the layer.
    public func placesAround(latitude: Double, longitude: Double, heading: Double?, within radius: Double,
                             category: String? = nil, aheadOnly: Bool = false, limit: Int = 10) -> [PlaceAround] {
        guard let layer = placeLayer, layer.geometryKind == .points, limit > 0, Quantizer.isValid(latitude: latitude, longitude: longitude),
              radius.isFinite, radius >= 0 else { return [] }
        let facing: Double? = heading.flatMap { $0.isFinite ? Compass.normalised($0) : nil }
        if aheadOnly, facing == nil { return [] }
        var found: [PlaceAround] = []
        func ranked(_ a: PlaceAround, _ b: PlaceAround) -> Bool { (a.distance, a.featureIndex) < (b.distance, b.featureIndex) }
        let slack = GMap.planarSlack(latitude: latitude, radius: radius)
        for candidate in layer.pointsWithin(plane: LocalPlane(latitude: latitude, longitude: longitude), radius: radius) {
            // Planar order is geodesic order to well within 1 %: once `limit` places are in hand, a
            // candidate beyond the last of them (with that margin) cannot displace it.
            if found.count >= limit, let last = found.last, candidate.squared.squareRoot() > last.distance * slack + 0.05 { break }
            let feature = Feature(map: layer, index: candidate.feature)
            let placeCategory = feature.property("category") ?? ""
            if let category, !PlaceAround.category(placeCategory, matches: category) { continue }
            let match = layer.pointMatch(candidate, from: latitude, longitude)
            guard match.distance <= radius else { continue }
            var relative: Double?, direction: RelativeDirection?
            if let facing {
                let d = RelativeDirection.relativeBearing(match.bearing, heading: facing)
                relative = d
                direction = RelativeDirection(relativeBearing: d)
            }
            if aheadOnly, direction != .ahead { continue }
            found.append(PlaceAround(name: feature.property("name") ?? feature.id, category: placeCategory,
                                     distance: match.distance, bearing: match.bearing, relativeBearing: relative,
                                     direction: direction, featureIndex: candidate.feature))
            if found.count >= limit {
                found.sort(by: ranked)
                if found.count > limit { found.removeLast() }
            }
        }
        found.sort(by: ranked)
        return Array(found.prefix(limit))
    }
}
