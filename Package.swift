// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "gmap",
    products: [
        .library(name: "GMap", targets: ["GMap"]),
        .library(name: "GMapBuilder", targets: ["GMapBuilder"]),
        .executable(name: "gmap", targets: ["gmap"]),
    ],
    targets: [
        // The format's layout and the zero-copy reader. No Foundation: only the C library.
        .target(name: "GMap"),
        // GeoJSON in, `.gmap` out.
        .target(name: "GMapBuilder", dependencies: ["GMap"]),
        // The command-line tool.
        .executableTarget(
            name: "gmap",
            dependencies: ["GMap", "GMapBuilder"],
            resources: [.copy("Resources/world.gmap")]
        ),
        .testTarget(name: "GMapTests", dependencies: ["GMap", "GMapBuilder"]),
    ]
)
