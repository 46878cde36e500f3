import Foundation
import XCTest
import GMap
import GMapTestSupport

/// Batch queries at the lookup's speed (issue 26, part 1): `gmap query -` reads blocks, parses plain
/// decimal lines without strings and answers with `--threads N`; its output must stay that of
/// answering the lines one by one, bad lines and their messages included, with any number of threads.
final class BatchCommandLineTests: CommandLineTestCase {
    /// Lines that are not plain decimals, or not readable: each goes through the full parser.
    private static let specialLines = [
        "", "   ", "\t", "abc", "91 0", "0 181", "36,14 -5,35", "1e5 0", "1e1 5", "+5 3", ".5 3", "5. 3", "-0 -0",
        "36°8'24\"N 5°21'W", "5°21'W 36°8'N", "36.14N, 5.35W", "12.34567890123456789 1.5", "0.0000000000000000000000001 2",
        "36.14 -5.35 7", "36.14,,-5.35", "36.14 ,  -5.35", " \t36.14\t-5.35 ", "-90 -180", "90 180", "1,2,3", "x 1",
        "9007199254740993 0", "12345678901234567890 1", "45.5 nan", "1 2 #",
    ]

    /// 100,000 lines: uniform random points in every plain form (spaces, tabs, a comma), with the
    /// special lines interleaved, and a line over --max-line.
    private func lines(count: Int) -> [String] {
        var random = SplitMix64(seed: 26)
        var lines: [String] = []
        for index in 0..<count {
            if index % 97 == 5 {
                lines.append(Self.specialLines[random.below(Self.specialLines.count)])
                continue
            }
            if index == count / 2 {
                lines.append(String(repeating: "1", count: 3000))
                continue
            }
            let latitude = Double(random.below(180_000_001)) / 1e6 - 90, longitude = Double(random.below(360_000_001)) / 1e6 - 180
            let digits = random.below(8)
            let lat = String(format: "%.\(digits)f", latitude), lon = String(format: "%.\(random.below(8))f", longitude)
            switch random.below(4) {
            case 0: lines.append("\(lat) \(lon)")
            case 1: lines.append("\(lat),\(lon)")
            case 2: lines.append("\(lat), \(lon)")
            default: lines.append("\(lat)\t\(lon)  ")
            }
        }
        return lines
    }

