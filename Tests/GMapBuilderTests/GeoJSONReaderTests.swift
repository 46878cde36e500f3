import GMapBuilder
import GMapCodecs
import XCTest
import GMap

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
import GMapTestSupport
#endif

final class GeoJSONReaderTests: XCTestCase {
    // MARK: - Helpers

    private func readAll(_ text: String, chunkSize: Int = 1 << 20) throws -> [GeoJSONFeature] {
        try readAll(bytes: Array(text.utf8), chunkSize: chunkSize)
    }

    private func readAll(bytes: [UInt8], chunkSize: Int = 1 << 20) throws -> [GeoJSONFeature] {
        var reader = GeoJSONReader(bytes: bytes, chunkSize: chunkSize)
        var features: [GeoJSONFeature] = []
        let n = try reader.forEachFeature { features.append($0) }
        XCTAssertEqual(n, features.count)
        return features
    }

    /// Reads `text`, expecting a GeoJSONError; returns it (or a placeholder after recording a failure).
    private func readError(_ text: String, chunkSize: Int = 1 << 20, file: StaticString = #filePath, line: UInt = #line) -> GeoJSONError {
        var reader = GeoJSONReader(bytes: Array(text.utf8), chunkSize: chunkSize)
        do {
            _ = try reader.forEachFeature { _ in }
            XCTFail("expected an error", file: file, line: line)
        } catch let error as GeoJSONError {
            return error
        } catch {
            XCTFail("unexpected error type \(error)", file: file, line: line)
        }
        return GeoJSONError(message: "<none>")
    }

    private func collection(_ features: String...) -> String {
        "{\"type\":\"FeatureCollection\",\"features\":[\(features.joined(separator: ","))]}"
    }

    private func polygonFeature(_ coordinates: String, properties: String = "{}") -> String {
        "{\"type\":\"Feature\",\"properties\":\(properties),\"geometry\":{\"type\":\"Polygon\",\"coordinates\":\(coordinates)}}"
    }

    private let square = "[[[0,0],[1,0],[1,1],[0,1],[0,0]]]"

    private func p(_ lon: Double, _ lat: Double) -> GeoJSONPosition {
        GeoJSONPosition(longitude: lon, latitude: lat)
    }

    private func polygons(_ f: GeoJSONFeature) -> [[[GeoJSONPosition]]] {
        if case .polygons(let p) = f.geometry { return p }
        XCTFail("feature \(f.index) has geometry \(f.geometry)")
        return []
    }

    private func property(_ f: GeoJSONFeature, _ key: String) -> JSONValue? {
        f.properties.first { $0.key == key }?.value
    }

    // MARK: - Valid input

    func testSinglePolygon() throws {
        let features = try readAll(collection(polygonFeature(square, properties: "{\"name\":\"Square\"}")))
        XCTAssertEqual(features.count, 1)
        XCTAssertEqual(features[0].index, 0)
        XCTAssertNil(features[0].id)
        XCTAssertEqual(polygons(features[0]), [[[p(0, 0), p(1, 0), p(1, 1), p(0, 1), p(0, 0)]]])
        XCTAssertEqual(features[0].properties.count, 1)
        XCTAssertEqual(features[0].properties[0].key, "name")
        XCTAssertEqual(features[0].properties[0].value, .string("Square"))
    }

