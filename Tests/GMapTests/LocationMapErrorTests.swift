import GMap
import GMapBuilder
import XCTest
import GMapTestSupport

/// `MapLocationSource(map:)` on maps that are not location maps: the error names what is missing
/// and what the map has; on a location map, `missingLayers` names the optional layers it lacks.
final class LocationMapErrorTests: XCTestCase {
    func testTheShippedWorldMapHasNoRoadLayer() throws {
        let world = try GMap(contentsOf: TestSupport.shippedMap)
        XCTAssertThrowsError(try MapLocationSource(map: world)) { error in
            XCTAssertEqual(error as? LocationMapError, .noRoadLayer(layers: ["countries", "marine", "timezones", "towns", "states"]))
            XCTAssertEqual("\(error)", "the map has no layer named 'roads' (its layers: countries, marine, timezones, towns, states); "
                + "build a location map from OpenStreetMap data: gmap build --osm EXTRACT.osm.pbf -o MAP.gmap")
        }
    }

    func testAMapWithoutALayerTableSaysItHasOneUnnamedLayer() throws {
        let map = try GMap(contentsOf: TestSupport.fixtures.appendingPathComponent("format-1.0-fixtures.gmap").path)
        XCTAssertThrowsError(try MapLocationSource(map: map)) { error in
            XCTAssertEqual(error as? LocationMapError, .noRoadLayer(layers: [""]))
            XCTAssertEqual("\(error)", "the map has no layer named 'roads' (it has one unnamed layer); "
                + "build a location map from OpenStreetMap data: gmap build --osm EXTRACT.osm.pbf -o MAP.gmap")
        }
    }

    func testARoadLayerOfPolygonsIsNotOne() throws {
        var roads = try MapBuilder(options: BuildOptions())
        try roads.add(SourceFeature(id: "A", properties: [], polygons: [[[(0, 0), (1, 0), (1, 1), (0, 1), (0, 0)]]]))
        var layered = LayeredMapBuilder()
        try layered.addLayer(named: MapLocationSource.LayerName.roads, roads)
        let map = try GMap(bytes: try layered.finish().bytes)
        XCTAssertThrowsError(try MapLocationSource(map: map)) { error in
            XCTAssertEqual(error as? LocationMapError, .roadLayerNotLines(kind: .polygons))
            XCTAssertEqual("\(error)", "the map's 'roads' layer holds polygons, not lines; "
                + "build a location map from OpenStreetMap data: gmap build --osm EXTRACT.osm.pbf -o MAP.gmap")
        }
    }

    func testMissingLayersNamesWhatTheSourceCannotAnswer() throws {
        let withPlaces = try MapLocationSource(map: try PlacesAroundTests.smallMap(places: [("Kiosk", "shop=kiosk", 0, 10)]))
        XCTAssertEqual(withPlaces.missingLayers, ["areas", "addresses", "intersections"])
        let bare = try MapLocationSource(map: try PlacesAroundTests.smallMap(places: [], withPlaces: false))
        XCTAssertEqual(bare.missingLayers, ["areas", "places", "addresses", "intersections"])
    }
}
