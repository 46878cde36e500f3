import Foundation
import GMap
import GMapWorld

/// The maps of a command that answers from several (`gmap place`, `gmap query --all`, `gmap find`):
/// those of `--map FILE|DIR` (repeatable; a folder gives every `.gmap` file in it, by name), else of
/// `$GMAP_MAP` when it is a `:`-separated list or a folder, and then the shipped world map unless `--no-world`. Without either, the command reads one map as it
/// always has: MAP, else `$GMAP_MAP` naming one map, else the shipped map alone.
enum StackedMaps {
    /// `--map FILE|DIR` (repeatable): a map of the stack, or a folder of them.
    static let map = CommandOption.value("--map", "FILE|DIR", repeatable: true)
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
            locations = try given.flatMap { try expanded(MapLocation.argument($0)) }
        } else if mapArgument == nil, DefaultMap.isList(environment) {
            locations = try DefaultMap.list(environment).flatMap { try expanded(MapLocation(path: $0, origin: .environment)) }
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

    /// The maps a location names: a file as it is; a folder's `.gmap` files, sorted by name (a
    /// folder without one is an error naming it; other files in it are left alone).
    static func expanded(_ location: MapLocation) throws -> [MapLocation] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: location.path, isDirectory: &isFolder), isFolder.boolValue else { return [location] }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: location.path)
        } catch {
            throw CommandFailure(message: "cannot list the folder \(location.path)\(location.originNote): \(error.localizedDescription)")
        }
        let maps = names.filter { $0.hasSuffix(".gmap") && !$0.hasPrefix(".") }.sorted()
        guard !maps.isEmpty else {
            throw CommandFailure(message: "the folder \(location.path)\(location.originNote) holds no .gmap file")
        }
        let folder = location.path.hasSuffix("/") ? location.path : location.path + "/"
        return maps.map { MapLocation(path: folder + $0, origin: location.origin, isNamed: true) }
    }

    /// The maps of `--map` alone (files and folders, in the order given, without the world map),
    /// for the commands that read location maps (`gmap where`, `gmap nearby`); nil without `--map`.
    static func givenLocations(_ list: ArgumentList) throws -> [MapLocation]? {
        let given = list.values(map)
        guard !given.isEmpty else { return nil }
        if let empty = given.first(where: \.isEmpty) { throw CommandFailure(message: "--map '\(empty)' names no file") }
        let locations = try given.flatMap { try expanded(MapLocation.argument($0)) }
        return locations.map { location in
            var named = location
            named.isNamed = locations.count > 1 || location.isNamed
            return named
        }
    }

    /// Opens every map (a failure names the map, as for one map) into a stack; the shipped map is
    /// left out when a given map is that very map (the same bytes), so it never answers twice.
    static func open(_ locations: [MapLocation]) throws -> MapStack {
        var maps: [GMap] = []
        for var location in locations {
            location.isNamed = location.isNamed || locations.count > 1
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
