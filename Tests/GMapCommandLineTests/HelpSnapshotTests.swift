import Foundation
import XCTest
import GMapTestSupport

/// The help texts, as swift-argument-parser's example tests check theirs: `gmap help` (the
/// overview), and for every command the overview lists `gmap help COMMAND` and `gmap COMMAND --help`,
/// compared byte for byte with the committed files in `Tests/GMapCommandLineTests/Snapshots/help`
/// (``SnapshotFiles``: `GMAP_UPDATE_SNAPSHOTS=1` writes them after a change). A change to any
/// help text, or to the list of commands, then shows in a diff of those files.
final class HelpSnapshotTests: CommandLineTestCase {
    /// The snapshots of the help texts.
    private let snapshots = SnapshotFiles.help

    /// Runs `gmap ARGUMENTS`, which must succeed with nothing on standard error; its standard output.
    private func helpText(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let result = try run(arguments)
        XCTAssertEqual(result.status, 0, "gmap \(arguments.joined(separator: " ")): \(result.stderr)", file: file, line: line)
        XCTAssertEqual(result.stderr, "", "gmap \(arguments.joined(separator: " "))", file: file, line: line)
        return result.stdout
    }

    /// The overview, and the commands it lists (at least the first and the last the tool has had since 1.0).
    private func overview() throws -> HelpOverview {
        let overview = HelpOverview(try helpText(["help"]))
        XCTAssertTrue(overview.commands.contains("query") && overview.commands.contains("bench"),
                      "the USAGE section of gmap help lists no query or bench: \(overview.commands)")
        return overview
    }

    func testOverviewMatchesItsSnapshot() throws {
        snapshots.assertMatches(try overview().text, name: "overview", command: "gmap help")
    }

    func testEveryCommandsHelpMatchesItsSnapshot() throws {
        for command in try overview().commands {
            let help = try helpText(["help", command])
            snapshots.assertMatches(help, name: command, command: "gmap help \(command)")
            XCTAssertEqual(try helpText([command, "--help"]), help, "gmap \(command) --help must print what gmap help \(command) prints")
        }
    }

    /// A snapshot of a command the overview no longer lists would go on passing unseen: none may be left.
    func testEverySnapshotIsOfAListedCommand() throws {
        let expected = (try overview().commands + ["overview"]).sorted()
        XCTAssertEqual(try snapshots.names(), expected,
                       "\(snapshots.relativePath) must hold overview.txt and one file per command of gmap help; remove the others")
    }
}
