import GMap
import GMapBuilder

/// Small maps made in code, shared by the tests of several modules.
package enum SampleMaps {
    /// A square feature of `size` degrees at (west, south).
    package static func square(_ id: String, west: Double, south: Double, size: Double, properties: [SourceFeature.KeptProperty] = []) -> SourceFeature {
        SourceFeature(id: id, properties: properties, polygons: [[[(west, south), (west + size, south), (west + size, south + size), (west, south + size)]]])
    }

    package static func builder(_ features: [SourceFeature]) throws -> MapBuilder {
        var builder = try MapBuilder(options: BuildOptions())
        for feature in features { try builder.add(feature) }
        return builder
    }

    /// country: US (big) and GI (small, inside US's square to overlap); state: US-TX; timezone: America/Chicago.
    package static func layered() throws -> GMap {
        var map = LayeredMapBuilder()
        try map.addLayer(named: "country", builder([
            square("US", west: -100, south: 30, size: 10, properties: [.init(key: "name", value: "United States")]),
            square("GI", west: -93, south: 32, size: 1, properties: [.init(key: "name", value: "Gíbraltar")]),
        ]))
        try map.addLayer(named: "state", builder([square("US-TX", west: -100, south: 30, size: 5, properties: [.init(key: "name", value: "Texas")])]))
        try map.addLayer(named: "timezone", builder([square("America/Chicago", west: -100, south: 25, size: 15)]))
        return try GMap(bytes: map.finish().bytes)
    }
}
