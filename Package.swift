// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "gmap",
    products: [
        .library(name: "GMap", targets: ["GMap"]),
        .library(name: "GMapBuilder", targets: ["GMapBuilder"]),
        .library(name: "GMapRender", targets: ["GMapRender"]),
        // The world map that ships with gmap, as a resource, and the way to open it.
        .library(name: "GMapWorld", targets: ["GMapWorld"]),
        // The C interface (include/gmap.h) as a shared library, for C and other languages.
        .library(name: "CGMap", type: .dynamic, targets: ["CGMap"]),
        .executable(name: "gmap", targets: ["gmap"]),
    ],
    targets: [
        // CRC-32 (zlib's, PNG's and gzip's; the `.gmap` header and sections use it too): the one primitive
        // the reader and the codecs share, so that neither depends on the other for it. No Foundation,
        // no C library; compiles in Embedded Swift. GMap re-exports it (`CRC32` is GMap's public API).
        .target(name: "GMapChecksum"),
        // The format's layout and the zero-copy reader. No Foundation: only the C library.
        .target(name: "GMap", dependencies: ["GMapChecksum"]),
        // The C interface: gmap.h, implemented in Swift with @_cdecl. Compiles in Embedded Swift too.
        .target(name: "CGMap", dependencies: ["GMap"], exclude: ["include"]),
        // Byte codecs, no map knowledge: DEFLATE both ways (one alphabet), gzip, ZIP, PNG, Adler-32,
        // bounds-checked byte reads and byte sources. CRC-32 from GMapChecksum; not the reader. No Foundation.
        .target(name: "GMapCodecs", dependencies: ["GMapChecksum"]),
        // Pictures of a map as it answers: the rasteriser, its bitmap font and styles (PNG out via GMapCodecs).
        .target(name: "GMapRender", dependencies: ["GMap", "GMapCodecs"]),
        // Maps out of sources: GeoJSON, shapefiles, OSM PBF in; `.gmap` out; simplification; export back to GeoJSON.
        .target(name: "GMapBuilder", dependencies: ["GMap", "GMapCodecs"]),
        // The shipped world map (Resources/world.gmap, in the resource bundle gmap_GMapWorld) and
        // `WorldMap.open()`. Uses Foundation to find the bundle; GMap stays without it.
        .target(name: "GMapWorld", dependencies: ["GMap"], resources: [.copy("Resources/world.gmap")]),
        // The command-line tool: its default map is GMapWorld's.
        .executableTarget(name: "gmap", dependencies: ["GMap", "GMapCodecs", "GMapBuilder", "GMapRender", "GMapWorld"]),
        // What the tests share (paths to fixtures and ../shared, the brute-force oracle, the base class
        // of the command-line tests, file makers): a target of its own so that each module's tests can
        // use it. Only the test targets depend on it; it imports XCTest, as swift-nio's NIOTestUtils does.
        .target(
            name: "GMapTestSupport",
            dependencies: ["GMap", "GMapCodecs", "GMapBuilder", "GMapRender"],
            path: "Tests/GMapTestSupport"
        ),
        // One test target per module, so that a failing test names the module it tests. Maps for
        // the reader's tests are made with the builder, so GMapTests depends on it too.
        .testTarget(name: "GMapTests", dependencies: ["GMap", "GMapBuilder", "GMapTestSupport"]),
        .testTarget(name: "GMapCodecsTests", dependencies: ["GMapCodecs", "GMap", "GMapTestSupport"]),
        .testTarget(name: "GMapBuilderTests", dependencies: ["GMapBuilder", "GMap", "GMapCodecs", "GMapTestSupport"]),
        .testTarget(name: "GMapRenderTests", dependencies: ["GMapRender", "GMap", "GMapCodecs", "GMapBuilder", "GMapTestSupport"]),
        .testTarget(name: "GMapWorldTests", dependencies: ["GMapWorld", "GMap", "GMapTestSupport"]),
        .testTarget(name: "CGMapTests", dependencies: ["CGMap", "GMap", "GMapBuilder", "GMapTestSupport"]),
        // The `gmap` tool, run as users run it (the executable beside the test bundle); its command
        // table and option declarations, which the module makes public, read in-process (`import gmap`).
        // Snapshots/ holds the committed help texts the tests compare with (read from the repository, not bundled).
        .testTarget(name: "GMapCommandLineTests", dependencies: ["gmap", "GMap", "GMapCodecs", "GMapBuilder", "GMapRender", "GMapTestSupport"],
                    exclude: ["Snapshots"]),
    ]
)
