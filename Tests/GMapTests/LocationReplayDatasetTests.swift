import XCTest
import Dispatch
import GMap
import GMapBuilder
import GMapTestSupport

/// A walk through central Helsinki on named streets, replayed with GPS noise through
/// ``LocationContext`` over the extract's streets (issue 13's test; skipped when ../shared/data/osm is absent).
final class LocationReplayDatasetTests: XCTestCase {
    static let route = ["Rautatientori", "Keskuskatu", "Kaivokatu", "Mikonkatu", "Yliopistonkatu", "Unioninkatu", "Hallituskatu",
                        "Unioninkatu", "Eteläesplanadi", "Korkeavuorenkatu", "Pohjoisesplanadi", "Mannerheimintie", "Bulevardi"]

    /// A point of the walk: where, on which street, which way.
    struct Step { var latitude: Double; var longitude: Double; var street: String; var course: Double }

    /// The walk's nodes and streets: along each street of ``route`` by the shortest way (over that
    /// street's segments) from where the previous one left off to a node of the next street.
    static func walk(_ network: StreetNetwork) throws -> [(node: OSMNode, street: String)] {
        var graph: [String: [Int64: [(OSMNode, Double)]]] = [:]
        var nodes: [Int64: OSMNode] = [:]
        for street in network.streets {
            for line in street.lines {
                for (a, b) in zip(line, line.dropFirst()) {
                    let length = Geodesic.distance(latitude: a.latitude, longitude: a.longitude, toLatitude: b.latitude, longitude: b.longitude)
                    graph[street.name, default: [:]][a.id, default: []].append((b, length))
                    graph[street.name, default: [:]][b.id, default: []].append((a, length))
                    nodes[a.id] = a; nodes[b.id] = b
                }
            }
        }
        func shortest(on name: String, from starts: Set<Int64>, to targets: Set<Int64>) -> [Int64]? {
            guard let edges = graph[name] else { return nil }
            var distance: [Int64: Double] = [:], previous: [Int64: Int64] = [:]
            var frontier = starts.map { ($0, 0.0) }
            for start in starts { distance[start] = 0 }
            while let index = frontier.indices.min(by: { frontier[$0].1 < frontier[$1].1 }) {
                let (node, d) = frontier.remove(at: index)
                guard d <= distance[node, default: .infinity] else { continue }
                if targets.contains(node) {
                    var path = [node]
                    while let back = previous[path[0]] { path.insert(back, at: 0) }
                    return path
                }
                for (next, length) in edges[node] ?? [] where d + length < distance[next.id, default: .infinity] {
                    distance[next.id] = d + length
                    previous[next.id] = node
                    frontier.append((next.id, d + length))
                }
            }
            return nil
        }
        func farthest(on name: String, from start: Int64, limit: Double) -> Int64 {
            guard let edges = graph[name] else { return start }
            var distance: [Int64: Double] = [start: 0], frontier = [start], best = (start, 0.0)
            while let node = frontier.popLast() {
                for (next, length) in edges[node] ?? [] {
                    let d = distance[node, default: 0] + length
                    guard d <= limit, d < distance[next.id, default: .infinity] else { continue }
                    distance[next.id] = d
                    frontier.append(next.id)
                    if d > best.1 { best = (next.id, d) }
                }
            }
            return best.0
        }
        var result: [(OSMNode, String)] = []
        // Start on the first street as far as 150 m back from where it meets the second.
        let firstTargets = Set(graph[route[1]]?.keys.map { $0 } ?? []).intersection(graph[route[0]]?.keys.map { $0 } ?? [])
        guard let meeting = firstTargets.sorted().first else { throw XCTSkip("\(route[0]) does not meet \(route[1]) in this extract") }
        var current = farthest(on: route[0], from: meeting, limit: 150)
        for (index, name) in route.enumerated() {
            let targets: Set<Int64>
            if index + 1 < route.count {
                targets = Set(graph[route[index + 1]]?.keys.map { $0 } ?? []).intersection(graph[name]?.keys.map { $0 } ?? []).subtracting([current])
            } else {
                targets = [farthest(on: name, from: current, limit: 250)]
            }
            if targets.isEmpty, index + 1 < route.count {
                // The next street meets this one only where we came in: walk out along this one and back.
                let end = farthest(on: name, from: current, limit: 120)
                guard let out = shortest(on: name, from: [current], to: [end]), out.count > 1 else {
                    throw XCTSkip("\(name) has no way out from node \(current) in this extract")
                }
                for id in out.dropFirst() + out.reversed().dropFirst() { if let node = nodes[id] { result.append((node, name)) } }
                continue
            }
            guard let path = shortest(on: name, from: [current], to: targets) else {
                throw XCTSkip("no way along \(name) from node \(current) to \(route[min(index + 1, route.count - 1)]) in this extract")
            }
            for (position, id) in path.enumerated() where !(position == 0 && !result.isEmpty) {
                if let node = nodes[id] { result.append((node, name)) }
            }
            current = path.last ?? current
        }
        return result
    }

