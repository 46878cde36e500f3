import Foundation
import XCTest
import GMap
import GMapBuilder
import GMapCodecs

/// Checks lookups against the brute-force oracle.
package enum OracleCheck {
    /// Compares `map` with `oracle` at every point; returns the disagreements (up to `limit`) and the count checked.
    package static func disagreements(map: GMap, oracle: BruteForceOracle, points: [(latitude: Double, longitude: Double)], limit: Int = 10) -> [String] {
        var problems: [String] = []
        var count = 0
        for point in points {
            guard let grid = map.quantizer.queryPoint(latitude: point.latitude, longitude: point.longitude) else { continue }
            let expected = oracle.containing(grid).map { oracle.shapes[$0].id }
            var actual: [String] = []
            map.visitFeatures(containing: grid) { index in
                actual.append(map.feature(at: index)?.id ?? "?")
                return true
            }
            if Set(expected) != Set(actual) || expected.count != actual.count {
                count += 1
                if problems.count < limit {
                    problems.append("(\(point.latitude), \(point.longitude)) grid (\(grid.x), \(grid.y)): expected \(expected.sorted()), got \(actual)")
                }
            }
        }
        if count > problems.count { problems.append("… \(count) disagreements in all") }
        return problems
    }

    /// Points spread over the features: uniform in the bounding box, on and within metres of vertices and edges.
    package static func points(near features: [SourceFeature], uniform: Int, nearEdges: Int, seed: UInt64) -> [(latitude: Double, longitude: Double)] {
        var random = SplitMix64(state: seed)
        var west = 180.0, south = 90.0, east = -180.0, north = -90.0
        var vertices: [(longitude: Double, latitude: Double)] = []
        var edges: [((longitude: Double, latitude: Double), (longitude: Double, latitude: Double))] = []
        for feature in features {
            for polygon in feature.polygons {
                for ring in polygon {
                    for (index, position) in ring.enumerated() {
                        west = min(west, position.longitude); east = max(east, position.longitude)
                        south = min(south, position.latitude); north = max(north, position.latitude)
                        vertices.append(position)
                        edges.append((position, ring[(index + 1) % ring.count]))
                    }
                }
            }
        }
        var result: [(latitude: Double, longitude: Double)] = []
        let marginX = max(0.5, (east - west) * 0.02), marginY = max(0.5, (north - south) * 0.02)
        for _ in 0..<uniform {
            result.append((min(90, max(-90, Double.random(in: south - marginY...north + marginY, using: &random))),
                           min(180, max(-180, Double.random(in: west - marginX...east + marginX, using: &random)))))
        }
        guard !edges.isEmpty else { return result }
        for step in 0..<nearEdges {
            let (a, b) = edges[Int.random(in: 0..<edges.count, using: &random)]
            var latitude: Double, longitude: Double
            switch step % 4 {
            case 0: // exactly a vertex
                (latitude, longitude) = (a.latitude, a.longitude)
            case 1: // exactly on the edge (as near as doubles get)
                let t = Double.random(in: 0...1, using: &random)
                (latitude, longitude) = (a.latitude + t * (b.latitude - a.latitude), a.longitude + t * (b.longitude - a.longitude))
            default: // within a few metres of the edge
                let t = Double.random(in: 0...1, using: &random)
                let metres = Double.random(in: -5...5, using: &random) / 111_000
                (latitude, longitude) = (a.latitude + t * (b.latitude - a.latitude) + metres,
                                         a.longitude + t * (b.longitude - a.longitude) + Double.random(in: -5...5, using: &random) / 111_000)
            }
            result.append((min(90, max(-90, latitude)), min(180, max(-180, longitude))))
        }
        return result
    }

    /// Half the points uniform on the sphere; half at vertices, on edges, or within 5 m of them.
    package static func points(_ features: [SourceFeature], count: Int, seed: UInt64) -> [(latitude: Double, longitude: Double)] {
        var random = SplitMix64(state: seed)
        var longitudes: [Double] = [], latitudes: [Double] = [], next: [Int32] = []
        for feature in features {
            for polygon in feature.polygons {
                for ring in polygon where !ring.isEmpty {
                    let start = longitudes.count
                    for position in ring {
                        longitudes.append(position.longitude)
                        latitudes.append(position.latitude)
                        next.append(Int32(longitudes.count))
                    }
                    next[next.count - 1] = Int32(start)
                }
            }
        }
        var result: [(latitude: Double, longitude: Double)] = []
        result.reserveCapacity(count)
        for _ in 0..<(count / 2) {
            let latitude = asin(Double.random(in: -1...1, using: &random)) * 180 / .pi
            result.append((latitude, Double.random(in: -180...180, using: &random)))
        }
        let metre = 1.0 / 111_195
        while result.count < count {
            let a = Int.random(in: 0..<longitudes.count, using: &random), b = Int(next[a])
            let t = Double.random(in: 0...1, using: &random)
            var latitude = latitudes[a] + t * (latitudes[b] - latitudes[a])
            var longitude = longitudes[a] + t * (longitudes[b] - longitudes[a])
            switch result.count % 4 {
            case 0: (latitude, longitude) = (latitudes[a], longitudes[a])
            case 1: break
            default:
                latitude += Double.random(in: -5...5, using: &random) * metre
                longitude += Double.random(in: -5...5, using: &random) * metre
            }
            result.append((min(90, max(-90, latitude)), min(180, max(-180, longitude))))
        }
        return result
    }

    /// Builds `features` with each of `maximumEdges` at three tile sizes (the default, 0.7° and 3°)
    /// and asserts that every map agrees with `oracle` at `points`.
    package static func assertAgreement(
        of features: [SourceFeature], with oracle: BruteForceOracle, at points: [(latitude: Double, longitude: Double)],
        maximumEdges: [Int], file: StaticString = #filePath, line: UInt = #line
    ) throws {
        for edges in maximumEdges {
            for tileDegrees in [nil, 0.7, 3.0] as [Double?] {
                let map = try TestSupport.build(features) { options in
                    options.maximumEdgesPerTile = edges
                    options.tileSize = tileDegrees.map { Int64($0 * 1e7) }
                }.map
                XCTAssertEqual(disagreements(map: map, oracle: oracle, points: points), [],
                               "max edges \(edges), tile \(String(describing: tileDegrees))", file: file, line: line)
            }
        }
    }
}
