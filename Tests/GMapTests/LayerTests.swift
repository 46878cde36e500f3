import Foundation
import XCTest
import GMap
import GMapBuilder
import GMapTestSupport

/// Format 2.1: maps of several layers, placemarks, label points and the name index, on fixtures.
final class LayerTests: XCTestCase {
    func testLayersAnswerEachOnTheirOwn() throws {
        let map = try SampleMaps.layered()
        XCTAssertEqual(map.formatVersion.major, 3)
        XCTAssertEqual(map.formatVersion.minor, 5, "banded polygons")
        XCTAssertEqual(map.layerNames, ["country", "state", "timezone"])
        XCTAssertEqual(map.layerName, "country")
        XCTAssertEqual(map.lookup(latitude: 32.5, longitude: -92.5)?.id, "GI", "the map itself reads the first layer")
        XCTAssertEqual(map.layer(named: "state")?.lookup(latitude: 32.5, longitude: -92.5)?.id, nil)
        XCTAssertEqual(map.layer(named: "state")?.lookup(latitude: 31, longitude: -99)?.id, "US-TX")
        XCTAssertEqual(map.layer(named: "timezone")?.featureCount, 1)
        XCTAssertNil(map.layer(named: "nope"))
        XCTAssertEqual(map.layer(named: "state"), map.layer(at: 1), "the same layer opened twice is the same map")
        XCTAssertNotEqual(map.layer(named: "state"), map)
        XCTAssertEqual(map.layers.map(\.layerName), map.layerNames)
        XCTAssertTrue(MapVerifier(map: map).isSound, "\(MapVerifier(map: map).problems)")
    }

    func testPlacemarkFillsTheFamiliarFieldsSmallestFirst() throws {
        let map = try SampleMaps.layered()
        let placemark = map.placemark(latitude: 32.5, longitude: -92.5)
        XCTAssertEqual(placemark.answers.map(\.layer), ["country", "state", "timezone"])
        XCTAssertEqual(placemark.features(in: "country").map(\.id), ["GI", "US"], "overlapping answers, smallest first")
        XCTAssertEqual(placemark.isoCountryCode, "GI")
        XCTAssertEqual(placemark.country, "Gíbraltar")
        XCTAssertEqual(placemark.timeZone, "America/Chicago")
        XCTAssertNil(placemark.administrativeArea)

        let dallas = map.placemark(latitude: 31, longitude: -99)
        XCTAssertEqual(dallas.isoCountryCode, "US")
        XCTAssertEqual(dallas.country, "United States")
        XCTAssertEqual(dallas.administrativeArea, "Texas")
        XCTAssertEqual(dallas.administrativeAreaCode, "US-TX")
        XCTAssertEqual(dallas.features(in: "state").first, map.layer(named: "state")?.lookup(latitude: 31, longitude: -99))
        XCTAssertTrue(map.placemark(latitude: 0, longitude: 0).isEmpty)
        XCTAssertTrue(map.placemark(latitude: .nan, longitude: 0).isEmpty)
    }

    func testAsyncConvenience() async throws {
        let map = try SampleMaps.layered()
        let placemarks = await map.reverseGeocode(latitude: 31, longitude: -99)
        XCTAssertEqual(placemarks.map(\.administrativeAreaCode), ["US-TX"])
        let none = await map.reverseGeocode(latitude: 0, longitude: 0)
        XCTAssertTrue(none.isEmpty)
    }

    func testFindByIdOrNameIgnoringCaseAndAccents() throws {
        let map = try SampleMaps.layered()
        XCTAssertEqual(map.find("GIBRALTAR").map(\.id), ["GI"])
        XCTAssertEqual(map.find("gíbráltàr").map(\.id), ["GI"])
        XCTAssertEqual(map.find("gi").map(\.id), ["GI"], "the id matches exactly, the name by prefix: listed once")
        XCTAssertEqual(map.find("united").map(\.id), ["US"])
        XCTAssertEqual(map.find("united", matching: .exact).map(\.id), [])
        XCTAssertEqual(map.find("us", layer: "country").map(\.id), ["US"])
        XCTAssertEqual(map.find("us", layer: "state").map(\.id), ["US-TX"], "prefix of the id")
        XCTAssertEqual(map.find("america/chicago", layer: "timezone").map(\.id), ["America/Chicago"])
        XCTAssertEqual(map.find("Chicago", matching: .exact).map(\.id), ["America/Chicago"], "the part after the last slash")
        XCTAssertEqual(map.find(""), [])
        XCTAssertEqual(map.find("x"), [])
    }

