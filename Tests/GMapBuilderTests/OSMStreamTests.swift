import XCTest
import GMap
import GMapBuilder
import GMapCodecs
import GMapTestSupport

/// The streamed read for a location map (issue 22, part 8): the compact stores, the stream's
/// framing against the whole-file reader, the limit, and the map it builds, which must be the
/// same bytes as the whole-file path's (the oracle, kept for tests and small inputs).
final class OSMStreamTests: XCTestCase {
    // MARK: Compact stores

    func testTheNodeStoreSortsKeepsTheFirstOfARepeatedIdAndFindsIdsBeyond2To33() {
        var store = OSMNodeStore()
        let big: Int64 = 1 << 40 + 7
        store.append(id: 5, latitude: 600_000_000_00, longitude: 250_000_000_00)
        store.append(id: big, latitude: -1_00, longitude: 1_799_999_999_00)
        store.append(id: 3, latitude: 1_00, longitude: 2_00)
        store.append(id: 3, latitude: 9_00, longitude: 9_00)  // a repeat: the first wins
        store.append(id: -2, latitude: 3_00, longitude: 4_00)
        store.finish()
        XCTAssertEqual(store.ids, [-2, 3, 5, big])
        XCTAssertFalse(store.isWide)
        XCTAssertEqual(store.node(id: 3), OSMNode(id: 3, latitudeNanodegrees: 1_00, longitudeNanodegrees: 2_00))
        XCTAssertEqual(store.node(id: big), OSMNode(id: big, latitudeNanodegrees: -1_00, longitudeNanodegrees: 1_799_999_999_00))
        XCTAssertNil(store.node(id: 4))
        XCTAssertNil(store.node(id: big + 1))
        XCTAssertNil(store.node(id: Int64.min))
    }

    func testTheNodeStoreWidensForPositionsThatAreNotWholeHundredsOfNanodegrees() {
        var store = OSMNodeStore()
        for id in 0..<200 { store.append(id: Int64(id) * 3, latitude: Int64(id) * 100, longitude: -Int64(id) * 100) }
        store.append(id: 1_000, latitude: 60_123_456_789, longitude: -179_999_999_999)
        store.append(id: 1_001, latitude: 89_999_999_900, longitude: 180_000_000_000)
        store.finish()
        XCTAssertTrue(store.isWide)
        XCTAssertEqual(store.count, 202)
        XCTAssertEqual(store.node(id: 1_000)?.latitudeNanodegrees, 60_123_456_789)
        XCTAssertEqual(store.node(id: 1_000)?.longitudeNanodegrees, -179_999_999_999)
        XCTAssertEqual(store.node(id: 1_001)?.longitudeNanodegrees, 180_000_000_000)
        for id in 0..<200 {
            XCTAssertEqual(store.node(id: Int64(id) * 3)?.latitudeNanodegrees, Int64(id) * 100)
            XCTAssertNil(store.node(id: Int64(id) * 3 + 1))
        }
    }

    func testTheNodeStorePacksBlocksOfIdsAndKeepsWholeTheBlocksWhereIdsJump() {
        // Runs of ids 2 apart, a jump of 10^10 (as between tiled copies) in the middle of a block,
        // and the extremes of Int64.
        var ids: [Int64] = [Int64.min, Int64.min + 1]
        ids += (0..<100).map { Int64($0) * 2 }
        ids += (0..<150).map { 10_000_000_000 + Int64($0) * 2 }
        ids += [Int64.max - 1, Int64.max]
        var store = OSMNodeStore()
        for (index, id) in ids.enumerated().reversed() { store.append(id: id, latitude: Int64(index) * 100, longitude: -Int64(index) * 100) }
        store.finish()
        XCTAssertEqual(store.count, ids.count)
        XCTAssertEqual(store.ids, ids)
        for (index, id) in ids.enumerated() {
            XCTAssertEqual(store.index(of: id), index, "\(id)")
            XCTAssertEqual(store.node(id: id)?.latitudeNanodegrees, Int64(index) * 100)
            if id != Int64.max, !ids.contains(id + 1) { XCTAssertNil(store.index(of: id + 1), "\(id + 1)") }
        }
        XCTAssertNil(store.index(of: 10_000_000_000 - 1))
        XCTAssertNil(store.index(of: 5_000_000_000))
        XCTAssertNil(store.index(of: 1 << 62))
    }

