import XCTest
import GMap
import GMapBuilder
import GMapCodecs
import GMapTestSupport

/// The OSM PBF reader on small files made here: every element kind, both compressions, and bad input.
final class OSMPBFTests: XCTestCase {
    func testReadsEveryElementKind() throws {
        for compression in [PBFFixture.Compression.raw, .zlib] {
            let data = try OSMPBFReader.read(PBFFixture.file(compression: compression), file: "small.osm.pbf")
            XCTAssertEqual(data.blobCount, 2)
            XCTAssertEqual(data.writingProgram, "gmap tests")
            XCTAssertEqual(data.boundingBox?.west, 24.9)
            XCTAssertEqual(data.boundingBox?.north, 60.2)
            XCTAssertEqual(data.nodes.map(\.id), [1, 2, 3, 4, 10])
            XCTAssertEqual(data.nodes[1].latitudeNanodegrees, 60_170_100_000)
            XCTAssertEqual(data.nodes[1].longitude, 24.9401, accuracy: 1e-12)
            XCTAssertEqual(data.nodes[3].latitudeNanodegrees, -89_999_999_900, "a node at the edge of the world")
            XCTAssertEqual(data.nodes[3].longitudeNanodegrees, 179_999_999_900)
            XCTAssertEqual(data.nodes[0].tags, [])
            XCTAssertEqual(data.nodes[1].tags, [OSMTag(key: "amenity", value: "cafe"), OSMTag(key: "name", value: "Keskuskatu")])
            XCTAssertEqual(data.nodes[4].tag("name"), "Keskuskatu")
            XCTAssertEqual(data.nodes[4].latitudeNanodegrees, 60_171_000_000)
            XCTAssertEqual(data.ways.count, 1)
            XCTAssertEqual(data.ways[0].nodeIDs, [1, 2, 3, 99])
            XCTAssertEqual(data.ways[0].tag("highway"), "residential")
            XCTAssertEqual(data.absentReferences(of: data.ways[0]), 1)
            XCTAssertEqual(data.pieces(of: data.ways[0]).map { $0.map(\.id) }, [[1, 2, 3]])
            XCTAssertEqual(data.relations, [OSMRelation(id: 200, members: [OSMMember(kind: .way, id: 100, role: "outer"), OSMMember(kind: .node, id: 10, role: "label")],
                                                        tags: [OSMTag(key: "type", value: "multipolygon")])])
            XCTAssertEqual(data.node(id: 10)?.tag("name"), "Keskuskatu")
            XCTAssertNil(data.node(id: 99))
        }
    }

    func testGranularityAndOffsetsScaleCoordinates() throws {
        let file = PBFFixture.framed(type: "OSMHeader", block: PBFFixture.headerBlock())
            + PBFFixture.framed(type: "OSMData", block: PBFFixture.dataBlock(granularity: 1000, latitudeOffset: 60_000_000_000))
        let data = try OSMPBFReader.read(file, file: "scaled.osm.pbf")
        XCTAssertEqual(data.nodes[0].latitudeNanodegrees, 60_170_000_000)
        XCTAssertEqual(data.nodes[0].longitudeNanodegrees, 24_940_000_000)
        XCTAssertEqual(data.nodes[4].latitudeNanodegrees, 60_171_000_000)
    }

    func testPiecesSplitAtAbsentNodes() {
        let nodes = (1...6).map { OSMNode(id: Int64($0), latitudeNanodegrees: Int64($0), longitudeNanodegrees: 0) }
        let data = OSMData(nodes: nodes, ways: [], relations: [])
        let way = OSMWay(id: 1, nodeIDs: [1, 2, 50, 3, 51, 4, 5, 6, 52])
        XCTAssertEqual(data.pieces(of: way).map { $0.map(\.id) }, [[1, 2], [4, 5, 6]], "a lone node between absent ones is no piece")
        XCTAssertEqual(data.absentReferences(of: way), 3)
        XCTAssertEqual(data.pieces(of: OSMWay(id: 2, nodeIDs: [1, 2, 3])).count, 1)
    }

