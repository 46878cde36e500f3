import Foundation
import XCTest
import GMap
import GMapBuilder
import GMapCodecs
import GMapTestSupport

/// The input readers on real data: the timezones file through the gzip reader against `gzip -dc`, and (when a
/// copy is at hand) the Natural Earth shapefile ZIP against the GeoJSON that Scripts/default-map/shp2geojson.py
/// makes of it. Skipped with a message when the data is absent.
final class InputDatasetTests: XCTestCase {
    private func shell(_ command: String) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    private func temporaryFile(_ name: String) -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("gmap-input-dataset-\(getpid())-\(name)")
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    private func build(_ configure: (inout MapBuilder) throws -> Void, id: String) throws -> [UInt8] {
        var options = BuildOptions()
        options.idProperty = id
        options.keptProperties = []
        var builder = try MapBuilder(options: options)
        try configure(&builder)
        return try builder.finish().bytes
    }

    /// timezones.geojson.gz read by gmap's own gzip reader builds the same map, byte for byte, as the file
    /// decompressed by `gzip -dc`; prints both decompression speeds.
    func testTimezonesThroughTheGzipReader() throws {
        try TestSupport.requireLongTests("The time zones through the gzip reader")
        let compressed = try TestSupport.sharedFile("timezones.geojson.gz")
        let plain = temporaryFile("timezones.geojson")
        var started = Date()
        guard try shell("gzip -dc '\(compressed.path)' > '\(plain.path)'") == 0 else { throw XCTSkip("no gzip command to compare with") }
        let gzipSeconds = Date().timeIntervalSince(started)

        started = Date()
        let source = GzipByteSource(compressed: try FileByteSource(path: compressed.path))
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var total = 0
        while true {
            let got = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            if got == 0 { break }
            total += got
        }
        let ownSeconds = Date().timeIntervalSince(started)
        let size = try FileManager.default.attributesOfItem(atPath: plain.path)[.size] as? Int
        XCTAssertEqual(total, size)
        print(String(format: "timezones.geojson.gz: %d bytes inflated in %.2f s (%.0f MB/s); gzip -dc to a file took %.2f s (%.0f MB/s)",
                     total, ownSeconds, Double(total) / ownSeconds / 1e6, gzipSeconds, Double(total) / gzipSeconds / 1e6))

        let viaReader = try build({ try MapInput.read(path: compressed.path, into: &$0) }, id: "tzid")
        let viaGzip = try build({ try GeoJSONImport.read(path: plain.path, into: &$0) }, id: "tzid")
        XCTAssertTrue(viaReader == viaGzip, "the map built through the gzip reader differs from the one built from gzip -dc's output")
    }

    /// The Natural Earth countries ZIP, as downloaded (path in $GMAP_NATURAL_EARTH_ZIP, for example the
    /// ne_10m_admin_0_countries_deu.zip inside the PyPI package that Scripts/default-map/SOURCE.md names):
    /// every feature's polygons equal those shp2geojson.py writes, and maps built from each answer alike.
    func testNaturalEarthZipMatchesShp2GeoJSON() throws {
        guard let zip = ProcessInfo.processInfo.environment["GMAP_NATURAL_EARTH_ZIP"], FileManager.default.fileExists(atPath: zip) else {
            throw XCTSkip("set GMAP_NATURAL_EARTH_ZIP to a Natural Earth admin-0 countries shapefile ZIP to compare it with shp2geojson.py")
        }
        let script = TestSupport.repositoryRoot.appendingPathComponent("Scripts/default-map/shp2geojson.py").path
        let geoJSON = temporaryFile("natural-earth.geojson")
        guard try shell("python3 '\(script)' '\(zip)' '\(geoJSON.path)' 2>/dev/null") == 0 else {
            throw XCTSkip("python3 could not run shp2geojson.py on \(zip)")
        }
        var expected: [String: GeoJSONGeometry] = [:]
        var reader = try GeoJSONReader(path: geoJSON.path)
        _ = try reader.forEachFeature { feature in
            if case .string(let key)? = feature.properties.first(where: { $0.key == "adm0_a3" })?.value { expected[key] = feature.geometry }
        }
        let archive = try ZipArchive(bytes: try FileByteSource(path: zip).readAll(), name: zip)
        var seen = 0
        try ShapefileReader(archive: archive).forEachFeature { feature in
            guard case .string(let key)? = feature.properties.first(where: { $0.key == "ADM0_A3" })?.value else {
                return XCTFail("record \(feature.index + 1) has no ADM0_A3")
            }
            XCTAssertEqual(feature.geometry, expected[key], "\(key): the polygons differ from shp2geojson.py's")
            seen += 1
        }
        XCTAssertEqual(seen, expected.count)

        let fromZip = try GMap(bytes: try build({ try MapInput.read(path: zip, into: &$0) }, id: "ADM0_A3"))
        let fromGeoJSON = try GMap(bytes: try build({ try GeoJSONImport.read(path: geoJSON.path, into: &$0) }, id: "adm0_a3"))
        var random = SplitMix64(state: 2024)
        var differences = 0
        for _ in 0..<200_000 {
            let latitude = asin(Double.random(in: -1...1, using: &random)) * 180 / .pi, longitude = Double.random(in: -180...180, using: &random)
            if fromZip.lookup(latitude: latitude, longitude: longitude)?.id != fromGeoJSON.lookup(latitude: latitude, longitude: longitude)?.id {
                differences += 1
            }
        }
        XCTAssertEqual(differences, 0, "points answered differently by the maps built from the ZIP and from shp2geojson.py's GeoJSON")
        print("\(zip): \(seen) features equal to shp2geojson.py's; 200000 points answer alike")
    }
}
