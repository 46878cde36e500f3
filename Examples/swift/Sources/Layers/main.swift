import GMap

// The map of three layers built above: country, state and timezone.
let path = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "layers.gmap"
let map = try GMap(contentsOf: path)
print(map.layerNames)
if let states = map.layer(named: "state") {                     // a GMap reading that layer
    print(states.featureCount, states.lookup(latitude: 32.78, longitude: -96.80)?.id ?? "-")
}
let place = map.placemark(latitude: 32.78, longitude: -96.80)
print(place.isoCountryCode ?? "-", place.country ?? "-")
print(place.administrativeArea ?? "-", place.timeZone ?? "-")
print(place.features(in: "country").map(\.id))                  // every answer of a layer, smallest first
let places = await map.reverseGeocode(latitude: 32.78, longitude: -96.80)   // CLGeocoder-style
print(places.count)
if let label = map.find("gibraltar").first?.labelPoint {         // every layer's name index, exact first
    print(label)
}
print(map.find("texas").first.map { "\($0)" } ?? "-")            // the state layer's feature, readably
