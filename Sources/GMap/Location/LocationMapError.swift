/// Why a map is not a location map (``MapLocationSource/init(map:)``): what it lacks, and what it has.
public enum LocationMapError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The map has no layer named `roads`; `layers` are the names it has (`[""]` for a file
    /// without a layer table).
    case noRoadLayer(layers: [String])
    /// The `roads` layer holds `kind` (polygons or points, or a kind this reader does not know:
    /// nil), not lines.
    case roadLayerNotLines(kind: GeometryKind?)

    /// A sentence saying what is missing and how to make a location map.
    public var description: String {
        switch self {
        case let .noRoadLayer(layers):
            let named = layers.filter { !$0.isEmpty }
            let has = named.isEmpty ? "it has one unnamed layer" : "its layers: " + named.joined(separator: ", ")
            return "the map has no layer named '\(MapLocationSource.LayerName.roads)' (\(has)); " + Self.remedy
        case let .roadLayerNotLines(kind):
            return "the map's '\(MapLocationSource.LayerName.roads)' layer holds \(kind?.name ?? "an unknown geometry"), not lines; " + Self.remedy
        }
    }

    /// How a location map is made.
    static let remedy = "build a location map from OpenStreetMap data: gmap build --osm EXTRACT.osm.pbf -o MAP.gmap"
}
