import Foundation   // only to read the file into memory at the end; GMap itself needs no Foundation
import GMap
import GMapWorld    // the world map that ships with gmap, as a resource of this library

// A map file given as an argument, else the shipped world map: its path (WorldMap.open() opens it directly).
let path = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : try WorldMap.path()
let map = try GMap(contentsOf: path)                  // O(1): checks the header, maps the file
if let country = map.lookup(latitude: 36.14, longitude: -5.35) {
    print(country.id, country.property("name") ?? "")
}
let all = map.lookupAll(latitude: 44.95, longitude: 34.1)   // smallest area first
print(all.map(\.id))
if let place = map.lookup(latitude: 36.0, longitude: -5.2, within: 20_000) {   // the nearby fallback
    print(place.feature.id, place.kind, Int(place.distance.rounded()), "m")
}

// A map in the caller's memory (a blob in flash, an app resource), read in place, not copied.
// The bytes must stay alive and unchanged while the map or any of its features is in use, so
// here the map lives only inside the closure that lends them. (GMap(bytes:) copies them instead.)
let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
try bytes.withUnsafeBytes { buffer in
    let embedded = try GMap(unsafeBuffer: buffer)
    print(embedded.lookup(latitude: 36.14, longitude: -5.35)?.id ?? "-", embedded.featureCount, "features")
}
