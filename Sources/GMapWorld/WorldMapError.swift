import GMap

/// Why ``WorldMap`` could not give the shipped map.
public enum WorldMapError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The resource bundle (and a `world.gmap` beside the executable) is in none of the directories
    /// searched, listed in the order they were searched.
    case notFound(searched: [String])
    /// The file was found at `path` but did not open as a map.
    case cannotOpen(path: String, error: GMapError)

    /// A sentence saying what is wrong and what to do.
    public var description: String {
        switch self {
        case let .notFound(searched):
            let places = searched.isEmpty ? "no directory to look in" : searched.joined(separator: ", ")
            return "the shipped world map was not found: looked for \(WorldMap.bundleName).resources/\(WorldMap.fileName) "
                + "(or \(WorldMap.bundleName).bundle, or \(WorldMap.fileName) itself) in \(places); copy that folder "
                + "beside the executable (a static executable does not carry it), or open a map file with GMap(contentsOf:)"
        case let .cannotOpen(path, error):
            return "the shipped world map at \(path) did not open: \(error.description)"
        }
    }
}
