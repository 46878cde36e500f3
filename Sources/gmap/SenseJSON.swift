import GMap

/// `gmap where --json`: a ``LocationSense`` as one JSON object.
///
/// `{"time": …, "kind": "along_road"|"inside"|"other"|"unknown", "road": {"name", "class",
/// "distance_m", "direction"} | null, "intersection_ahead": {"streets", "distance_m", "bearing",
/// "main"} | null, "nearest_place": {"name", "category", "distance_m", "bearing"} | null,
/// "area": {…} | null, "callouts": [...]}`; `time` only in a replay. Distances in metres to 0.1 m,
/// angles in degrees clockwise from north to 0.1°.
enum SenseJSON {
    /// The object for `sense`, with its callouts and, in a replay, the fix's time in seconds.
    static func object(_ sense: LocationSense, callouts: [String], time: Double?) -> String {
        var road: RoadMatch?, ahead: IntersectionMatch?, place: NearbyPlace?, area: NearbyPlace?
        let kind: String
        switch sense {
        case .unknown:
            kind = "unknown"
        case let .inside(inside, nearestPlace):
            (kind, area, place) = ("inside", inside, nearestPlace)
        case let .alongRoad(along, intersection, nearestPlace):
            (kind, road, ahead, place) = ("along_road", along, intersection, nearestPlace)
        case let .other(nearestRoad, nearestPlace):
            (kind, road, place) = ("other", nearestRoad, nearestPlace)
        }
        var fields: [String] = []
        if let time { fields.append("\"time\":\(number(time))") }
        fields.append("\"kind\":\"\(kind)\"")
        fields.append("\"road\":" + (road.map(self.road) ?? "null"))
        fields.append("\"intersection_ahead\":" + (ahead.map(intersection) ?? "null"))
        fields.append("\"nearest_place\":" + (place.map(self.place) ?? "null"))
        fields.append("\"area\":" + (area.map(self.place) ?? "null"))
        fields.append("\"callouts\":[" + callouts.map(JSONText.string).joined(separator: ",") + "]")
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// A finite number as JSON: whole numbers without a fraction.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// `{"name", "class", "distance_m", "direction"}`.
    static func road(_ road: RoadMatch) -> String {
        "{\"name\":\(JSONText.string(road.name)),\"class\":\(JSONText.string(road.roadClass)),"
            + "\"distance_m\":\(NearbyOption.tenths(road.distance)),\"direction\":\(NearbyOption.tenths(road.direction))}"
    }

    /// `{"streets", "distance_m", "bearing", "main"}`.
    static func intersection(_ match: IntersectionMatch) -> String {
        "{\"streets\":[" + match.streetNames.map(JSONText.string).joined(separator: ",") + "],"
            + "\"distance_m\":\(NearbyOption.tenths(match.distance)),\"bearing\":\(NearbyOption.tenths(match.bearing)),\"main\":\(match.isMain)}"
    }

    /// `{"name", "category", "distance_m", "bearing"}`.
    static func place(_ place: NearbyPlace) -> String {
        "{\"name\":\(JSONText.string(place.name)),\"category\":\(JSONText.string(place.category)),"
            + "\"distance_m\":\(NearbyOption.tenths(place.distance)),\"bearing\":\(NearbyOption.tenths(place.bearing))}"
    }
}
