import Foundation
import GMap
import GMapWorld

/// The maps of a command that answers from several (`gmap place`, `gmap query --all`, `gmap find`):
/// those of `--map FILE` (repeatable), else of `$GMAP_MAP` when it is a `:`-separated list, and
/// then the shipped world map unless `--no-world`. Without either, the command reads one map as it
/// always has: MAP, else `$GMAP_MAP` naming one map, else the shipped map alone.
enum StackedMaps {
    /// `--map FILE` (repeatable): a map of the stack.
    static let map = CommandOption.value("--map", "FILE", repeatable: true)
    /// `--no-world`: the shipped world map does not join the stack.
    static let noWorld = CommandOption.flag("--no-world")

    /// Where the maps of the stack are, in the order given (the world map last), or nil when the
    /// command reads one map: `mapArgument` (a MAP before the coordinates) or the default map.
    static func locations(_ list: ArgumentList, mapArgument: String?, command: String) throws -> [MapLocation]? {
        let given = list.values(map)
        var locations: [MapLocation]
        let environment = ProcessInfo.processInfo.environment[DefaultMap.environmentVariable] ?? ""
        if !given.isEmpty {
            if let mapArgument {
                throw CommandFailure(message: "'\(mapArgument)' and --map: give the maps either with --map (each one) or as the one MAP before the coordinates, not both")
            }
            if let empty = given.first(where: \.isEmpty) {
                throw CommandFailure(message: "--map '\(empty)' names no file")
            }
            locations = given.map(MapLocation.argument)
        } else if mapArgument == nil, DefaultMap.isList(environment) {
            locations = DefaultMap.list(environment).map { MapLocation(path: $0, origin: .environment) }
            guard !locations.isEmpty else {
                throw CommandFailure(message: "$\(DefaultMap.environmentVariable) ('\(environment)') names no map between its ':'")
            }
        } else {
            if list.has(noWorld), mapArgument == nil, environment.isEmpty {
                throw CommandFailure(message: "--no-world leaves no map: give the maps with --map FILE (or in $\(DefaultMap.environmentVariable), separated by ':')")
            }
            return nil
        }
        if !list.has(noWorld) {
            do {
                locations.append(MapLocation(path: try WorldMap.path(), origin: .bundled))
            } catch {
                throw CommandFailure(message: "the shipped world map joins the maps given, but it was not found (looked for \(WorldMap.bundleName).resources/\(WorldMap.fileName) beside the executable); add --no-world to answer from the given maps alone")
            }
        }
        return locations
    }

    /// Opens every map (a failure names the map, as for one map) into a stack; the shipped map is
    /// left out when a given map is that very map (the same bytes), so it never answers twice.
    static func open(_ locations: [MapLocation]) throws -> MapStack {
        var maps: [GMap] = []
        for location in locations {
            let map = try location.open()
            if location.origin == .bundled, maps.contains(where: { sameMap($0, map) }) { continue }
            maps.append(map)
        }
        return MapStack(maps)
    }

    /// Whether two maps are the same file's bytes, as far as their lengths and the sections' tags,
    /// lengths and checksums tell.
    static func sameMap(_ a: GMap, _ b: GMap) -> Bool {
        a.byteCount == b.byteCount && a.sections == b.sections
    }

    /// The stack's maps' names for messages: "a.gmap, b.gmap and the shipped world map".
    static func names(_ locations: [MapLocation]) -> String {
        let names = locations.map { $0.origin == .bundled ? "the shipped world map" : $0.path }
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
    }
}