    func testNameFolding() {
        func fold(_ text: String) -> String { String(decoding: NameFolding.fold(text), as: UTF8.self) }
        XCTAssertEqual(fold("São Tomé and Príncipe"), "sao tome and principe")
        XCTAssertEqual(fold("Ærøskøbing Łódź Straße Þingvellir Œuvre"), "aeroskobing lodz strasse thingvellir oeuvre")
        XCTAssertEqual(fold("Sa\u{0303}o"), "sao", "decomposed accents are dropped")
        XCTAssertEqual(fold("МОСКВА Ελλάδα"), "москва ελλάδα")
        XCTAssertEqual(fold("東京"), "東京")
        XCTAssertTrue(NameFolding.isNameKey("NAME_LONG"))
        XCTAssertTrue(NameFolding.isNameKey("name:fr"))
        XCTAssertTrue(NameFolding.isNameKey("brk_name"))
        XCTAssertFalse(NameFolding.isNameKey("names"))
        XCTAssertFalse(NameFolding.isNameKey("iso_a2"))
    }

    /// The label point of a C-shaped feature lies inside it, where its centroid would not.
    func testLabelPointOfACShapeIsInside() throws {
        let map = try TestSupport.build(geoJSON: TestSupport.fixtures.appendingPathComponent("c-shape.geojson").path).map
        let feature = try XCTUnwrap(map.feature(at: 0))
        let label = try XCTUnwrap(feature.labelPoint)
        XCTAssertEqual(map.lookup(latitude: label.latitude, longitude: label.longitude), feature)
        XCTAssertNil(map.lookup(latitude: 5, longitude: 25), "the middle of the box is outside the C")
    }

    func testEveryFixtureLabelPointIsInside() throws {
        let map = try TestSupport.build(geoJSON: TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson").path).map
        for feature in map.features {
            guard let label = feature.labelPoint else { XCTFail("\(feature.id) has no label point"); continue }
            XCTAssertTrue(map.lookupAll(latitude: label.latitude, longitude: label.longitude).contains(feature), feature.id)
            XCTAssertEqual(map.find(feature.id).first, feature, "find(\(feature.id))")
        }
    }

    /// Files before 2.1 open as one unnamed layer, without label points; find scans them.
    func testOlderFilesAreOneUnnamedLayer() throws {
        for name in ["format-1.0-fixtures.gmap", "spec-example.gmap"] {
            let map = try GMap(contentsOf: TestSupport.fixtures.appendingPathComponent(name).path)
            XCTAssertEqual(map.layerNames, [""], name)
            XCTAssertEqual(map.layers.count, 1)
            XCTAssertEqual(map.layer(at: 0), map)
            XCTAssertNil(map.features.first?.labelPoint)
            let first = try XCTUnwrap(map.features.first)
            XCTAssertEqual(map.find(first.id).first, first, name)
            XCTAssertEqual(map.placemark(latitude: 0, longitude: 0).answers.map(\.layer), [""])
        }
    }

    /// `writesLayerIndexes = false` writes the 2.0 file the spec's worked example shows, byte for byte.
    func testFormat20BuildIsUnchanged() throws {
        let bytes = try TestSupport.build(geoJSON: TestSupport.fixtures.appendingPathComponent("spec-example.geojson").path) { options in
            options.quantizer = Quantizer(unitsPerDegree: 100)!
            options.tileSize = 500
            options.maximumEdgesPerTile = 4
            options.splitFactor = 2
            options.maximumDepth = 1
            options.idProperty = "name"
            options.writesLayerIndexes = false
            options.formatMajorVersion = 2
        }.bytes
        let map = try GMap(bytes: bytes)
        XCTAssertEqual(map.formatVersion.major, 2)
        XCTAssertEqual(map.formatVersion.minor, 0)
        XCTAssertFalse(map.sections.contains { ["LAYR", "LABL", "NAME"].contains($0.tag) })
    }

    func testLayerNamesAreChecked() throws {
        var map = LayeredMapBuilder()
        try map.addLayer(named: "a", SampleMaps.builder([SampleMaps.square("A", west: 0, south: 0, size: 1)]))
        XCTAssertThrowsError(try map.addLayer(named: "a", SampleMaps.builder([SampleMaps.square("B", west: 0, south: 0, size: 1)])))
        XCTAssertThrowsError(try map.addLayer(named: "", SampleMaps.builder([SampleMaps.square("B", west: 0, south: 0, size: 1)])))
        for index in 1..<FormatLayout.maximumLayerCount {
            try map.addLayer(named: "layer\(index)", SampleMaps.builder([SampleMaps.square("L\(index)", west: Double(index), south: 0, size: 1)]))
        }
        XCTAssertThrowsError(try map.addLayer(named: "one too many", SampleMaps.builder([SampleMaps.square("X", west: 0, south: 0, size: 1)])))
        let full = try GMap(bytes: map.finish().bytes)
        XCTAssertEqual(full.layerNames.count, FormatLayout.maximumLayerCount)
        XCTAssertEqual(full.layer(named: "layer9")?.lookup(latitude: 0.5, longitude: 9.5)?.id, "L9")
        XCTAssertTrue(MapVerifier(map: full).isSound)
    }
}
