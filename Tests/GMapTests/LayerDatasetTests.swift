import Foundation
import XCTest
import GMap
import GMapBuilder
import GMapTestSupport

/// Layers on the real datasets (../shared/data, or $GMAP_SHARED_DATA; skipped with a message when
/// absent): a map of countries-10m, admin1-50m and timezones answers in each layer exactly as the
/// single-layer maps do; every label point lies inside its feature; `find` on every feature's own
/// name returns that feature first.
final class LayerDatasetTests: XCTestCase {
    /// Random points compared per layer (uniform on the sphere). `GMAP_LAYER_POINTS` overrides.
    static let points = Int(ProcessInfo.processInfo.environment["GMAP_LAYER_POINTS"] ?? "") ?? 200_000

    static let inputs: [(layer: String, file: String, id: String)] = [
        ("country", "countries-10m.geojson", "iso_a2"),
        ("state", "admin1-50m.geojson", "iso_3166_2"),
        ("timezone", "timezones.geojson.gz", "tzid"),
    ]

    private func builder(_ file: URL, id: String) throws -> MapBuilder {
        var options = BuildOptions()
        options.idProperty = id
        var builder = try MapBuilder(options: options)
        try MapInput.read(path: file.path, into: &builder)
        return builder
    }

    func testLayeredMapAnswersAsTheSingleLayerMaps() throws {
        try TestSupport.requireLongTests("The layered map of countries, states and time zones")
        let files = try Self.inputs.map { try TestSupport.sharedFile($0.file) }
        let started = Date()
        var layered = LayeredMapBuilder()
        var singles: [GMap] = []
        for (input, file) in zip(Self.inputs, files) {
            let builder = try builder(file, id: input.id)
            try layered.addLayer(named: input.layer, builder)
            singles.append(try GMap(bytes: builder.finish().bytes))
        }
        let map = try GMap(bytes: layered.finish().bytes)
        let built = Date()
        XCTAssertEqual(map.layerNames, Self.inputs.map(\.layer))
        var random = SplitMix64(state: 2026)
        var differences = 0, answered = [Int](repeating: 0, count: singles.count)
        for _ in 0..<Self.points {
            let latitude = asin(Double.random(in: -1...1, using: &random)) * 180 / .pi
            let longitude = Double.random(in: -180...180, using: &random)
            let placemark = map.placemark(latitude: latitude, longitude: longitude)
            for (index, single) in singles.enumerated() {
                let expected = single.lookupAll(latitude: latitude, longitude: longitude).map(\.id)
                let actual = placemark.answers[index].features.map(\.id)
                if expected != actual {
                    differences += 1
                    if differences <= 10 { XCTFail("(\(latitude), \(longitude)) layer \(Self.inputs[index].layer): \(actual) ≠ \(expected)") }
                }
                if !expected.isEmpty { answered[index] += 1 }
            }
        }
        XCTAssertEqual(differences, 0)
        let dallas = map.placemark(latitude: 32.78, longitude: -96.80)
        XCTAssertEqual([dallas.isoCountryCode, dallas.administrativeAreaCode, dallas.timeZone], ["US", "US-TX", "America/Chicago"])
        XCTAssertEqual(dallas.administrativeArea, "Texas")
        print("layers: \(Self.points) random points × \(singles.count) layers agree with the single-layer maps (answers per layer \(answered)); built in \(String(format: "%.1f", built.timeIntervalSince(started))) s, compared in \(String(format: "%.1f", Date().timeIntervalSince(built))) s")
    }

    func testLabelPointsAndFindOnCountriesAndAdmin1() throws {
        for (file, id) in [("countries-10m.geojson", "iso_a2"), ("admin1-50m.geojson", "iso_3166_2")] {
            let url = try TestSupport.sharedFile(file)
            var options = BuildOptions()
            options.idProperty = id
            let map = try TestSupport.build(geoJSON: url.path) { $0 = options }.map
            var outside: [String] = [], missing = 0, notFirst: [String] = [], sharedNames = 0
            for feature in map.features {
                if let label = feature.labelPoint {
                    if !map.lookupAll(latitude: label.latitude, longitude: label.longitude).contains(feature) { outside.append(feature.id) }
                } else {
                    missing += 1
                }
                guard let name = feature.property("name"), !name.isEmpty else { continue }
                let found = map.find(name)
                if found.first != feature {
                    // Several features with the same name: it must be among the exact matches, which come first.
                    let exact = map.find(name, matching: .exact)
                    if exact.count > 1, exact.contains(feature) { sharedNames += 1 } else { notFirst.append("\(feature.id) \(name)") }
                }
            }
            XCTAssertEqual(outside, [], "\(file): label points outside their feature")
            XCTAssertEqual(missing, 0, "\(file): features without a label point")
            XCTAssertEqual(notFirst, [], "\(file): find(name) does not return the feature first")
            print("\(file): \(map.featureCount) label points inside their features; find(name) returns each feature first (\(sharedNames) share their name with another, and are among its exact matches)")
        }
    }

    /// Issue #14: Côte d'Ivoire is found whatever the punctuation, by any word, and as Ivory Coast
    /// (Natural Earth's `admin`) when the build keeps it.
    func testFindCoteDIvoireOnCountries10m() throws {
        let url = try TestSupport.sharedFile("countries-10m.geojson")
        let map = try TestSupport.build(geoJSON: url.path) { options in
            options.idProperty = "iso_a2"
            options.keptProperties = ["name", "name_long", "admin"]
        }.map
        for query in ["cote d ivoire", "côte d'ivoire", "ivoire", "ivory coast", "Ivory", "cote d"] {
            XCTAssertEqual(map.find(query).first?.id, "CI", query)
        }
        XCTAssertEqual(map.find("ivory coast", matching: .exact).map(\.id), ["CI"])
        XCTAssertEqual(map.find("guinea").map(\.id).first, "GN", "the exact match first")
        XCTAssertEqual(Set(map.find("guinea").map(\.id)), ["GN", "GW", "GQ", "PG"])
    }
}
