import Foundation
import XCTest
import GMap
import GMapBuilder
import GMapTestSupport

/// Damaged, truncated and foreign files give typed errors or "no answer", never a crash.
final class ReaderSafetyTests: XCTestCase {
    private func fixtureBytes(maximumEdges: Int = 4) throws -> [UInt8] {
        try TestSupport.build(geoJSON: TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson").path) {
            $0.idProperty = "id"
            $0.maximumEdgesPerTile = maximumEdges
            $0.tileSize = 50_000_000 // 5°: a small grid, so that damaged copies are quick to walk
        }.bytes
    }

    /// Coordinates spread over the fixtures, the world's edges and tile corners.
    private let probes: [(Double, Double)] = {
        var points: [(Double, Double)] = [(90, 180), (-90, -180), (90, -180), (-90, 180), (0, 0), (-17, 180), (4.5, 41.5), (9, 89)]
        for latitude in stride(from: -90.0, through: 90, by: 15) {
            for longitude in stride(from: -180.0, through: 180, by: 15) { points.append((latitude, longitude)) }
        }
        return points
    }()

    private func exercise(_ map: GMap) {
        for (latitude, longitude) in probes {
            _ = map.lookupAll(latitude: latitude, longitude: longitude).map { ($0.id, $0.properties, $0.boundingBox, $0.area) }
        }
        _ = map.metadata
        _ = TileSurvey(of: map)
        for index in [-1, 0, 1, map.featureCount - 1, map.featureCount, Int.max] { _ = map.feature(at: index)?.id }
    }

    func testRejectsForeignFiles() {
        XCTAssertThrowsError(try GMap(bytes: [])) { XCTAssertEqual($0 as? GMapError, .truncated(expected: 64, actual: 0)) }
        XCTAssertThrowsError(try GMap(bytes: Array("hello\n".utf8))) { XCTAssertEqual($0 as? GMapError, .notAGMap) }
        XCTAssertThrowsError(try GMap(bytes: Array(FormatLayout.magic.prefix(5)))) { XCTAssertEqual($0 as? GMapError, .truncated(expected: 64, actual: 5)) }
        XCTAssertThrowsError(try GMap(bytes: Array("{\"type\": \"FeatureCollection\"}".utf8) + [UInt8](repeating: 32, count: 64))) {
            XCTAssertEqual($0 as? GMapError, .notAGMap)
        }
        XCTAssertThrowsError(try GMap(contentsOf: "/nonexistent/world.gmap")) { error in
            guard case .cannotOpen(let path, _, let code)? = error as? GMapError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, "/nonexistent/world.gmap")
            XCTAssertEqual(code, ENOENT)
            XCTAssertTrue((error as? GMapError)?.description.contains("No such file") ?? false)
        }
        XCTAssertThrowsError(try GMap(contentsOf: "/tmp")) // a directory
    }

    func testRejectsNewerMajorVersionButReadsNewerMinor() throws {
        var bytes = try fixtureBytes()
        let newer = FormatLayout.majorVersion + 1
        bytes[FormatLayout.Header.majorVersion] = UInt8(newer)
        XCTAssertThrowsError(try GMap(bytes: bytes)) { error in
            XCTAssertEqual(error as? GMapError, .unsupportedVersion(major: newer, minor: FormatLayout.minorVersionWithRunBands))
            XCTAssertTrue("\(error)".contains("newer than this reader"))
        }
        bytes[FormatLayout.Header.majorVersion] = UInt8(FormatLayout.majorVersion)
        bytes[FormatLayout.Header.minorVersion] = 9
        let map = try GMap(bytes: bytes)
        XCTAssertEqual(map.formatVersion.minor, 9)
        XCTAssertEqual(map.lookup(latitude: 9, longitude: 89)?.id, "SMALL")
    }

    func testEveryTruncationIsATypedError() throws {
        let bytes = try fixtureBytes()
        for length in 0..<bytes.count {
            XCTAssertThrowsError(try GMap(bytes: Array(bytes[0..<length])), "prefix of \(length) bytes") { error in
                XCTAssertNotNil(error as? GMapError)
            }
        }
    }

    func testSectionTableDamageIsDetectedOnOpen() throws {
        let bytes = try fixtureBytes()
        let table = FormatLayout.headerLength
        // A section whose offset points past the end of the file.
        var damaged = bytes
        damaged[table + FormatLayout.SectionEntry.offset + 4] = 0x7F
        XCTAssertThrowsError(try GMap(bytes: damaged)) { error in
            guard case .malformed(let part, _, _)? = error as? GMapError else { return XCTFail("\(error)") }
            XCTAssertEqual(part, "section GRID")
        }
        // A grid that claims more tiles than its section holds.
        let gridOffset = Int(bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: table + FormatLayout.SectionEntry.offset, as: UInt64.self) })
        damaged = bytes
        damaged[gridOffset + FormatLayout.Grid.columns + 2] = 0x10
        XCTAssertThrowsError(try GMap(bytes: damaged)) { XCTAssertTrue("\($0)".contains("GRID"), "\($0)") }
        // Units per degree of zero.
        damaged = bytes
        for i in 0..<4 { damaged[FormatLayout.Header.unitsPerDegree + i] = 0 }
        XCTAssertThrowsError(try GMap(bytes: damaged)) { XCTAssertTrue("\($0)".contains("units per degree"), "\($0)") }
    }

    /// Flipping any single byte, or random runs of bytes, never crashes open, lookups or feature access.
    func testCorruptedBytesNeverCrash() throws {
        let bytes = try fixtureBytes()
        var random = SplitMix64(state: 99)
        var opened = 0
        for position in 0..<bytes.count {
            var damaged = bytes
            damaged[position] ^= UInt8.random(in: 1...255, using: &random)
            if let map = try? GMap(bytes: damaged) {
                opened += 1
                if position % 7 == 0 { exercise(map) }
            }
        }
        for _ in 0..<300 {
            var damaged = bytes
            for _ in 0..<Int.random(in: 1...40, using: &random) {
                damaged[Int.random(in: 0..<damaged.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            if let map = try? GMap(bytes: damaged) { exercise(map) }
        }
        XCTAssertGreaterThan(opened, bytes.count / 2, "most single-byte damage is in geometry and strings, which open does not scan")
    }

    func testLookupsFromManyThreadsMatchOneThread() throws {
        let map = try GMap(bytes: try fixtureBytes(maximumEdges: 2))
        let features = try TestSupport.features(at: TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson").path)
        let points = OracleCheck.points(near: features, uniform: 5_000, nearEdges: 5_000, seed: 5)
        let expected = points.map { map.lookupAll(latitude: $0.latitude, longitude: $0.longitude).map(\.id) }
        let threads = 8
        final class Tally: @unchecked Sendable {
            let lock = NSLock()
            var mismatches: [Int: Int] = [:]
        }
        let tally = Tally()
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            var mismatches = 0
            for round in 0..<3 {
                for (index, point) in points.enumerated() where (index + round + thread) % 2 == 0 {
                    if map.lookupAll(latitude: point.latitude, longitude: point.longitude).map(\.id) != expected[index] { mismatches += 1 }
                }
            }
            tally.lock.lock()
            tally.mismatches[thread] = mismatches
            tally.lock.unlock()
        }
        XCTAssertEqual(tally.mismatches.count, threads)
        XCTAssertEqual(tally.mismatches.values.reduce(0, +), 0)
    }
}
