import Foundation
import XCTest
import GMapTestSupport

/// Input forms (issue 23, part 7): CR and CR LF line ends, and decimal commas with a hint.
final class InputFormsCommandLineTests: CommandLineTestCase {
    /// Batch and replay input with CR LF or lone CR line ends reads line by line, as with LF.
    func testLineEndsOfEveryKind() throws {
        for (name, end) in [("LF", "\n"), ("CR LF", "\r\n"), ("CR", "\r")] {
            let input = ["36.14 -5.35", "52.52 13.405", "0 -30", "48.8566 2.3522"].joined(separator: end) + end
            let result = try run(["query", "-"], input: input)
            XCTAssertEqual(result.status, 0, "\(name): \(result.stderr)")
            XCTAssertEqual(result.stdout, "GI\nDE\n\nFR\n", name)
        }
        // Mixed, and a CR LF split across the reader's blocks: one line each, no empty line between.
        let long = String(repeating: "36.14 -5.35\r\n", count: 10_000)
        let result = try run(["query", "-"], input: long + "52.52 13.405\r")
        XCTAssertEqual(result.stdout, String(repeating: "GI\n", count: 10_000) + "DE\n")
    }

    func testDecimalCommasGetAHint() throws {
        let hint = "gmap: '36,14 -5,35' has decimal commas: use a decimal point (36.14 -5.35); a comma may only separate the latitude from the longitude\n"
        try assertFails(["query", "36,14 -5,35"], stderr: hint)
        try assertFails(["query", "36,14", "-5,35"], stderr: hint)
        try assertFails(["place", "36,14", "-5,35"], stderr: hint)
        try assertFails(["query", "-"], input: "36,14 -5,35\n36.14,-5.35\n", stderr: "gmap: line 1: " + String(hint.dropFirst(6)) + "gmap: 1 of 2 lines could not be read\n")
        // One comma between two numbers is still latitude,longitude.
        let plain = try run(["query", "36.14,-5.35"])
        XCTAssertEqual(plain.stdout, "GI\n")
    }
}
