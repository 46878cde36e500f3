import XCTest
@_spi(Testing) import GMap
import GMapBuilder
import GMapTestSupport

/// `gmap verify` checks each field that a command prints or a lookup reads against what it
/// summarises (issue 37), with every CRC resealed after the damage: a corner bit of the grid's east
/// column against the edges, a feature's box against its stored vertices, a label point of lines or
/// points against the feature's vertices, and the address index's counts against the addresses.
final class VerifierSummaryTests: XCTestCase {
    /// The fixtures at 16° tiles: the grid's east column (172° … 188°) holds Fiji, cut at 180°.
    static func eastColumnSample() throws -> (bytes: [UInt8], map: GMap) {
        let path = TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson").path
        let built = try TestSupport.build(geoJSON: path) { $0.tileSize = 160_000_000 }
        return (built.bytes, built.map)
    }

    /// Every corner bit of every record in the grid's east column flipped in turn: the copies that
    /// answer a point of their tile differently are all reported (before issue 37 none was: no leaf
    /// answers for those corners).
    func testACornerBitOfTheEastColumnIsReported() throws {
        let (bytes, map) = try Self.eastColumnSample()
        let grid = map.grid, q = map.quantizer
        let sample = VerifierMutationTests.Sample(label: "16° fixtures", bytes: bytes, map: map)
        var changed = 0
        for (_, tile, record) in try VerifierMutationTests.records(of: sample)
        where tile.bounds.east == grid.originX + grid.columns * grid.tileWidth {
            for corner in record.corners {
                var damaged = bytes
                damaged[corner.offset] ^= 1 << corner.bit
                let copy = try GMap(bytes: FormatThreeTests.resealed(damaged))
                // The tile's points (in the world: west of 180°) that answer differently.
                var points: [(Double, Double)] = []
                let width = tile.bounds.east - tile.bounds.west, height = tile.bounds.north - tile.bounds.south
                for i: Int64 in 1..<8 {
                    for j: Int64 in 1..<8 {
                        let latitude = q.degrees(tile.bounds.south + height * j / 8)
                        let longitude = q.degrees(tile.bounds.west + width * i / 8)
                        points.append((latitude, min(179.9, longitude)))
                    }
                }
                guard points.contains(where: { copy.lookupAll(latitude: $0.0, longitude: $0.1) != map.lookupAll(latitude: $0.0, longitude: $0.1) })
                else { continue }
                changed += 1
                let problems = MapVerifier(map: copy).problems
                XCTAssertTrue(problems.contains { $0.reason.contains("east of every stored edge") },
                              "a corner bit flipped in the tile at \(tile.bounds) changes answers but is not reported: \(problems.prefix(2))")
            }
        }
        XCTAssertGreaterThan(changed, 0, "some corner bit of the east column changes answers")
        let fiji = try XCTUnwrap(map.lookupAll(latitude: -17, longitude: 179).first?.id)
        XCTAssertEqual(fiji, "FJ")
    }

    /// A feature's stored box set to `(200, 200, −200, −200)`, or one side moved by one unit, in every
    /// layer (polygons, lines, points): reported, naming the feature.
    func testAStaleBoundingBoxIsReported() throws {
        var tried = 0
        for sample in try VerifierMutationTests.samples() where sample.label != "1.0 fixture" {
            for layer in sample.map.layers {
                let features = try XCTUnwrap(sample.map.sections.first { $0.tag == featureTag(of: layer, in: sample.map) })
                let field = FormatLayout.FeatureRecord.self
                let recordLength = Int(Self.u32(sample.bytes, Int(features.offset) + 4))
                for index in stride(from: 0, to: layer.featureCount, by: max(1, layer.featureCount / 6)) {
                    let at = Int(features.offset) + field.preambleLength + index * recordLength + field.boundingBox
                    var stale = sample.bytes
                    for (slot, degrees) in [200, 200, -200, -200].enumerated() {
                        Self.put(UInt32(bitPattern: Int32(degrees * 10_000_000)), into: &stale, at: at + 4 * slot)
                    }
                    var nudged = sample.bytes
                    nudged[at + 4 * (index % 4)] ^= 1
                    for bytes in [stale, nudged] {
                        let problems = try VerifierMutationTests.problems(of: bytes)
                        XCTAssertTrue(problems.contains { $0.location.contains("feature \(index)") && $0.reason.contains("bbox") },
                                      "\(sample.label) \(layer.layerName) feature \(index): a stale box is not reported: \(problems.prefix(2))")
                        tried += 1
                    }
                }
            }
        }
        print("VerifierSummaryTests: \(tried) copies with a stale bounding box, all reported")
        XCTAssertGreaterThan(tried, 20)
    }

