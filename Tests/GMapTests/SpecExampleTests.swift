import Foundation
import XCTest
import GMap
import GMapBuilder
import GMapTestSupport

/// The worked examples of Spec/FORMAT.md: format 3.0 (section 16.6), `Fixtures/spec-example-3.gmap`,
/// rebuilt byte for byte by the command the spec shows, and answering the lookup done there by hand;
/// format 3.1 (section 16.7), `Fixtures/spec-example-31.gmap`, rebuilt by the builder code the spec
/// shows, every byte the spec prints checked against it, and its nearest queries.
final class SpecExampleTests: CommandLineTestCase {
    override class var needsExecutable: Bool { false }


    /// Section 16.6.1's command (with -q) writes exactly the committed file.
    func testFormatThreeWorkedExampleIsCurrent() throws {
        let output = temporary.appendingPathComponent("spec-example-3.gmap")
        let input = TestSupport.fixtures.appendingPathComponent("spec-example-3.geojson")
        let result = try run(["build", input.path, "-o", output.path, "--precision", "0.01", "--tile-size", "2", "--max-edges", "4",
                              "--split", "2", "--max-depth", "2", "--id", "name", "--keep", "name", "--top", "packed", "--format", "3.4", "-q"])
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

    // MARK: Format 3.1 (section 16.7)

    private static let fixture31 = TestSupport.fixtures.appendingPathComponent("spec-example-31.gmap")

    /// Section 16.7.1's code.
    static func buildFormatThreeOneExample() throws -> [UInt8] {
        var options = BuildOptions()
        options.quantizer = try XCTUnwrap(Quantizer(unitsPerDegree: 100))
        options.tileSize = 100
        var streets = try LineLayerBuilder(options: options)
        try streets.add(SourceLineFeature(id: "Main", lines: [[(0.10, 0.40), (0.60, 0.40), (1.30, 0.60)]]))
        try streets.add(SourceLineFeature(id: "Side", lines: [[(0.60, 0.10), (0.60, 0.40), (0.70, 0.80)]]))
        var places = try PointLayerBuilder(options: options)
        places.writesIndexes = false
        try places.add(SourcePointFeature(id: "Cafe", points: [(0.55, 0.45)]))
        try places.add(SourcePointFeature(id: "Park", points: [(0.30, 0.70)]))
        try places.add(SourcePointFeature(id: "Bridge", points: [(1.00, 0.30)]))
        var map = LayeredMapBuilder()
        try map.addLayer(named: "streets", streets)
        try map.addLayer(named: "places", places)
        return try map.finish().bytes
    }

    /// The code of section 16.7.1 builds exactly the committed file, a sound 3.1 file of 1194 bytes.
    func testFormatThreeOneWorkedExampleIsCurrent() throws {
        let built = try Self.buildFormatThreeOneExample()
        let committed = [UInt8](try Data(contentsOf: Self.fixture31))
        XCTAssertEqual(built, committed, "Fixtures/spec-example-31.gmap is not what the code of Spec/FORMAT.md section 16.7.1 builds: update the fixture and section 16.7")
        XCTAssertEqual(built.count, 1194)
        let map = try GMap(bytes: built)
        XCTAssertEqual(map.formatVersion.major, 3)
        XCTAssertEqual(map.formatVersion.minor, 1)
        XCTAssertTrue(MapVerifier(map: map).isSound)
        XCTAssertEqual(map.sections.count, 13)
        XCTAssertEqual(map.layers.map(\.layerName), ["streets", "places"])
        XCTAssertEqual(map.layers.map(\.geometryKind), [.lines, .points])
        XCTAssertEqual(map.features.map(\.id), ["Main", "Side"])
        XCTAssertEqual(map.layer(named: "places")?.features.map(\.id), ["Cafe", "Park", "Bridge"])
    }

    /// The fenced block that follows `heading` in Spec/FORMAT.md.
    private func specBlock(after heading: String) throws -> [Substring] {
        let spec = try String(contentsOf: TestSupport.repositoryRoot.appendingPathComponent("Spec/FORMAT.md"), encoding: .utf8)
        let start = try XCTUnwrap(spec.range(of: heading), "Spec/FORMAT.md has no heading \(heading)")
        let rest = spec[start.upperBound...]
        let open = try XCTUnwrap(rest.range(of: "\n```"))
        let body = rest[open.upperBound...].drop { $0 != "\n" }.dropFirst()
        let close = try XCTUnwrap(body.range(of: "\n```"))
        return body[..<close.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
    }

    private static func hexBytes<S: StringProtocol>(_ text: S) -> [UInt8]? {
        var bytes: [UInt8] = []
        for token in text.split(separator: " ") {
            guard token.count == 2, let value = UInt8(token, radix: 16) else { return nil }
            bytes.append(value)
        }
        return bytes
    }

    private static func columns(_ line: Substring, _ range: Range<Int>) -> Substring {
        let characters = Array(line)
        guard range.lowerBound < characters.count else { return "" }
        return Substring(String(characters[range.lowerBound..<min(range.upperBound, characters.count)]))
    }

    /// Every byte Spec/FORMAT.md prints in 16.7.2 (the `xxd` dump) and 16.7.3 (the labelled bytes)
    /// is the fixture's byte at that offset, and 16.7.3 shows every byte of the header, the table,
    /// both grids, both tile sections and LAYR.
    func testFormatThreeOneSpecBytesMatchTheFile() throws {
        let file = [UInt8](try Data(contentsOf: Self.fixture31))
        // 16.7.2: `00000000: 8947 4d41 …  ascii`.
        var dumped: [UInt8] = []
        for line in try specBlock(after: "#### 16.7.2 The whole file") where !line.isEmpty {
            let offset = try XCTUnwrap(Int(Self.columns(line, 0..<8), radix: 16), String(line))
            XCTAssertEqual(offset, dumped.count, "16.7.2: the line \(line) is out of place")
            var hex = String(Self.columns(line, 10..<49).filter { $0 != " " })
            var bytes: [UInt8] = []
            while hex.count >= 2 {
                bytes.append(try XCTUnwrap(UInt8(hex.prefix(2), radix: 16), String(line)))
                hex.removeFirst(2)
            }
            dumped += bytes
        }
        XCTAssertEqual(dumped, file, "the xxd dump of Spec/FORMAT.md 16.7.2 is not Fixtures/spec-example-31.gmap")
        // 16.7.3: `OOOO  bytes (columns 6 to 40)  comment`, continuation lines without an offset.
        var shown = Set<Int>()
        var next = 0
        for line in try specBlock(after: "#### 16.7.3") {
            let head = Self.columns(line, 0..<6)
            let offset: Int
            if head.count == 6, head.hasSuffix("  "), let value = Int(head.prefix(4), radix: 16) {
                offset = value
            } else if head == "      " {
                offset = next
            } else {
                continue
            }
            guard let bytes = Self.hexBytes(Self.columns(line, 6..<41).trimmingCharacters(in: .whitespaces)), !bytes.isEmpty else { continue }
            XCTAssertLessThanOrEqual(offset + bytes.count, file.count, String(line))
            guard offset + bytes.count <= file.count else { continue }
            XCTAssertEqual(bytes, Array(file[offset..<offset + bytes.count]), "Spec/FORMAT.md 16.7.3 shows wrong bytes: \(line)")
            for index in offset..<offset + bytes.count { XCTAssertTrue(shown.insert(index).inserted, "16.7.3 shows byte \(index) twice") }
            next = offset + bytes.count
        }
        for range in [0..<0x230, 0x2C8..<0x300, 0x388..<0x3D0] {
            XCTAssertEqual(Set(range).subtracting(shown), [], "16.7.3 leaves bytes of \(range) out")
        }
    }

    /// Reads `width` bits at stream bit `start` of `bytes`, least significant bit first (section 1).
    private static func field(_ bytes: ArraySlice<UInt8>, _ start: Int, _ width: Int) -> UInt64 {
        var value: UInt64 = 0
        for bit in 0..<width {
            let index = start + bit
            if bytes[bytes.startIndex + index / 8] >> UInt8(index % 8) & 1 == 1 { value |= 1 << UInt64(bit) }
        }
        return value
    }

    private static func unzigzag(_ z: UInt64) -> Int64 { Int64(bitPattern: z >> 1) ^ -Int64(bitPattern: z & 1) }

    /// Section 16.7.4 by hand: the lines record at TILE + 0 (run 1 field by field, run 2's values),
    /// the lines record at TILE + 22, and both points records.
    func testFormatThreeOneRecordsByHand() throws {
        let file = [UInt8](try Data(contentsOf: Self.fixture31))
        let tile = 0x208, points = 0x2F0
        // GRID: geometry 1 (lines), u32 entries: records at TILE + 0 and TILE + 22.
        XCTAssertEqual(file[0x1E0 + 26], 1)
        XCTAssertEqual(file[0x1E0 + 27], 0)
        XCTAssertEqual(Array(file[0x200..<0x208]), [0x00, 0x00, 0x00, 0x80, 0x16, 0x00, 0x00, 0x80])
        XCTAssertEqual(file[0x2C8 + 26], 2)
        XCTAssertEqual(Array(file[0x2E8..<0x2F0]), [0x00, 0x00, 0x00, 0x80, 0x0B, 0x00, 0x00, 0x80])
        // Record head: n = 2, features 0 and 0 + 1, r = 2, wfx = wfy = 7; run 1: m = 3.
        XCTAssertEqual(Array(file[tile..<tile + 7]), [0x02, 0x00, 0x01, 0x02, 0x07, 0x07, 0x03])
        let run1 = file[tile + 7..<tile + 14]
        XCTAssertEqual(Array(run1), [0x51, 0xA0, 0x88, 0x41, 0x06, 0x30, 0xA2])
        // (field, start, width, value) as in the table of 16.7.4.
        let fields: [(String, Int, Int, UInt64)] = [("mask", 0, 2, 1), ("zfx", 2, 7, 20), ("zfy", 9, 7, 80), ("wx", 16, 6, 8), ("wy", 22, 6, 6),
                                                    ("zx1", 28, 8, 100), ("zy1", 36, 6, 0), ("zx2", 42, 8, 140), ("zy2", 50, 6, 40)]
        for (name, start, width, value) in fields { XCTAssertEqual(Self.field(run1, start, width), value, name) }
        XCTAssertEqual(2 + 7 + 7 + 12 + 2 * (8 + 6), 56)
        var x: Int64 = 0 + Self.unzigzag(20), y: Int64 = 0 + Self.unzigzag(80)
        var vertices = [[x, y]]
        for (zx, zy) in [(UInt64(100), UInt64(0)), (140, 40)] {
            x += Self.unzigzag(zx); y += Self.unzigzag(zy)
            vertices.append([x, y])
        }
        XCTAssertEqual(vertices, [[10, 40], [60, 40], [130, 60]])
        // Run 2: m = 3, mask 10, (60,10) (60,40) (70,80), 52 bits in 7 bytes.
        XCTAssertEqual(file[tile + 14], 0x03)
        let run2 = file[tile + 15..<tile + 22]
        let values2 = [(0, 2), (2, 7), (9, 7), (16, 6), (22, 6), (28, 5), (33, 7), (40, 5), (45, 7)].map { Self.field(run2, $0.0, $0.1) }
        XCTAssertEqual(values2, [2, 120, 20, 5, 7, 0, 60, 20, 80])
        XCTAssertEqual(Self.field(run2, 52, 4), 0, "padding")
        // TILE + 22, tile 1 (W = 100): one slot, no mask; a first vertex west of the tile.
        let record = tile + 22
        XCTAssertEqual(Array(file[record..<record + 6]), [0x01, 0x00, 0x01, 0x07, 0x07, 0x02])
        let run = file[record + 6..<record + 11]
        let values = [(0, 7), (7, 7), (14, 6), (20, 6), (26, 8), (34, 6)].map { Self.field(run, $0.0, $0.1) }
        XCTAssertEqual(values, [79, 80, 8, 6, 140, 40])
        XCTAssertEqual(100 + Self.unzigzag(79), 60)
        // Points: T001 + 0 and T001 + 11.
        XCTAssertEqual(Array(file[points..<points + 16]), [0x02, 0x00, 0x01, 0x02, 0x00, 0x6E, 0x5A, 0x01, 0x3C, 0x8C, 0x01,
                                                          0x01, 0x02, 0x01, 0x00, 0x3C])
        XCTAssertEqual([Self.unzigzag(0x6E), Self.unzigzag(0x5A), Self.unzigzag(0x3C), Self.unzigzag(0x0C + 128), Self.unzigzag(0)], [55, 45, 30, 70, 0])
        // LAYR: the places layer has no LABL and NAME (tags 0).
        XCTAssertEqual(Array(file[0x3C8..<0x3D0]), [0, 0, 0, 0, 0, 0, 0, 0])
    }

    /// Section 16.7.5: the nearest lines and nearest points queries by hand.
    func testFormatThreeOneQueriesByHand() throws {
        let map = try GMap(contentsOf: Self.fixture31.path)
        let lines = map.nearestLines(in: "streets", latitude: 0.45, longitude: 0.62, within: 6500)
        XCTAssertEqual(lines.map(\.feature.id), ["Side", "Main"])
        XCTAssertEqual(lines.map(\.feature.index), [1, 0])
        XCTAssertEqual(lines[0].distance, 809.62, accuracy: 0.005)
        XCTAssertEqual(lines[0].latitude, 0.451787, accuracy: 5e-7)
        XCTAssertEqual(lines[0].longitude, 0.612947, accuracy: 5e-7)
        XCTAssertEqual(lines[0].direction, 14.04, accuracy: 0.005)
        XCTAssertEqual(lines[1].distance, 4710.76, accuracy: 0.005)
        XCTAssertEqual(lines[1].latitude, 0.409016, accuracy: 5e-7)
        XCTAssertEqual(lines[1].longitude, 0.631554, accuracy: 5e-7)
        XCTAssertEqual(map.nearestLines(in: "streets", latitude: 0.45, longitude: 0.62, within: 2000).map(\.feature.id), ["Side"])
        XCTAssertEqual(map.nearestLines(in: "streets", latitude: 0.45, longitude: 0.62, within: 6500, limit: 1).map(\.feature.id), ["Side"])
        let places = map.nearestPoints(in: "places", latitude: 0.40, longitude: 0.80, within: 30_000)
        XCTAssertEqual(places.map(\.feature.id), ["Bridge", "Cafe"])
        XCTAssertEqual(places[0].distance, 24_858.04, accuracy: 0.005)
        XCTAssertEqual(places[0].bearing, 116.56, accuracy: 0.005)
        XCTAssertEqual(places[1].distance, 28_372.95, accuracy: 0.005)
        XCTAssertEqual(places[1].bearing, 281.31, accuracy: 0.005)
        // Other kinds answer nothing: no containment in lines, no nearest points in lines.
        XCTAssertEqual(map.lookupAll(latitude: 0.4, longitude: 0.6), [])
        XCTAssertEqual(map.nearestPoints(in: "streets", latitude: 0.45, longitude: 0.62, within: 6500).count, 0)
        // Label points of lines are vertices: Main's and Side's middle vertex, (60,40).
        XCTAssertEqual(map.feature(at: 0)?.labelPoint?.latitude ?? 0, 0.40, accuracy: 1e-12)
        XCTAssertEqual(map.feature(at: 1)?.labelPoint?.longitude ?? 0, 0.60, accuracy: 1e-12)
    }

    // MARK: Format 3.4 (section 5.12.4)

    /// Section 5.12.4: the command builds a 3.4 file whose point table, name index and leaf record
    /// are the bytes the spec labels (offsets from each section's start), and which answers as the
    /// section says.
    func testCompactPointsExampleBytes() throws {
        let output = temporary.appendingPathComponent("spec-example-34.gmap")
        let input = TestSupport.fixtures.appendingPathComponent("spec-example-34.geojson")
        let result = try run(["build", input.path, "-o", output.path, "--precision", "0.01", "--tile-size", "1",
                              "--keep", "population,capital", "--compact-points", "all", "-q"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let file = [UInt8](try Data(contentsOf: output))
        let map = try GMap(bytes: file)
        XCTAssertEqual(map.formatVersion.minor, 4)
        XCTAssertTrue(MapVerifier(map: map).isSound)
        func section(_ tag: String) throws -> ArraySlice<UInt8> {
            let info = try XCTUnwrap(map.sections.first { $0.tag == tag })
            return file[Int(info.offset)..<Int(info.offset + info.length)]
        }
        XCTAssertEqual(Array(try section("TILE")), [0x00, 0x04])
        for (tag, lead) in [("FEAT", "offsets from its start, hexadecimal):"), ("NAME", "has 9 records of 3 bytes; with four features `B` = 2:")] {
            let bytes = Array(try section(tag))
            var shown = 0, next = 0
            for line in try specBlock(after: lead) {
                let head = Self.columns(line, 0..<5)
                let offset: Int
                if head.hasPrefix("+"), let value = Int(head.dropFirst().prefix(2), radix: 16) {
                    offset = value
                } else if head == "     " {
                    offset = next
                } else {
                    continue
                }
                let hex = Self.columns(line, 5..<41).trimmingCharacters(in: .whitespaces)
                guard let values = Self.hexBytes(hex), !values.isEmpty else { continue }
                XCTAssertEqual(offset, next, "5.12.4 (\(tag)) skips or repeats bytes: \(line)")
                XCTAssertLessThanOrEqual(offset + values.count, bytes.count, String(line))
                guard offset + values.count <= bytes.count else { continue }
                XCTAssertEqual(values, Array(bytes[offset..<offset + values.count]), "Spec/FORMAT.md 5.12.4 shows wrong \(tag) bytes: \(line)")
                next = offset + values.count
                shown += values.count
            }
            XCTAssertEqual(shown, bytes.count, "5.12.4 shows every byte of \(tag)")
        }
        XCTAssertEqual(map.features.map(\.id), ["Old Town", "Old Town", "Newport", "Saint Anne/Bay"])
        XCTAssertEqual(map.features[2].properties, [Property(key: "population", value: "35000", kind: .number), Property(key: "capital", value: "true", kind: .boolean)])
        XCTAssertEqual(map.find("bay", matching: .exact).map(\.id), ["Saint Anne/Bay"])
        XCTAssertEqual(map.find("anne").map(\.id), ["Saint Anne/Bay"])
        XCTAssertEqual(map.nearestPoint(latitude: 0.25, longitude: 0.25, within: 100_000)?.feature.index, 1)
        let plain = temporary.appendingPathComponent("spec-example-34-plain.gmap")
        XCTAssertEqual(try run(["build", input.path, "-o", plain.path, "--precision", "0.01", "--tile-size", "1",
                                "--keep", "population,capital", "-q"]).status, 0)
        XCTAssertEqual(try Data(contentsOf: plain).count, 1427)
        XCTAssertEqual(file.count, 994)
    }

    // MARK: Format 3.6 (section 5.13)

    /// Section 5.13: the command builds a 3.6 file whose lexicon is the bytes the spec labels
    /// (offsets from the section's start), and which answers as the section says.
    func testNamedCompactPointsExampleBytes() throws {
        let output = temporary.appendingPathComponent("spec-example-36.gmap")
        let input = TestSupport.fixtures.appendingPathComponent("spec-example-36.geojson")
        let result = try run(["build", input.path, "-o", output.path, "--precision", "0.01", "--tile-size", "1",
                              "--keep", "population", "--compact-points", "all", "--other-names", "alternatenames", "-q"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let file = [UInt8](try Data(contentsOf: output))
        let map = try GMap(bytes: file)
        XCTAssertEqual(map.formatVersion.minor, 6)
        XCTAssertEqual(file.count, 1044)
        XCTAssertEqual(MapVerifier(map: map).problems.map(\.description), [])
        let info = try XCTUnwrap(map.sections.first { $0.tag == "NAME" })
        let bytes = Array(file[Int(info.offset)..<Int(info.offset + info.length)])
        var shown = 0, next = 0
        for line in try specBlock(after: "The lexicon (`NAME`, 149 bytes; offsets from its start, hexadecimal)") {
            let head = Self.columns(line, 0..<5)
            let offset: Int
            if head.hasPrefix("+"), let value = Int(head.dropFirst().prefix(2), radix: 16) {
                offset = value
            } else if head == "     " {
                offset = next
            } else {
                continue
            }
            let hex = Self.columns(line, 5..<41).trimmingCharacters(in: .whitespaces)
            guard let values = Self.hexBytes(hex), !values.isEmpty else { continue }
            XCTAssertEqual(offset, next, "5.13 skips or repeats bytes: \(line)")
            XCTAssertLessThanOrEqual(offset + values.count, bytes.count, String(line))
            guard offset + values.count <= bytes.count else { continue }
            XCTAssertEqual(values, Array(bytes[offset..<offset + values.count]), "Spec/FORMAT.md 5.13 shows wrong bytes: \(line)")
            next = offset + values.count
            shown += values.count
        }
        XCTAssertEqual(shown, bytes.count, "5.13 shows every byte of the lexicon")
        func found(_ text: String) -> [String] { map.findMatches(text).map { "\($0.feature.index) \($0.match)" + ($0.otherName.map { " \($0)" } ?? "") } }
        XCTAssertEqual(found("Port Neuf"), ["2 exact Port Neuf"])
        XCTAssertEqual(found("port"), ["2 prefix Port Neuf"])
        XCTAssertEqual(found("sainte-anne"), ["3 exact Sainte-Anne"])
        XCTAssertEqual(found("ville"), [])
        XCTAssertEqual(found("town"), ["0 words", "1 words"])
        XCTAssertEqual(found("NP"), ["2 exact NP"])
    }
}
