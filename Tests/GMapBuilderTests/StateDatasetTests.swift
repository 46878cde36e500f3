import Foundation
import GMap
import GMapBuilder
import XCTest
import GMapTestSupport

/// The shipped map's state (the state of the nearest town of the point's country) against real
/// state borders: the US states of ../shared/data/regions-josm.geojson (JOSM's ISO 3166-2
/// subdivisions, OpenStreetMap data). Skipped without ../shared.
final class StateDatasetTests: XCTestCase {
    /// Points uniform on the sphere inside a US state of regions-josm and, on the shipped map, in
    /// the United States (regions-josm's coasts are coarse: a third of its Hawaii and Alaska is
    /// sea, where the shipped map has no country, so no state): the placemark's
    /// `administrativeAreaCode` is that state's ISO 3166-2 code for at least 96 % of them (96.1 %
    /// measured on 2026-11-28: the rule errs near the borders of states with few towns, Utah,
    /// Wyoming, Nevada; a vote of the 3 to 8 nearest towns, or GeoNames' 21,783 US places of 500
    /// people or more, do no better), and its `administrativeArea` the state's USPS code.
    func testUSStatesAgainstRegionsJosm() throws {
        let path = try TestSupport.sharedFile("regions-josm.geojson").path
        let states = try TestSupport.features(at: path, idProperty: "id").filter { $0.id.hasPrefix("US-") }
        XCTAssertEqual(states.count, 51)
        let regions = try TestSupport.build(states) { $0.tileSize = 10_000_000 }.map
        let world = try GMap(contentsOf: TestSupport.shippedMap)
        var random = SplitMix64(seed: 97)
        let wanted = TestSupport.count("GMAP_ORACLE_POINTS", quick: 20_000, long: 20_000)
        var inside = 0, right = 0, usps = 0, atSea = 0, abroad = 0, wrong: [String: Int] = [:]
        let south = sin(17 * Double.pi / 180), north = sin(72 * Double.pi / 180)
        while inside < wanted {
            let latitude = asin(south + random.unit() * (north - south)) * 180 / .pi, longitude = -180 + random.unit() * 120
            guard let state = regions.lookup(latitude: latitude, longitude: longitude)?.id else { continue }
            let place = world.placemark(latitude: latitude, longitude: longitude)
            guard place.isoCountryCode == "US" else {
                if place.isoCountryCode == nil { atSea += 1 } else { abroad += 1 }
                continue
            }
            inside += 1
            if place.administrativeAreaCode == state {
                right += 1
                if place.administrativeArea == String(state.dropFirst(3)) { usps += 1 }
            } else {
                wrong[state, default: 0] += 1
            }
        }
        let share = Double(right) / Double(inside)
        print("US states: \(atSea) points of regions-josm's states at sea on the shipped map and \(abroad) in another country, left out; \(right) of \(inside) points right (\(String(format: "%.2f", 100 * share)) %), \(usps) with the USPS code; wrong most in \(wrong.sorted { $0.value > $1.value }.prefix(6).map { "\($0.key) \($0.value)" })")
        XCTAssertGreaterThanOrEqual(share, 0.96)
        XCTAssertEqual(usps, right)
    }
}
