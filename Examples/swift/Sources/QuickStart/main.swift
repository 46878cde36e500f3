import GMap
import GMapWorld

let world = try WorldMap.open()          // the shipped map: countries, marine, timezones, towns
if let country = world.lookup(latitude: 36.14, longitude: -5.35) {
    print(country.id, country.property("name") ?? "")          // GI Gibraltar
}
let place = world.placemark(latitude: 48.57, longitude: 7.815)
print(place.isoCountryCode ?? "-", place.timeZone ?? "-", place.locality ?? "-")
if let town = world.find("zurich", layer: "towns").first, let point = town.labelPoint {   // by name
    print(town.id, point.latitude, point.longitude)
}
