import GMap

// A location map, built from an OpenStreetMap extract: gmap build --osm Helsinki.osm.pbf -o helsinki.gmap
let path = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "helsinki.gmap"
let map = try GMap(contentsOf: path)
let source = try MapLocationSource(map: map)     // throws, saying what is missing, for a map without roads
var context = LocationContext(source: source)     // what the user is along, kept from fix to fix

// A short walk north-west along Mannerheimintie: a fix every 5 s with the GPS course (323°).
let walk = (0..<25).map { step in
    LocationFix(latitude: 60.169 + Double(step) * 0.0000502, longitude: 24.9396 - Double(step) * 0.000076,
                time: Double(5 * step), course: 323)
}
for fix in walk {
    // A sense for the first fix, then only when the road, the area or the intersection ahead changes.
    guard let sense = context.update(fix), let update = context.last else { continue }
    switch sense {
    case let .alongRoad(road, ahead, place):
        print("\(Int(fix.time)) s: along \(road.name), \(Int(road.distance.rounded())) m away")
        if let ahead { print("  ahead: \(ahead.streetNames.joined(separator: " / ")) in \(Int(ahead.distance.rounded())) m") }
        if let place { print("  nearest place: \(place.name) (\(place.category))") }
    case let .inside(area, _, _):
        print("\(Int(fix.time)) s: inside \(area.name) (\(area.category))")
    case .other, .unknown, .noLocation:
        print("\(Int(fix.time)) s: off the roads")
    }
    // The same sense in sentences, each with the bearing of what it speaks of (for spatial audio).
    for callout in sense.spokenCallouts(direction: update.direction) {
        print("  \"\(callout.text)\"", callout.bearing.map { "from \(Int($0.rounded()))°" } ?? "")
    }
}
