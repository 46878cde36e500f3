import XCTest
@_spi(Testing) import GMap
import GMapBuilder
import GMapTestSupport

/// Format 3's packed top-level directory (`GRID` top_form 1): it answers exactly as the UInt32
/// entries do, it is smaller, and damage to it never crashes a reader and is found by its check
/// (``GMap/topDirectoryProblems``) or refused on open.
final class TopDirectoryTests: XCTestCase {
    private static let fixturePath = TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson").path

    // MARK: Both forms answer alike

    func testFixturesAnswerAlikeInBothForms() throws {
        try assertBothFormsAnswerAlike(path: Self.fixturePath, idProperty: "id")
    }

    func testCountries110mAnswerAlikeInBothForms() throws {
        try assertBothFormsAnswerAlike(path: try TestSupport.sharedFile("countries-110m.geojson").path, idProperty: nil)
    }

    func testRegionsJOSMAnswerAlikeInBothForms() throws {
        try assertBothFormsAnswerAlike(path: try TestSupport.sharedFile("regions-josm.geojson").path, idProperty: "id")
    }

    /// A grid of one tile: the kinds' two words run past `GRID`'s end, which the reader must not touch.
    func testOneTileGridAnswersAlikeInBothForms() throws {
        let square = SourceFeature(id: "SQUARE", polygons: [[[(10, 10), (10.5, 10), (10.5, 10.5), (10, 10.5), (10, 10)]]])
        let triangle = SourceFeature(id: "TRIANGLE", polygons: [[[(10.2, 10.1), (11, 10.1), (10.2, 10.9), (10.2, 10.1)]]])
        let build = { (choice: TopDirectoryChoice) in
            try TestSupport.build([square, triangle]) { $0.topDirectory = choice; $0.tileSize = 20_000_000 }.map
        }
        let entries = try build(.entries), packed = try build(.packed)
        XCTAssertEqual(packed.grid.columns * packed.grid.rows, 1)
        XCTAssertEqual(packed.grid.topForm, FormatLayout.TopForm.packed)
        XCTAssertEqual(packed.topDirectoryProblems, [])
        var random = SplitMix64(state: 3)
        for _ in 0..<20_000 {
            let latitude = Double.random(in: 9.9...11.1, using: &random), longitude = Double.random(in: 9.9...11.1, using: &random)
            XCTAssertEqual(packed.lookupAll(latitude: latitude, longitude: longitude).map(\.id),
                           entries.lookupAll(latitude: latitude, longitude: longitude).map(\.id), "(\(latitude), \(longitude))")
        }
        XCTAssertEqual(packed.lookup(latitude: 10.3, longitude: 10.3)?.id, "SQUARE")
    }

    // MARK: Choosing the form

    /// `.automatic` packs a sparse map (the fixtures' directory is most of their bytes); format 2
    /// always writes entries.
    func testAutomaticChoiceAndFormatTwo() throws {
        let automatic = try TestSupport.build(geoJSON: Self.fixturePath) { $0.idProperty = "id" }.map
        XCTAssertEqual(automatic.grid.topForm, FormatLayout.TopForm.packed)
        let formatTwo = try TestSupport.build(geoJSON: Self.fixturePath) { options in
            options.idProperty = "id"
            options.formatMajorVersion = 2
            options.topDirectory = .packed
        }.map
        XCTAssertEqual(formatTwo.formatVersion.major, 2)
        XCTAssertEqual(formatTwo.grid.topForm, FormatLayout.TopForm.entries)
        XCTAssertEqual(formatTwo.lookup(latitude: 9, longitude: 89)?.id, automatic.lookup(latitude: 9, longitude: 89)?.id)
    }

