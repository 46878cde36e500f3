/// A ``LocationSource`` that answers from a map built by `gmap build --osm`: its layers `roads`
/// (lines), `intersections`, `places` and `addresses` (points) and `areas` (polygons).
public struct MapLocationSource: LocationSource {
    /// The layer names a location map uses.
    public enum LayerName {
        /// Streets: one line feature per street (name and class).
        public static let roads = "roads"
        /// Named areas: buildings, parks, squares, land use (polygons).
        public static let areas = "areas"
        /// Named places (points).
        public static let places = "places"
        /// Addresses (points): house number, street, postal code.
        public static let addresses = "addresses"
        /// Intersections (points): the streets that meet and whether it is a main one.
        public static let intersections = "intersections"
    }

    /// The road layer.
    public let roadLayer: GMap
    /// The other layers, nil when the map lacks them (their questions then have no answers).
    public let areaLayer: GMap?, placeLayer: GMap?, addressLayer: GMap?, intersectionLayer: GMap?

    /// A source over `map`'s layers; nil when the map has no layer of lines named `roads`.
    public init?(map: GMap) {
        guard let roads = map.layer(named: LayerName.roads), roads.layout.geometry == GeometryKind.lines.rawValue else { return nil }
        roadLayer = roads
        areaLayer = map.layer(named: LayerName.areas)
        placeLayer = map.layer(named: LayerName.places)
        addressLayer = map.layer(named: LayerName.addresses)
        intersectionLayer = map.layer(named: LayerName.intersections)
    }

    public func roads(latitude: Double, longitude: Double, within radius: Double) -> [RoadMatch] { [] }
    public func intersections(latitude: Double, longitude: Double, within radius: Double) -> [IntersectionMatch] { [] }
    public func places(latitude: Double, longitude: Double, within radius: Double, limit: Int) -> [NearbyPlace] { [] }
    public func areas(latitude: Double, longitude: Double) -> [NearbyPlace] { [] }
}