    /// Each damage gives a typed error whose text names the file, the blob and what is wrong.
    func testBadInputIsNamed() {
        func message(_ bytes: [UInt8]) -> String {
            do {
                _ = try OSMPBFReader.read(bytes, file: "x.osm.pbf")
                return "read"
            } catch {
                return "\(error)"
            }
        }
        let good = PBFFixture.file()
        XCTAssertTrue(message(Array("{\"type\":\"FeatureCollection\"}".utf8)).contains("not an OpenStreetMap PBF file"), message(Array("{\"type\"}".utf8)))
        XCTAssertTrue(message([]).contains("x.osm.pbf: blob 0, byte 0: not an OpenStreetMap PBF file (the file is empty)"), message([]))
        let data = PBFFixture.framed(type: "OSMData", block: PBFFixture.dataBlock())
        XCTAssertTrue(message(data).contains("the first blob is \"OSMData\", not OSMHeader"), message(data))
        // Truncated anywhere: the file ends inside a blob (or its header).
        for cut in [good.count - 1, good.count - 200, 30, 5, 2] {
            let text = message(Array(good.prefix(cut)))
            XCTAssertTrue(text.contains("the file ends inside") || text.contains("not an OpenStreetMap PBF"), "cut at \(cut): \(text)")
        }
        // A second blob whose header length is over 64 KiB.
        var big = PBFFixture.framed(type: "OSMHeader", block: PBFFixture.headerBlock())
        let at = big.count
        big += [0, 1, 0, 1] + [UInt8](repeating: 0, count: 16)
        XCTAssertEqual(message(big), "x.osm.pbf: blob 2, byte \(at): a blob header of 65537 bytes, more than the 65,536 the format allows")
        // lzma: refused by name.
        let lzma = PBFFixture.file(compression: .lzma)
        XCTAssertTrue(message(lzma).contains("blob 1, byte") && message(lzma).contains("blob compressed with lzma: not supported; zlib or raw only"), message(lzma))
        // An unknown required feature.
        let future = PBFFixture.file(features: ["OsmSchema-V0.6", "Sort.Type_then_ID", "LocationsOnWays"])
        XCTAssertTrue(message(future).contains("requires \"Sort.Type_then_ID\""), message(future))
        // A flipped byte in the Adler-32 (the last byte of the last blob's zlib stream).
        var adler = good
        adler[adler.count - 1] ^= 1
        XCTAssertTrue(message(adler).contains("blob 2") && message(adler).contains("Adler-32 of the data is"), message(adler))
        // A flipped byte in the zlib header.
        let header = PBFFixture.framed(type: "OSMHeader", block: PBFFixture.headerBlock())
        var zlibHeader = good
        let zlibStart = try! XCTUnwrap(zlibHeaderOffset(in: good, after: header.count))
        zlibHeader[zlibStart + 1] ^= 0x01
        XCTAssertTrue(message(zlibHeader).contains("the header's check bits are wrong"), message(zlibHeader))
    }

    /// Where the second blob's zlib stream starts (after the 0x78 method byte's field key and length).
    private func zlibHeaderOffset(in bytes: [UInt8], after start: Int) -> Int? {
        (start..<bytes.count - 1).first { bytes[$0] == 0x78 && (UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1])) % 31 == 0 }
    }

    /// Blocks whose messages are damaged: wrong string indexes, mismatched arrays, coordinates outside the world.
    func testDamagedBlocksAreNamed() {
        func read(_ block: [UInt8]) -> String {
            let file = PBFFixture.framed(type: "OSMHeader", block: PBFFixture.headerBlock()) + PBFFixture.framed(type: "OSMData", block: block)
            do { _ = try OSMPBFReader.read(file, file: "x.osm.pbf"); return "read" } catch { return "\(error)" }
        }
        var table = ProtobufWriter()
        table.string(1, ""); table.string(1, "name")
        func block(_ group: ProtobufWriter) -> [UInt8] {
            var block = ProtobufWriter()
            block.bytes(1, table.bytes)
            block.bytes(2, group.bytes)
            return block.bytes
        }
        var way = ProtobufWriter()
        way.int(1, 7); way.packed(2, [1], signed: false); way.packed(3, [5], signed: false)
        var group = ProtobufWriter()
        group.bytes(3, way.bytes)
        XCTAssertTrue(read(block(group)).contains("blob 2, byte") && read(block(group)).contains("string index 5 outside the block's string table of 2 strings"), read(block(group)))

        var dense = ProtobufWriter()
        dense.packed(1, [1, 1], signed: true); dense.packed(8, [0], signed: true); dense.packed(9, [0, 0], signed: true)
        group = ProtobufWriter()
        group.bytes(2, dense.bytes)
        XCTAssertTrue(read(block(group)).contains("a dense node group has 2 ids, 1 latitudes and 2 longitudes"), read(block(group)))

        var node = ProtobufWriter()
        node.sint(1, 42); node.sint(8, 900_000_001); node.sint(9, 0)
        group = ProtobufWriter()
        group.bytes(1, node.bytes)
        XCTAssertTrue(read(block(group)).contains("node 42 has coordinates (90.0000001, 0.0) outside the world"), read(block(group)))
        node = ProtobufWriter()
        node.sint(1, 43); node.sint(8, 0); node.sint(9, Int64.max / 3)
        group = ProtobufWriter()
        group.bytes(1, node.bytes)
        XCTAssertTrue(read(block(group)).contains("node 43 has coordinates"), read(block(group)))

        var relation = ProtobufWriter()
        relation.int(1, 9); relation.packed(8, [1], signed: false); relation.packed(9, [3], signed: true); relation.packed(10, [7], signed: false)
        group = ProtobufWriter()
        group.bytes(4, relation.bytes)
        XCTAssertTrue(read(block(group)).contains("relation 9's member 1 has type 7"), read(block(group)))
        // A varint that runs off the end of the block.
        XCTAssertTrue(read([0x0A, 0xFF]).contains("cannot decode"), read([0x0A, 0xFF]))
    }

    /// Every prefix and many one-byte changes of a small file: an error or data, never a trap.
    func testDamageNeverTraps() {
        let good = PBFFixture.file()
        for cut in 0..<good.count { _ = try? OSMPBFReader.read(Array(good.prefix(cut)), file: "cut") }
        var random = SplitMix64(state: 7)
        for _ in 0..<3000 {
            var bytes = good
            let count = Int(random.next() % 4) + 1
            for _ in 0..<count { bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next()) }
            _ = try? OSMPBFReader.read(bytes, file: "damaged")
        }
        let raw = PBFFixture.file(compression: .raw)
        for offset in 0..<raw.count {
            var bytes = raw
            bytes[offset] ^= 0xFF
            _ = try? OSMPBFReader.read(bytes, file: "flipped")
        }
    }
}
