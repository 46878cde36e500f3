import Foundation
import XCTest
import GMapTestSupport
import gmap

/// Every `--format` value `gmap help build` lists, built and read back by `gmap info` (issue #40):
/// the values, `--version` and the written minor version all come from one table, so a value the
/// help lists and the builder does not take, or a file that says another version, fails here.
final class FormatVersionCommandLineTests: CommandLineTestCase {
    /// The values of `--format` as the help lists them: "3|3.0–3.6|2.1|2.0", the range expanded.
    private func listedFormats() throws -> [String] {
        let help = try run(["help", "build"]).stdout
        let line = try XCTUnwrap(help.split(separator: "\n").first { $0.hasPrefix("  --format ") }, help)
        var values: [String] = []
        for value in line.dropFirst("  --format ".count).split(separator: "|") {
            let ends = value.split(separator: "–").map(String.init)
            guard ends.count == 2, ends[0].hasPrefix("3."), ends[1].hasPrefix("3."),
                  let first = Int(ends[0].dropFirst(2)), let last = Int(ends[1].dropFirst(2)) else {
                values.append(String(value))
                continue
            }
            values += (first...last).map { "3.\($0)" }
        }
        return values
    }

    private func infoFormat(_ map: String) throws -> String {
        let info = try run(["info", map])
        XCTAssertEqual(info.status, 0, info.stderr)
        let line = try XCTUnwrap(info.stdout.split(separator: "\n").first { $0.hasPrefix("format ") }, info.stdout)
        return String(line.dropFirst("format".count).drop { $0 == " " }.prefix { $0 != "," })
    }

    /// A map of plain polygons is 3.0 below 3.5 and banded (3.5) from there; features whose polygons
    /// overlap need 3.2, and `--format` 3.0 or 3.1 refuses them with the version they need.
    func testEveryListedFormatBuildsAndInfoReportsIt() throws {
        let formats = try listedFormats()
        XCTAssertEqual(formats.first, "3")
        XCTAssert(formats.contains("3.0") && formats.contains("3.5") && formats.contains("2.1") && formats.contains("2.0"), "\(formats)")
        let minors: [Int] = formats.compactMap { (format: String) -> Int? in format.hasPrefix("3.") ? Int(format.dropFirst(2)) : nil }
        let newest = try XCTUnwrap(minors.max())
        XCTAssertEqual(try run(["--version"]).stdout, "gmap 1.1.0 (writes format 3.0–3.\(newest) (2.0 and 2.1 with --format); reads 1.x to 3.x)\n")
        for format in formats {
            // The newest minor version the build may write: nil for format 2.
            var minor: Int? = nil
            if format == "3" {
                minor = newest
            } else if format.hasPrefix("3.") {
                minor = Int(format.dropFirst(2))
            }
            for (fixture, least) in [("c-shape.geojson", 0), ("overlapping-parts.geojson", 2)] {
                let map = path("\(fixture)-\(format).gmap")
                let built = try run(["build", TestSupport.fixtures.appendingPathComponent(fixture).path, "-o", map, "--format", format, "-q"])
                guard let minor else {
                    XCTAssertEqual(built.status, 0, "\(format) \(fixture): \(built.stderr)")
                    XCTAssertEqual(try infoFormat(map), format, fixture)
                    continue
                }
                if minor < least {
                    XCTAssertEqual(built.status, 2, "\(format) \(fixture): a map that cannot be written as asked")
                    let refusal = "the map needs format 3.\(least) (features whose polygons overlap, answered as their union), newer than --format \(format) allows"
                    XCTAssert(built.stderr.contains(refusal), built.stderr)
                    XCTAssert(built.stderr.contains("build it with --format 3.\(least) or later"), built.stderr)
                    XCTAssertFalse(FileManager.default.fileExists(atPath: map))
                    continue
                }
                XCTAssertEqual(built.status, 0, "\(format) \(fixture): \(built.stderr)")
                XCTAssertEqual(try infoFormat(map), "3.\(minor >= 5 ? 5 : least)", "--format \(format) \(fixture)")
            }
        }
        let unknown = try run(["build", TestSupport.fixtures.appendingPathComponent("c-shape.geojson").path, "-o", path("x.gmap"), "--format", "3.\(newest + 1)"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssert(unknown.stderr.contains("--format '3.\(newest + 1)' must be 3 (the default), 3.0–3.\(newest)"), unknown.stderr)
    }
}
