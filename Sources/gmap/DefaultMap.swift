import Foundation
import GMapWorld

/// Finds the world map that ships with gmap, for `gmap query LAT LON` without a map argument.
enum DefaultMap {
    /// The environment variable that names another default map.
    static let environmentVariable = "GMAP_MAP"

    /// Where the default map is: `$GMAP_MAP`, else GMapWorld's `world.gmap`, in its resource bundle beside the executable.
    static func path() throws -> String {
        try location().path
    }

    /// The default map and where its path came from (`$GMAP_MAP` or the bundle), for messages.
    static func location() throws -> MapLocation {
        if let override = ProcessInfo.processInfo.environment[environmentVariable], !override.isEmpty {
            return MapLocation(path: override, origin: .environment)
        }
        do {
            return MapLocation(path: try WorldMap.path(), origin: .bundled)
        } catch {
            throw CommandFailure(message: "no default map found (looked for \(WorldMap.bundleName).resources/\(WorldMap.fileName) beside the executable); pass a map file or set \(environmentVariable)")
        }
    }
}