    /// The walk at 1.4 m/s, one fix a second: position, the street of the segment walked, course.
    static func steps(_ walk: [(node: OSMNode, street: String)]) -> [Step] {
        var steps: [Step] = []
        var carried = 0.0
        for index in 1..<walk.count {
            let a = walk[index - 1].node, b = walk[index].node
            let length = Geodesic.distance(latitude: a.latitude, longitude: a.longitude, toLatitude: b.latitude, longitude: b.longitude)
            let course = Compass.bearing(fromLatitude: a.latitude, longitude: a.longitude, toLatitude: b.latitude, longitude: b.longitude)
            var along = carried
            while along < length {
                let t = along / length
                steps.append(Step(latitude: a.latitude + (b.latitude - a.latitude) * t, longitude: a.longitude + (b.longitude - a.longitude) * t,
                                  street: walk[index].street, course: course))
                along += 1.4
            }
            carried = along - length
        }
        return steps
    }

    struct Result { var changes: Int; var givenChanges: Int; var correct: Int; var counted: Int; var fixes: Int }

    /// Replays `steps` with Gaussian noise `sigma` metres (Box–Muller from a fixed SplitMix64 state).
    static func replay<Source: LocationSource>(_ steps: [Step], source: Source, network: StreetNetwork, sigma: Double, seed: UInt64,
                                               throttle: LocationContext<Source>.Throttle, timings: UnsafeMutablePointer<[Double]>? = nil) -> Result {
        var random = SplitMix64(state: seed)
        var options = LocationContext<Source>.Options()
        options.throttle = throttle
        var context = LocationContext(source: source, options: options)
        var result = Result(changes: 0, givenChanges: 0, correct: 0, counted: 0, fixes: 0)
        var last: String?, lastGiven: String?
        for (second, step) in steps.enumerated() {
            let (latitude, longitude) = random.noisy(latitude: step.latitude, longitude: step.longitude, sigma: sigma)
            let fix = LocationFix(latitude: latitude, longitude: longitude, time: Double(second), course: step.course)
            let start = DispatchTime.now().uptimeNanoseconds
            let sense = context.update(fix)
            timings?.pointee.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1000)
            let road = context.currentRoad
            if let road, let previous = last, road != previous { result.changes += 1 }
            if let road { last = road }
            if let sense, case let .alongRoad(given, _, _) = sense {
                if let previous = lastGiven, given.name != previous { result.givenChanges += 1 }
                lastGiven = given.name
            }
            let nearJunction = network.intersections.contains { intersection in
                Geodesic.distance(latitude: step.latitude, longitude: step.longitude, toLatitude: intersection.node.latitude, longitude: intersection.node.longitude) <= 30
            }
            if !nearJunction {
                result.counted += 1
                if road == step.street { result.correct += 1 }
            }
            result.fixes += 1
        }
        return result
    }

    func testReplayedWalkKeepsTheStreet() throws {
        let data = try OSMPBFReader.read(path: try TestSupport.osmExtract("Helsinki.osm.pbf").path)
        let network = StreetNetwork(data)
        let source = NetworkLocationSource(network: network, places: OSMPlaces(data))
        let walk = try Self.walk(network)
        let steps = Self.steps(walk)
        let length = Double(steps.count) * 1.4
        let trueChanges = zip(steps, steps.dropFirst()).filter { $0.street != $1.street }.count
        XCTAssertEqual(trueChanges, 12)
        XCTAssertGreaterThan(length, 1_500)
        XCTAssertLessThan(length, 3_000)
        for sigma in [5.0, 10.0] {
            var unthrottled: [Result] = [], throttled: [Result] = []
            for seed: UInt64 in [1, 2, 3, 4, 5] {
                unthrottled.append(Self.replay(steps, source: source, network: network, sigma: sigma, seed: seed, throttle: .none))
                throttled.append(Self.replay(steps, source: source, network: network, sigma: sigma, seed: seed, throttle: .timeOrDistance(seconds: 15, metres: 10)))
            }
            let correct = unthrottled.map { Double($0.correct) / Double($0.counted) }.reduce(0, +) / 5
            let changes = Double(unthrottled.map(\.changes).reduce(0, +)) / 5
            let givenChanges = Double(throttled.map(\.givenChanges).reduce(0, +)) / 5
            print(String(format: "replay σ = %.0f m: %d fixes (%.0f m), %.2f %% correct farther than 30 m from junctions, %.1f street changes unthrottled, %.1f throttled (mean of 5)",
                         sigma, steps.count, length, correct * 100, changes, givenChanges))
            if sigma == 5 {
                XCTAssertGreaterThanOrEqual(correct, 0.985)
                XCTAssertLessThanOrEqual(changes, 20)
                XCTAssertLessThanOrEqual(givenChanges, 16)
            }
        }
        // The same bytes on every run: a replay is a function of its seed.
        let again = Self.replay(steps, source: source, network: network, sigma: 5, seed: 1, throttle: .none)
        let first = Self.replay(steps, source: source, network: network, sigma: 5, seed: 1, throttle: .none)
        XCTAssertEqual(again.changes, first.changes)
        XCTAssertEqual(again.correct, first.correct)
    }

    /// The same walk answered from the location map (format 3.1) instead of the in-memory network:
    /// the same thresholds, the same answers as the oracle source, and `update`'s time per fix.
    func testReplayedWalkOnTheMap() throws {
        let data = try OSMPBFReader.read(path: try TestSupport.osmExtract("Helsinki.osm.pbf").path)
        let network = StreetNetwork(data)
        let oracle = NetworkLocationSource(network: network, places: OSMPlaces(data))
        let map = try GMap(bytes: try LocationMapBuilder.build(data).bytes)
        let source = try MapLocationSource(map: map)
        let steps = Self.steps(try Self.walk(network))
        var timings: [Double] = []
        var unthrottled: [Result] = [], throttled: [Result] = []
        for seed: UInt64 in [1, 2, 3, 4, 5] {
            unthrottled.append(Self.replay(steps, source: source, network: network, sigma: 5, seed: seed, throttle: .none, timings: &timings))
            throttled.append(Self.replay(steps, source: source, network: network, sigma: 5, seed: seed, throttle: .timeOrDistance(seconds: 15, metres: 10)))
        }
        let correct = unthrottled.map { Double($0.correct) / Double($0.counted) }.reduce(0, +) / 5
        let changes = Double(unthrottled.map(\.changes).reduce(0, +)) / 5
        let givenChanges = Double(throttled.map(\.givenChanges).reduce(0, +)) / 5
        timings.sort()
        let p50 = timings[timings.count / 2], p99 = timings[timings.count * 99 / 100]
        print(String(format: "replay on the map, σ = 5 m: %.2f %% correct farther than 30 m from junctions, %.1f street changes unthrottled, %.1f throttled (mean of 5); update p50 %.1f µs, p99 %.1f µs over %d fixes",
                     correct * 100, changes, givenChanges, p50, p99, timings.count))
        XCTAssertGreaterThanOrEqual(correct, 0.985)
        XCTAssertLessThanOrEqual(changes, 20)
        XCTAssertLessThanOrEqual(givenChanges, 16)
        // The map answers as the brute-force source does (positions differ by at most 1 cm).
        let network5 = Self.replay(steps, source: oracle, network: network, sigma: 5, seed: 1, throttle: .none)
        XCTAssertEqual(unthrottled[0].changes, network5.changes)
        XCTAssertEqual(unthrottled[0].correct, network5.correct)
    }
}
