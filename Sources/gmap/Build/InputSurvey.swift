import Foundation
import GMap
import GMapBuilder
import GMapCodecs

/// Reads a build input's features a second time, only to tell the user which properties they have:
/// when `--id` names a property a feature lacks, and when no feature has any of the automatic id
/// properties (so that the ids are the features' positions). Only runs after such a finding, so a
/// normal build reads its input once.
enum InputSurvey {
    /// At most this many property names are listed.
    static let listedNames = 12

    /// Calls `body` with each feature of the input at `path`, in order, while it returns true. Returns
    /// false when the input cannot be read again (standard input, a read error).
    static func forEachFeature(of path: String, _ body: (GeoJSONFeature) -> Bool) -> Bool {
        guard path != "-" else { return false }
        let visit: (GeoJSONFeature) throws -> Void = { feature in
            if !body(feature) { throw Stop() }
        }
        do {
            let (prefix, source) = try PrefixedByteSource.peek(InputFormat.magicLength, of: try FileByteSource(path: path))
            // An if chain, not a switch: a format added to the builder is simply not surveyed.
            let format = InputFormat.detect(name: path, prefix: prefix)
            if format == .geoJSON || format == .geoJSONSequence || format == .gzip {
                let bytes: any ByteSource = format == .gzip ? GzipByteSource(compressed: source) : source
                var reader = GeoJSONReader(source: bytes, name: path, layout: InputFormat.geoJSONLayout(name: path))
                _ = try reader.forEachFeature(visit)
            } else if format == .shapefile {
                _ = try ShapefileReader(path: path).forEachFeature(visit)
            } else if format == .zip {
                let archive = try ZipArchive(bytes: try ByteSources.readAll(source), name: path)
                let names = archive.entries.map { $0.name.lowercased() }
                if names.contains(where: { $0.hasSuffix(".shp") }) {
                    _ = try ShapefileReader(archive: archive).forEachFeature(visit)
                } else {
                    let json = [".geojson", ".json"] + InputFormat.sequenceExtensions
                    guard let entry = archive.entries.first(where: { entry in
                        !entry.name.hasPrefix("__MACOSX/") && json.contains { entry.name.lowercased().hasSuffix($0) }
                    }) else { return false }
                    var reader = GeoJSONReader(source: try archive.source(of: entry), name: path, layout: InputFormat.geoJSONLayout(name: entry.name))
                    _ = try reader.forEachFeature(visit)
                }
            } else {
                return false
            }
        } catch is Stop {
            return true
        } catch {
            return false
        }
        return true
    }

    /// "a, b, c" sorted (ignoring case), at most ``listedNames`` and "and N more".
    static func list(_ names: some Collection<String>) -> String {
        let sorted = Set(names).sorted { ($0.lowercased(), $0) < ($1.lowercased(), $1) }
        let shown = sorted.prefix(listedNames).joined(separator: ", ")
        return sorted.count > listedNames ? "\(shown) and \(sorted.count - listedNames) more" : shown
    }

    /// For "feature N has no property "ID" for its id": the properties of the first polygon feature
    /// without `property`, as "; feature N has the properties a, b, c" ("" when the input cannot be read again).
    static func missingIdNote(path: String, property: String) -> String {
        var note = ""
        _ = forEachFeature(of: path) { feature in
            guard case .polygons = feature.geometry, !feature.properties.contains(where: { $0.key == property }) else { return true }
            note = feature.properties.isEmpty
                ? "; feature \(feature.index) has no properties"
                : "; feature \(feature.index) has the properties \(list(feature.properties.map(\.key)))"
            return false
        }
        return note
    }

    /// When the built layer's ids all look like feature positions (distinct whole numbers), reads the
    /// input again; if no feature had an automatic id property or a GeoJSON "id" member, returns the
    /// warning that lists the properties there are. nil otherwise.
    /// `choose` says how to name the id property ("--id PROPERTY").
    static func positionIdWarning(path: String, layer: GMap, label: String, choose: String) -> String? {
        var seen = Set<String>()
        for index in 0..<layer.featureCount {
            guard let id = layer.feature(at: index)?.id, isPosition(id), seen.insert(id).inserted else { return nil }
        }
        guard !seen.isEmpty else { return nil }
        var names = Set<String>(), anyNamed = false
        let automatic = Set(BuildOptions.automaticIdProperties)
        let read = forEachFeature(of: path) { feature in
            guard case .polygons = feature.geometry else { return true }
            if let id = feature.id, id != .null { anyNamed = true; return false }
            if feature.properties.contains(where: { automatic.contains($0.key) && $0.value != .null }) { anyNamed = true; return false }
            names.formUnion(feature.properties.map(\.key))
            return true
        }
        guard read, !anyNamed else { return nil }
        let tried = BuildOptions.automaticIdProperties.joined(separator: ", ")
        let properties = names.isEmpty ? "the features have no properties" : "their properties are \(list(names))"
        return "warning: \(label): no feature has an id property (\(tried)) or a GeoJSON \"id\", so the ids are the features' positions (0, 1, 2, …); "
            + "\(properties); choose one with \(choose)"
    }

    /// "0", "17": a whole number as a position prints.
    private static func isPosition(_ id: String) -> Bool {
        guard let first = id.utf8.first, id.utf8.count <= 10, id.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return false }
        return first != 0x30 || id.utf8.count == 1
    }

    private struct Stop: Error {}
}
