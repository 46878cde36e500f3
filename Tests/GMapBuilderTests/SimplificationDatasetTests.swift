import Foundation
import XCTest
import GMap
import GMapBuilder
import GMapCodecs
import GMapTestSupport

/// The proof `--simplify` owes (issue 6): on Natural Earth's countries at 1:10m simplified at 100 m,
/// 1 km and 5 km, points near land borders never get zero or two answers where the full map gave
/// one, except within the simplification distance of a border. Also prints the README's table of
/// size and agreement with the full map. Skipped when ../shared is absent.
final class SimplificationDatasetTests: XCTestCase {
    static let nearBorderCount = TestSupport.count("GMAP_SIMPLIFY_POINTS", quick: 50_000, long: 200_000)
    static let uniformCount = TestSupport.longTests ? 200_000 : 50_000

    func testCountries10mSimplifiedKeepsLandBordersWatertight() throws {
        let path = try TestSupport.sharedFile("countries-10m.geojson").path
        let features = try TestSupport.features(at: path)
        var fullBuilder = try MapBuilder(options: BuildOptions())
        for feature in features { try fullBuilder.add(feature) }
        let (fullBytes, fullReport) = try fullBuilder.finish()
        let full = try GMap(bytes: fullBytes)
        let boundary = BoundaryIndex(features: features, quantizer: full.quantizer)
        var random = SplitMix64(state: 6)
        let nearBorder = Self.pointsNearLandBorders(full, count: Self.nearBorderCount, farthestMetres: 10_000, using: &random)
        var uniform: [(latitude: Double, longitude: Double)] = []
        for _ in 0..<Self.uniformCount {
            uniform.append((asin(Double.random(in: -1...1, using: &random)) * 180 / .pi, Double.random(in: -180...180, using: &random)))
        }
        let onLand = uniform.filter { full.lookup(latitude: $0.latitude, longitude: $0.longitude) != nil }

        var table = "| --simplify | bytes | vertices | max error | same answers: uniform | on land | within 10 km of a land border | 0 or 2+ answers where the full map had 1 (all within the distance) |\n"
        table += "|---|---:|---:|---:|---:|---:|---:|---:|\n"
        table += "| (none) | \(fullBytes.count) | \(fullReport.vertexCount) | – | – | – | – | – |\n"
        for (metres, buffer) in [(100.0, false), (1000, false), (5000, false), (1000, true)] {
            var options = BuildOptions()
            options.simplification = Simplification(toleranceMetres: metres, buffersCoasts: buffer)
            var builder = try MapBuilder(options: options)
            for feature in features { try builder.add(feature) }
            let (bytes, report) = try builder.finish()
            let simple = try GMap(bytes: bytes)
            let simplification = try XCTUnwrap(report.simplification)
            XCTAssertLessThanOrEqual(simplification.maximumErrorMetres, metres)

            var broken = 0, farthestBroken = 0.0, worst = ""
            for point in nearBorder {
                let before = full.lookupAll(latitude: point.latitude, longitude: point.longitude)
                guard before.count == 1 else { continue }
                let after = simple.lookupAll(latitude: point.latitude, longitude: point.longitude)
                guard after.count != 1 else { continue }
                broken += 1
                let distance = boundary.distanceToNearestEdge(latitude: point.latitude, longitude: point.longitude, within: 2 * metres)
                if distance > farthestBroken {
                    farthestBroken = distance
                    worst = "\(point.latitude), \(point.longitude): \(before.map(\.id)) → \(after.map(\.id))"
                }
            }
            // 1 % for the tangent planes (measured at the removed vertex, here at the point) and 1 m for quantization.
            XCTAssertLessThanOrEqual(farthestBroken, metres * 1.01 + 1,
                                     "\(Int(metres)) m: a point \(farthestBroken) m from every border lost its single answer (\(worst))")
            // Shared borders simplified once leave only the few points near junctions and coasts; each
            // ring simplified on its own would break thousands (a border's two copies move apart).
            XCTAssertLessThan(broken, nearBorder.count / 2000, "\(Int(metres)) m: \(broken) points near land borders lost their single answer")
            let agreement = { (points: [(latitude: Double, longitude: Double)]) -> String in
                let same = points.filter {
                    full.lookupAll(latitude: $0.latitude, longitude: $0.longitude).map(\.id) == simple.lookupAll(latitude: $0.latitude, longitude: $0.longitude).map(\.id)
                }.count
                return String(format: "%.3f %%", 100 * Double(same) / Double(max(1, points.count)))
            }
            // The simplified map answers exactly as the brute-force even-odd test over its own rings
            // (exported from the map, so they are the rings the tiles hold).
            let ownRings = try Self.exportedFeatures(simple)
            XCTAssertEqual(ownRings.count, features.count)
            let oracle = BruteForceOracle(features: ownRings, edgesPerBand: 8)
            let oraclePoints = Array(nearBorder.prefix(100_000)) + Array(uniform.prefix(100_000))
            let problems = OracleCheck.disagreements(map: simple, oracle: oracle, points: oraclePoints)
            XCTAssertEqual(problems, [], "\(Int(metres)) m: the simplified map disagrees with the even-odd test over its rings")

            let name = SimplificationReport.format(metres) + (buffer ? " --coast-buffer" : "")
            table += "| \(name) | \(bytes.count) | \(report.vertexCount) | \(SimplificationReport.format(simplification.maximumErrorMetres)) "
            table += "| \(agreement(uniform)) | \(agreement(onLand)) | \(agreement(nearBorder)) "
            table += "| \(broken) of \(nearBorder.count), farthest \(SimplificationReport.format(farthestBroken)) from a border |\n"
        }
        print("countries-10m, \(uniform.count) uniform points (\(onLand.count) on land), \(nearBorder.count) points within 10 km of a land border:\n" + table)
    }

