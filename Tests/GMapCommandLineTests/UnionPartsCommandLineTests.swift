import Foundation
import XCTest
import GMapTestSupport

/// The fixture through `gmap build`: the summary's lines.
final class UnionPartsCommandLineTests: XCTestCase {
    func testFixtureSummary() throws {
        guard CommandLineTestCase.executable != nil else { throw XCTSkip("the gmap executable is not built beside the test bundle") }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("gmap-union-fixture-\(getpid()).gmap").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let result = try CommandLineTestCase.runGMap(["build", TestSupport.fixtures.appendingPathComponent("overlapping-parts.geojson").path, "-o", output, "--id", "id"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("""
              overlapping parts (answered as their union): 3 features
                TWO: 2 of 2 polygons overlap another part of the feature
                HOLE: 2 of 2 polygons overlap another part of the feature
                NEST: 2 of 2 polygons overlap another part of the feature

            """), result.stderr)
        let info = try CommandLineTestCase.runGMap(["info", output])
        XCTAssertTrue(info.stdout.contains("format        3.5"), info.stdout)
        let verify = try CommandLineTestCase.runGMap(["verify", output])
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
        let query = try CommandLineTestCase.runGMap(["query", output, "1.5", "1.5"])
        XCTAssertEqual(query.stdout, "TWO\n")
    }
}