    func testTheWayReferenceStoreGivesBackAnyIds() {
        let ways: [(Int64, [Int64])] = [(1, [1, 2, 3]), (2, []), (1 << 40, [Int64.max, Int64.min, 0, -1, 1 << 35]), (-5, [7, 7, 7])]
        var store = OSMWayReferenceStore()
        for (id, references) in ways { store.append(id: id, references: references) }
        var read: [(Int64, [Int64])] = []
        store.forEach { read.append(($0, $1)) }
        XCTAssertEqual(read.map(\.0), ways.map(\.0))
        XCTAssertEqual(read.map(\.1), ways.map(\.1))
        XCTAssertEqual(store.referenceCount, 11)
    }

    // MARK: The stream against the whole-file reader

    /// Collects what the stream gives, as the whole-file reader would hold it.
    func streamed(_ bytes: [UInt8]) throws -> OSMData {
        var data = OSMData()
        _ = try OSMPBFReader.stream(MemoryByteSource(bytes), file: "fixture.osm.pbf", into: &data)
        return data
    }

    func testTheStreamGivesTheElementsTheReaderReads() throws {
        for compression in [PBFFixture.Compression.raw, .zlib] {
            let file = PBFFixture.file(compression: compression)
            let whole = try OSMPBFReader.read(file, file: "fixture.osm.pbf")
            let data = try streamed(file)
            XCTAssertEqual(data.nodes, whole.nodes)
            XCTAssertEqual(data.ways, whole.ways)
            XCTAssertEqual(data.relations, whole.relations)
        }
    }

    func testTheStreamFailsAsTheReaderDoesOnEveryTruncationAndCorruption() throws {
        let file = PBFFixture.file(compression: .zlib) + PBFFixture.framed(type: "OSMData", block: PBFFixture.dataBlock(), compression: .raw)
        var cases: [[UInt8]] = [[], Array(file.prefix(3))]
        for length in stride(from: 1, to: file.count, by: 7) { cases.append(Array(file.prefix(length))) }
        for position in stride(from: 0, to: file.count, by: 11) {
            var corrupt = file
            corrupt[position] ^= 0x5A
            cases.append(corrupt)
        }
        cases.append(PBFFixture.framed(type: "OSMData", block: PBFFixture.dataBlock()))
        cases.append(PBFFixture.file(compression: .lzma))
        var failures = 0
        for bytes in cases {
            let expected: String
            do {
                _ = try OSMPBFReader.read(bytes, file: "fixture.osm.pbf")
                expected = "ok"
            } catch {
                expected = error.description
                failures += 1
            }
            let got: String
            do {
                _ = try streamed(bytes)
                got = "ok"
            } catch {
                got = "\(error)"
            }
            XCTAssertEqual(got, expected, "\(bytes.count) bytes")
        }
        XCTAssertGreaterThan(failures, cases.count / 2)
    }

    // MARK: The map, streamed and whole