    /// The features of `map` as `gmap export` writes them, with the map's ids.
    static func exportedFeatures(_ map: GMap) throws -> [SourceFeature] {
        var bytes: [UInt8] = []
        _ = try GeoJSONExport().write(map) { bytes.append(contentsOf: $0) }
        var reader = GeoJSONReader(bytes: bytes)
        var result: [SourceFeature] = []
        _ = try reader.forEachFeature { feature in
            guard case .polygons(let polygons) = feature.geometry else { return }
            var id = ""
            if case .string(let text)? = feature.id { id = text }
            if case .number(let text)? = feature.id { id = text }
            result.append(SourceFeature(id: id, polygons: polygons.map { $0.map { $0.map { (longitude: $0.longitude, latitude: $0.latitude) } } }))
        }
        return result
    }

    /// Points up to `farthestMetres` from a land border (a place where the full map's answer changes
    /// from one feature to another with no gap), found by bisection between two answered points.
    static func pointsNearLandBorders(_ map: GMap, count: Int, farthestMetres: Double,
                                      using random: inout SplitMix64) -> [(latitude: Double, longitude: Double)] {
        let degreesPerMetre = 1 / 111_195.0
        var points: [(latitude: Double, longitude: Double)] = []
        while points.count < count {
            let latitude = asin(Double.random(in: -1...1, using: &random)) * 180 / .pi, longitude = Double.random(in: -180...180, using: &random)
            guard abs(latitude) < 80, let a = map.lookup(latitude: latitude, longitude: longitude) else { continue }
            let bearing = Double.random(in: 0..<(2 * .pi), using: &random), reach = 30_000 * degreesPerMetre
            let other = (latitude + reach * sin(bearing), longitude + reach * cos(bearing) / cos(latitude * .pi / 180))
            guard abs(other.1) < 180, let b = map.lookup(latitude: other.0, longitude: other.1), b.id != a.id else { continue }
            var inside = (latitude, longitude), outside = other
            for _ in 0..<40 {
                let middle = ((inside.0 + outside.0) / 2, (inside.1 + outside.1) / 2)
                if map.lookup(latitude: middle.0, longitude: middle.1)?.id == a.id { inside = middle } else { outside = middle }
            }
            // A land border: the answer across the last step is another feature, not the sea.
            guard map.lookup(latitude: outside.0, longitude: outside.1) != nil else { continue }
            let offset = Double.random(in: 0...farthestMetres, using: &random) * degreesPerMetre
            let direction = Double.random(in: 0..<(2 * .pi), using: &random)
            let point = (inside.0 + offset * sin(direction), inside.1 + offset * cos(direction) / cos(inside.0 * .pi / 180))
            guard abs(point.0) <= 90, abs(point.1) <= 180 else { continue }
            points.append(point)
        }
        return points
    }
}

