// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "gmap",
    products: [
        .library(name: "GMap", targets: ["GMap"]),
        .library(name: "GMapBuilder", targets: ["GMapBuilder"]),
        // The C interface (include/gmap.h) as a shared library, for C and other languages.
        .library(name: "CGMap", type: .dynamic, targets: ["CGMap"]),
        .executable(name: "gmap", targets: ["gmap"]),
    ],
    targets: [
        // The format's layout and the zero-copy reader. No Foundation: only the C library.
        .target(name: "GMap"),
        // The C interface: gmap.h, implemented in Swift with @_cdecl. Compiles in Embedded Swift too.
        .target(name: "CGMap", dependencies: ["GMap"], exclude: ["include"]),
        // GeoJSON in, `.gmap` out.
        .target(name: "GMapBuilder", dependencies: ["GMap"]),
        // The command-line tool.
        .executableTarget(
            name: "gmap",
            dependencies: ["GMap", "GMapBuilder"],
            resources: [.copy("Resources/world.gmap")]
        ),
        .testTarget(name: "GMapTests", dependencies: ["GMap", "GMapBuilder", "CGMap"]),
    ]
)