    /// A file in an order the reader must not rely on: the relation first, then the ways, then the
    /// nodes, out of id order, one repeated, ids beyond 2^33 and a position that is not a whole
    /// number of 100 nanodegrees; the multipolygon's member way is untagged.
    static func awkwardFile() -> [UInt8] {
        let base: Int64 = 1 << 34
        let strings = ["", "highway", "residential", "name", "Keskuskatu", "Mannerheimintie", "primary", "type", "multipolygon",
                       "outer", "leisure", "park", "Esplanadi", "amenity", "cafe", "Ekberg", "addr:housenumber", "9", "addr:street", "ref"]
        func index(_ string: String) -> Int64 { Int64(strings.firstIndex(of: string)!) }
        var table = ProtobufWriter()
        for string in strings { table.string(1, string) }
        func block(_ group: ProtobufWriter, granularity: Int64 = 100) -> [UInt8] {
            var block = ProtobufWriter()
            block.bytes(1, table.bytes)
            block.bytes(2, group.bytes)
            if granularity != 100 { block.int(17, granularity) }
            return PBFFixture.framed(type: "OSMData", block: block.bytes)
        }
        func way(_ id: Int64, _ references: [Int64], _ tags: [(String, String)]) -> [UInt8] {
            var way = ProtobufWriter()
            way.int(1, base + id)
            way.packed(2, tags.map { index($0.0) }, signed: false)
            way.packed(3, tags.map { index($0.1) }, signed: false)
            way.packed(8, ProtobufWriter.deltas(references.map { base + $0 }), signed: true)
            return way.bytes
        }
        var relations = ProtobufWriter()
        var relation = ProtobufWriter()
        relation.int(1, base + 300)
        relation.packed(2, [index("type"), index("name"), index("leisure")], signed: false)
        relation.packed(3, [index("multipolygon"), index("Esplanadi"), index("park")], signed: false)
        relation.packed(8, [index("outer")], signed: false)
        relation.packed(9, [base + 203], signed: true)
        relation.packed(10, [1], signed: false)
        relations.bytes(4, relation.bytes)

        var ways = ProtobufWriter()
        ways.bytes(3, way(201, [1, 2, 3, 99], [("highway", "residential"), ("name", "Keskuskatu")]))
        ways.bytes(3, way(202, [4, 2, 5], [("highway", "primary"), ("name", "Mannerheimintie"), ("ref", "Mannerheimintie")]))
        ways.bytes(3, way(203, [6, 7, 8, 6], []))
        ways.bytes(3, way(204, [3, 6], [("highway", "residential")]))  // unnamed: not a street

        // Degrees ×1e7 (whole 100-nanodegree units), except node 8's, at granularity 1.
        let nodes: [(id: Int64, latitude: Int64, longitude: Int64, tags: [(String, String)])] = [
            (5, 60_170_300_0, 24_940_300_0, []), (2, 60_170_100_0, 24_940_100_0, [("amenity", "cafe"), ("name", "Ekberg")]),
            (1, 60_170_000_0, 24_940_000_0, []), (3, 60_170_200_0, 24_940_200_0, [("addr:housenumber", "9"), ("addr:street", "Keskuskatu")]),
            (2, 10_000_000_0, 10_000_000_0, []), (4, 60_169_900_0, 24_940_050_0, []),
            (6, 60_168_000_0, 24_941_000_0, []), (7, 60_168_500_0, 24_942_000_0, []),
        ]
        var dense = ProtobufWriter()
        dense.packed(1, ProtobufWriter.deltas(nodes.map { base + $0.id }), signed: true)
        dense.packed(8, ProtobufWriter.deltas(nodes.map { $0.latitude }), signed: true)
        dense.packed(9, ProtobufWriter.deltas(nodes.map { $0.longitude }), signed: true)
        dense.packed(10, nodes.flatMap { $0.tags.flatMap { [index($0.0), index($0.1)] } + [0] }, signed: false)
        var denseGroup = ProtobufWriter()
        denseGroup.bytes(2, dense.bytes)
        var plain = ProtobufWriter()
        var node = ProtobufWriter()
        node.sint(1, base + 8)
        node.sint(8, 60_168_700_123)
        node.sint(9, 24_941_500_987)
        plain.bytes(1, node.bytes)
        return PBFFixture.framed(type: "OSMHeader", block: PBFFixture.headerBlock()) + block(relations) + block(ways) + block(denseGroup)
            + block(plain, granularity: 1)
    }

    func testAFileOutOfOrderBuildsTheSameMapStreamed() throws {
        let file = Self.awkwardFile()
        let whole = try OSMPBFReader.read(file, file: "awkward.osm.pbf")
        XCTAssertEqual(whole.nodes.count, 9)
        let oracle = try LocationMapBuilder.build(whole)
        XCTAssertEqual(oracle.summary.areas, 1)
        XCTAssertEqual(oracle.summary.places, 1)
        XCTAssertEqual(oracle.summary.addresses, 1)
        XCTAssertEqual(oracle.summary.intersections, 1)
        let (data, counts) = try LocationInput.read(MemoryByteSource(file), file: "awkward.osm.pbf")
        XCTAssertEqual(data.positions?.isWide, true)
        XCTAssertEqual(counts.nodes, 9)
        XCTAssertEqual(counts.ways, 4)
        XCTAssertEqual(counts.relations, 1)
        XCTAssertEqual(counts.blobs, 5)
        XCTAssertEqual(counts.waysWithAbsentNodes, 1)
        XCTAssertEqual(counts.absentNodeReferences, 1)
        XCTAssertEqual(counts.keptNodes, 2)
        XCTAssertEqual(counts.keptWays, 2)
        XCTAssertEqual(data.ways.map(\.id), [201, 202, 203].map { (1 << 34) + $0 }, "the kept ways, then the relation's member way")
        XCTAssertEqual(data.node(id: (1 << 34) + 2)?.latitudeNanodegrees, 60_170_100_000, "the first of a repeated id")
        XCTAssertEqual(StreetNetwork(data).streets, StreetNetwork(whole).streets.map { street in
            var street = street
            street.lines = street.lines.map { $0.map { OSMNode(id: $0.id, latitudeNanodegrees: $0.latitudeNanodegrees, longitudeNanodegrees: $0.longitudeNanodegrees) } }
            return street
        })
        XCTAssertEqual(OSMPlaces(data).places, OSMPlaces(whole).places)
        XCTAssertEqual(OSMPlaces(data).addresses, OSMPlaces(whole).addresses)
        XCTAssertEqual(OSMPlaces(data).areas.count, 1)

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("awkward-\(getpid()).osm.pbf").path
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(file)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let built = try LocationMapBuilder.build(pbfPath: path)
        XCTAssertEqual(built.bytes.count, oracle.bytes.count)
        XCTAssertTrue(built.bytes == oracle.bytes, "the maps differ")
        XCTAssertEqual(built.summary.waysWithAbsentNodes, oracle.summary.waysWithAbsentNodes)
        XCTAssertEqual(built.summary.absentNodeReferences, oracle.summary.absentNodeReferences)
    }