    func testMultiPolygonWithHolesAndAltitude() throws {
        let doc = """
            {
              "type": "FeatureCollection",
              "features": [
                {
                  "type": "Feature",
                  "properties": null,
                  "geometry": {
                    "type": "MultiPolygon",
                    "coordinates": [
                      [ [ [-10, -10, 5], [10, -10, 5], [10, 10, 5], [-10, 10, 5], [-10, -10, 5] ],
                        [ [-1, -1], [1, -1], [1, 1], [-1, -1] ] ],
                      [ [ [170.5, 80.25], [180, 80.25], [180, 90], [170.5, 80.25] ] ]
                    ]
                  }
                }
              ]
            }
            """
        let features = try readAll(doc)
        XCTAssertEqual(features.count, 1)
        let polys = polygons(features[0])
        XCTAssertEqual(polys.count, 2)
        XCTAssertEqual(polys[0].count, 2)
        XCTAssertEqual(polys[0][0], [p(-10, -10), p(10, -10), p(10, 10), p(-10, 10), p(-10, -10)])
        XCTAssertEqual(polys[0][1], [p(-1, -1), p(1, -1), p(1, 1), p(-1, -1)])
        XCTAssertEqual(polys[1], [[p(170.5, 80.25), p(180, 80.25), p(180, 90), p(170.5, 80.25)]])
        XCTAssertTrue(features[0].properties.isEmpty)
    }

    func testEmptyCollectionsAndPolygons() throws {
        XCTAssertEqual(try readAll("{\"type\":\"FeatureCollection\",\"features\":[]}").count, 0)
        XCTAssertEqual(try readAll("\u{FEFF}{\"features\":[],\"type\":\"FeatureCollection\"}\n").count, 0)
        let f = try readAll(collection(
            "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"MultiPolygon\",\"coordinates\":[]}}",
            "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[]}}"))
        XCTAssertEqual(f[0].geometry, .polygons([]))
        XCTAssertEqual(f[1].geometry, .polygons([[]]))
    }

    func testMembersInAnyOrder() throws {
        let doc = """
            {"bbox":[0,0,1,1],"features":[
              {"geometry":{"coordinates":\(square),"bbox":[1,2],"type":"Polygon"},"id":7,"foo":{"x":[1,{"y":null}]},"properties":{"a":1},"type":"Feature"},
              {"properties":{"b":true},"type":"Feature","geometry":{"type":"MultiPolygon","coordinates":[\(square),\(square)]}}
            ],"name":"test","crs":{"type":"name","properties":{"name":"EPSG:4326"}},"type":"FeatureCollection"}
            """
        let features = try readAll(doc)
        XCTAssertEqual(features.count, 2)
        XCTAssertEqual(features[0].id, .number("7"))
        XCTAssertEqual(property(features[0], "a"), .number("1"))
        XCTAssertEqual(polygons(features[0]).count, 1)
        XCTAssertEqual(features[1].index, 1)
        XCTAssertEqual(property(features[1], "b"), .bool(true))
        XCTAssertEqual(polygons(features[1]).count, 2)
    }

    func testCoordinatesBeforeType() throws {
        let doc = collection(
            "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"coordinates\":\(square),\"type\":\"Polygon\"}}",
            "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"coordinates\":[\(square), [[[5,5],[6,5],[6,6],[5,5]]]],\"type\":\"MultiPolygon\"}}",
            "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"coordinates\":[[1,2],[3,4]],\"type\":\"LineString\"}}")
        for chunk in [1, 2, 3, 5, 8, 1 << 20] {
            let features = try readAll(doc, chunkSize: chunk)
            XCTAssertEqual(features.count, 3)
            XCTAssertEqual(polygons(features[0]), [[[p(0, 0), p(1, 0), p(1, 1), p(0, 1), p(0, 0)]]])
            XCTAssertEqual(polygons(features[1]).count, 2)
            XCTAssertEqual(polygons(features[1])[1], [[p(5, 5), p(6, 5), p(6, 6), p(5, 5)]])
            XCTAssertEqual(features[2].geometry, .lines([[p(1, 2), p(3, 4)]]))
        }
    }

    func testCoordinatesBeforeTypeErrorLocation() {
        let doc = "{\"type\":\"FeatureCollection\",\"features\":[\n{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"coordinates\":[[[0,0],[1,0],\n[1,95],[0,1],[0,0]]],\"type\":\"Polygon\"}}]}"
        for chunk in [1, 4, 1 << 20] {
            let error = readError(doc, chunkSize: chunk)
            XCTAssertEqual(error.message, "latitude 95 is outside [-90, 90]")
            XCTAssertEqual(error.featureIndex, 0)
            XCTAssertEqual(error.line, 3)
            let offset = Array(doc.utf8).firstIndex(of: UInt8(ascii: "9"))!
            XCTAssertEqual(error.byteOffset, offset)
        }
    }