    /// A label point of a layer of lines or points moved off the feature (one unit, or into the
    /// Atlantic): reported. (`geocode` answers a place at its label point.)
    func testAMovedLabelPointOfLinesOrPointsIsReported() throws {
        var tried = 0
        for sample in try VerifierMutationTests.samples() {
            for layer in sample.map.layers where layer.geometryKind == .lines || layer.geometryKind == .points {
                let tag = try XCTUnwrap(labelTag(of: layer, in: sample.map))
                let labels = try XCTUnwrap(sample.map.sections.first { $0.tag == tag })
                for index in 0..<min(layer.featureCount, 8) {
                    let recordLength = Int(Self.u32(sample.bytes, Int(labels.offset) + 4))
                    let at = Int(labels.offset) + FormatLayout.LabelRecord.preambleLength + index * recordLength
                    var nudged = sample.bytes
                    nudged[at] ^= 1
                    var atlantic = sample.bytes
                    Self.put(UInt32(bitPattern: Int32(-300_000_000)), into: &atlantic, at: at)
                    for bytes in [nudged, atlantic] {
                        let problems = try VerifierMutationTests.problems(of: bytes)
                        XCTAssertTrue(problems.contains { $0.location.contains("feature \(index) label point") },
                                      "\(sample.label) \(layer.layerName) feature \(index): a moved label point is not reported: \(problems.prefix(2))")
                        tried += 1
                    }
                }
            }
        }
        XCTAssertGreaterThan(tried, 10)
    }

    /// The address index's street count lowered, or one street's address count: the addresses left
    /// out of every range are reported (geocoding then finds the street but not the house).
    func testALoweredAddressCountIsReported() throws {
        let (bytes, map) = try AddressIndexTests.exampleMap()
        let base = Int(try XCTUnwrap(map.sections.first { $0.tag == "ADDR" }).offset)
        let fewerStreets = try VerifierMutationTests.problems(of: bytes.with { $0[base] = 1 })
        XCTAssertTrue(fewerStreets.contains { $0.reason.contains("is in no street's range") }, "\(fewerStreets)")
        XCTAssertNotEqual(try GMap(bytes: FormatThreeTests.resealed(bytes.with { $0[base] = 1 })).geocode("Mikonkatu 5", limit: 1).first?.kind,
                          map.geocode("Mikonkatu 5", limit: 1).first?.kind, "the damage changes an answer")
        // Kaivokatu's 3 addresses → 2: its third falls between the ranges.
        let fewerAddresses = try VerifierMutationTests.problems(of: bytes.with { $0[base + 16 + 12] = 2 })
        XCTAssertTrue(fewerAddresses.contains { $0.reason.contains("in no street's range") }, "\(fewerAddresses)")
    }

    /// The address index's postal-code layer changed to another layer of points: geocoding then
    /// gives an address no postal code. Reported: that layer has points at no address.
    func testAnotherLayerAsPostalCodesIsReported() throws {
        // Section 5.11's example with a place and a second street meeting Kaivokatu: layers of places and intersections.
        let example = AddressIndexTests.example
        let nodes = example.nodes + [AddressIndexTests.node(20, 60.1690, 24.9400),
                                     AddressIndexTests.node(21, 60.1702, 24.9415, ["amenity": "cafe", "name": "Ekberg"])]
        let mikonkatu = OSMWay(id: 11, nodeIDs: [20, 1], tags: [OSMTag(key: "highway", value: "residential"), OSMTag(key: "name", value: "Mikonkatu")])
        let bytes = try LocationMapBuilder.build(OSMData(nodes: nodes, ways: example.ways + [mikonkatu], relations: [])).bytes
        let map = try GMap(bytes: bytes)
        XCTAssertEqual(MapVerifier(map: map).problems, [])
        let base = Int(try XCTUnwrap(map.sections.first { $0.tag == "ADDR" }).offset)
        let postcodes = Int(bytes[base + FormatLayout.AddressIndexRecord.postcodesLayer])
        var tried = 0
        for (index, layer) in map.layers.enumerated() where layer.geometryKind == .points && index != postcodes {
            let damaged = bytes.with { $0[base + FormatLayout.AddressIndexRecord.postcodesLayer] = UInt8(index) }
            let problems = try VerifierMutationTests.problems(of: damaged)
            XCTAssertTrue(problems.contains { $0.reason.contains("at no address") || $0.reason.contains("is the layer of addresses") },
                          "\(layer.layerName): \(problems.prefix(2))")
            tried += 1
        }
        XCTAssertGreaterThan(tried, 0)
    }

