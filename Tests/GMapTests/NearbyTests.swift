import Foundation
import XCTest
import GMap
import GMapBuilder
import GMapTestSupport

/// The nearby fallback (`lookup(latitude:longitude:within:)`): its geodesic distance against
/// GeographicLib, and its answers against a brute-force distance over every edge of every feature.
final class NearbyTests: XCTestCase {
    /// The largest relative difference between an answer's distance and the brute force's, over the points checked (> 1 km).
    private var worstRelativeDifference = 0.0
    /// (lat1, lon1, lat2, lon2, distance in metres) computed with GeographicLib 2.1
    /// (`Geodesic.WGS84.Inverse`, Karney's algorithm, accurate to nanometres): fixed cases (north–south
    /// at the equator, where a sphere is 0.56 % off; poles; antimeridian; tiny) and 40 random pairs
    /// of 1 m to 200 km. Generated once with `pip install geographiclib`; only the values are kept.
    static let geographicLibReference: [(Double, Double, Double, Double, Double)] = [
        (0.0000000000, 0.0000000000, 0.5000000000, 0.0000000000, 55287.152003),
        (0.0000000000, 0.0000000000, 0.0000000000, 0.5000000000, 55659.745397),
        (45.0000000000, 10.0000000000, 45.5000000000, 10.3000000000, 60352.897888),
        (89.9900000000, 0.0000000000, 89.9900000000, 180.0000000000, 2233.879591),
        (-89.9500000000, 30.0000000000, -89.9000000000, -150.0000000000, 16754.096805),
        (10.0000000000, 179.9900000000, 10.0500000000, -179.9800000000, 6434.465057),
        (60.0000000000, 5.0000000000, 60.0000000000, 5.0000100000, 0.558000),
        (0.0000000000, 0.0000000000, 0.0000000000, 0.0000010000, 0.111319),
        (-33.9000000000, 18.4000000000, -34.2000000000, 18.9000000000, 56908.505760),
        (36.1400000000, -5.3500000000, 36.0000000000, -5.2000000000, 20589.043779),
        (70.0000000000, 20.0000000000, 70.8000000000, 21.0000000000, 96790.475130),
        (0.0000000000, -180.0000000000, 0.2000000000, 179.9000000000, 24758.567188),
        (21.9994033853, 87.0433161339, 22.2469176888, 86.1227533369, 98852.237521),
        (42.9418448784, 152.0369987996, 42.9444442356, 152.0376508523, 293.629759),
        (79.3608523427, 53.6308391293, 79.3608813057, 53.6307265279, 3.980995),
        (-5.5366404470, -91.2337802569, -5.5462248580, -91.2364787482, 1101.256021),
        (-87.1525600636, -101.9772718330, -87.1988009860, -88.9210525821, 71883.707871),
        (47.5648558416, -122.5424835511, 47.5648701206, -122.5425526730, 5.438352),
        (21.0240011634, -134.3882762819, 21.3991406813, -134.3838090913, 41537.958399),
        (-52.0073075334, -102.4267790791, -51.6316652777, -102.4937193538, 42049.531055),
        (-37.7143749733, 166.1320760220, -37.7485635752, 166.1212444620, 3912.925051),
        (-52.8444668985, 158.7513603917, -53.2645392164, 156.8995043676, 132675.537361),
        (70.4797602862, -72.4359967726, 70.4797165992, -72.4358412316, 7.578218),
        (-63.4193581922, -156.5497031848, -63.4238277260, -156.5198461838, 1572.110203),
        (-88.8944216320, 64.0563298372, -88.8946279274, 64.0736874186, 43.931602),
        (57.0147353618, -6.9317328132, 57.0134539580, -6.9263786328, 355.187315),
        (36.6357750112, -159.4796653671, 36.6357867776, -159.4796676701, 1.321866),
        (44.7133089901, 124.1571201797, 44.8470857179, 124.1785600348, 14962.804827),
        (-23.9529788243, 28.2667784605, -23.9529628812, 28.2667794511, 1.768698),
        (-57.1154116568, 163.8647638528, -57.0853331909, 164.0224165021, 10125.185441),
        (76.9083022080, 159.1357785940, 76.9079220875, 159.1382676727, 75.928354),
        (4.4216259041, 99.2170852916, 4.4867794568, 99.2694679443, 9257.840610),
        (53.2035752888, 129.4899549075, 54.1038782559, 129.8490910654, 102977.176703),
        (-73.1788043133, -57.3334072185, -73.6782756077, -58.8343980112, 73428.064938),
        (-28.6472447340, 152.7111429940, -28.6476370349, 152.7110133557, 45.288398),
        (-32.7928025663, -116.1080008182, -32.7927536569, -116.1079698337, 6.151778),
        (33.8622511354, 178.8216532332, 33.8622597393, 178.8216698351, 1.808533),
        (87.1191404724, 12.0710668899, 87.1190058694, 12.0728650768, 18.108564),
        (16.8188795041, 117.4663842475, 16.8173859475, 117.4668277518, 171.914930),
        (-79.5284056496, 149.7849654391, -79.5247851805, 149.7891172371, 412.943136),
        (60.5788413291, -132.9941422249, 60.4529906449, -134.9460758626, 108126.558899),
        (23.3414735233, 103.6834379209, 23.3428959377, 103.6846583150, 200.975219),
        (-62.7850833273, 124.1042029219, -62.7857119397, 124.1089489387, 252.186040),
        (89.3746907044, 126.8109615217, 89.3769333526, 126.7796332082, 253.373940),
        (-2.1195392586, 82.6218071161, -2.1198518548, 82.6218482697, 34.867425),
        (-17.2216946748, -127.2577094993, -18.3385339860, -126.1140227982, 173162.884738),
        (82.3070431435, 45.7073895437, 82.3064859803, 45.7074072594, 62.221063),
        (-73.5444024873, -81.9683517109, -73.4700423567, -83.1882185084, 39550.326758),
        (-24.8226042889, 102.9681286682, -24.8158436804, 102.9212175981, 4801.343439),
        (29.3593016501, 93.4699451182, 29.3273435462, 93.5121337019, 5416.125789),
        (-39.2274820096, -5.1533194233, -39.2223549556, -5.2060475696, 4588.594378),
        (-36.9004837999, 160.3971192421, -36.9068314460, 160.3862831546, 1195.370076),
    ]