    /// A top_form other than 0 and 1 is refused on open, with a message naming it.
    func testUnknownTopFormIsRefused() throws {
        var bytes = try packedFixture().bytes
        let parts = try PackedParts(bytes)
        bytes[parts.grid + FormatLayout.Grid.topForm] = 2
        XCTAssertThrowsError(try GMap(bytes: bytes)) { error in
            guard case .malformed(_, _, let reason)? = error as? GMapError else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("form 2 is not known"), reason)
        }
    }

    // MARK: Damage

    /// A kind changed between empty and non-empty makes the samples after it wrong.
    func testDamagedKindsAreReported() throws {
        let sound = try packedFixture().bytes
        let parts = try PackedParts(sound)
        for (tile, makeEmpty) in [(parts.firstEmptyTile, false), (parts.firstNonEmptyTile, true)] {
            var bytes = sound
            let byte = parts.kinds + tile / 4, shift = 2 * (tile % 4)
            if makeEmpty { bytes[byte] &= ~(3 << shift) } else { bytes[byte] |= 1 << shift }
            let map = try XCTUnwrap(exercise(bytes))
            XCTAssertTrue(map.topDirectoryProblems.contains { $0.reason.contains("rank sample \(tile / 64 + 1) ") },
                          "tile \(tile): \(map.topDirectoryProblems)")
        }
    }

    /// Tiles past the last one (the unused bits of the last kinds byte) must be empty.
    func testKindsPastTheGridAreReported() throws {
        let square = SourceFeature(id: "SQUARE", polygons: [[[(10, 10), (10.5, 10), (10.5, 10.5), (10, 10.5), (10, 10)]]])
        var bytes = try TestSupport.build([square]) { $0.topDirectory = .packed; $0.tileSize = 20_000_000 }.bytes
        let parts = try PackedParts(bytes)
        XCTAssertEqual(parts.samples - parts.kinds, 1)
        bytes[parts.kinds] |= 0b0100
        let map = try XCTUnwrap(exercise(bytes))
        XCTAssertTrue(map.topDirectoryProblems.contains { $0.reason.contains("past the grid") }, "\(map.topDirectoryProblems)")
    }

    func testDamagedSamplesAreReported() throws {
        let sound = try packedFixture().bytes
        let parts = try PackedParts(sound)
        for sample in [0, 1, parts.sampleCount / 2, parts.sampleCount - 1] {
            for change in [1, 0x80] as [UInt8] {
                var bytes = sound
                bytes[parts.samples + 4 * sample] ^= change
                let map = try XCTUnwrap(exercise(bytes))
                XCTAssertTrue(map.topDirectoryProblems.contains { $0.reason.contains("rank sample \(sample) ") },
                              "sample \(sample) ^ \(change): \(map.topDirectoryProblems)")
            }
        }
        // Every sample wrong: ten reported one by one, then the count.
        var bytes = sound
        for sample in 1..<parts.sampleCount { bytes[parts.samples + 4 * sample + 3] = 0x40 }
        let problems = try XCTUnwrap(exercise(bytes)).topDirectoryProblems
        XCTAssertEqual(problems.count, 11)
        XCTAssertTrue(problems.last?.reason.contains("\(parts.sampleCount - 1) rank samples are wrong") == true, "\(problems)")
    }

    func testDamagedWidthIsReportedOrRefused() throws {
        let sound = try packedFixture().bytes
        let parts = try PackedParts(sound)
        let width = Int(sound[parts.width])
        for damaged in [33, 0xFF] {
            var bytes = sound
            bytes[parts.width] = UInt8(damaged)
            XCTAssertNil(exercise(bytes), "width \(damaged) must be refused on open")
        }
        for damaged in [width + 1, 32] {
            var bytes = sound
            bytes[parts.width] = UInt8(damaged)
            let map = try XCTUnwrap(exercise(bytes))
            XCTAssertTrue(map.topDirectoryProblems.contains { $0.reason.contains("payloads of") }, "width \(damaged): \(map.topDirectoryProblems)")
        }
        // Narrower payloads fit, but point elsewhere: the walk finds tiles it cannot use.
        var bytes = sound
        bytes[parts.width] = UInt8(width - 1)
        let narrow = try XCTUnwrap(exercise(bytes))
        XCTAssertTrue(Self.walkFindsDamage(narrow))
    }

    func testDamagedPayloadsAreReported() throws {
        let sound = try packedFixture().bytes
        let parts = try PackedParts(sound)
        // The padding bits after the last payload.
        if parts.paddingBits > 0 {
            var bytes = sound
            bytes[parts.gridEnd - 1] |= 0x80
            XCTAssertTrue(try XCTUnwrap(exercise(bytes)).topDirectoryProblems.contains { $0.reason.contains("padding") })
        }
        // Payloads made too large for a feature index or a TILE offset: the walk finds them.
        for position in [0, (parts.gridEnd - parts.payloads) / 2, parts.gridEnd - parts.payloads - 2] {
            var bytes = sound
            bytes[parts.payloads + position] = 0xFF
            bytes[parts.payloads + position + 1] = 0xFF
            let map = try XCTUnwrap(exercise(bytes))
            XCTAssertTrue(Self.walkFindsDamage(map), "payload bytes at \(position)")
        }
    }

    func testTruncatedGridIsReportedOrRefused() throws {
        let sound = try packedFixture().bytes
        let parts = try PackedParts(sound)
        // Payloads cut short: open succeeds (the fixed parts fit), the check finds it.
        for cut in [1, 8, (parts.gridEnd - parts.payloads) / 2, parts.gridEnd - parts.payloads] {
            let map = try XCTUnwrap(exercise(parts.withGridLength(parts.gridLength - cut, in: sound)), "cut \(cut)")
            XCTAssertTrue(map.topDirectoryProblems.contains { $0.reason.contains("payloads of") }, "cut \(cut): \(map.topDirectoryProblems)")
        }
        // The width byte, samples or kinds cut: refused on open.
        for length in [parts.width - parts.grid, parts.samples - parts.grid + 1, parts.kinds - parts.grid + 5, FormatLayout.Grid.directory] {
            let bytes = parts.withGridLength(length, in: sound)
            XCTAssertThrowsError(try GMap(bytes: bytes), "GRID of \(length) bytes") { error in
                XCTAssertTrue("\(error)".contains("packed top-level directory"), "\(error)")
            }
        }
    }

    /// Random bytes of the packed directory flipped, many times: lookups and walks never crash.
    func testRandomDamageNeverCrashes() throws {
        let sound = try packedFixture().bytes
        let parts = try PackedParts(sound)
        var random = SplitMix64(state: 11)
        var opened = 0, found = 0
        for _ in 0..<300 {
            var bytes = sound
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                bytes[Int.random(in: parts.grid..<parts.gridEnd, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
            }
            guard let map = exercise(bytes) else { continue }
            opened += 1
            if !map.topDirectoryProblems.isEmpty || Self.walkFindsDamage(map) { found += 1 }
        }
        XCTAssertGreaterThan(opened, 200)
        XCTAssertGreaterThan(found, opened / 2)
    }

    // MARK: Helpers

    /// Builds `path` with both forms and checks they answer `lookup` and `lookupAll` alike on
    /// 200,000 points (uniform, on and near vertices and edges), have the same leaf tiles, that
    /// the packed `GRID` is smaller and that neither directory's check finds a problem.
    private func assertBothFormsAnswerAlike(path: String, idProperty: String?, file: StaticString = #filePath, line: UInt = #line) throws {
        let build = { (choice: TopDirectoryChoice) in
            try TestSupport.build(geoJSON: path) { options in
                options.idProperty = idProperty
                options.topDirectory = choice
            }.map
        }
        let entries = try build(.entries), packed = try build(.packed)
        XCTAssertEqual(entries.grid.topForm, FormatLayout.TopForm.entries, file: file, line: line)
        XCTAssertEqual(packed.grid.topForm, FormatLayout.TopForm.packed, file: file, line: line)
        let entriesGrid = try XCTUnwrap(entries.sections.first { $0.tag == "GRID" }).length
        let packedGrid = try XCTUnwrap(packed.sections.first { $0.tag == "GRID" }).length
        XCTAssertLessThan(packedGrid, entriesGrid, file: file, line: line)
        XCTAssertEqual(packed.topDirectoryProblems, [], file: file, line: line)
        XCTAssertEqual(entries.topDirectoryProblems, [], file: file, line: line)

        var entryLeaves: [LeafTile] = [], packedLeaves: [LeafTile] = []
        XCTAssertEqual(entries.forEachLeafTile { entryLeaves.append($0) }, 0, file: file, line: line)
        XCTAssertEqual(packed.forEachLeafTile { packedLeaves.append($0) }, 0, file: file, line: line)
        XCTAssertTrue(entryLeaves == packedLeaves, "the leaf tiles differ", file: file, line: line)

        let features = try TestSupport.features(at: path, idProperty: idProperty)
        let points = OracleCheck.points(near: features, uniform: 100_000, nearEdges: 100_000, seed: 5)
        XCTAssertEqual(points.count, 200_000, file: file, line: line)
        var differences: [String] = []
        for point in points {
            let expected = entries.lookupAll(latitude: point.latitude, longitude: point.longitude).map(\.id)
            let actual = packed.lookupAll(latitude: point.latitude, longitude: point.longitude).map(\.id)
            let single = packed.lookup(latitude: point.latitude, longitude: point.longitude)?.id
            if actual != expected || single != expected.first, differences.count < 10 {
                differences.append("(\(point.latitude), \(point.longitude)): entries \(expected), packed \(actual) / \(single ?? "nil")")
            }
        }
        XCTAssertEqual(differences, [], file: file, line: line)
    }

    /// The fixtures built with a packed directory.
    private func packedFixture() throws -> (map: GMap, bytes: [UInt8]) {
        try TestSupport.build(geoJSON: Self.fixturePath) { options in
            options.idProperty = "id"
            options.topDirectory = .packed
        }
    }

    /// Opens `bytes`, and when they open runs every reading path over them (lookups across the
    /// grid, the leaf walk and every record's edges): a crash fails the test run. Nil when refused.
    private func exercise(_ bytes: [UInt8]) -> GMap? {
        guard let map = try? GMap(bytes: bytes) else { return nil }
        var random = SplitMix64(state: 17)
        for _ in 0..<2_000 {
            let latitude = Double.random(in: -90...90, using: &random), longitude = Double.random(in: -180...180, using: &random)
            _ = map.lookup(latitude: latitude, longitude: longitude)
            _ = map.lookupAll(latitude: latitude, longitude: longitude)
        }
        map.forEachLeafTile { tile in map.forEachEdge(in: tile) { _ in } }
        return map
    }

    /// Whether walking the leaves finds a tile it cannot read or a record it cannot decode.
    private static func walkFindsDamage(_ map: GMap) -> Bool {
        var corrupt = 0
        let unreadable = map.forEachLeafTile { tile in
            if !map.forEachEdge(in: tile, { _ in }) { corrupt += 1 }
        }
        return unreadable + corrupt > 0
    }
}

