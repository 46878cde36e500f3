import XCTest
import GMap
import GMapBuilder
import GMapTestSupport

/// Many copies of one way (issue 37): 100,000 ways of one name over the same three nodes built in
/// time that grew with their square (32,000 took 6.8 s, 100,000 did not finish in 60 s), because
/// the copies were joined back and forth into one line of 200,000 segments. A copy adds nothing to
/// the street, so it is kept once; the build is linear again.
final class RepeatedWaysTests: XCTestCase {
    static func copies(_ count: Int) -> OSMData {
        let nodes = [OSMNode(id: 1, latitudeNanodegrees: 60_170_000_000, longitudeNanodegrees: 24_940_000_000, tags: []),
                     OSMNode(id: 2, latitudeNanodegrees: 60_171_000_000, longitudeNanodegrees: 24_941_000_000, tags: []),
                     OSMNode(id: 3, latitudeNanodegrees: 60_172_000_000, longitudeNanodegrees: 24_940_000_000, tags: [])]
        let tags = [OSMTag(key: "highway", value: "residential"), OSMTag(key: "name", value: "Kaivokatu")]
        // Every other copy runs the other way.
        let ways = (0..<count).map { OSMWay(id: Int64(10 + $0), nodeIDs: $0 % 2 == 0 ? [1, 2, 3] : [3, 2, 1], tags: tags) }
        return OSMData(nodes: nodes, ways: ways, relations: [])
    }

    /// The street of 100,000 copies is one line of two segments, as the street of one copy is
    /// (before: one line of 200,000 segments, stored in 100 times as many records).
    func testCopiesOfOneWayMakeOneLine() throws {
        let network = StreetNetwork(Self.copies(100_000))
        XCTAssertEqual(network.streets.count, 1)
        XCTAssertEqual(network.streets.first?.lines.map(\.count), [3], "one line of three nodes")
        XCTAssertEqual(network.streets.first?.wayIDs.count, 100_000, "every way still belongs to the street")
    }

    /// The maps of 1 and 20,000 copies store the same segments and answer alike.
    func testTheMapOfCopiesStoresTheLineOnce() throws {
        func segments(_ map: GMap) throws -> Int {
            let roads = try XCTUnwrap(map.layer(named: "roads"))
            var count = 0
            _ = roads.forEachLeafTile { tile in _ = roads.forEachSegment(in: tile) { _ in count += 1 } }
            return count
        }
        let one = try GMap(bytes: LocationMapBuilder.build(Self.copies(1)).bytes)
        let many = try GMap(bytes: LocationMapBuilder.build(Self.copies(20_000)).bytes)
        XCTAssertEqual(try segments(many), try segments(one))
        XCTAssertEqual(MapVerifier(map: many).problems, [])
        let near = { (map: GMap) in map.nearestLines(in: "roads", latitude: 60.1711, longitude: 24.9405, within: 100, limit: 5).map(\.distance) }
        XCTAssertEqual(near(many), near(one))
    }

    /// Build times of 8,000 to 100,000 copies, printed (a benchmark, not a check: the machines are noisy).
    func testBuildTimesOfCopies() throws {
        var line = "RepeatedWaysTests: build --osm of N copies of one way:"
        // Under a sanitizer the times say nothing: two sizes, to run the code.
        for count in TestSupport.underSanitizer ? [8_000, 16_000] : [8_000, 16_000, 32_000, 100_000] {
            let data = Self.copies(count)
            let clock = ContinuousClock(), start = clock.now
            _ = try LocationMapBuilder.build(data)
            line += " \(count): \(clock.now - start);"
        }
        print(line)
    }
}
