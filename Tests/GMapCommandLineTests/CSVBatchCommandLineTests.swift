import Foundation
import XCTest
import GMap
import GMapTestSupport

/// `gmap query [MAP] --csv FILE|-`: CSV (RFC 4180) with a header row in, the same CSV out with the
/// answer columns appended. The expected outputs are written out literally: quoting, line ends,
/// the byte order mark, column guessing, kept properties, a map of several layers, bad rows with
/// the line where they start, and answers equal to those of `gmap query MAP LAT LON` one by one.
final class CSVBatchCommandLineTests: CommandLineTestCase {
    /// Runs gmap with standard input from a file holding `input` (bytes as given), standard output
    /// as bytes and standard error as text.
    private func runBytes(_ arguments: [String], input: [UInt8]) throws -> (status: Int32, stdout: [UInt8], stderr: String) {
        try Self.requireExecutable()
        let inputPath = path("input-\(UUID().uuidString).csv"), outputPath = path("output-\(UUID().uuidString)")
        try Data(input).write(to: URL(fileURLWithPath: inputPath))
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: inputPath))
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let errorText = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try output.close()
        return (process.terminationStatus, Array(try Data(contentsOf: URL(fileURLWithPath: outputPath))), String(decoding: errorText, as: UTF8.self))
    }

    /// Quoted fields with commas, doubled quotes and line breaks (LF and CR LF) inside, an empty
    /// quoted field, spaces kept, a quote inside an unquoted field: every field comes back as it
    /// was, quoted only where RFC 4180 needs it (a field quoted without need loses its quotes, a
    /// bare quote gets them); a point at sea has an empty id.
    func testQuotedFieldsComeBackAsTheyWere() throws {
        let input = "name,lat,lon,note\n"
            + "\"Gibraltar, the Rock\",36.14,-5.35,\"say \"\"hi\"\"\"\n"
            + "\"two\nlines\",52.52,13.405,\"crlf\r\ninside\"\n"
            + "\"plain\",48.8566,2.3522,\"\"\n"
            + " spaced ,0,-30, kept \n"
            + "5'10\",52.52,13.405,bare quote\n"
        let result = try run(["query", "--csv", "-"], input: input)
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stdout, "name,lat,lon,note,id\n"
            + "\"Gibraltar, the Rock\",36.14,-5.35,\"say \"\"hi\"\"\",GI\n"
            + "\"two\nlines\",52.52,13.405,\"crlf\r\ninside\",DE\n"
            + "plain,48.8566,2.3522,,FR\n"
            + " spaced ,0,-30, kept ,\n"
            + "\"5'10\"\"\",52.52,13.405,bare quote,DE\n")
    }

    /// Fields pass through byte for byte, bytes that are not UTF-8 too; a byte order mark is
    /// skipped (not part of the first column's name, not written); CR LF input gives CR LF output;
    /// empty lines at the end (and between rows) are no rows; a last row without a line end is read.
    func testBytesBOMAndLineEnds() throws {
        var input: [UInt8] = [0xEF, 0xBB, 0xBF]
        input += Array("lat,lon,raw\r\n36.14,-5.35,".utf8) + [0xFF, 0xFE, 0x41] + Array("\r\n\r\n52.52,13.405,\"caf\u{E9},\"\r\n\r\n\r\n".utf8)
        let result = try runBytes(["query", "--csv", "-"], input: input)
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(result.status, 0)
        var expected = Array("lat,lon,raw,id\r\n36.14,-5.35,".utf8) + [0xFF, 0xFE, 0x41]
        expected += Array(",GI\r\n52.52,13.405,\"caf\u{E9},\",DE\r\n".utf8)
        XCTAssertEqual(result.stdout, expected)

        // LF input, the last row without a line end, a lone CR ending a row.
        let lf = try run(["query", "--csv", "-"], input: "LAT,Lng\n36.14,-5.35\r52.52,13.405")
        XCTAssertEqual(lf.stdout, "LAT,Lng,id\n36.14,-5.35,GI\n52.52,13.405,DE\n")
        XCTAssertEqual(lf.status, 0)
    }

    /// The coordinate columns: guessed by name in any case (lat/latitude before y, lon/lng/long/
    /// longitude before x), named with --lat and --lon, and refused with the header's columns listed.
    func testColumnGuessingAndNames() throws {
        let guessed = try run(["query", "--csv", "-"], input: "x,y,Latitude,LONGITUDE\n0,0,36.14,-5.35\n")
        XCTAssertEqual(guessed.stdout, "x,y,Latitude,LONGITUDE,id\n0,0,36.14,-5.35,GI\n")
        let xy = try run(["query", "--csv", "-"], input: "Y,X\n36.14,-5.35\n")
        XCTAssertEqual(xy.stdout, "Y,X,id\n36.14,-5.35,GI\n")
        let named = try run(["query", "--csv", "-", "--lat", "b", "--lon", "a"], input: "a,b,lat,lon\n-5.35,36.14,0,-30\n")
        XCTAssertEqual(named.stdout, "a,b,lat,lon,id\n-5.35,36.14,0,-30,GI\n")
        XCTAssertEqual(named.status, 0)

        try assertFails(["query", "--csv", "-"], input: "a,b\n1,2\n",
                        stderr: "gmap: cannot tell which column holds the latitude: no column is named lat, latitude or y (in any case); name it with --lat NAME (the header's columns are 'a', 'b')\n")
        try assertFails(["query", "--csv", "-"], input: "lat,Latitude,lon\n1,2,3\n",
                        stderr: "gmap: cannot tell which column holds the latitude: 'lat' and 'Latitude' both could; name it with --lat NAME (the header's columns are 'lat', 'Latitude', 'lon')\n")
        try assertFails(["query", "--csv", "-"], input: "lat,lng,long\n1,2,3\n",
                        stderr: "gmap: cannot tell which column holds the longitude: 'lng' and 'long' both could; name it with --lon NAME (the header's columns are 'lat', 'lng', 'long')\n")
        try assertFails(["query", "--csv", "-", "--lat", "Lat"], input: "lat,lon\n1,2\n",
                        stderr: "gmap: --lat 'Lat' names no column of the header; its columns are 'lat', 'lon'\n")
        try assertFails(["query", "--csv", "-", "--lat", "lon"], input: "lat,lon\n1,2\n",
                        stderr: "gmap: --lat and --lon name the same column 'lon'\n")
        try assertFails(["query", "--csv", "-"], input: "", stderr: "gmap: standard input is empty: the first row of the CSV input names its columns\n")
        try assertFails(["query", "--csv", "-"], input: "\u{FEFF}\n\n", stderr: "gmap: standard input is empty: the first row of the CSV input names its columns\n")
        try assertFails(["query", "--csv", "-", "--json"], input: "lat,lon\n",
                        stderr: "gmap: --csv writes one answer per layer in CSV columns; it does not combine with --json\n")
        try assertFails(["query", "-", "--keep", "name"], input: "1 2\n", stderr: "gmap: --keep only applies with --csv (a CSV input with a header row)\n")
        // A header with only its row: the header comes back with the answer column.
        let headerOnly = try run(["query", "--csv", "-"], input: "lat,lon\r\n")
        XCTAssertEqual(headerOnly.stdout, "lat,lon,id\r\n")
        XCTAssertEqual(headerOnly.status, 0)
    }

    /// --keep adds one column per property (empty at sea or when the feature lacks it); an answer
    /// column named as an input column is refused, and --prefix names them apart; a file argument.
    func testKeepAndColumnNames() throws {
        let input = "id,lat,lon\n7,36.14,-5.35\n8,0,-30\n"
        try assertFails(["query", "--csv", "-"], input: input,
                        stderr: "gmap: the answer column 'id' is already a column of the input; name the answer columns apart with --prefix TEXT (--prefix gmap_ writes 'gmap_id')\n")
        let kept = try run(["query", "--csv", "-", "--keep", "name,iso_a3,missing", "--prefix", "gmap_"], input: input)
        XCTAssertEqual(kept.stdout, "id,lat,lon,gmap_id,gmap_name,gmap_iso_a3,gmap_missing\n7,36.14,-5.35,GI,Gibraltar,GIB,\n8,0,-30,,,,\n")
        XCTAssertEqual(kept.status, 0)
        try assertFails(["query", "--csv", "-", "--keep", "id"], input: "lat,lon\n",
                        stderr: "gmap: the answer column 'id' would appear twice (--keep names a column the answers already have)\n")

        let file = path("points.csv")
        try Data("lat,lon,city\n52.52,13.405,\"Berlin, Mitte\"\n".utf8).write(to: URL(fileURLWithPath: file))
        let fromFile = try run(["query", "--csv", file, "--keep", "name"])
        XCTAssertEqual(fromFile.stdout, "lat,lon,city,id,name\n52.52,13.405,\"Berlin, Mitte\",DE,Germany\n")
        try assertFails(["query", "--csv", path("absent.csv")], stderr: "gmap: cannot open \(path("absent.csv")): No such file or directory\n")
    }

    /// A map of several layers (the shipped map given as a file): one column per layer, as
    /// `gmap query` prints them after "layer=", then LAYER.PROP per layer with --keep; --layer
    /// answers from one layer in an `id` column.
    func testLayeredMap() throws {
        let map = TestSupport.shippedMap
        let input = "lat,lon\n36.14,-5.35\n30,-40\n"
        let layered = try run(["query", map, "--csv", "-", "--keep", "name"], input: input)
        XCTAssertEqual(layered.stderr, "")
        XCTAssertEqual(layered.stdout, "lat,lon,countries,marine,timezones,towns,states,countries.name,marine.name,timezones.name,towns.name,states.name\n"
            + "36.14,-5.35,GI,Alboran Sea,Europe/Gibraltar,Gibraltar,,Gibraltar,Alboran Sea,,,\n"
            + "30,-40,,North Atlantic Ocean,Etc/GMT+3,,,,North Atlantic Ocean,,,\n")
        XCTAssertEqual(layered.status, 0)
        XCTAssertEqual(try run(["query", map, "36.14", "-5.35"]).stdout, "countries=GI\tmarine=Alboran Sea\ttimezones=Europe/Gibraltar\ttowns=Gibraltar\tstates=\n")
        let oneLayer = try run(["query", map, "--csv", "-", "--layer", "marine"], input: input)
        XCTAssertEqual(oneLayer.stdout, "lat,lon,id\n36.14,-5.35,Alboran Sea\n30,-40,North Atlantic Ocean\n")
    }

    /// Bad rows: a wrong field count, a bad number, a latitude outside the world, text after a
    /// closing quote, a row over --max-line and a quote not closed before the end of input. Each is
    /// left out with a message naming the physical line where it starts (rows with line breaks in
    /// quotes before them), the rows after them are answered, and the exit code is 2.
    func testBadRowsAreNamedByLineAndSkipped() throws {
        let long = String(repeating: "a", count: 3000)
        let input = "name,lat,lon\n"           // line 1
            + "\"a\nb\nc\",36.14,-5.35\n"       // lines 2-4
            + "short,36.14\n"                  // 5: two fields
            + "\n"                             // 6: empty, no row
            + "nan,abc,-5.35\n"                // 7: bad number
            + "north,95,0\n"                   // 8: outside the world
            + "\"x\"y,36.14,-5.35\n"            // 9: text after a closing quote
            + "\(long),36.14,-5.35\n"           // 10: over --max-line 2K
            + "ok,52.52,13.405\n"              // 11
            + "\"open,1,2\nnext,36.14,-5.35\n"  // 12-13: never closed
        let result = try run(["query", "--csv", "-", "--max-line", "2K"], input: input)
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stdout, "name,lat,lon,id\n\"a\nb\nc\",36.14,-5.35,GI\nok,52.52,13.405,DE\n")
        XCTAssertEqual(result.stderr, """
            gmap: line 5: 2 fields, but the header has 3
            gmap: line 7: latitude 'abc' is not a number
            gmap: line 8: latitude 95 is outside [-90, 90]; latitude comes first: did you mean 0 95?
            gmap: line 9: field 1 has text after its closing quote (a quote inside a quoted field is written "")
            gmap: line 10: longer than 2 KiB, the limit of --max-line (raise it with --max-line SIZE)
            gmap: line 12: a quoted field is not closed: no closing quote before the end of input
            gmap: 6 of 8 rows could not be read

            """)
        // CR LF and lone CR, between rows and inside quotes: each one line end.
        for end in ["\r\n", "\r"] {
            let text = "n,lat,lon\(end)\"a\(end)b\(end)c\",36.14,-5.35\(end)bad,x,1\(end)ok,52.52,13.405\(end)"
            let ends = try run(["query", "--csv", "-"], input: text)
            XCTAssertEqual(ends.status, 2)
            XCTAssertEqual(ends.stderr, "gmap: line 5: latitude 'x' is not a number\ngmap: 1 of 3 rows could not be read\n", end.debugDescription)
        }
        // A bad header stops at once.
        try assertFails(["query", "--csv", "-"], input: "\"lat,lon\n1,2\n",
                        stderr: "gmap: line 1: the header row: a quoted field is not closed: no closing quote before the end of input\n")
    }

    /// Bad rows' messages come between the rows around them (standard output and error in one file).
    func testMessagesComeInOrder() throws {
        let input = path("order.csv"), merged = path("merged.txt")
        try Data("lat,lon\n36.14,-5.35\n1\n52.52,13.405\n".utf8).write(to: URL(fileURLWithPath: input))
        _ = FileManager.default.createFile(atPath: merged, contents: nil)
        let process = Process()
        process.executableURL = try XCTUnwrap(Self.executable)
        process.arguments = ["query", "--csv", input]
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: merged))
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        try handle.close()
        XCTAssertEqual(process.terminationStatus, 2)
        XCTAssertEqual(try String(contentsOfFile: merged, encoding: .utf8),
                       "lat,lon,id\n36.14,-5.35,GI\ngmap: line 3: 1 field, but the header has 2\n52.52,13.405,DE\ngmap: 1 of 3 rows could not be read\n")
    }

    /// A few hundred random points, half of them near the countries' features and half anywhere:
    /// the CSV answers equal `gmap query MAP LAT LON` run once per point, on the shipped map (one
    /// layer) and on it given as a file (every layer).
    func testAnswersEqualOneByOneQueries() throws {
        let world = try GMap(contentsOf: TestSupport.shippedMap)
        let features = world.features
        var random = SplitMix64(seed: 4180)
        var points: [(String, String)] = []
        for index in 0..<240 {
            var latitude: Double, longitude: Double
            if index % 2 == 0 {
                let box = features[random.below(features.count)].boundingBox
                latitude = box.south + (box.north - box.south) * Double(random.below(1001)) / 1000
                longitude = box.west + (box.east - box.west) * Double(random.below(1001)) / 1000
            } else {
                latitude = Double(random.below(180_000_001)) / 1e6 - 90
                longitude = Double(random.below(360_000_001)) / 1e6 - 180
            }
            points.append((String(format: "%.5f", latitude), String(format: "%.5f", longitude)))
        }
        let input = "row,lat,lon\n" + points.enumerated().map { "\($0.offset),\($0.element.0),\($0.element.1)\n" }.joined()

        // One layer: the id column.
        let single = try run(["query", "--csv", "-"], input: input)
        XCTAssertEqual(single.status, 0, single.stderr)
        let singleRows = single.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().dropLast()
        XCTAssertEqual(singleRows.count, points.count)
        var found = 0
        for (row, point) in zip(singleRows, points) {
            let one = try run(["query", point.0, point.1])
            let id = one.stdout.hasSuffix("\n") ? String(one.stdout.dropLast()) : one.stdout
            if !id.isEmpty { found += 1 }
            XCTAssertEqual(String(row), "\(row.split(separator: ",")[0]),\(point.0),\(point.1),\(Self.cell(id))", "\(point)")
        }
        XCTAssertGreaterThan(found, 60, "too few points on land to compare")

        // Every layer: one column per layer, the ids that `gmap query MAP` prints after "layer=".
        let map = TestSupport.shippedMap
        let layers = world.layerNames
        let layered = try run(["query", map, "--csv", "-"], input: input)
        XCTAssertEqual(layered.status, 0, layered.stderr)
        let lines = layered.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        XCTAssertEqual(lines.first.map(String.init), "row,lat,lon," + layers.joined(separator: ","))
        for (row, point) in zip(lines.dropFirst(), points.prefix(120)) {
            let one = try run(["query", map, point.0, point.1]).stdout
            // "countries=GI<tab>marine=Alboran Sea<tab>…": one tab-separated pair per layer, in order.
            let text = one.hasSuffix("\n") ? String(one.dropLast()) : one
            var ids = [String](repeating: "", count: layers.count)
            if !text.isEmpty {
                let pairs = text.split(separator: "\t", omittingEmptySubsequences: false)
                XCTAssertEqual(pairs.count, layers.count, one)
                for position in 0..<min(layers.count, pairs.count) {
                    let layer: String = layers[position], pair: Substring = pairs[position]
                    XCTAssertTrue(pair.hasPrefix(layer + "="), one)
                    ids[position] = String(pair.dropFirst(layer.count + 1))
                }
            }
            XCTAssertEqual(String(row), "\(row.split(separator: ",")[0]),\(point.0),\(point.1)," + ids.map(Self.cell).joined(separator: ","), "\(point)")
        }
    }

    /// `text` as a CSV field: in quotes, its quotes doubled, when it holds a comma, a quote or a line break.
    private static func cell(_ text: String) -> String {
        text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
            ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }

    /// More rows than one thread's share of a block, bad ones among them: the same output with any
    /// number of threads.
    func testThreadsGiveTheSameOutput() throws {
        var random = SplitMix64(seed: 26_4180)
        var rows = ["id_in,\"name, quoted\",lat,lon"]
        for index in 0..<5000 {
            let latitude = Double(random.below(180_000_001)) / 1e6 - 90, longitude = Double(random.below(360_000_001)) / 1e6 - 180
            switch index % 211 {
            case 7: rows.append("\(index),bad,x,\(longitude)")
            case 9: rows.append("\(index),\"multi\nline\",\(latitude),\(longitude)")
            case 11: rows.append("\(index),short")
            default: rows.append("\(index),\"n \"\"\(index)\"\"\",\(latitude),\(longitude)")
            }
        }
        let input = rows.joined(separator: "\r\n") + "\r\n"
        let one = try run(["query", "--csv", "-", "--threads", "1", "--keep", "name"], input: input)
        XCTAssertEqual(one.status, 2)
        XCTAssertTrue(one.stderr.hasSuffix("gmap: 48 of 5000 rows could not be read\n"), one.stderr)
        for threads in ["2", "3"] {
            let other = try run(["query", "--csv", "-", "--threads", threads, "--keep", "name"], input: input)
            XCTAssertEqual(other.status, one.status)
            XCTAssertTrue(other.stdout == one.stdout, "--threads \(threads) differs from --threads 1")
            XCTAssertEqual(other.stderr, one.stderr)
        }
    }
}