    /// Runs gmap with standard input from `input` and standard output and error both into one file
    /// (so their order shows), returning the exit status and the file's text.
    private func runMerged(_ arguments: [String], input: String) throws -> (status: Int32, text: String) {
        let output = path("merged-\(UUID().uuidString)")
        XCTAssertTrue(FileManager.default.createFile(atPath: output, contents: nil), output)
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: input))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        try handle.close()
        return (process.terminationStatus, String(decoding: try Data(contentsOf: URL(fileURLWithPath: output)), as: UTF8.self))
    }

    func testBatchIsTheSameWithAnyThreadsAndAsOneByOne() throws {
        let lines = self.lines(count: 100_000)
        let input = path("points.txt")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: input))
        let options = ["--max-line", "2K"]
        let one = try runMerged(["query", "-", "--threads", "1"] + options, input: input)
        XCTAssertEqual(one.status, 2)
        for threads in [nil, "2", "3", "8"] {
            let other = try runMerged(["query", "-"] + (threads.map { ["--threads", $0] } ?? []) + options, input: input)
            XCTAssertEqual(other.status, one.status, "--threads \(threads ?? "default")")
            XCTAssertTrue(other.text == one.text, "--threads \(threads ?? "default") differs from --threads 1")
        }
        // One by one: plain lines against the library's lookup; the special lines each as a batch of one.
        let map = try GMap(contentsOf: TestSupport.shippedMap)
        var special: [String: (stdout: String, stderr: String)] = [:]
        for line in Set(Self.specialLines + [String(repeating: "1", count: 3000)]) {
            let result = try LimitedRun.run(try XCTUnwrap(Self.executable), ["query", "-"] + options, mebibytes: nil,
                                            standardInput: try file(line + "\n"), directory: temporary)
            special[line] = (result.stdout, result.stderr.replacingOccurrences(of: "\ngmap: 1 of 1 lines could not be read\n", with: "\n"))
        }
        var expected = "", bad = 0
        for (index, line) in lines.enumerated() {
            if let answer = special[line] {
                expected += answer.stdout
                if !answer.stderr.isEmpty {
                    bad += 1
                    expected += answer.stderr.replacingOccurrences(of: "gmap: line 1: ", with: "gmap: line \(index + 1): ")
                }
            } else {
                let parts = line.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" })
                let latitude = try XCTUnwrap(Double(String(parts[0]))), longitude = try XCTUnwrap(Double(String(parts[1])))
                expected += (map.lookup(latitude: latitude, longitude: longitude)?.id ?? "") + "\n"
            }
        }
        expected += "gmap: \(bad) of \(lines.count) lines could not be read\n"
        XCTAssertTrue(one.text == expected, "batch output differs from the lines answered one by one")
        if one.text != expected {
            let got = one.text.split(separator: "\n", omittingEmptySubsequences: false), want = expected.split(separator: "\n", omittingEmptySubsequences: false)
            if let first = (0..<min(got.count, want.count)).first(where: { got[$0] != want[$0] }) { XCTFail("first difference at output line \(first + 1): \(got[first]) != \(want[first])") }
        }
        // A sample of plain lines as single-point arguments (the full parser): the same answers.
        for line in lines.prefix(120) where special[line] == nil && line.count < 100 {
            let single = try run(["query", line])
            let parts = line.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" })
            let answer = map.lookup(latitude: try XCTUnwrap(Double(String(parts[0]))), longitude: try XCTUnwrap(Double(String(parts[1]))))?.id
            XCTAssertEqual(single.stdout, answer.map { $0 + "\n" } ?? "", line)
        }
    }

    /// Whole lines go from the reader to the threads that split them: every line end (LF, CR LF, a
    /// lone CR) is one line end wherever it lies, a CR LF split by a read or by a block included,
    /// lines over --max-line (one across a block's end) are bad lines, and a last line without a
    /// line end is a line. Over three blocks of input, the output is what the lines answered one
    /// by one give, with any number of threads.
    func testLineEndsAnywhereInTheBlocks() throws {
        let read = 1 << 16, size = TestSupport.underSanitizer ? 1 << 20 : 9 << 20
        var random = SplitMix64(seed: 2611)
        var bytes: [UInt8] = []
        var lines: [(text: String, end: String)] = []
        func add(_ text: String, _ end: String) {
            // A lone CR, then an empty line ended by LF, would be one CR LF: one space instead.
            let text = text.isEmpty && end.hasPrefix("\n") && lines.last?.end == "\r" ? " " : text
            lines.append((text, end))
            bytes += Array((text + end).utf8)
        }
        while bytes.count < size {
            // At every read's end, a CR LF whose CR is the read's last byte: a blank filler line
            // first, then a point whose CR LF straddles the boundary.
            let boundary = (bytes.count / read + 1) * read
            let point = String(format: "%.4f %.4f", Double(random.below(1_800_001)) / 1e4 - 90, Double(random.below(3_600_001)) / 1e4 - 180)
            let filler = boundary - 1 - point.utf8.count - 1 - bytes.count
            if filler >= 0, random.below(3) > 0 {
                add(String(repeating: " ", count: filler), "\n")
                add(point, "\r\n")
                continue
            }
            switch random.below(40) {
            case 0: add(String(repeating: "7", count: 2_500 + random.below(3_000)), ["\n", "\r\n", "\r"][random.below(3)])
            case 1: add("", ["\n", "\r\n", "\r"][random.below(3)])
            default: add(point, ["\n", "\r\n", "\r"][random.below(3)])
            }
        }
        add("36.14 -5.35", "")
        let input = path("line-ends.txt")
        try Data(bytes).write(to: URL(fileURLWithPath: input))
        // Expected: each line by itself.
        let map = try GMap(contentsOf: TestSupport.shippedMap)
        var expected = "", bad = 0
        for (index, line) in lines.enumerated() {
            if line.text.utf8.count > 2_048 {
                bad += 1
                expected += "\ngmap: line \(index + 1): longer than 2 KiB, the limit of --max-line (raise it with --max-line SIZE)\n"
            } else if line.text.allSatisfy({ $0 == " " }) {
                expected += "\n"
            } else {
                let parts = line.text.split(separator: " ")
                let latitude = try XCTUnwrap(Double(String(parts[0]))), longitude = try XCTUnwrap(Double(String(parts[1])))
                expected += (map.lookup(latitude: latitude, longitude: longitude)?.id ?? "") + "\n"
            }
        }
        expected += "gmap: \(bad) of \(lines.count) lines could not be read\n"
        XCTAssertGreaterThan(bad, 0)
        for threads in ["1", "2", "3"] {
            let result = try runMerged(["query", "-", "--max-line", "2K", "--threads", threads], input: input)
            XCTAssertEqual(result.status, 2, "--threads \(threads)")
            XCTAssertTrue(result.text == expected, "--threads \(threads): not the lines answered one by one")
            if result.text != expected {
                let got = result.text.split(separator: "\n", omittingEmptySubsequences: false)
                let want = expected.split(separator: "\n", omittingEmptySubsequences: false)
                if let first = (0..<min(got.count, want.count)).first(where: { got[$0] != want[$0] }) {
                    XCTFail("--threads \(threads): first difference at output line \(first + 1): \(got[first]) != \(want[first])")
                }
            }
        }
    }

    /// --json, --all and a map of several layers: the same output with any number of threads.
    func testJSONAllAndLayersAreTheSameWithAnyThreads() throws {
        let lines = self.lines(count: TestSupport.underSanitizer ? 2_000 : 20_000)  // still more than a block part (1,024 lines) under sanitizers
        let input = path("points.txt")
        try Data((lines.joined(separator: "\r\n") + "\r\n").utf8).write(to: URL(fileURLWithPath: input))
        for options in [["--json"], ["--all"], ["--all", "--json"], ["--nearest", "20km"]] {
            for map in [[], [TestSupport.shippedMap]] where !(map.count == 1 && options.first == "--nearest") {
                let arguments = ["query"] + map + ["-", "--max-line", "2K"] + options
                let one = try runMerged(arguments + ["--threads", "1"], input: input)
                let three = try runMerged(arguments + ["--threads", "3"], input: input)
                XCTAssertEqual(one.status, 2, "\(arguments)")
                XCTAssertEqual(three.status, one.status, "\(arguments)")
                XCTAssertTrue(three.text == one.text, "\(arguments): --threads 3 differs from --threads 1")
            }
        }
    }

    /// On a map whose features overlap: batch --all and --json (each feature's text made once and
    /// copied) print what single-point queries print, with one thread and with three.
    func testOverlappingFeaturesAnswerAsSinglePoints() throws {
        let mapPath = path("fixtures.gmap")
        let built = try run(["build", TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson").path, "-o", mapPath, "--id", "id", "--keep", "name", "-q"])
        XCTAssertEqual(built.status, 0, built.stderr)
        let map = try GMap(contentsOf: mapPath)
        var random = SplitMix64(seed: 2626)
        var points: [(Double, Double)] = []
        for feature in map.features.prefix(40) {
            let box = feature.boundingBox
            for _ in 0..<2 {
                let latitude = box.south + (box.north - box.south) * Double(random.below(1001)) / 1000
                let longitude = box.west + (box.east - box.west) * Double(random.below(1001)) / 1000
                points.append(((latitude * 1e5).rounded() / 1e5, (longitude * 1e5).rounded() / 1e5))
            }
        }
        let input = path("points.txt")
        try Data(points.map { "\($0.0) \($0.1)\n" }.joined().utf8).write(to: URL(fileURLWithPath: input))
        for options in [["--all"], ["--json"], ["--all", "--json"]] {
            var expected = ""
            for (latitude, longitude) in points {
                let single = try run(["query", mapPath, "\(latitude)", "\(longitude)"] + options)
                expected += single.stdout.isEmpty ? "\n" : single.stdout
            }
            for threads in ["1", "3"] {
                let batch = try runMerged(["query", mapPath, "-", "--threads", threads] + options, input: input)
                XCTAssertEqual(batch.status, 0, "\(options)")
                XCTAssertEqual(batch.text, expected, "\(options) --threads \(threads)")
            }
        }
    }

    func testThreadsOption() throws {
        try assertFails(["query", "-", "--threads", "0"], input: "", stderr: "gmap: --threads takes a whole number from 1 to 256, got '0'\n")
        try assertFails(["query", "-", "--threads", "x"], input: "", stderr: "gmap: --threads takes a whole number from 1 to 256, got 'x'\n")
        try assertFails(["query", "36.14", "-5.35", "--threads", "2"], stderr: "gmap: --threads only applies with - (lines read from standard input)\n")
        let result = try run(["query", "-", "--threads", "4"], input: "36.14 -5.35\n52.52,13.405\n")
        XCTAssertEqual(result.stdout, "GI\nDE\n")
        XCTAssertEqual(result.status, 0)
    }

    /// A file in the temporary directory holding `text`.
    private func file(_ text: String) throws -> String {
        let name = path("line-\(UUID().uuidString)")
        try Data(text.utf8).write(to: URL(fileURLWithPath: name))
        return name
    }
}
