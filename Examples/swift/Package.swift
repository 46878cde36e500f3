// swift-tools-version:6.0
// The documents' Swift examples, compiled: each ```swift block of README.md and Docs/ is one of these
// files, word for word (Scripts/check-docs.sh checks it). Build: swift build -c release --package-path Examples/swift
import PackageDescription

let package = Package(
    name: "gmap-examples",
    dependencies: [.package(name: "gmap", path: "../..")],
    targets: [
        // The README's quick start: the shipped world map through GMapWorld.
        .executableTarget(name: "QuickStart", dependencies: [
            .product(name: "GMap", package: "gmap"),
            .product(name: "GMapWorld", package: "gmap"),
        ]),
        // Lookups in a map file (by default the shipped world map, GMapWorld's), and the same map
        // opened from a caller's bytes.
        .executableTarget(name: "Lookup", dependencies: [
            .product(name: "GMap", package: "gmap"),
            .product(name: "GMapWorld", package: "gmap"),
        ]),
        // A map of several layers: layer names, placemarks, the name index.
        .executableTarget(name: "Layers", dependencies: [.product(name: "GMap", package: "gmap")]),
        // Several maps, one placemark: a location map over the shipped world map.
        .executableTarget(name: "Stack", dependencies: [
            .product(name: "GMap", package: "gmap"),
            .product(name: "GMapWorld", package: "gmap"),
        ]),
        // Location sense: a short walk on a map built by gmap build --osm, its senses and callouts.
        .executableTarget(name: "Where", dependencies: [.product(name: "GMap", package: "gmap")]),
        // A map built from Swift: features in, bytes out, then opened and looked up.
        .executableTarget(name: "BuildMap", dependencies: [
            .product(name: "GMap", package: "gmap"),
            .product(name: "GMapBuilder", package: "gmap"),
        ]),
    ]
)
