import XCTest
import GMapBuilder
import GMapCodecs
import GMapTestSupport

/// Newline-delimited GeoJSON and RFC 8142 text sequences: detected from the content or chosen by name.
final class GeoJSONSequenceTests: XCTestCase {
    private func feature(_ name: String, _ x: Int) -> String {
        "{\"type\":\"Feature\",\"properties\":{\"name\":\"\(name)\"},\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[[\(x),0],[\(x + 1),0],[\(x + 1),1],[\(x),0]]]}}"
    }

    private func names(_ text: String, layout: GeoJSONLayout = .automatic, chunkSize: Int = 1 << 20) throws -> [String] {
        var reader = GeoJSONReader(bytes: Array(text.utf8), chunkSize: chunkSize)
        reader.layout = layout
        var result: [String] = []
        _ = try reader.forEachFeature { feature in
            if case .string(let name)? = feature.properties.first(where: { $0.key == "name" })?.value { result.append(name) }
        }
        return result
    }

    private func error(_ text: String, layout: GeoJSONLayout = .automatic) -> GeoJSONError? {
        var reader = GeoJSONReader(bytes: Array(text.utf8))
        reader.layout = layout
        do {
            _ = try reader.forEachFeature { _ in }
        } catch let error as GeoJSONError {
            return error
        } catch {
            XCTFail("unexpected \(error)")
        }
        return nil
    }

    func testNewlineDelimitedFeaturesAreDetected() throws {
        let text = [feature("A", 0), feature("B", 2), feature("C", 4)].joined(separator: "\n") + "\n"
        for chunk in [1, 2, 7, 64, 1 << 20] {
            XCTAssertEqual(try names(text, chunkSize: chunk), ["A", "B", "C"], "chunk size \(chunk)")
        }
        XCTAssertEqual(try names("\u{FEFF}" + text), ["A", "B", "C"], "after a byte order mark")
        XCTAssertEqual(try names(feature("A", 0) + "\r\n\r\n" + feature("B", 2)), ["A", "B"], "CRLF and blank lines")
    }

    func testTextSequencesWithRecordSeparators() throws {
        let text = "\u{1E}" + feature("A", 0) + "\n\u{1E}" + feature("B", 2) + "\n"
        XCTAssertEqual(try names(text), ["A", "B"])
        XCTAssertEqual(try names("\u{1E}" + feature("A", 0) + "\n"), ["A"], "one RS-prefixed feature is a sequence")
    }

    func testCollectionsAndLoneFeaturesAreNotSequences() throws {
        let collection = "{\"name\":\"x\",\"features\":[\(feature("A", 0)),\(feature("B", 2))],\"type\":\"FeatureCollection\"}"
        XCTAssertEqual(try names(collection), ["A", "B"])
        XCTAssertEqual(error(feature("A", 0))?.message, "top-level type must be FeatureCollection", "a lone Feature is still an error")
        XCTAssertEqual(try names(feature("A", 0), layout: .featureSequence), ["A"], "unless the layout says sequence")
        XCTAssertEqual(error(collection, layout: .featureSequence)?.message, "feature type must be \"Feature\", found \"FeatureCollection\"")
        XCTAssertEqual(error(feature("A", 0) + feature("B", 2), layout: .featureCollection)?.message, "top-level type must be FeatureCollection")
    }

    func testEmptySequenceHasNoFeatures() throws {
        XCTAssertEqual(try names("", layout: .featureSequence), [])
        XCTAssertEqual(try names("\n\n", layout: .featureSequence), [])
    }

    func testErrorsNameTheFeatureAndLine() {
        let broken = feature("A", 0) + "\n" + feature("B", 2).replacingOccurrences(of: "[[[2,0]", with: "[[[2,0") + "\n"
        let error = self.error(broken)
        XCTAssertEqual(error?.featureIndex, 1)
        XCTAssertEqual(error?.line, 2)
        let notObject = self.error(feature("A", 0) + "\n" + feature("B", 2) + "\n[1,2]\n")
        XCTAssertEqual(notObject?.featureIndex, 2)
        XCTAssertEqual(notObject?.message, "expected a Feature object")
        XCTAssertEqual(notObject?.line, 3)
    }

    func testFormatAndLayoutFromTheName() {
        XCTAssertEqual(InputFormat.detect(name: "x.ndjson", prefix: Array("{\"t".utf8)), .geoJSONSequence)
        XCTAssertEqual(InputFormat.detect(name: "x.GeoJSONL", prefix: []), .geoJSONSequence)
        XCTAssertEqual(InputFormat.detect(name: "x.geojson", prefix: Array("{\"t".utf8)), .geoJSON)
        XCTAssertEqual(InputFormat.detect(name: "x.geojson", prefix: [0x1F, 0x8B, 8, 0]), .gzip)
        XCTAssertEqual(InputFormat.detect(name: "x.dat", prefix: [0x50, 0x4B, 3, 4]), .zip)
        XCTAssertEqual(InputFormat.detect(name: "x.dat", prefix: [0, 0, 0x27, 0x0A]), .shapefile)
        XCTAssertEqual(InputFormat.detect(name: "x.SHP", prefix: []), .shapefile)
        XCTAssertEqual(InputFormat.detect(name: "x.geojson.gz", prefix: []), .gzip)
        XCTAssertEqual(InputFormat.geoJSONLayout(name: "tz.ndjson.gz"), .featureSequence)
        XCTAssertEqual(InputFormat.geoJSONLayout(name: "tz.geojson.gz"), .automatic)
    }
}
