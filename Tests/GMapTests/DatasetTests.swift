import Foundation
import XCTest
import GMap
import GMapBuilder
import GMapTestSupport

/// The real datasets in ../shared/data: every lookup agrees with the brute-force oracle on at least
/// a million points per dataset, and the known locations of the data's README come out right.
/// Skipped with a message when ../shared is absent.
final class DatasetTests: XCTestCase {
    /// Points per dataset: half uniform on the sphere, half on or within metres of edges and vertices.
    static let pointsPerDataset = TestSupport.count("GMAP_ORACLE_POINTS", quick: 200_000, long: 1_000_000)

    /// The README's sample lookups: (latitude, longitude) and the expected answers per file, "" for none.
    static let readmeSamples: [(name: String, latitude: Double, longitude: Double, answers: [String: String])] = [
        ("Berlin", 52.52, 13.405, ["10m": "DE", "50m": "DE", "110m": "DE", "osm": "DE", "josm": "DE", "tz": "Europe/Berlin"]),
        ("Paris", 48.8566, 2.3522, ["10m": "FR", "50m": "FR", "110m": "FR", "osm": "FR", "josm": "FR", "tz": "Europe/Paris"]),
        ("New York", 40.7128, -74.006, ["10m": "US", "50m": "", "110m": "US", "osm": "US", "josm": "US US-NY", "tz": "America/New_York"]),
        ("Dallas", 32.7767, -96.797, ["10m": "US", "50m": "US", "110m": "US", "osm": "US", "josm": "US US-TX", "tz": "America/Chicago", "admin1": "US-TX"]),
        ("Tokyo", 35.6895, 139.6917, ["10m": "JP", "50m": "JP", "110m": "JP", "osm": "JP", "josm": "JP", "tz": "Asia/Tokyo"]),
        ("Sydney", -33.8688, 151.2093, ["10m": "AU", "50m": "AU", "110m": "AU", "osm": "AU", "josm": "AU AU-NSW", "tz": "Australia/Sydney", "admin1": "AU-NSW"]),
        ("Sao Paulo", -23.5505, -46.6333, ["10m": "BR", "50m": "BR", "110m": "BR", "osm": "BR", "josm": "BR", "tz": "America/Sao_Paulo", "admin1": "BR-SP"]),
        ("Cape Town", -33.9249, 18.4241, ["10m": "ZA", "50m": "ZA", "110m": "ZA", "osm": "ZA", "josm": "ZA", "tz": "Africa/Johannesburg"]),
        ("Simferopol", 44.95, 34.1, ["10m": "RU", "50m": "RU", "110m": "RU", "osm": "RU UA", "josm": "RU UA-43", "tz": "Europe/Simferopol"]),
        ("Pristina", 42.667, 21.166, ["10m": "XK", "50m": "XK", "110m": "XK", "osm": "XK", "josm": "XK", "tz": "Europe/Belgrade"]),
        ("off the Dutch coast", 52.5, 4.45, ["10m": "", "50m": "", "110m": "NL", "osm": "NL", "josm": "NL", "tz": "Europe/Amsterdam"]),
        ("mid-Atlantic", 0, -30, ["10m": "", "50m": "", "110m": "", "osm": "", "josm": "BR", "tz": "Etc/GMT+2"]),
        ("Kashgar", 39.47, 75.99, ["10m": "CN", "50m": "CN", "110m": "CN", "osm": "CN", "josm": "CN CN-XJ", "tz": "Asia/Shanghai Asia/Urumqi"]),
        ("near the South Pole", -89.9, 0, ["10m": "AQ", "50m": "AQ", "110m": "AQ", "osm": "", "josm": "", "tz": "Antarctica/McMurdo"]),
    ]

    func testCountries10m() throws { try check("countries-10m.geojson", key: "10m", label: "iso_a2", known: "known-countries.csv") }
    func testCountries50m() throws { try check("countries-50m.geojson", key: "50m", label: "iso_a2") }
    func testCountries110m() throws { try check("countries-110m.geojson", key: "110m", label: "iso_a2") }
    func testCountriesOSMWithOverlaps() throws { try check("countries-osm.geojson", key: "osm", label: "iso_a2") }
    func testRegionsJOSMNested() throws { try check("regions-josm.geojson", key: "josm", label: "id") }
    func testAdmin1() throws { try check("admin1-50m.geojson", key: "admin1", label: "iso_3166_2") }

    func testTimezones() throws {
        try TestSupport.requireLongTests("The time-zone oracle (8.2 M vertices)")
        let compressed = try TestSupport.sharedFile("timezones.geojson.gz")
        let plain = FileManager.default.temporaryDirectory.appendingPathComponent("gmap-test-timezones-\(getpid()).geojson")
        defer { try? FileManager.default.removeItem(at: plain) }
        let gunzip = Process()
        gunzip.executableURL = URL(fileURLWithPath: "/bin/sh")
        gunzip.arguments = ["-c", "gzip -dc '\(compressed.path)' > '\(plain.path)'"]
        try gunzip.run()
        gunzip.waitUntilExit()
        XCTAssertEqual(gunzip.terminationStatus, 0, "gzip -dc failed")
        try check(plain.path, key: "tz", label: "tzid")
    }

    private func check(_ file: String, key: String, label: String, known: String? = nil) throws {
        let path = file.hasPrefix("/") ? file : try TestSupport.sharedFile(file).path
        let started = Date()
        let (features, labels) = try TestSupport.labelledFeatures(at: path, labelProperty: label)
        let map = try TestSupport.build(features).map
        let built = Date()
        let vertexCount = features.reduce(0) { $0 + $1.polygons.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } } }
        let oracle = BruteForceOracle(features: features, edgesPerBand: 8)
        let points = OracleCheck.points(features, count: Self.pointsPerDataset, seed: key.unicodeScalars.reduce(1) { $0 &* 31 &+ UInt64($1.value) })
        let problems = OracleCheck.disagreements(map: map, oracle: oracle, points: points)
        XCTAssertEqual(problems, [], "\(file): the map disagrees with the brute-force oracle")
        print("\(file): \(features.count) features, \(vertexCount) vertices; built in \(String(format: "%.1f", built.timeIntervalSince(started))) s; \(points.count) points agree with the oracle (\(String(format: "%.1f", Date().timeIntervalSince(built))) s)")

        // The data README's sample lookups, by label (every containing feature, smallest area first).
        for sample in Self.readmeSamples {
            guard let expected = sample.answers[key] else { continue }
            let answers = map.lookupAll(latitude: sample.latitude, longitude: sample.longitude).compactMap { Int($0.id) }.map { labels[$0] }
            XCTAssertEqual(Set(answers), Set(expected.split(separator: " ").map(String.init)), "\(file): \(sample.name)")
        }
        if let known {
            for point in try TestSupport.knownLocations(TestSupport.fixtures.appendingPathComponent(known)) {
                let answer = map.lookup(latitude: point.latitude, longitude: point.longitude).flatMap { Int($0.id) }.map { labels[$0] }
                XCTAssertEqual(answer, point.expected, "\(file): (\(point.latitude), \(point.longitude))")
            }
        }
    }
}
