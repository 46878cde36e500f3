import XCTest
@_spi(Testing) import GMap
import GMapBuilder
import GMapTestSupport

/// Compact points (format 3.4, Spec/FORMAT.md 5.12): a layer of points written as a point table
/// answers every query as the same layer written as `FEAT`/`PROP`/`LABL`/`NAME` records does,
/// in a fraction of the bytes; damage to it is reported by `verify` and never crashes a reader.
final class CompactPointsTests: XCTestCase {
    /// `count` places around (10° E, 45° N) on a 1e-5° grid: ids of one to three words (some with
    /// a `/`, some accented, some repeated), a population (a number), a country code of a few
    /// values (kept in a dictionary), and some values absent, null, boolean or JSON.
    static func places(count: Int, seed: UInt64) -> [SourcePointFeature] {
        var random = SplitMix64(seed: seed)
        let words = ["San", "José", "del", "Monte", "Nieder", "Öhringen", "Saint", "Étienne", "York", "New", "Ville", "Ås"]
        var features: [SourcePointFeature] = []
        for index in 0..<count {
            var name = (0...random.below(3)).map { _ in words[random.below(words.count)] }.joined(separator: " ")
            if index % 17 == 0 { name = "Region/\(name)" }
            var properties: [SourceFeature.KeptProperty] = [
                .init(key: "population", value: String(1_000 + random.below(2_000_000)), kind: .number),
                .init(key: "country_code", value: ["FR", "DE", "IT", "CH"][random.below(4)]),
            ]
            if index % 3 == 0 { properties.append(.init(key: "capital", value: index % 2 == 0 ? "true" : "false", kind: .boolean)) }
            if index % 5 == 0 { properties.append(.init(key: "note", value: "", kind: .null)) }
            if index % 7 == 0 { properties.insert(.init(key: "tags", value: "[\"a\",\(index)]", kind: .json), at: 0) }
            // Whole units of 1e-5° (100 units at 1e-7): the step the writer finds.
            let longitude = Double(1_000_000 + random.below(400_000)) / 100_000, latitude = Double(4_500_000 + random.below(300_000)) / 100_000
            features.append(SourcePointFeature(id: name, properties: properties, points: [(longitude, latitude)]))
        }
        return features
    }

    static func build(_ places: [SourcePointFeature], compact: Bool, maximumEdges: Int = 16) throws -> (bytes: [UInt8], map: GMap) {
        var options = BuildOptions()
        options.maximumEdgesPerTile = maximumEdges
        var layer = try PointLayerBuilder(options: options)
        layer.compact = compact
        for place in places { try layer.add(place) }
        var map = LayeredMapBuilder()
        try map.addLayer(named: "towns", layer)
        let bytes = try map.finish().bytes
        return (bytes, try GMap(bytes: bytes))
    }