    func testGeodesicDistanceMatchesGeographicLib() {
        var worst = 0.0
        for (lat1, lon1, lat2, lon2, expected) in Self.geographicLibReference {
            let distance = Geodesic.distance(latitude: lat1, longitude: lon1, toLatitude: lat2, longitude: lon2)
            let error = abs(distance - expected) / expected
            worst = max(worst, error)
            XCTAssertLessThan(error, 1e-4, "(\(lat1), \(lon1)) → (\(lat2), \(lon2)): \(distance) m, GeographicLib \(expected) m")
        }
        print("NearbyTests: largest relative error of Geodesic.distance against GeographicLib: \(worst)")
    }

    func testTrigonometryMatchesTheCLibrary() {
        var x = -7.0
        while x <= 7 {
            XCTAssertEqual(Trigonometry.sin(x), Foundation.sin(x), accuracy: 1e-15)
            XCTAssertEqual(Trigonometry.cos(x), Foundation.cos(x), accuracy: 1e-15)
            XCTAssertEqual(Trigonometry.atan(x * 3), Foundation.atan(x * 3), accuracy: 1e-15)
            XCTAssertEqual(Trigonometry.atan2(x, 1.5 - x), Foundation.atan2(x, 1.5 - x), accuracy: 1e-15)
            XCTAssertEqual(Trigonometry.asin(x / 7), Foundation.asin(x / 7), accuracy: 1e-14)
            x += 0.0137
        }
        // The arcsine's series for small arguments (|x| ≤ 1/8, a search box's half-width) and the
        // arctangent beyond it, both within two units in the last place, on either side of 1/8.
        var small = -0.13
        while small <= 0.13 {
            let expected = Foundation.asin(small)
            XCTAssertEqual(Trigonometry.asin(small), expected, accuracy: expected.magnitude.ulp * 2, "asin(\(small))")
            small += 0.000_37
        }
        for tiny in [1e-300, 1e-12, 3e-5, 0.125, 0.125.nextUp, -0.125] {
            XCTAssertEqual(Trigonometry.asin(tiny), Foundation.asin(tiny), accuracy: tiny.magnitude.ulp * 2, "asin(\(tiny))")
        }
    }