    /// An empty top-level tile turned into one covered by a feature whose box does not hold it (a
    /// bit of the entry's kind): every point of the tile then answers that feature. Reported.
    func testACoveredTileOutsideItsFeaturesBoxIsReported() throws {
        let sample = try VerifierMutationTests.samples()[2]  // the format 1.0 fixture: u32 top-level entries, many empty
        let map = sample.map, grid = map.grid
        let directory = Int(try XCTUnwrap(map.sections.first { $0.tag == "GRID" }).offset) + FormatLayout.Grid.directory
        var tried = 0
        for row in 0..<grid.rows {
            for column in 0..<grid.columns {
                let at = directory + Int(row * grid.columns + column) * 4
                guard Self.u32(sample.bytes, at) == 0, tried < 5 else { continue }
                let damaged = sample.bytes.with { Self.put(TileEntry.make(kind: TileEntry.coveredKind, payload: 0), into: &$0, at: at) }
                let problems = try VerifierMutationTests.problems(of: damaged)
                XCTAssertTrue(problems.contains { $0.reason.contains("does not hold the tile") }, "tile (\(column), \(row)): \(problems.prefix(2))")
                tried += 1
            }
        }
        XCTAssertGreaterThan(tried, 0, "the sample has empty top-level tiles")
    }

    /// The area of a feature of lines or points must be +0.0: `-0.0` (its sign bit flipped) prints
    /// as "-0.0" in `find --json`. Reported.
    func testANegativeZeroAreaIsReported() throws {
        let sample = try XCTUnwrap(VerifierMutationTests.samples().first)
        for layer in sample.map.layers where layer.geometryKind != .polygons {
            let features = try XCTUnwrap(sample.map.sections.first { $0.tag == featureTag(of: layer, in: sample.map) })
            let at = Int(features.offset) + FormatLayout.FeatureRecord.preambleLength + FormatLayout.FeatureRecord.area + 7
            let problems = try VerifierMutationTests.problems(of: sample.bytes.with { $0[at] ^= 0x80 })
            XCTAssertTrue(problems.contains { $0.reason.contains("area -0.0") }, "\(layer.layerName): \(problems.prefix(2))")
        }
    }

    /// A section's tag damaged into one no version defines: a reader skips that section (as one of a
    /// later version), so a map whose `LAYR` is skipped loses its layer names. Reported.
    func testAnUnknownSectionTagIsReported() throws {
        let (bytes, map) = try Self.eastColumnSample()
        let headerLength = Int(Self.u32(bytes, FormatLayout.Header.headerLength))
        let index = try XCTUnwrap(map.sections.firstIndex { $0.tag == "LAYR" })
        let tag = headerLength + index * FormatLayout.sectionEntryLength + FormatLayout.SectionEntry.tag
        for bit in 0..<32 {
            let damaged = bytes.with { $0[tag + bit / 8] ^= 1 << UInt8(bit % 8) }
            guard let copy = try? GMap(bytes: FormatThreeTests.resealed(damaged)) else { continue }
            let problems = MapVerifier(map: copy).problems
            XCTAssertTrue(problems.contains { $0.reason.contains("is not one that format") }, "bit \(bit): \(problems.prefix(2))")
        }
        XCTAssertEqual(map.layerNames, ["default"])
    }

    /// Sound maps stay sound: the fixtures at several tile sizes and a location map.
    func testSoundMapsStaySound() throws {
        for degrees in [3, 8, 16, 20] {
            let path = TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson").path
            let map = try TestSupport.build(geoJSON: path) { $0.tileSize = Int64(degrees) * 10_000_000 }.map
            XCTAssertEqual(MapVerifier(map: map).problems, [], "\(degrees)° tiles")
        }
        XCTAssertEqual(MapVerifier(map: try AddressIndexTests.exampleMap().map).problems, [])
        for sample in try VerifierMutationTests.samples() { XCTAssertEqual(MapVerifier(map: sample.map).problems, [], sample.label) }
    }

    static func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[at + $1]) << (8 * UInt32($1)) }
    }

    static func put(_ value: UInt32, into bytes: inout [UInt8], at: Int) {
        for index in 0..<4 { bytes[at + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(index))) }
    }

    private func featureTag(of layer: GMap, in map: GMap) -> String {
        guard let index = map.layerNames.firstIndex(of: layer.layerName), index > 0 else { return "FEAT" }
        return "F" + String(String(index + 1000).suffix(3))
    }

    private func labelTag(of layer: GMap, in map: GMap) -> String? {
        guard let index = map.layerNames.firstIndex(of: layer.layerName) else { return nil }
        return index == 0 ? "LABL" : "L" + String(String(index + 1000).suffix(3))
    }
}

extension Array where Element == UInt8 {
    /// A copy changed by `change`.
    func with(_ change: (inout [UInt8]) -> Void) -> [UInt8] {
        var copy = self
        change(&copy)
        return copy
    }
}
