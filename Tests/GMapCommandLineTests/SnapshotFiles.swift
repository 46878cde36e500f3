import Foundation
import XCTest
import GMapTestSupport

/// A directory of committed outputs of the tool, one `NAME.txt` per output, compared byte for byte.
///
/// With `GMAP_UPDATE_SNAPSHOTS=1` in the environment, an output that differs from its file (or has
/// none) is written to it, and the test still fails, saying which file it wrote: an update is never
/// silent, and the next run without the variable passes once the files are committed.
struct SnapshotFiles {
    /// The environment variable that makes a run write the outputs that differ.
    static let updateVariable = "GMAP_UPDATE_SNAPSHOTS"

    /// `Tests/GMapCommandLineTests/Snapshots/help`: the help texts, `overview.txt` for `gmap help`.
    static let help = SnapshotFiles(group: "help")

    /// The directory of the snapshots, in the repository (not a copy in the build folder), so that
    /// an update writes the files to commit.
    let directory: URL
    /// The directory as the messages name it, relative to the repository's root.
    let relativePath: String

    /// The snapshots of `Tests/GMapCommandLineTests/Snapshots/<group>`.
    init(group: String) {
        relativePath = "Tests/GMapCommandLineTests/Snapshots/\(group)"
        directory = TestSupport.repositoryRoot.appendingPathComponent(relativePath)
    }

    /// Whether this run writes the outputs that differ (`GMAP_UPDATE_SNAPSHOTS=1`).
    var updating: Bool { ProcessInfo.processInfo.environment[Self.updateVariable] == "1" }

    /// The file of the snapshot `name`.
    func url(_ name: String) -> URL { directory.appendingPathComponent("\(name).txt") }

    /// The names of the snapshots the directory holds (its `.txt` files without the extension),
    /// sorted; none when there is no directory yet.
    func names() throws -> [String] {
        guard FileManager.default.fileExists(atPath: directory.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".txt") }
            .map { String($0.dropLast(".txt".count)) }
            .sorted()
    }

    /// Fails unless `output`, what `command` printed, is byte for byte the snapshot `name`; when
    /// ``updating``, writes it there first (and still fails).
    func assertMatches(_ output: String, name: String, command: String, file: StaticString = #filePath, line: UInt = #line) {
        let url = url(name), actual = Data(output.utf8)
        let expected = FileManager.default.contents(atPath: url.path)
        guard expected != actual else { return }
        let shown = "\(relativePath)/\(name).txt"
        if updating {
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try actual.write(to: url)
                XCTFail("wrote \(shown) with the output of `\(command)`: review and commit it, then run again without \(Self.updateVariable)", file: file, line: line)
            } catch {
                XCTFail("cannot write \(shown): \(error)", file: file, line: line)
            }
            return
        }
        let difference = expected.map { Self.firstDifference(String(decoding: $0, as: UTF8.self), output) } ?? "the file does not exist"
        XCTFail("""
            `\(command)` differs from \(shown): \(difference).
            If the change is intended, write the snapshots with \(Self.updateVariable)=1 \
            swift test -c release --disable-swift-testing --disable-testable-imports --filter HelpSnapshotTests, \
            review the files it writes (git diff \(relativePath)) and commit them
            """, file: file, line: line)
    }

    /// "line N: expected '…', got '…'" at the first line that differs, or what differs at the end.
    static func firstDifference(_ expected: String, _ actual: String) -> String {
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, pair) in zip(expectedLines, actualLines).enumerated() where pair.0 != pair.1 {
            return "line \(index + 1): expected '\(pair.0)', got '\(pair.1)'"
        }
        if expectedLines.count != actualLines.count {
            return "\(expectedLines.count) lines expected, \(actualLines.count) printed"
        }
        return "the bytes differ (not the text as UTF-8)"
    }
}
