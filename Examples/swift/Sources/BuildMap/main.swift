import GMap
import GMapBuilder

// Two features: "A", a square with a square hole, and "B", the enclave that fills the hole.
// Rings are (longitude, latitude) in degrees; a polygon is [outer ring, hole, …].
let hole: [(longitude: Double, latitude: Double)] = [(4, 4), (6, 4), (6, 6), (4, 6), (4, 4)]
var builder = try MapBuilder(options: BuildOptions())
try builder.add(SourceFeature(id: "A", properties: [.init(key: "name", value: "Outer")],
                              polygons: [[[(0, 0), (10, 0), (10, 10), (0, 10), (0, 0)], hole]]))
try builder.add(SourceFeature(id: "B", properties: [.init(key: "name", value: "Enclave")],
                              polygons: [[hole]]))
let (bytes, report) = try builder.finish()
print("built \(report.featureCount) features, \(report.vertexCount) vertices, \(bytes.count) bytes")

try AtomicFile.write(bytes, to: "squares.gmap")   // to a temporary file, then renamed into place
let map = try GMap(contentsOf: "squares.gmap")    // or GMap(bytes: bytes), without a file
for (latitude, longitude) in [(1.0, 1.0), (5.0, 5.0), (20.0, 20.0)] {
    if let feature = map.lookup(latitude: latitude, longitude: longitude) {
        print(latitude, longitude, feature.id, feature.property("name") ?? "")
    } else {
        print(latitude, longitude, "in no feature")
    }
}
print(map.find("enclave").map(\.id))              // the name index: ids and kept names
