// libFuzzer target: arbitrary bytes as an OpenStreetMap PBF file.
//
// `OSMPBFReader.read` must return data or throw an `OSMPBFError`: never trap, leak or read out of
// bounds (AddressSanitizer). When the bytes read, the street network, the places and areas made
// from them, and a location context over them are exercised too, and a few invariants checked.
import GMap

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    let data: OSMData
    do {
        data = try OSMPBFReader.read(bytes, file: "fuzz.osm.pbf")
    } catch let error as OSMPBFError {
        precondition(!error.description.isEmpty)
        return 0
    } catch {
        preconditionFailure("OSMPBFReader threw something other than OSMPBFError: \(error)")
    }
    for node in data.nodes {
        precondition(abs(node.latitudeNanodegrees) <= 90_000_000_000 && abs(node.longitudeNanodegrees) <= 180_000_000_000, "node \(node.id) outside the world")
    }
    guard data.nodes.count <= 5_000, data.ways.count <= 2_000 else { return 0 }  // keep each run fast
    let network = StreetNetwork(data, includePaths: true)
    for street in network.streets {
        for line in street.lines { precondition(line.count >= 2, "a street line of fewer than two nodes") }
    }
    for intersection in network.intersections {
        precondition(intersection.legs.count >= 2)
        for leg in intersection.legs { precondition(leg.bearing >= 0 && leg.bearing < 360 && leg.street < network.streets.count) }
    }
    let places = OSMPlaces(data)
    for area in places.areas {
        for polygon in area.polygons { for ring in polygon { precondition(ring.count >= 4 && ring.first?.id == ring.last?.id) } }
    }
    if let first = data.nodes.first {
        var context = LocationContext(source: NetworkLocationSource(network: network, places: places))
        _ = context.update(LocationFix(latitude: first.latitude, longitude: first.longitude, time: 0, course: 90))
        _ = context.update(LocationFix(latitude: first.latitude + 0.0001, longitude: first.longitude, time: 20))
    }
    return 0
}
