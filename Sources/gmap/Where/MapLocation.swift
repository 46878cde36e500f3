import Foundation
import GMap
import GMapBuilder

/// A map file a command reads, and where its path came from, so that a failure to open it says so.
struct MapLocation {
    enum Origin {
        /// Given on the command line.
        case argument
        /// From `$GMAP_MAP`.
        case environment
        /// The world map shipped beside the executable.
        case bundled
    }

    var path: String
    var origin: Origin
    /// Whether a message names the path even when it was given as an argument: a map found in a
    /// folder, or one of several maps.
    var isNamed = false

    /// A path given on the command line.
    static func argument(_ path: String) -> MapLocation { MapLocation(path: path, origin: .argument) }

    /// " (from $GMAP_MAP)" or " (the map shipped with gmap)" after the path in messages; "" for an argument.
    var originNote: String {
        switch origin {
        case .argument: return ""
        case .environment: return " (from $\(DefaultMap.environmentVariable))"
        case .bundled: return " (the map shipped with gmap)"
        }
    }

    /// Opens the map; a failure becomes a message that names the path, where it came from, and for
    /// a build input given by mistake (GeoJSON, a shapefile) the command that makes a map of it.
    func open() throws -> GMap {
        do {
            return try GMap(contentsOf: path)
        } catch {
            throw CommandFailure(message: message(for: error))
        }
    }

    /// The message for `error` from opening this map.
    func message(for error: GMapError) -> String {
        if case .cannotOpen(let file, let operation, _) = error {
            let text = error.description, prefix = "cannot \(operation) \(file)"
            guard !originNote.isEmpty, text.hasPrefix(prefix) else { return text }
            return prefix + originNote + text.dropFirst(prefix.count)
        }
        if case .notAFile = error {
            // Not a file: nothing to sniff (reading a FIFO would block), the kind is the message.
            return named(error.description)
        }
        if path.lowercased().hasSuffix(".pbf") {
            return "\(path)\(originNote) is an OpenStreetMap PBF extract, not a gmap map; make a map of it first: gmap build --osm \(Shell.quote(path)) -o \(Shell.quote(Self.mapName(for: path)))"
        }
        if let kind = buildInputKind() {
            return "\(path)\(originNote) is \(kind), not a gmap map; make a map of it first: gmap build \(Shell.quote(path)) -o \(Shell.quote(Self.mapName(for: path)))"
        }
        return named(error.description)
    }

    /// `text` after the path and its origin, when a message should name them.
    func named(_ text: String) -> String {
        originNote.isEmpty && !isNamed ? text : "\(path)\(originNote): \(text)"
    }

    /// "GeoJSON", "an ESRI shapefile" or "a ZIP archive" when the file is something `gmap build` reads
    /// (by its name, or for GeoJSON by its first non-space byte being `{`); nil otherwise.
    func buildInputKind() -> String? {
        let lower = path.lowercased()
        let json = [".geojson", ".json"] + InputFormat.sequenceExtensions
        if json.contains(where: { lower.hasSuffix($0) || lower.hasSuffix($0 + ".gz") }) { return "GeoJSON" }
        if lower.hasSuffix(".shp") { return "an ESRI shapefile" }
        if lower.hasSuffix(".zip") { return "a ZIP archive" }
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 4096)) ?? Data()
        var bytes = head[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }  // a UTF-8 byte order mark
        let first = bytes.first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
        return first == UInt8(ascii: "{") ? "GeoJSON" : nil
    }

    /// `countries.geojson` → `countries.gmap`, in the same directory (`MAP.gmap` for a file that already ends in `.gmap`).
    static func mapName(for path: String) -> String {
        guard !path.lowercased().hasSuffix(".gmap") else { return "MAP.gmap" }
        let directory = (path as NSString).deletingLastPathComponent
        var name = (path as NSString).lastPathComponent
        let lower = name.lowercased()
        if lower.hasSuffix(".gz") { name.removeLast(3) }
        if lower.hasSuffix(".osm.pbf") { name.removeLast(4) }  // Helsinki.osm.pbf → Helsinki.gmap
        let stem = (name as NSString).deletingPathExtension
        let file = (stem.isEmpty ? name : stem) + ".gmap"
        return directory.isEmpty ? file : (directory as NSString).appendingPathComponent(file)
    }
}

/// Quoting for commands suggested in messages.
enum Shell {
    /// `text` as a shell word: as it is when it needs no quoting, else in single quotes.
    static func quote(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            (scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "-_./,:=+@%^".unicodeScalars.contains(scalar)))
        }
        return plain ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// A command line of words, each quoted as needed.
    static func command(_ words: [String]) -> String { words.map(quote).joined(separator: " ") }
}
