import Foundation

/// Finds the world map that ships with gmap, for `gmap query LAT LON` without a map argument.
enum DefaultMap {
    /// The environment variable that names another default map.
    static let environmentVariable = "GMAP_MAP"

    /// Where the default map is: `$GMAP_MAP`, else `world.gmap` in the resource bundle beside the executable.
    static func path() throws -> String {
        try location().path
    }

    /// The default map and where its path came from (`$GMAP_MAP` or the bundle), for messages.
    static func location() throws -> MapLocation {
        if let override = ProcessInfo.processInfo.environment[environmentVariable], !override.isEmpty {
            return MapLocation(path: override, origin: .environment)
        }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let candidates = [Bundle.main.executableURL?.deletingLastPathComponent(), executable.deletingLastPathComponent()]
            .compactMap { $0 }
            .flatMap { directory in
                ["gmap_gmap.resources/world.gmap", "gmap_gmap.bundle/world.gmap",
                 "gmap_gmap.bundle/Contents/Resources/world.gmap", "world.gmap"].map { directory.appendingPathComponent($0).path }
            }
        if let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) {
            return MapLocation(path: found, origin: .bundled)
        }
        throw CommandFailure(message: "no default map found (looked for gmap_gmap.resources/world.gmap beside the executable); pass a map file or set \(environmentVariable)")
    }
}