    func testStringEscapesAndUnicode() throws {
        let props = #"{"esc":"q\"b\\s\/b\bf\fn\nr\rt\t","u":"\u00e9\u4E2D\ud83d\ude00","raw":"Zürich 東京 🌍","k\u00e9y":""}"#
        let features = try readAll(collection(polygonFeature(square, properties: props)))
        let f = features[0]
        XCTAssertEqual(property(f, "esc"), .string("q\"b\\s/b\u{8}f\u{C}n\nr\rt\t"))
        XCTAssertEqual(property(f, "u"), .string("é中😀"))
        XCTAssertEqual(property(f, "raw"), .string("Zürich 東京 🌍"))
        XCTAssertEqual(property(f, "kéy"), .string(""))
        XCTAssertEqual(f.properties.map(\.key), ["esc", "u", "raw", "kéy"])
    }

    func testNumberTextPreservedAndOtherValues() throws {
        let props = """
            {"a":-99,"b":1.5e3,"c":0.10,"d":-0,"e":1E+2,"f":123456789012345678901234567890,
             "g":null,"h":false,"i":true,"j":[ 1 , "x\\"y" , { "k" : null , "l":[]} ],"m":{ },"n":"\\u001f"}
            """
        let f = try readAll(collection(polygonFeature(square, properties: props)))[0]
        XCTAssertEqual(property(f, "a"), .number("-99"))
        XCTAssertEqual(property(f, "b"), .number("1.5e3"))
        XCTAssertEqual(property(f, "c"), .number("0.10"))
        XCTAssertEqual(property(f, "d"), .number("-0"))
        XCTAssertEqual(property(f, "e"), .number("1E+2"))
        XCTAssertEqual(property(f, "f"), .number("123456789012345678901234567890"))
        XCTAssertEqual(property(f, "g"), .null)
        XCTAssertEqual(property(f, "h"), .bool(false))
        XCTAssertEqual(property(f, "i"), .bool(true))
        XCTAssertEqual(property(f, "j"), .other(#"[1,"x\"y",{"k":null,"l":[]}]"#))
        XCTAssertEqual(property(f, "m"), .other("{}"))
        XCTAssertEqual(property(f, "n"), .string("\u{1F}"))
        XCTAssertEqual(f.properties.count, 12)
    }

    func testNullAndAbsentPropertiesAndIDs() throws {
        let features = try readAll(collection(
            "{\"type\":\"Feature\",\"id\":\"abc\",\"properties\":null,\"geometry\":{\"type\":\"Polygon\",\"coordinates\":\(square)}}",
            "{\"type\":\"Feature\",\"id\":-12.5,\"geometry\":{\"type\":\"Polygon\",\"coordinates\":\(square)}}",
            "{\"type\":\"Feature\",\"id\":null,\"properties\":{},\"geometry\":null}"))
        XCTAssertEqual(features[0].id, .string("abc"))
        XCTAssertTrue(features[0].properties.isEmpty)
        XCTAssertEqual(features[1].id, .number("-12.5"))
        XCTAssertTrue(features[1].properties.isEmpty)
        XCTAssertNil(features[2].id)
        XCTAssertEqual(features[2].geometry, .unsupported("null"))
    }

    func testUnsupportedGeometryTypes() throws {
        let doc = collection(
            "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]}}",
            "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"MultiPoint\",\"coordinates\":[[1,2],[3,4]]}}",
            "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"LineString\",\"coordinates\":[[1,2],[3,4]]}}",
            "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"MultiLineString\",\"coordinates\":[[[1,2],[3,4]]]}}",
            "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"GeometryCollection\",\"geometries\":[{\"type\":\"Point\",\"coordinates\":[1,2]}]}}",
            "{\"type\":\"Feature\",\"properties\":{},\"geometry\":null}",
            polygonFeature(square))
        let features = try readAll(doc)
        XCTAssertEqual(features.count, 7)
        var unsupported: [String: Int] = [:]
        for f in features {
            if case .unsupported(let t) = f.geometry { unsupported[t, default: 0] += 1 }
        }
        XCTAssertEqual(unsupported, ["GeometryCollection": 1, "null": 1])
        XCTAssertEqual(features[0].geometry, .points([p(1, 2)]))
        XCTAssertEqual(features[1].geometry, .points([p(1, 2), p(3, 4)]))
        XCTAssertEqual(features[2].geometry, .lines([[p(1, 2), p(3, 4)]]))
        XCTAssertEqual(features[3].geometry, .lines([[p(1, 2), p(3, 4)]]))
        XCTAssertEqual(polygons(features[6]).count, 1)
        // Coordinates of unsupported types are still validated as JSON.
        let error = readError(collection("{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"GeometryCollection\",\"coordinates\":[1,2,]}}"))
        XCTAssertEqual(error.message, "expected a value")
        XCTAssertEqual(error.featureIndex, 0)
        // Points and lines are read as positions.
        let point = readError(collection("{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2,]}}"))
        XCTAssertEqual(point.message, "expected a number in position")
        let line = readError(collection("{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"LineString\",\"coordinates\":[[1,2],[200,3]]}}"))
        XCTAssertEqual(line.message, "longitude 200 is outside [-180, 180]")
    }

    func testNumberConversionIsExact() throws {
        var rng = SplitMix64(seed: 42)
        var texts: [(String, String)] = []
        for i in 0..<3000 {
            let lon = Double(rng.next() % 360_000_000_000) / 1e9 - 180
            let lat = Double(rng.next() % 180_000_000_000) / 1e9 - 90
            var lonText = "\(lon)"
            var latText = "\(lat)"
            switch i % 4 {
            case 0: lonText = String(lonText.prefix(19)); latText = String(latText.prefix(19))
            case 1: lonText += "0000000001"; latText += "9"
            case 2: lonText = "\(Double(Int(lon * 1e7)) / 1e7)"; latText = "\(Int(lat))e0"
            default: break
            }
            if lonText.contains("e-") || latText.contains("e-") { continue }
            texts.append((lonText, latText))
        }
        let ring = texts.map { "[\($0.0),\($0.1)]" }.joined(separator: ",")
        let features = try readAll(collection(polygonFeature("[[\(ring)]]")))
        let parsed = polygons(features[0])[0][0]
        XCTAssertEqual(parsed.count, texts.count)
        for (position, text) in zip(parsed, texts) {
            XCTAssertEqual(position.longitude, Double(text.0)!, text.0)
            XCTAssertEqual(position.latitude, Double(text.1)!, text.1)
        }
    }

    func testBodyErrorPropagatesAndRerun() throws {
        struct Stop: Error {}
        let doc = collection(polygonFeature(square), polygonFeature(square))
        var reader = GeoJSONReader(bytes: Array(doc.utf8))
        var seen = 0
        XCTAssertThrowsError(try reader.forEachFeature { _ in
            seen += 1
            throw Stop()
        }) { XCTAssertTrue($0 is Stop) }
        XCTAssertEqual(seen, 1)
        XCTAssertEqual(try reader.forEachFeature { _ in }, 2)
    }

    // MARK: - Errors

    private func assertError(
        _ doc: String, _ message: String, feature: Int?, file: StaticString = #filePath, line: UInt = #line
    ) {
        let error = readError(doc, file: file, line: line)
        XCTAssertEqual(error.message, message, file: file, line: line)
        XCTAssertEqual(error.featureIndex, feature, "feature index", file: file, line: line)
    }

    func testCoordinateErrors() {
        let ok = polygonFeature(square)
        assertError(collection(ok, polygonFeature("[[[0,0],[1,0] [1,1],[0,0]]]")), "expected ',' or ']' in coordinates", feature: 1)
        assertError(collection(polygonFeature("[[[0,0],[1],[1,1],[0,0]]]")), "position has 1 number, needs at least 2", feature: 0)
        assertError(collection(polygonFeature("[[[0,0],[],[1,1],[0,0]]]")), "position has 0 numbers, needs at least 2", feature: 0)
        assertError(collection(ok, ok, polygonFeature("[[[0,0],[200.5,0],[1,1],[0,0]]]")), "longitude 200.5 is outside [-180, 180]", feature: 2)
        assertError(collection(polygonFeature("[[[0,0],[-180.000001,0],[1,1],[0,0]]]")), "longitude -180.000001 is outside [-180, 180]", feature: 0)
        assertError(collection(polygonFeature("[[[0,0],[1,-90.5],[1,1],[0,0]]]")), "latitude -90.5 is outside [-90, 90]", feature: 0)
        assertError(collection(polygonFeature("[[[0,0],[NaN,0],[1,1],[0,0]]]")), "coordinate is not a number: NaN", feature: 0)
        assertError(collection(polygonFeature("[[[0,0],[1,-Infinity],[1,1],[0,0]]]")), "coordinate is not a number: -Infinity", feature: 0)
        assertError(collection(polygonFeature("[[[0,0],[1,\"2\"],[1,1],[0,0]]]")), "coordinate is a string, not a number", feature: 0)
        assertError(collection(polygonFeature("[[[0,0],[1,null],[1,1],[0,0]]]")), "coordinate is not a number: null", feature: 0)
        assertError(collection(polygonFeature("[[[0,0],[1,1e400],[1,1],[0,0]]]")), "latitude 1e400 is outside [-90, 90]", feature: 0)
        assertError(collection(polygonFeature("[[[0,0],[1,1],[0,0]]]")), "ring 0 of polygon 0 has 3 positions, needs at least 4", feature: 0)
        assertError(
            collection(ok, "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"MultiPolygon\",\"coordinates\":[\(square),[[[0,0],[1,0],[1,1],[0,0]],[]]]}}"),
            "ring 1 of polygon 1 has 0 positions, needs at least 4", feature: 1)
        assertError(collection(polygonFeature("[[0,0],[1,0],[1,1],[0,0]]")), "expected '[' to start a position", feature: 0)
        assertError(collection(polygonFeature("null")), "expected '[' to start polygon 0", feature: 0)
    }

    func testFeatureAndGeometryErrors() {
        assertError(collection("{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Circle\",\"coordinates\":[]}}"), "unknown geometry type \"Circle\"", feature: 0)
        assertError(collection(polygonFeature(square), "{\"type\":\"Feature\",\"properties\":{}}"), "feature 1 has no \"geometry\" member", feature: 1)
        assertError(collection("{\"properties\":{},\"geometry\":null}"), "feature 0 has no \"type\" member", feature: 0)
        assertError(collection("{\"type\":\"Point\",\"properties\":{},\"geometry\":null}"), "feature type must be \"Feature\", found \"Point\"", feature: 0)
        assertError(collection("{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"coordinates\":[]}}"), "geometry has no \"type\" member", feature: 0)
        assertError(collection("{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Polygon\"}}"), "Polygon geometry has no \"coordinates\" member", feature: 0)
        assertError(collection("{\"type\":\"Feature\",\"properties\":[],\"geometry\":null}"), "feature \"properties\" must be an object or null", feature: 0)
        assertError(collection("{\"type\":\"Feature\",\"properties\":{},\"geometry\":7}"), "feature \"geometry\" must be an object or null", feature: 0)
        assertError(collection("{\"type\":\"Feature\",\"id\":[1],\"properties\":{},\"geometry\":null}"), "feature \"id\" must be a string or a number", feature: 0)
        assertError(collection("[]"), "expected a feature object", feature: 0)
    }

    func testTopLevelErrors() {
        assertError("{\"type\":\"Feature\",\"properties\":{},\"geometry\":null}", "top-level type must be FeatureCollection", feature: nil)
        assertError("{\"features\":[]}", "top-level object has no \"type\" member", feature: nil)
        assertError("{\"type\":\"FeatureCollection\"}", "top-level object has no \"features\" member", feature: nil)
        assertError("{\"type\":\"FeatureCollection\",\"features\":[]} x", "unexpected data after the top-level object", feature: nil)
        assertError("{\"type\":\"FeatureCollection\",\"features\":[]}{}", "unexpected data after the top-level object", feature: nil)
        assertError("[]", "top-level value must be an object", feature: nil)
        assertError("", "empty input: expected a FeatureCollection object", feature: nil)
        assertError("{\"type\":\"FeatureCollection\",\"features\":{}}", "\"features\" must be an array", feature: nil)
        // A wrong type after the features: features are delivered, then it fails.
        var reader = GeoJSONReader(bytes: Array("{\"features\":[\(polygonFeature(square))],\"type\":\"Topology\"}".utf8))
        var seen = 0
        XCTAssertThrowsError(try reader.forEachFeature { _ in seen += 1 }) {
            XCTAssertEqual(($0 as? GeoJSONError)?.message, "top-level type must be FeatureCollection")
        }
        XCTAssertEqual(seen, 1)
    }

    func testJSONSyntaxErrors() {
        func props(_ p: String) -> String { collection(polygonFeature(square, properties: p)) }
        assertError(props(#"{"a":"\ud800"}"#), "lone surrogate \\ud800 in string", feature: 0)
        assertError(props(#"{"a":"\udc00x"}"#), "lone surrogate \\udc00 in string", feature: 0)
        assertError(props(#"{"a":"\ud800\u0041"}"#), "lone surrogate \\ud800 in string", feature: 0)
        assertError(props(#"{"a":"\x"}"#), "invalid escape '\\x' in string", feature: 0)
        assertError(props(#"{"a":"\u12G4"}"#), "invalid \\u escape in string", feature: 0)
        assertError(props("{\"a\":\"tab\there\"}"), "control character 0x09 in string", feature: 0)
        for bad in ["01", "1.", ".5", "-", "1e", "1e+", "+1", "1.2.3", "--1", "0x10"] {
            let error = readError(props("{\"a\":\(bad)}"))
            XCTAssertEqual(error.featureIndex, 0, bad)
            XCTAssertFalse(error.message.isEmpty, bad)
        }
        assertError(props("{\"a\":01}"), "invalid number '01'", feature: 0)
        assertError(props("{\"a\":tru}"), "invalid literal", feature: 0)
        assertError(props("{\"a\":1,}"), "expected a member name string in properties", feature: 0)
        assertError(props("{\"a\" 1}"), "expected ':' after member name in properties", feature: 0)
        assertError(props("{\"a\":[1 2]}"), "expected ',' or ']' in array", feature: 0)
        assertError(props("{\"a\":{\"b\":1 \"c\":2}}"), "expected ',' or '}' in object", feature: 0)
        assertError(props("{\"a\":[1,]}"), "expected a value", feature: 0)
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        assertError(props("{\"a\":\(deep)}"), "nesting deeper than 512 levels", feature: 0)
        XCTAssertEqual(try readAll(props("{\"a\":\(String(repeating: "[", count: 500))\(String(repeating: "]", count: 500))}")).count, 1)
    }

    func testErrorLocationAndDescription() {
        let doc = "{\"type\":\"FeatureCollection\",\"features\":[\n\(polygonFeature(square)),\n\(polygonFeature("[[[0,0],[1,0],[1,1] [0,0]]]"))\n]}"
        let error = readError(doc)
        let offset = doc.utf8.count - Array(doc.utf8.reversed()).firstIndex(of: UInt8(ascii: "["))! - 1
        XCTAssertEqual(error.message, "expected ',' or ']' in coordinates")
        XCTAssertEqual(error.featureIndex, 1)
        XCTAssertEqual(error.line, 3)
        XCTAssertEqual(error.byteOffset, offset)
        XCTAssertEqual(error.description, "feature 1, line 3, byte \(offset): expected ',' or ']' in coordinates")
        let top = readError("{}\n\n x")
        XCTAssertEqual(top.description, "line 3, byte 5: unexpected data after the top-level object")
    }

    // MARK: - Robustness

    func testEveryTruncationFails() throws {
        let doc = """
            \u{FEFF}{"type":"FeatureCollection","name":"t","features":[
            {"type":"Feature","id":"x\\u00e9","properties":{"a":[1,{"b":"c\\n"}],"n":-1.5e3,"t":true,"z":null},
             "geometry":{"coordinates":[[[0,0],[1,0],[1,1],[0,0]]],"type":"Polygon"}},
            {"type":"Feature","properties":null,"geometry":{"type":"MultiPolygon","coordinates":[[[[0,0,9],[1,0],[1,1],[0,0]]]]}},
            {"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1,2]}}
            ]}
            """
        let bytes = Array(doc.utf8)
        XCTAssertEqual(try readAll(bytes: bytes).count, 3)
        for n in 0..<bytes.count {
            for chunk in [1, 3, 1 << 20] {
                var reader = GeoJSONReader(bytes: Array(bytes[0..<n]), chunkSize: chunk)
                XCTAssertThrowsError(try reader.forEachFeature { _ in }, "prefix \(n)") { error in
                    XCTAssertTrue(error is GeoJSONError)
                    if let e = error as? GeoJSONError {
                        XCTAssertLessThanOrEqual(e.byteOffset, n)
                        XCTAssertGreaterThanOrEqual(e.line, 1)
                    }
                }
            }
        }
    }

    func testRandomMutationsNeverCrash() {
        let base = Array(collection(
            polygonFeature("[[[0,0],[1,0],[1,1],[0,1],[0,0]],[[0.2,0.2],[0.4,0.2],[0.4,0.4],[0.2,0.2]]]", properties: #"{"a":"\u00e9\"","b":[1,{"c":null}],"d":-2.5e-3}"#),
            "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"coordinates\":[[[[0,0],[1,0],[1,1],[0,0]]]],\"type\":\"MultiPolygon\"}}").utf8)
        let alphabet = Array("{}[],:\"\\-+.eE0123456789 \ntfnu".utf8) + [0x00, 0xFF, 0xC3, 0x80]
        var rng = SplitMix64(seed: 7)
        var errors = 0
        for _ in 0..<3000 {
            var bytes = base
            for _ in 0..<Int(1 + rng.next() % 4) {
                let i = Int(rng.next() % UInt64(bytes.count))
                switch rng.next() % 3 {
                case 0: bytes[i] = alphabet[Int(rng.next() % UInt64(alphabet.count))]
                case 1: bytes.remove(at: i)
                default: bytes.insert(alphabet[Int(rng.next() % UInt64(alphabet.count))], at: i)
                }
                if bytes.isEmpty { bytes = [0x7B] }
            }
            var reader = GeoJSONReader(bytes: bytes, chunkSize: Int(1 + rng.next() % 64))
            do {
                _ = try reader.forEachFeature { _ in }
            } catch {
                errors += 1
                XCTAssertTrue(error is GeoJSONError)
            }
        }
        XCTAssertGreaterThan(errors, 0)
    }

    // MARK: - Files and chunks

    func testChunkBoundaries() throws {
        var ring: [String] = []
        for i in 0..<400 {
            ring.append("[\(Double(i) * 0.123456789 - 25), \(Double(i % 90) * 0.987654321)]")
        }
        ring.append(ring[0])
        let doc = collection(
            polygonFeature("[[\(ring.joined(separator: ",\n "))]]", properties: #"{"long":"\#(String(repeating: "ab\\n\\u00e9", count: 300))"}"#),
            "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"coordinates\":[[[\(ring.joined(separator: ","))]]],\"type\":\"MultiPolygon\"}}")
        let reference = try readAll(doc)
        XCTAssertEqual(reference.count, 2)
        XCTAssertEqual(polygons(reference[0])[0][0].count, 401)
        for chunk in [1, 2, 3, 7, 16, 63, 64, 100, 1000, 4096] {
            let features = try readAll(doc, chunkSize: chunk)
            XCTAssertEqual(features.count, 2, "chunk \(chunk)")
            for (a, b) in zip(features, reference) {
                XCTAssertEqual(a.geometry, b.geometry, "chunk \(chunk)")
                XCTAssertEqual(a.properties.map(\.value), b.properties.map(\.value), "chunk \(chunk)")
            }
        }
    }

    func testReadFromFile() throws {
        let path = "/tmp/geojson-reader-test-\(getpid()).geojson"
        defer { unlink(path) }
        var ring: [String] = []
        for i in 0..<5000 { ring.append("[\(Double(i % 360) - 180),\(Double(i % 180) - 90)]") }
        ring.append(ring[0])
        var doc = "{\"type\":\"FeatureCollection\",\"features\":[\n"
        doc += (0..<20).map { polygonFeature("[[\(ring.joined(separator: ","))]]", properties: "{\"i\":\($0)}") }.joined(separator: ",\n")
        doc += "\n]}\n"
        let bytes = Array(doc.utf8)
        XCTAssertGreaterThan(bytes.count, 1 << 20)  // larger than one default chunk
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        XCTAssertGreaterThanOrEqual(fd, 0)
        XCTAssertEqual(bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }, bytes.count)
        close(fd)

        for chunk in [GeoJSONReader.defaultChunkSize, 4093] {
            var reader = try GeoJSONReader(path: path, chunkSize: chunk)
            var indices: [Int] = []
            let n = try reader.forEachFeature { f in
                indices.append(f.index)
                XCTAssertEqual(f.properties.first?.value, .number("\(f.index)"))
                XCTAssertEqual(self.polygons(f)[0][0].count, 5001)
            }
            XCTAssertEqual(n, 20)
            XCTAssertEqual(indices, Array(0..<20))
            XCTAssertEqual(try reader.forEachFeature { _ in }, 20)  // a regular file can be read again
        }
        var reader = try GeoJSONReader(path: path)
        XCTAssertEqual(try reader.forEachFeature { _ in }, 20)
    }

    func testMissingFile() {
        let path = "/tmp/definitely-missing-\(getpid())/x.geojson"
        XCTAssertThrowsError(try GeoJSONReader(path: path)) { error in
            let message = (error as? GeoJSONError)?.message ?? ""
            XCTAssertTrue(message.contains(path), message)
            XCTAssertTrue(message.contains("No such file or directory"), message)
        }
        XCTAssertThrowsError(try GeoJSONReader(path: "/tmp")) { error in
            let message = (error as? GeoJSONError)?.message ?? ""
            XCTAssertTrue(message.contains("/tmp"), message)
            XCTAssertTrue(message.contains("directory"), message)
        }
    }

    func testCountries10m() throws {
        let path = "/work/shared/data/countries-10m.geojson"
        guard access(path, R_OK) == 0 else { throw XCTSkip("\(path) is absent") }
        var reader = try GeoJSONReader(path: path)
        var positions = 0
        var polygonCount = 0
        var t0 = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t0)
        let n = try reader.forEachFeature { f in
            if case .polygons(let p) = f.geometry {
                polygonCount += p.count
                for poly in p { for ring in poly { positions += ring.count } }
            }
        }
        var t1 = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t1)
        let seconds = Double(t1.tv_sec - t0.tv_sec) + Double(t1.tv_nsec - t0.tv_nsec) / 1e9
        print("countries-10m: \(n) features, \(polygonCount) polygons, \(positions) positions in \(seconds) s")
        XCTAssertEqual(n, 258)
        XCTAssertEqual(polygonCount, 4274)
        XCTAssertEqual(positions, 548_471)
    }
}

