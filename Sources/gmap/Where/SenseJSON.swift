import GMap

/// `gmap where --json`: a ``LocationSense`` as one JSON object.
///
/// `{"time": …, "kind": "along_road"|"inside"|"other"|"unknown", "road": {"name", "class",
/// "distance_m", "direction", "bearing"} | null, "intersection_ahead": {"streets", "distance_m",
/// "bearing", "main", "latitude", "longitude"} | null, "nearest_place": {"name", "category", "kind", "distance_m",
/// "bearing"} | null, "area": {…} | null, "changes": [...], "callouts": [{"text", "bearing"}]}`;
/// `time` and `changes` only in a replay. Distances in metres to 0.1 m, angles in degrees
/// clockwise from north to 0.1°; a callout's bearing is null when it has no subject to turn to.
enum SenseJSON {
    /// The object for `sense`, with its callouts and, in a replay, the fix's time in seconds and what changed.
    static func object(_ sense: LocationSense, callouts: [Callout], time: Double?, changes: LocationChanges? = nil) -> String {
        var road: RoadMatch?, ahead: IntersectionMatch?, place: NearbyPlace?, area: NearbyPlace?
        let kind = sense.kindName
        switch sense {
        case .unknown, .noLocation:
            break
        case let .inside(inside, nearestRoad, nearestPlace):
            (area, road, place) = (inside, nearestRoad, nearestPlace)
        case let .alongRoad(along, intersection, nearestPlace):
            (road, ahead, place) = (along, intersection, nearestPlace)
        case let .other(nearestRoad, nearestPlace):
            (road, place) = (nearestRoad, nearestPlace)
        }
        var fields: [String] = []
        if let time { fields.append("\"time\":\(number(time))") }
        fields.append("\"kind\":\"\(kind)\"")
        fields.append("\"road\":" + (road.map(self.road) ?? "null"))
        fields.append("\"intersection_ahead\":" + (ahead.map(intersection) ?? "null"))
        fields.append("\"nearest_place\":" + (place.map(self.place) ?? "null"))
        fields.append("\"area\":" + (area.map(self.place) ?? "null"))
        if let changes { fields.append("\"changes\":[" + changeNames(changes).map(JSONText.string).joined(separator: ",") + "]") }
        fields.append("\"callouts\":[" + callouts.map(callout).joined(separator: ",") + "]")
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// A finite number as JSON: whole numbers without a fraction.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// `{"name", "class", "distance_m", "direction", "bearing"}`.
    static func road(_ road: RoadMatch) -> String {
        "{\"name\":\(JSONText.string(road.name)),\"class\":\(JSONText.string(road.roadClass)),"
            + "\"distance_m\":\(NearbyOption.tenths(road.distance)),\"direction\":\(NearbyOption.tenths(road.direction)),"
            + "\"bearing\":\(NearbyOption.tenths(road.bearing))}"
    }

    /// `{"text", "bearing"}`.
    static func callout(_ callout: Callout) -> String {
        "{\"text\":\(JSONText.string(callout.text)),\"bearing\":" + (callout.bearing.map { NearbyOption.tenths($0) } ?? "null") + "}"
    }

    /// The names of `changes`: "start", "kind", "road", "area", "intersection_ahead", "nearest_place".
    static func changeNames(_ changes: LocationChanges) -> [String] {
        let names: [(LocationChanges, String)] = [(.start, "start"), (.kind, "kind"), (.road, "road"), (.area, "area"),
                                                  (.intersectionAhead, "intersection_ahead"), (.nearestPlace, "nearest_place")]
        return names.filter { changes.contains($0.0) }.map { $0.1 }
    }

    /// `{"streets", "distance_m", "bearing", "main", "latitude", "longitude"}` (where it is; null when the source does not say).
    static func intersection(_ match: IntersectionMatch) -> String {
        "{\"streets\":[" + match.streetNames.map(JSONText.string).joined(separator: ",") + "],"
            + "\"distance_m\":\(NearbyOption.tenths(match.distance)),\"bearing\":\(NearbyOption.tenths(match.bearing)),\"main\":\(match.isMain),"
            + "\"latitude\":" + (match.latitude.map { "\($0)" } ?? "null") + ",\"longitude\":" + (match.longitude.map { "\($0)" } ?? "null") + "}"
    }

    /// `{"name", "category", "kind", "distance_m", "bearing"}`.
    static func place(_ place: NearbyPlace) -> String {
        "{\"name\":\(JSONText.string(place.name)),\"category\":\(JSONText.string(place.category)),"
            + "\"kind\":\(JSONText.string(LocationWords.kind(of: place.category))),"
            + "\"distance_m\":\(NearbyOption.tenths(place.distance)),\"bearing\":\(NearbyOption.tenths(place.bearing))}"
    }
}
