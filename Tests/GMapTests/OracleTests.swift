import XCTest
import GMap
import GMapBuilder
import GMapTestSupport

final class FixtureOracleTests: XCTestCase {
    func testFixturesAgreeWithOracleUnderEveryTiling() throws {
        let features = try TestSupport.features(at: TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson").path, idProperty: "id")
        XCTAssertEqual(features.count, 12)
        let oracle = BruteForceOracle(features: features)
        let points = OracleCheck.points(near: features, uniform: 20_000, nearEdges: 20_000, seed: 1)
        try OracleCheck.assertAgreement(of: features, with: oracle, at: points, maximumEdges: [1, 4, 48])
    }

    func testCoarsePrecisionAgreesWithOracle() throws {
        let features = try TestSupport.features(at: TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson").path, idProperty: "id")
        let quantizer = try XCTUnwrap(Quantizer(unitsPerDegree: 100))
        let oracle = BruteForceOracle(features: features, quantizer: quantizer)
        let map = try TestSupport.build(features) { $0.quantizer = quantizer; $0.maximumEdgesPerTile = 2 }.map
        let points = OracleCheck.points(near: features, uniform: 20_000, nearEdges: 20_000, seed: 2)
        XCTAssertEqual(OracleCheck.disagreements(map: map, oracle: oracle, points: points), [])
    }
}