    func testARegionOverTheNodeLimitFailsNamingTheLimit() throws {
        let file = Self.awkwardFile()
        XCTAssertNoThrow(try LocationInput.read(MemoryByteSource(file), file: "awkward.osm.pbf", limits: .init(maximumNodes: 9)))
        XCTAssertThrowsError(try LocationInput.read(MemoryByteSource(file), file: "awkward.osm.pbf", limits: .init(maximumNodes: 8))) { error in
            let text = "\(error)"
            XCTAssertTrue(error is BuildError, text)
            XCTAssertTrue(text.contains("more than 8 nodes"), text)
            XCTAssertTrue(text.contains("--max-nodes"), text)
        }
        XCTAssertThrowsError(try LocationInput.read(MemoryByteSource(file), file: "awkward.osm.pbf", limits: .init(maximumNodes: 5))) { error in
            XCTAssertTrue("\(error)".contains("node references"), "\(error)")  // the ways come before the nodes here
        }
    }
}

/// The shared extracts built streamed and whole (issue 22, part 8): the same bytes, with and
/// without paths (skipped when ../shared/data/osm is absent, and in the sanitizer runs, which skip
/// DatasetTests).
final class OSMStreamDatasetTests: XCTestCase {
    /// The shared extracts, with and without paths: the streamed build writes the same bytes as the
    /// whole-file build (skipped when ../shared/data/osm is absent).
    func testTheSharedExtractsBuildTheSameMapStreamed() throws {
        for name in ["Helsinki.osm.pbf", "test.osm.pbf"] {
            let path = try TestSupport.osmExtract(name).path
            let whole = try OSMPBFReader.read(path: path)
            // Paths or not; the walker's profile with no other language, or every road with every language.
            for (includePaths, profile, languages) in [(false, RoadProfile.pedestrian, Set<String>?([])), (true, .pedestrian, []), (false, .all, nil)] {
                let metadata = [(key: "source", value: name)]
                let oracle = try LocationMapBuilder.build(whole, includePaths: includePaths, profile: profile, languages: languages, metadata: metadata)
                let built = try LocationMapBuilder.build(pbfPath: path, includePaths: includePaths, profile: profile, languages: languages, metadata: metadata)
                XCTAssertEqual(built.bytes.count, oracle.bytes.count, "\(name) paths \(includePaths) \(profile)")
                XCTAssertTrue(built.bytes == oracle.bytes, "\(name) paths \(includePaths) \(profile): the maps differ")
                XCTAssertEqual(built.summary.waysWithAbsentNodes, oracle.summary.waysWithAbsentNodes)
                XCTAssertEqual(built.summary.absentNodeReferences, oracle.summary.absentNodeReferences)
                XCTAssertEqual(built.summary.incompleteRelations, oracle.summary.incompleteRelations)
                XCTAssertEqual(built.counts.nodes, whole.nodes.count)
                XCTAssertEqual(built.counts.ways, whole.ways.count)
                XCTAssertEqual(built.counts.relations, whole.relations.count)
                XCTAssertEqual(built.counts.blobs, whole.blobCount)
            }
        }
    }
}