/// Where the parts of the first layer's packed top-level directory lie in a map's bytes.
private struct PackedParts {
    /// Absolute offsets: `GRID`, its kinds, rank samples, width byte, payloads, and its end.
    var grid = 0, kinds = 0, samples = 0, width = 0, payloads = 0, gridEnd = 0
    /// `GRID`'s length, and where its length is written in the section table.
    var gridLength = 0, lengthField = 0
    /// Rank samples; the first empty and the first non-empty tile before the last block of 64;
    /// the zero bits after the last payload.
    var sampleCount = 0, firstEmptyTile = 0, firstNonEmptyTile = 0, paddingBits = 0

    /// The parts of `bytes`, a map whose first layer's directory is packed.
    init(_ bytes: [UInt8]) throws {
        func integer(_ offset: Int, _ length: Int) -> Int {
            (0..<length).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
        }
        let table = integer(FormatLayout.Header.headerLength, 4), count = integer(FormatLayout.Header.sectionCount, 4)
        guard let index = (0..<count).first(where: { integer(table + $0 * FormatLayout.sectionEntryLength, 4) == Int(SectionTag.grid.rawValue) }) else {
            throw XCTSkip("no GRID section")
        }
        let entry = table + index * FormatLayout.sectionEntryLength
        grid = integer(entry + FormatLayout.SectionEntry.offset, 8)
        gridLength = integer(entry + FormatLayout.SectionEntry.length, 8)
        lengthField = entry + FormatLayout.SectionEntry.length
        gridEnd = grid + gridLength
        XCTAssertEqual(bytes[grid + FormatLayout.Grid.topForm], FormatLayout.TopForm.packed)
        let tiles = integer(grid + FormatLayout.Grid.columns, 4) * integer(grid + FormatLayout.Grid.rows, 4)
        sampleCount = (tiles + 63) / 64
        kinds = grid + FormatLayout.Grid.directory
        samples = kinds + (tiles + 3) / 4
        width = samples + 4 * sampleCount
        payloads = width + 1
        func isEmpty(_ tile: Int) -> Bool { (bytes[kinds + tile / 4] >> (2 * (tile % 4))) & 3 == 0 }
        let beforeLastBlock = 0..<(sampleCount - 1) * 64
        firstEmptyTile = beforeLastBlock.first(where: isEmpty) ?? 0
        firstNonEmptyTile = beforeLastBlock.first { !isEmpty($0) } ?? 0
        let nonEmpty = (0..<tiles).filter { !isEmpty($0) }.count
        paddingBits = (8 - nonEmpty * Int(bytes[width]) % 8) % 8
    }

    /// `bytes` with `GRID`'s length in the section table set to `length`.
    func withGridLength(_ length: Int, in bytes: [UInt8]) -> [UInt8] {
        var copy = bytes
        for index in 0..<8 { copy[lengthField + index] = UInt8(truncatingIfNeeded: length >> (8 * index)) }
        return copy
    }
}
