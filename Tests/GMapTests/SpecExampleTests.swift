import Foundation
import XCTest
import GMap

/// The format 3.0 worked example of Spec/FORMAT.md (section 16.6): `Fixtures/spec-example-3.gmap`
/// is rebuilt byte for byte by the command the spec shows, and answers the lookup done there by hand.
final class SpecExampleTests: XCTestCase {
    private var temporary: URL!

    override func setUpWithError() throws {
        guard CommandLineTests.executable != nil else { throw XCTSkip("the gmap executable is not built beside the test bundle (run swift build first)") }
        temporary = FileManager.default.temporaryDirectory.appendingPathComponent("gmap-spec-example-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let temporary { try? FileManager.default.removeItem(at: temporary) }
    }

    private func run(_ arguments: [String]) throws -> CommandLineTests.Outcome {
        try CommandLineTests.runGMap(arguments)
    }

    /// Section 16.6.1's command (with -q) writes exactly the committed file.
    func testFormatThreeWorkedExampleIsCurrent() throws {
        let output = temporary.appendingPathComponent("spec-example-3.gmap")
        let input = TestSupport.fixtures.appendingPathComponent("spec-example-3.geojson")
        let result = try run(["build", input.path, "-o", output.path, "--precision", "0.01", "--tile-size", "2", "--max-edges", "4",
                              "--split", "2", "--max-depth", "2", "--id", "name", "--keep", "name", "--top", "packed", "-q"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let built = try Data(contentsOf: output)
        XCTAssertEqual(built, try Data(contentsOf: TestSupport.fixtures.appendingPathComponent("spec-example-3.gmap")),
                       "Fixtures/spec-example-3.gmap is not what the command of Spec/FORMAT.md section 16.6.1 builds: update the fixture and section 16.6")
        XCTAssertEqual(built.count, 1065)
        XCTAssertEqual(try run(["verify", output.path]).status, 0)
    }

    /// Section 16.6.5's lookup by hand at an unrounded point, and the three further points.
    func testFormatThreeWorkedExampleAnswers() throws {
        let map = TestSupport.fixtures.appendingPathComponent("spec-example-3.gmap").path
        XCTAssertEqual(try run(["query", map, "0.2768", "0.2235"]).stdout, "B\n")
        XCTAssertEqual(try run(["query", map, "0.2768", "0.2235", "--all"]).stdout, "B\n")
        XCTAssertEqual(try run(["query", map, "0.2768", "0.2235", "--all", "--json"]).stdout, "[{\"id\":\"B\",\"properties\":{\"name\":\"B\"}}]\n")
        XCTAssertEqual(try run(["query", map, "0.75", "0.75", "--all"]).stdout, "A\n")
        let none = try run(["query", map, "1", "3", "--all"])
        XCTAssertEqual(none.status, 1)
        XCTAssertEqual(none.stdout, "")
        XCTAssertEqual(try run(["query", map, "1", "5", "--all"]).stdout, "A\n")

        // The layout the section describes: three top-level tiles, packed; two nodes.
        let opened = try GMap(contentsOf: map)
        XCTAssertEqual(opened.grid.topForm, FormatLayout.TopForm.packed)
        XCTAssertEqual(opened.grid.columns, 3)
        XCTAssertEqual(opened.grid.rows, 1)
        XCTAssertEqual(opened.grid.subdirectoryCount, 2)
        XCTAssertEqual(opened.lookup(latitude: 0.2768, longitude: 0.2235)?.id, "B")
    }
}