    /// A feature as a comparable value: id, point, and properties by key (a compact feature lists
    /// its properties in column order).
    static func summary(_ feature: Feature) -> String {
        let point = feature.labelPoint.map { "\($0.latitude),\($0.longitude)" } ?? "-"
        let properties = feature.properties.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value):\($0.kind.rawValue)" }
        return "\(feature.id)|\(point)|\(properties.joined(separator: ";"))|\(feature.boundingBox)|\(feature.area)"
    }

    func testACompactLayerHoldsEveryFeatureAsThePlainLayerDoes() throws {
        let places = Self.places(count: 3_000, seed: 1)
        let plain = try Self.build(places, compact: false), compact = try Self.build(places, compact: true)
        XCTAssertEqual(compact.map.formatVersion.minor, 4)
        XCTAssertEqual(plain.map.formatVersion.minor, 1)
        XCTAssertEqual(compact.map.featureCount, plain.map.featureCount)
        XCTAssertEqual(compact.map.geometryKind, .points)
        XCTAssertEqual(compact.map.features.map(Self.summary).sorted(), plain.map.features.map(Self.summary).sorted())
        // Property lookups by key, and the allocation-free ones, agree with the list.
        for feature in compact.map.features.prefix(200) {
            for property in feature.properties {
                XCTAssertEqual(feature.property(property.key), property.value)
                let bytes = property.key.utf8.withContiguousStorageIfAvailable { feature.propertyValueBytes(forKey: UnsafeRawBufferPointer($0)) }
                XCTAssertEqual(bytes.flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) }, property.value)
            }
            XCTAssertNil(feature.property("absent"))
            XCTAssertNil(feature.propertyBytes(at: feature.propertyCount))
        }
        let ratio = Double(compact.bytes.count) / Double(plain.bytes.count)
        print(String(format: "CompactPointsTests: %d places, plain %d bytes, compact %d bytes (%.1f bytes a place, %.2f of plain)",
                     places.count, plain.bytes.count, compact.bytes.count, Double(compact.bytes.count) / Double(places.count), ratio))
        XCTAssertLessThan(ratio, 0.35)
    }

    func testNearestPointsAnswerAsThePlainLayer() throws {
        let places = Self.places(count: 3_000, seed: 2)
        let plain = try Self.build(places, compact: false).map, compact = try Self.build(places, compact: true).map
        var random = SplitMix64(seed: 3)
        func key(_ match: PointMatch) -> String { "\(match.feature.id)@\(match.latitude),\(match.longitude):\(match.distance)" }
        for _ in 0..<(TestSupport.underSanitizer ? 400 : 2_000) {
            let latitude = 44.9 + random.unit() * 3.2, longitude = 9.9 + random.unit() * 4.2
            let radius = [500.0, 5_000, 30_000][random.below(3)]
            let a = plain.nearestPoints(latitude: latitude, longitude: longitude, within: radius, limit: 6)
            let b = compact.nearestPoints(latitude: latitude, longitude: longitude, within: radius, limit: 6)
            // Equal distances may come in another order: features are numbered differently.
            XCTAssertEqual(a.map(key).sorted(), b.map(key).sorted(), "(\(latitude), \(longitude)) within \(radius) m")
            XCTAssertEqual(a.map(\.distance), b.map(\.distance))
            let nearestA = plain.nearestPoint(latitude: latitude, longitude: longitude, within: radius)
            let nearestB = compact.nearestPoint(latitude: latitude, longitude: longitude, within: radius)
            XCTAssertEqual(nearestA?.distance, nearestB?.distance)
        }
    }

    func testFindFindsTheSameNames() throws {
        let places = Self.places(count: 2_000, seed: 4)
        let plain = try Self.build(places, compact: false).map, compact = try Self.build(places, compact: true).map
        let parts = try XCTUnwrap(compact.compactPointsLayout)
        XCTAssertGreaterThan(parts.names.count, 0)
        XCTAssertEqual(parts.nameRecordLength, 3, "11 feature bits leave room for every start code")
        for query in ["san jose", "José", "monte", "del monte", "york new", "etienne", "ås", "Region", "nieder o", "nowhere", "s"] {
            for loosest in NameMatch.allCases {
                let a = plain.find(query, matching: loosest).map { "\($0.id)@\($0.labelPoint.map { "\($0.latitude),\($0.longitude)" } ?? "")" }
                let b = compact.find(query, matching: loosest).map { "\($0.id)@\($0.labelPoint.map { "\($0.latitude),\($0.longitude)" } ?? "")" }
                XCTAssertEqual(a.sorted(), b.sorted(), "\(query), \(loosest)")
            }
        }
        XCTAssertFalse(compact.find("monte").isEmpty)
        XCTAssertFalse(compact.find("etienne", matching: .words).isEmpty, "a later word is found through a word key")
    }

    func testAFeatureWithSeveralPointsOrTwoValuesOfOneKeyIsRefused() throws {
        var layer = try PointLayerBuilder()
        layer.compact = true
        try layer.add(SourcePointFeature(id: "A", points: [(1, 1)]))
        try layer.add(SourcePointFeature(id: "Twins", points: [(2, 2), (3, 3)]))
        var map = LayeredMapBuilder()
        try map.addLayer(named: "towns", layer)
        XCTAssertThrowsError(try map.finish()) { error in
            XCTAssertTrue("\(error)".contains("feature 1 (Twins) has 2 distinct points"), "\(error)")
        }
        var twice = try PointLayerBuilder()
        twice.compact = true
        try twice.add(SourcePointFeature(id: "B", properties: [.init(key: "k", value: "1"), .init(key: "k", value: "2")], points: [(1, 1)]))
        var other = LayeredMapBuilder()
        try other.addLayer(named: "towns", twice)
        XCTAssertThrowsError(try other.finish()) { error in
            XCTAssertTrue("\(error)".contains("two values of k"), "\(error)")
        }
    }

    func testTheStepIsTheCoordinatesGreatestCommonDivisor() throws {
        let compact = try Self.build(Self.places(count: 50, seed: 5), compact: true).map
        let table = try XCTUnwrap(compact.compactPointsLayout)
        XCTAssertEqual(table.step % 100, 0, "every coordinate is a whole 1e-5°")
        let odd = try Self.build([SourcePointFeature(id: "x", points: [(1.0000001, 2)])], compact: true).map
        XCTAssertEqual(odd.compactPointsLayout?.step, 1)
        XCTAssertEqual(odd.feature(at: 0)?.labelPoint?.longitude ?? 0, 1.0000001, accuracy: 1e-12)
    }

    func testVerifyIsSoundAndReportsDamageThatKeepsTheRecordsReadable() throws {
        let built = try Self.build(Self.places(count: 400, seed: 6), compact: true)
        XCTAssertTrue(MapVerifier(map: built.map).isSound, "\(MapVerifier(map: built.map).problems)")
        let table = try XCTUnwrap(built.map.compactPointsLayout)
        // A block offset moved by one: every record still reads, the block's start does not match.
        var bytes = built.bytes
        bytes[table.blocksOffset + 4] &+= 1
        var problems = MapVerifier(map: try GMap(bytes: FormatThreeTests.resealed(bytes))).problems.map(\.description)
        XCTAssertTrue(problems.contains { $0.contains("block 1") }, "\(problems)")
        bytes = built.bytes
        bytes[table.names.lowerBound] ^= 0x01  // the first name record names another feature: its keys are out of order or wrong
        problems = MapVerifier(map: try GMap(bytes: FormatThreeTests.resealed(bytes))).problems.map(\.description)
        XCTAssertTrue(problems.contains { $0.contains("name") }, "\(problems)")
    }

    /// A record whose x or y step is the varint of −2⁶³ (nine `ff` bytes, then `01`): `abs` of it
    /// traps, so the reader, `features` and `verify` compare magnitudes; the record ends the reading.
    func testAStepOfMinusTwoToTheSixtyThirdEndsTheRecordWithoutTrapping() throws {
        let built = try Self.build(Self.places(count: 40, seed: 9), compact: true)
        let table = try XCTUnwrap(built.map.compactPointsLayout)
        let blocks = (built.map.featureCount + FormatLayout.CompactPoints.writtenBlockSize - 1) / FormatLayout.CompactPoints.writtenBlockSize
        let records = table.blocksOffset + 4 * blocks
        let smallest: [UInt8] = Array(repeating: 0xFF, count: 9) + [0x01]
        for prefix in [[UInt8](), [0x00]] {  // as the x step, then as the y step after an x step of 0
            var bytes = built.bytes
            bytes.replaceSubrange(records..<records + prefix.count + smallest.count, with: prefix + smallest)
            let map = try GMap(bytes: FormatThreeTests.resealed(bytes))
            XCTAssertNotEqual(map.features.map(Self.summary), built.map.features.map(Self.summary), "\(prefix)")
            XCTAssertFalse(MapVerifier(map: map).isSound, "\(prefix)")
            _ = map.nearestPoints(latitude: 46, longitude: 12, within: 500_000, limit: 50)
        }
    }

    /// Random damage anywhere in the point table, the name index and the tile records: resealed so
    /// that the CRCs pass, every copy is opened and used whole; nothing traps (ASan in CI). Of the
    /// copies that answer differently, `verify` reports every one damaged in the name index or the
    /// tile records, and at least half of those damaged in the point table (measured: 295 of 485).
    func testDamageNeverCrashesAndChangedAnswersAreReported() throws {
        let built = try Self.build(Self.places(count: 300, seed: 7), compact: true, maximumEdges: 8)
        let parts = try XCTUnwrap(built.map.compactPointsLayout)
        let regions = [parts.table, parts.names, parts.tiles]
        var random = SplitMix64(seed: 8)
        let queries = (0..<40).map { _ in (44.9 + random.unit() * 3.2, 9.9 + random.unit() * 4.2) }
        func answers(_ map: GMap) -> [String] {
            var lines = queries.map { query in
                map.nearestPoints(latitude: query.0, longitude: query.1, within: 20_000, limit: 3).map { "\($0.feature.id)@\($0.distance)" }.joined(separator: ",")
            }
            lines += map.features.map(Self.summary)
            lines += ["san", "monte del", "york"].map { map.find($0).map(\.id).joined(separator: ",") }
            return lines
        }
        let expected = answers(built.map)
        let copies = TestSupport.underSanitizer ? 90 : 1_500
        var changed = [0, 0, 0], reported = [0, 0, 0]
        for index in 0..<copies {
            let region = regions[index % regions.count]
            var bytes = built.bytes
            let at = region.lowerBound + random.below(region.count)
            bytes[at] ^= UInt8(1 << random.below(8))
            guard let map = try? GMap(bytes: FormatThreeTests.resealed(bytes)) else { continue }
            let found = answers(map)
            let sound = MapVerifier(map: map).isSound
            if found != expected {
                changed[index % regions.count] += 1
                if !sound { reported[index % regions.count] += 1 }
            }
        }
        print("CompactPointsTests: \(copies) damaged copies; answering differently and reported by verify: point table \(reported[0]) of \(changed[0]), name index \(reported[1]) of \(changed[1]), tile records \(reported[2]) of \(changed[2])")
        XCTAssertGreaterThan(changed.reduce(0, +), copies / 4)
        // Every change to the name index or the tile records is a structure verify checks whole.
        XCTAssertEqual(reported[1], changed[1])
        XCTAssertEqual(reported[2], changed[2])
        // In the point table, a letter of a name, a digit of a value or a point moved within its
        // leaf is data no check can tell from the original; broken structure is reported.
        XCTAssertGreaterThanOrEqual(Double(reported[0]), Double(changed[0]) * 0.5)
    }
}
