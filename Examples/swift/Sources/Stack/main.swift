import GMap
import GMapWorld

// A city's location map (gmap build --osm Helsinki.osm.pbf -o helsinki.gmap) over the shipped world map.
let path = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "helsinki.gmap"
let stack = MapStack([try WorldMap.open(), try GMap(contentsOf: path)])   // the location map answers first
let place = stack.placemark(latitude: 60.1690, longitude: 24.9396)
print(place.country ?? "-", place.timeZone ?? "-")                                          // the world map's
print(place.thoroughfare ?? "-", place.subThoroughfare ?? "-", place.postalCode ?? "-")     // the city map's
print(place.locality ?? "-", place.subLocality ?? "-")
let answered = place.answers.filter { !$0.features.isEmpty }                                // the layers that answered
print(answered.map { "\($0.layer) (map \($0.map))" }.joined(separator: ", "))
let east = stack.placemark(latitude: 60.17, longitude: 25.2)    // beyond the city map: the world map's town and sea
print(east.locality ?? "-", east.ocean ?? "-")