    // MARK: - Fixtures

    /// A square of 1° × 1° at the equator, and points outside it at known distances.
    func testSquareKnownDistances() throws {
        let square = SourceFeature(id: "SQ", polygons: [[[(0, 0), (1, 0), (1, 1), (0, 1), (0, 0)]]])
        let map = try TestSupport.build([square]).map
        // Inside: distance 0.
        let inside = try XCTUnwrap(map.lookup(latitude: 0.5, longitude: 0.5, within: 10_000))
        XCTAssertEqual(inside.kind, .inside)
        XCTAssertEqual(inside.distance, 0)
        // 0.05° east of the east side at 0.5° N: GeographicLib says 5565.764 m
        // (the nearest point of the meridian segment is within millimetres of it).
        let east = try XCTUnwrap(map.lookup(latitude: 0.5, longitude: 1.05, within: 10_000))
        XCTAssertEqual(east.feature.id, "SQ")
        XCTAssertEqual(east.kind, .nearby)
        XCTAssertEqual(east.distance, 5565.764, accuracy: 5565.764 * 0.001)
        // 0.05° south of the south side: a meridian arc at the equator (GeographicLib: 5528.714 m), where a sphere would say 5559.754 m.
        let south = try XCTUnwrap(map.lookup(latitude: -0.05, longitude: 0.5, within: 10_000))
        XCTAssertEqual(south.distance, 5528.714, accuracy: 5528.714 * 0.001)
        // Beyond the radius: nothing; without a radius: nothing.
        XCTAssertNil(map.lookup(latitude: 0.5, longitude: 1.2, within: 10_000))
        XCTAssertNil(map.lookup(latitude: 0.5, longitude: 1.05, within: 0))
        XCTAssertNil(map.lookup(latitude: 0.5, longitude: 1.05, within: -1))
        XCTAssertNil(map.lookup(latitude: 0.5, longitude: 1.05, within: .nan))
        XCTAssertNil(map.lookup(latitude: 91, longitude: 0, within: 10_000))
        // Beyond the corner: the distance to the corner vertex.
        let corner = try XCTUnwrap(map.lookup(latitude: 1.03, longitude: 1.04, within: 10_000))
        XCTAssertEqual(corner.distance, Geodesic.distance(latitude: 1.03, longitude: 1.04, toLatitude: 1, longitude: 1), accuracy: 0.5)
        // lookupAll lists inside first, then nearby.
        let all = map.lookupAll(latitude: 0.5, longitude: 1.05, within: 10_000)
        XCTAssertEqual(all.map(\.kind), [.nearby])
        // The search reads only tiles near the point.
        let cost = try XCTUnwrap(map.nearbyCost(latitude: 0.5, longitude: 1.05, within: 10_000))
        XCTAssertGreaterThan(cost.edges, 0)
    }

