import Foundation
import GMapWorld

/// Finds the world map that ships with gmap, for `gmap query LAT LON` without a map argument.
enum DefaultMap {
    /// The environment variable that names another default map.
    static let environmentVariable = "GMAP_MAP"

    /// Whether a `$GMAP_MAP` value is a list of maps: it holds a `:` (`a.gmap:b.gmap`, or `a.gmap:`
    /// for a list of one map, which the shipped map then joins), or names a folder (its `.gmap` files).
    static func isList(_ value: String) -> Bool {
        var isFolder: ObjCBool = false
        return value.contains(":") || (FileManager.default.fileExists(atPath: value, isDirectory: &isFolder) && isFolder.boolValue)
    }

    /// The maps of a list, in order; empty entries are skipped.
    static func list(_ value: String) -> [String] {
        value.split(separator: ":", omittingEmptySubsequences: true).map(String.init)
    }

    /// Where the default map is: `$GMAP_MAP`, else GMapWorld's `world.gmap`, in its resource bundle beside the executable.
    static func path() throws -> String {
        try location().path
    }

    /// The default map and where its path came from (`$GMAP_MAP` or the bundle), for messages.
    /// A `$GMAP_MAP` that lists several maps (`a.gmap:b.gmap`) is refused: `command` reads one map
    /// (`also` says what would read them all).
    static func location(command: String = "", also: String = "") throws -> MapLocation {
        if let override = ProcessInfo.processInfo.environment[environmentVariable], !override.isEmpty {
            guard !isList(override) else {
                let reader = command.isEmpty ? "this command" : "gmap \(command)"
                let what = override.contains(":") ? "lists maps" : "names a folder of maps"
                throw CommandFailure(message: "$\(environmentVariable) \(what) ('\(override)'), but \(reader) reads one map: give it as MAP\(also)")
            }
            return MapLocation(path: override, origin: .environment)
        }
        do {
            return MapLocation(path: try WorldMap.path(), origin: .bundled)
        } catch {
            throw CommandFailure(message: "no default map found (looked for \(WorldMap.bundleName).resources/\(WorldMap.fileName) beside the executable); pass a map file or set \(environmentVariable)")
        }
    }
}