/// Every edge of the source rings, bucketed by 0.05° cells, for the distance from a point to the
/// nearest border in metres (in the plane tangent at the point, like the simplifier's).
struct BoundaryIndex {
    private var cells: [Int64: [Int32]] = [:]
    private var xs: [Double] = [], ys: [Double] = []
    private var next: [Int32] = []
    private let cellDegrees = 0.05

    init(features: [SourceFeature], quantizer: Quantizer) {
        for feature in features {
            for polygon in feature.polygons {
                for ring in polygon where ring.count > 1 {
                    let start = xs.count
                    for position in ring {
                        // Quantized, as the map sees them.
                        xs.append(quantizer.degrees(quantizer.units(position.longitude)))
                        ys.append(quantizer.degrees(quantizer.units(position.latitude)))
                        next.append(Int32(xs.count))
                    }
                    next[next.count - 1] = Int32(start)
                }
            }
        }
        for edge in 0..<xs.count {
            let other = Int(next[edge])
            let west = Int(floor(min(xs[edge], xs[other]) / cellDegrees)), east = Int(floor(max(xs[edge], xs[other]) / cellDegrees))
            let south = Int(floor(min(ys[edge], ys[other]) / cellDegrees)), north = Int(floor(max(ys[edge], ys[other]) / cellDegrees))
            for column in west...east {
                for row in south...north { cells[Self.key(column, row), default: []].append(Int32(edge)) }
            }
        }
    }

    private static func key(_ column: Int, _ row: Int) -> Int64 { Int64(column) << 32 | Int64(UInt32(bitPattern: Int32(row))) }

    /// The distance in metres to the nearest edge, or `.infinity` when none is within `radius` metres.
    func distanceToNearestEdge(latitude: Double, longitude: Double, within radius: Double) -> Double {
        let metresPerDegree = 6_371_008.8 * .pi / 180
        let scaleX = cos(latitude * .pi / 180) * metresPerDegree
        let reachY = radius / metresPerDegree, reachX = min(360, radius / max(scaleX, 1))
        var nearest = Double.infinity
        var seen = Set<Int32>()
        for column in Int(floor((longitude - reachX) / cellDegrees))...Int(floor((longitude + reachX) / cellDegrees)) {
            for row in Int(floor((latitude - reachY) / cellDegrees))...Int(floor((latitude + reachY) / cellDegrees)) {
                for edge in cells[Self.key(column, row)] ?? [] where seen.insert(edge).inserted {
                    let other = Int(next[Int(edge)])
                    let ax = (xs[Int(edge)] - longitude) * scaleX, ay = (ys[Int(edge)] - latitude) * metresPerDegree
                    let bx = (xs[other] - longitude) * scaleX, by = (ys[other] - latitude) * metresPerDegree
                    let dx = bx - ax, dy = by - ay, length = dx * dx + dy * dy
                    let t = length > 0 ? min(1, max(0, -(ax * dx + ay * dy) / length)) : 0
                    let px = ax + t * dx, py = ay + t * dy
                    nearest = min(nearest, (px * px + py * py).squareRoot())
                }
            }
        }
        return nearest
    }
}