    /// Overlapping features with the same boundary nearby: the smaller (lower index) answers.
    func testTiesGoToTheSmallerFeature() throws {
        let features = try TestSupport.features(at: TestSupport.fixtures.appendingPathComponent("overlaps.geojson").path, idProperty: "id")
        let map = try TestSupport.build(features).map
        let oracle = BruteForceOracle(features: features)
        var random = NearbyRandom(seed: 7)
        for _ in 0..<300 {
            let (latitude, longitude) = random.pointNear(features, degrees: 0.5)
            check(map: map, oracle: oracle, latitude: latitude, longitude: longitude, radius: 30_000)
        }
    }

    /// Every fixture (holes, enclaves, the antimeridian, a polar cap, a bow tie): random points
    /// around each feature, the answer and distance checked against the brute force.
    func testFixturesAgainstBruteForce() throws {
        let features = try TestSupport.features(at: TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson").path, idProperty: "id")
        let map = try TestSupport.build(features).map
        let oracle = BruteForceOracle(features: features)
        var random = NearbyRandom(seed: 11)
        var nearby = 0
        for index in 0..<1500 {
            let (latitude, longitude) = random.pointNear(features, degrees: 0.6)
            let radius = [2_000.0, 20_000, 100_000][index % 3]
            if check(map: map, oracle: oracle, latitude: latitude, longitude: longitude, radius: radius) { nearby += 1 }
        }
        // Points at the antimeridian and near the poles.
        for latitude in [-89.99, -89.9, -89.5, -88, 60, 89.9, 89.99] {
            for longitude in [-180.0, -179.95, -90, 0, 179.95, 180] {
                if check(map: map, oracle: oracle, latitude: latitude, longitude: longitude, radius: 100_000) { nearby += 1 }
            }
        }
        print("NearbyTests: \(nearby) nearby answers on the fixtures agree with the brute force; largest relative difference \(worstRelativeDifference)")
        XCTAssertGreaterThan(nearby, 200)
    }

    /// Natural Earth countries (110m, and 50m when present): points near coasts and borders.
    func testCountriesAgainstBruteForce() throws {
        for (name, count) in [("countries-110m.geojson", 600), ("countries-50m.geojson", 300)] {
            let path = try TestSupport.sharedFile(name).path
            let features = try TestSupport.features(at: path)
            let map = try TestSupport.build(features).map
            let oracle = BruteForceOracle(features: features, edgesPerBand: 8)
            var random = NearbyRandom(seed: 3)
            var nearby = 0, worstCost = 0
            let started = Date()
            for index in 0..<count {
                let (latitude, longitude) = random.pointNear(features, degrees: 0.7)
                let radius = [10_000.0, 50_000, 100_000][index % 3]
                if check(map: map, oracle: oracle, latitude: latitude, longitude: longitude, radius: radius) { nearby += 1 }
                worstCost = max(worstCost, map.nearbyCost(latitude: latitude, longitude: longitude, within: radius)?.leafTiles ?? 0)
            }
            print("NearbyTests: \(name): \(nearby) of \(count) points nearby, all agree with the brute force; most leaf tiles visited \(worstCost); largest relative difference \(worstRelativeDifference); \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
            XCTAssertGreaterThan(nearby, count / 10)
        }
    }

    /// The work is bounded by the tiles the radius touches: never more leaf tiles than the
    /// top-level tiles meeting the radius's box (counted here independently), times the parts a
    /// tile can be split into, summed over the search's passes (radius/64, /16, /4, 1); and a
    /// point far from everything reads no edge.
    func testWorkIsBoundedByTheRadius() throws {
        let features = try TestSupport.features(at: TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson").path, idProperty: "id")
        let map = try TestSupport.build(features).map
        let grid = map.grid
        let tileDegrees = Double(grid.tileHeight) / Double(map.quantizer.unitsPerDegree)
        let parts = Int(pow(Double(grid.splitFactor * grid.splitFactor), Double(grid.maximumDepth)))
        /// Top-level tiles meeting the box of one radius: the cap on a sphere of radius 6,335 km.
        func topLevelTiles(_ latitude: Double, _ longitude: Double, _ radius: Double) -> Int {
            let span = radius / 6_335_439.0 * 180 / .pi
            let rows = Int((2 * span) / tileDegrees) + 3
            let halfWidth = abs(latitude) + span >= 90 ? 180 : asin(min(1, sin(span * .pi / 180) / cos(latitude * .pi / 180))) * 180 / .pi
            let crossesAntimeridian = abs(longitude) + halfWidth >= 179.999
            let columns = min(Int(grid.columns), Int((2 * halfWidth) / tileDegrees) + 3 + (crossesAntimeridian ? 2 : 0))
            return rows * columns
        }
        var random = NearbyRandom(seed: 5)
        var largest = 0
        for _ in 0..<300 {
            let (latitude, longitude) = random.pointNear(features, degrees: 2)
            for radius in [1_000.0, 10_000, 100_000] {
                guard let cost = map.nearbyCost(latitude: latitude, longitude: longitude, within: radius) else { XCTFail("no cost"); continue }
                let bound = [64.0, 16, 4, 1].reduce(0) { $0 + topLevelTiles(latitude, longitude, radius / $1) } * parts
                XCTAssertLessThanOrEqual(cost.leafTiles, bound, "(\(latitude), \(longitude)) r \(radius)")
                XCTAssertLessThanOrEqual(cost.measuredEdges, cost.edges)
                largest = max(largest, cost.leafTiles)
            }
        }
        print("NearbyTests: at most \(largest) leaf tiles visited on the fixtures (1° tiles)")
        let ocean = try XCTUnwrap(map.nearbyCost(latitude: -30, longitude: -100, within: 100_000))
        XCTAssertEqual(ocean.edges, 0)
        XCTAssertLessThanOrEqual(ocean.leafTiles, 4 * 9)
    }

    /// Damaged copies of a map (split tiles, 4 edges per tile): nearby searches end early or answer
    /// wrongly, but never trap, loop or read out of bounds (run under AddressSanitizer in CI).
    func testDamagedMapsNeverCrash() throws {
        let bytes = try TestSupport.build(geoJSON: TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson").path) {
            $0.idProperty = "id"
            $0.maximumEdgesPerTile = 4
            $0.tileSize = 50_000_000
        }.bytes
        let probes: [(Double, Double)] = [(0.5, 1.05), (4.5, 41.5), (-17, 180), (-17, -179.9), (89.9, 0), (-89.9, 10), (9, 89), (0, 0)]
        var random = NearbyRandom(seed: 9)
        var opened = 0
        for _ in 0..<400 {
            var copy = bytes
            for _ in 0..<(1 + Int(random.next() % 4)) {
                copy[64 + Int(random.next() % UInt64(copy.count - 64))] = UInt8(truncatingIfNeeded: random.next())
            }
            guard let map = try? GMap(bytes: copy) else { continue }
            opened += 1
            for (latitude, longitude) in probes {
                _ = map.lookup(latitude: latitude, longitude: longitude, within: 100_000)?.feature.id
                _ = map.lookupAll(latitude: latitude, longitude: longitude, within: 50_000).count
            }
        }
        XCTAssertGreaterThan(opened, 100)
    }

    // MARK: - The brute force

    /// Checks one point against the brute force; returns whether the answer was "nearby".
    @discardableResult
    private func check(map: GMap, oracle: BruteForceOracle, latitude: Double, longitude: Double, radius: Double,
                       file: StaticString = #filePath, line: UInt = #line) -> Bool {
        let answer = map.lookup(latitude: latitude, longitude: longitude, within: radius)
        guard let point = map.quantizer.queryPoint(latitude: latitude, longitude: longitude) else { return false }
        // The oracle numbers features in source order, the map by area: match them by id (unique here).
        let mapIndex = Dictionary(uniqueKeysWithValues: map.features.map { ($0.id, $0.index) })
        let containing = oracle.containing(point).compactMap { mapIndex[oracle.shapes[$0].id] }
        if let first = containing.min() {
            XCTAssertEqual(answer?.kind, .inside, file: file, line: line)
            XCTAssertEqual(answer?.feature.index, first, file: file, line: line)
            return false
        }
        let spacing = radius / 4000
        let sourceDistances = BruteForceDistance.distances(oracle: oracle, latitude: latitude, longitude: longitude, radius: radius, spacing: spacing)
        var distances = Array(repeating: Double.infinity, count: map.featureCount)
        for (source, distance) in sourceDistances.enumerated() {
            if let index = mapIndex[oracle.shapes[source].id] { distances[index] = distance }
        }
        let nearest = distances.enumerated().min { $0.element != $1.element ? $0.element < $1.element : $0.offset < $1.offset }
        let tolerance = { (distance: Double) in distance * 0.005 + spacing }
        guard let nearest, nearest.element <= radius + tolerance(radius) else {
            XCTAssertNil(answer, "(\(latitude), \(longitude)) r \(radius): nothing within the radius, got \(String(describing: answer))", file: file, line: line)
            return false
        }
        guard let answer else {
            XCTAssertGreaterThan(nearest.element, radius - tolerance(radius), "(\(latitude), \(longitude)) r \(radius): brute force finds \(nearest.offset) at \(nearest.element) m", file: file, line: line)
            return false
        }
        XCTAssertEqual(answer.kind, .nearby, file: file, line: line)
        if nearest.element > 1000 { worstRelativeDifference = max(worstRelativeDifference, abs(answer.distance - nearest.element) / nearest.element) }
        XCTAssertEqual(answer.distance, nearest.element, accuracy: tolerance(nearest.element),
                       "(\(latitude), \(longitude)) r \(radius): feature \(answer.feature.index)", file: file, line: line)
        // The answer's feature is the nearest, or as near within the tolerance (a shared border).
        let answered = distances[answer.feature.index]
        XCTAssertLessThanOrEqual(answered, nearest.element + tolerance(nearest.element),
                                 "(\(latitude), \(longitude)) r \(radius): answered \(answer.feature.index) at \(answered) m, nearest \(nearest.offset) at \(nearest.element) m", file: file, line: line)
        if answered == nearest.element {
            // An exact tie (the same edges): the smaller index answers.
            XCTAssertEqual(answer.feature.index, nearest.offset, file: file, line: line)
        }
        return true
    }
}

/// The brute-force nearest distance: every edge of every feature (quantized as the builder does)
/// near enough in latitude and longitude, sampled along its length, each sample measured with
/// Vincenty's formula (Foundation's trigonometry): independent of the library's search and of its
/// Andoyer–Lambert distance. Samples are `spacing × 50` apart, then `spacing` apart within one
/// coarse step of the best coarse sample.
enum BruteForceDistance {
    /// For each feature, the smallest distance to its rings (infinity when far beyond the radius).
    static func distances(oracle: BruteForceOracle, latitude: Double, longitude: Double, radius: Double, spacing: Double) -> [Double] {
        let band = radius / 6_335_000 * 180 / .pi * 1.01 + 1e-6
        let cosine = cos(latitude * .pi / 180)
        let lonBand = abs(latitude) + band >= 89.9 || sin(band * .pi / 180) >= cosine
            ? 360 : asin(sin(band * .pi / 180) / cosine) * 180 / .pi * 1.01 + 1e-6
        let units = Double(oracle.quantizer.unitsPerDegree)
        return oracle.shapes.map { shape in
            var best = Double.infinity
            var start = 0
            for end in shape.ringEnds {
                for i in start..<end {
                    let j = i + 1 < end ? i + 1 : start
                    var latA = Double(shape.ys[i]) / units, lonA = Double(shape.xs[i]) / units
                    var latB = Double(shape.ys[j]) / units, lonB = Double(shape.xs[j]) / units
                    if min(latA, latB) > latitude + band || max(latA, latB) < latitude - band { continue }
                    if lonBand < 360 {
                        // Longitude gap from the point to [min, max] of the edge, across the antimeridian too.
                        let west = min(lonA, lonB), east = max(lonA, lonB)
                        var gap = 0.0
                        if longitude < west { gap = min(west - longitude, longitude + 360 - east) }
                        if longitude > east { gap = min(longitude - east, west + 360 - longitude) }
                        if gap > lonBand { continue }
                    }
                    if (lonA, latA) > (lonB, latB) { swap(&latA, &latB); swap(&lonA, &lonB) }
                    func at(_ t: Double) -> Double { vincenty(latitude, longitude, latA + t * (latB - latA), lonA + t * (lonB - lonA)) }
                    // A conservative length of the edge (longitude not scaled down by the latitude).
                    let length = 6_400_000 * .pi / 180 * (abs(latB - latA) + abs(lonB - lonA))
                    let coarse = max(1, Int(length / (spacing * 50)) + 1)
                    var bestStep = 0, bestCoarse = Double.infinity
                    for step in 0...coarse {
                        let value = at(Double(step) / Double(coarse))
                        if value < bestCoarse { bestCoarse = value; bestStep = step }
                    }
                    best = min(best, bestCoarse)
                    let low = Double(max(0, bestStep - 1)) / Double(coarse), high = Double(min(coarse, bestStep + 1)) / Double(coarse)
                    let fine = max(1, min(100_000, Int(length * (high - low) / spacing) + 1))
                    for step in 0...fine {
                        best = min(best, at(low + (high - low) * Double(step) / Double(fine)))
                    }
                }
                start = end
            }
            return best
        }
    }

    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// Vincenty's inverse formula on WGS 84 (accurate to 0.5 mm away from antipodes).
    static func vincenty(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let a = 6_378_137.0, f = 1 / 298.257223563, b = a * (1 - f)
        let rad = Double.pi / 180
        let L = (lon2 - lon1) * rad
        let U1 = atan((1 - f) * tan(lat1 * rad)), U2 = atan((1 - f) * tan(lat2 * rad))
        let sinU1 = sin(U1), cosU1 = cos(U1), sinU2 = sin(U2), cosU2 = cos(U2)
        var lambda = L
        var sinSigma = 0.0, cosSigma = 0.0, sigma = 0.0, cos2Alpha = 0.0, cos2SigmaM = 0.0
        for _ in 0..<200 {
            let sinLambda = sin(lambda), cosLambda = cos(lambda)
            let x = cosU2 * sinLambda, y = cosU1 * sinU2 - sinU1 * cosU2 * cosLambda
            sinSigma = (x * x + y * y).squareRoot()
            if sinSigma == 0 { return 0 }
            cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda
            sigma = atan2(sinSigma, cosSigma)
            let sinAlpha = cosU1 * cosU2 * sinLambda / sinSigma
            cos2Alpha = 1 - sinAlpha * sinAlpha
            cos2SigmaM = cos2Alpha != 0 ? cosSigma - 2 * sinU1 * sinU2 / cos2Alpha : 0
            let C = f / 16 * cos2Alpha * (4 + f * (4 - 3 * cos2Alpha))
            let previous = lambda
            lambda = L + (1 - C) * f * sinAlpha * (sigma + C * sinSigma * (cos2SigmaM + C * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
            if abs(lambda - previous) < 1e-13 { break }
        }
        let u2 = cos2Alpha * (a * a - b * b) / (b * b)
        let A = 1 + u2 / 16384 * (4096 + u2 * (-768 + u2 * (320 - 175 * u2)))
        let B = u2 / 1024 * (256 + u2 * (-128 + u2 * (74 - 47 * u2)))
        let deltaSigma = B * sinSigma * (cos2SigmaM + B / 4 * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)
            - B / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
        return b * A * (sigma - deltaSigma)
    }
}

/// Test points from the package's one generator.
typealias NearbyRandom = SplitMix64
