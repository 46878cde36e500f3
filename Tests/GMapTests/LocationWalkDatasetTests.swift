import XCTest
import GMap
import GMapBuilder
import GMapTestSupport

/// Location sense over time, judged on walks: shortest paths over the named streets between
/// random nodes of the Helsinki and Kotka extracts (fixed seeds), walked at 1.4 m/s with one fix a
/// second and the course of the segment walked, replayed with Gaussian GPS noise through a
/// ``LocationContext`` on the location map (issue 22's tests; skipped when ../shared/data/osm is
/// absent). The walks are drawn by rule, not picked: the thresholds hold for walks never seen.
final class LocationWalkDatasetTests: XCTestCase {
    /// One fix of a walk: where, on which street, which way, and the route's next main junction on that street.
    struct Step {
        var latitude: Double, longitude: Double, street: String, course: Double
        /// The route's next main intersection on `street` (before or at the turn off it), if any.
        var nextJunction: OSMNode?
    }

    /// A walk's fixes.
    struct Walk { var steps: [Step] }

    /// An extract made ready: its map source, network and the junction index.
    struct Extract {
        var network: StreetNetwork
        var source: MapLocationSource
        /// The streets of each main intersection, by node id.
        var mainJunctions: [Int64: Set<String>]
    }

    static func extract(_ name: String) throws -> Extract {
        let data = try OSMPBFReader.read(path: try TestSupport.osmExtract(name).path)
        let network = StreetNetwork(data)
        let map = try GMap(bytes: try LocationMapBuilder.build(data).bytes)
        let source = try MapLocationSource(map: map)
        var main: [Int64: Set<String>] = [:]
        for junction in network.intersections where junction.isMain {
            main[junction.node.id] = Set(junction.legs.map { network.streets[$0.street].name })
        }
        return Extract(network: network, source: source, mainJunctions: main)
    }

    /// `count` walks between random nodes at least `minimum` metres apart (straight), each the
    /// shortest path over the network's streets, changing street costing 20 m more (so that
    /// routes do not zig-zag through every block). Deterministic for a seed.
    static func walks(_ extract: Extract, count: Int, seed: UInt64, minimum: Double = 700) -> [Walk] {
        var edges: [Int64: [(to: OSMNode, street: String, length: Double)]] = [:]
        var nodes: [Int64: OSMNode] = [:]
        for street in extract.network.streets {
            for line in street.lines {
                for (a, b) in zip(line, line.dropFirst()) where a.id != b.id {
                    let length = Geodesic.distance(latitude: a.latitude, longitude: a.longitude, toLatitude: b.latitude, longitude: b.longitude)
                    edges[a.id, default: []].append((b, street.name, length))
                    edges[b.id, default: []].append((a, street.name, length))
                    nodes[a.id] = a
                    nodes[b.id] = b
                }
            }
        }
        let ids = nodes.keys.sorted()
        var random = SplitMix64(state: seed)
        var result: [Walk] = []
        var attempts = 0
        while result.count < count, attempts < count * 50 {
            attempts += 1
            guard let start = nodes[ids[Int(random.next() % UInt64(ids.count))]], let end = nodes[ids[Int(random.next() % UInt64(ids.count))]] else { continue }
            guard Geodesic.distance(latitude: start.latitude, longitude: start.longitude, toLatitude: end.latitude, longitude: end.longitude) >= minimum else { continue }
            // Dijkstra over (node, street) states.
            struct State: Hashable { var node: Int64; var street: String }
            var best: [State: Double] = [:], previous: [State: State] = [:]
            var heap = MinHeap()
            for edge in edges[start.id] ?? [] {
                let state = State(node: start.id, street: edge.street)
                best[state] = 0
                heap.push(0, state.node, state.street)
            }
            var reached: State?
            while let (cost, node, street) = heap.pop() {
                let state = State(node: node, street: street)
                guard cost <= best[state, default: .infinity] else { continue }
                if node == end.id { reached = state; break }
                for edge in edges[node] ?? [] {
                    let next = State(node: edge.to.id, street: edge.street)
                    let total = cost + edge.length + (edge.street == street ? 0 : 20)
                    if total < best[next, default: .infinity] {
                        best[next] = total
                        previous[next] = state
                        heap.push(total, next.node, next.street)
                    }
                }
            }
            guard let last = reached else { continue }
            var path = [last]
            while let back = previous[path[0]] { path.insert(back, at: 0) }
            // path[k].street is the street walked from path[k-1] to path[k].
            var route: [(node: OSMNode, street: String)] = []
            for (index, state) in path.enumerated() {
                guard let node = nodes[state.node] else { continue }
                if index == 0 { continue }
                if route.isEmpty, let first = nodes[path[0].node] { route.append((first, state.street)) }
                route.append((node, state.street))
            }
            let steps = Self.steps(route, mainJunctions: extract.mainJunctions)
            guard steps.count >= 300 else { continue }
            result.append(Walk(steps: steps))
        }
        return result
    }

    /// The route at 1.4 m/s, one fix a second.
    static func steps(_ route: [(node: OSMNode, street: String)], mainJunctions: [Int64: Set<String>]) -> [Step] {
        // For the segment into route node `index`: the first main junction on its street at or
        // after that node, up to the turn off the street.
        func nextJunction(after index: Int) -> OSMNode? {
            let street = route[index].street
            var k = index
            while k < route.count {
                let node = route[k].node
                if mainJunctions[node.id]?.contains(street) == true { return node }
                if k + 1 < route.count, route[k + 1].street != street { return nil }
                k += 1
            }
            return nil
        }
        var steps: [Step] = []
        var carried = 0.0
        for index in 1..<route.count {
            let a = route[index - 1].node, b = route[index].node
            let length = Geodesic.distance(latitude: a.latitude, longitude: a.longitude, toLatitude: b.latitude, longitude: b.longitude)
            let course = Compass.bearing(fromLatitude: a.latitude, longitude: a.longitude, toLatitude: b.latitude, longitude: b.longitude)
            let next = nextJunction(after: index)
            var along = carried
            while along < length {
                let t = along / length
                steps.append(Step(latitude: a.latitude + (b.latitude - a.latitude) * t, longitude: a.longitude + (b.longitude - a.longitude) * t,
                                  street: route[index].street, course: course, nextJunction: next))
                along += 1.4
            }
            carried = along - length
        }
        return steps
    }

    /// What a replay measured.
    struct Stats {
        var trueChanges = 0, reportedChanges = 0, counted = 0, correct = 0, printed = 0, fixes = 0
        var lags: [Double] = []
        var aheadGiven = 0, aheadOnStreet = 0, aheadJudged = 0, aheadIsNext = 0, aheadExpected = 0, distanceGrowths = 0

        mutating func add(_ other: Stats) {
            trueChanges += other.trueChanges; reportedChanges += other.reportedChanges; counted += other.counted; correct += other.correct
            printed += other.printed; fixes += other.fixes; lags += other.lags
            aheadGiven += other.aheadGiven; aheadOnStreet += other.aheadOnStreet; aheadJudged += other.aheadJudged
            aheadIsNext += other.aheadIsNext; aheadExpected += other.aheadExpected; distanceGrowths += other.distanceGrowths
        }
        var correctShare: Double { counted == 0 ? 1 : Double(correct) / Double(counted) }
        var changeRatio: Double { trueChanges == 0 ? 0 : Double(reportedChanges) / Double(trueChanges) }
        func lag(_ quantile: Double) -> Double {
            let sorted = lags.sorted()
            return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * quantile))]
        }
    }

    /// Replays `walk` with noise `sigma` (Box–Muller from SplitMix64 `seed`) and measures.
    /// Whether an announced intersection is the route's junction `next`: the same node, or the
    /// same crossing: within 12 m of it, or within 30 m and meeting one of the same cross streets
    /// (a street of two carriageways meets a cross street at two nodes, one per carriageway).
    static func isSameCrossing(_ ahead: IntersectionMatch, _ latitude: Double, _ longitude: Double, _ next: OSMNode, extract: Extract, street: String) -> Bool {
        let apart = Geodesic.distance(latitude: latitude, longitude: longitude, toLatitude: next.latitude, longitude: next.longitude)
        if apart < 12 { return true }
        let crossing = (extract.mainJunctions[next.id] ?? []).subtracting([street])
        return apart < 30 && !crossing.isDisjoint(with: ahead.streetNames.filter { $0 != street })
    }

    static let debug = ProcessInfo.processInfo.environment["GMAP_WALK_DEBUG"] != nil

    static func replay(_ walk: Walk, extract: Extract, sigma: Double, seed: UInt64) -> Stats {
        var random = SplitMix64(state: seed)
        var context = LocationContext(source: extract.source)
        var stats = Stats()
        var roads: [String?] = []
        var lastAhead: IntersectionMatch?
        for (second, step) in walk.steps.enumerated() {
            let (latitude, longitude) = random.noisy(latitude: step.latitude, longitude: step.longitude, sigma: sigma)
            guard let update = context.advance(LocationFix(latitude: latitude, longitude: longitude, time: Double(second), course: step.course)) else { continue }
            stats.fixes += 1
            if update.isWorthSaying {
                stats.printed += 1
                if debug, sigma == 5 { print("SAY \(second) \(update.changes.rawValue) \(update.sense.kindName) \(update.sense.road?.name ?? "-") area \(update.sense.area?.name ?? "-") ahead \(update.sense.intersectionAhead?.streetNames ?? []) true \(step.street)") }
            }
            let road = context.currentRoad
            if let road, let previous = roads.last(where: { $0 != nil }) ?? nil, road != previous { stats.reportedChanges += 1 }
            roads.append(road)
            let nearJunction = extract.network.intersections.contains { junction in
                Geodesic.distance(latitude: step.latitude, longitude: step.longitude, toLatitude: junction.node.latitude, longitude: junction.node.longitude) <= 30
            }
            if !nearJunction {
                stats.counted += 1
                if road == step.street { stats.correct += 1 }
            }
            // The intersection ahead, when the context is along the true street.
            if case let .alongRoad(along, ahead, _) = update.sense, along.name == step.street {
                if let next = step.nextJunction,
                   Geodesic.distance(latitude: step.latitude, longitude: step.longitude, toLatitude: next.latitude, longitude: next.longitude) <= 400 {
                    stats.aheadExpected += 1
                }
                if let ahead {
                    stats.aheadGiven += 1
                    if ahead.streetNames.contains(step.street) { stats.aheadOnStreet += 1 }
                    // Judged where the route's next main junction is 5 m ahead or more (nearer, the walker is at it).
                    if let next = step.nextJunction,
                       Geodesic.distance(latitude: step.latitude, longitude: step.longitude, toLatitude: next.latitude, longitude: next.longitude) >= 5 {
                        stats.aheadJudged += 1
                        if let aLat = ahead.latitude, let aLon = ahead.longitude,
                           Self.isSameCrossing(ahead, aLat, aLon, next, extract: extract, street: step.street) {
                            stats.aheadIsNext += 1
                        } else if debug, sigma == 5 {
                            let expected = Geodesic.distance(latitude: step.latitude, longitude: step.longitude, toLatitude: next.latitude, longitude: next.longitude)
                            let given = Geodesic.distance(latitude: step.latitude, longitude: step.longitude, toLatitude: ahead.latitude ?? 0, longitude: ahead.longitude ?? 0)
                            print("MISS \(second) \(step.street) course \(Int(step.course)) expected \(Int(expected)) m \(extract.mainJunctions[next.id].map { $0.sorted() } ?? []) at \(next.latitude),\(next.longitude); given \(ahead.streetNames) \(Int(given)) m (said \(Int(ahead.distance))) at \(ahead.latitude ?? 0),\(ahead.longitude ?? 0)")
                        }
                    }
                    if let previous = lastAhead, previous.latitude == ahead.latitude, previous.longitude == ahead.longitude,
                       ahead.distance > previous.distance + 5 {
                        stats.distanceGrowths += 1
                    }
                }
                lastAhead = ahead
            } else {
                lastAhead = nil
            }
        }
        // True changes and the lag until the new street is named.
        let steps = walk.steps
        var index = 1
        while index < steps.count {
            defer { index += 1 }
            guard steps[index].street != steps[index - 1].street else { continue }
            stats.trueChanges += 1
            var end = index
            while end < steps.count, steps[end].street == steps[index].street { end += 1 }
            guard end - index >= 15 else { continue }  // a street walked for less than 15 s: no lag to judge
            let named = (index..<end).first { roads.indices.contains($0) && roads[$0] == steps[index].street }
            stats.lags.append(Double((named ?? end) - index))
        }
        return stats
    }

    /// Replays `count` walks of the extract `name` at σ 0, 5 and 10 m (three noise seeds each) and prints what they measured.
    func run(_ name: String, walks count: Int, seed: UInt64) throws -> [Double: Stats] {
        let extract = try Self.extract(name)
        let walks = Self.walks(extract, count: count, seed: seed)
        XCTAssertEqual(walks.count, count, "walks found in \(name)")
        var results: [Double: Stats] = [:]
        for sigma in [0.0, 5.0, 10.0] {
            var total = Stats()
            for (number, walk) in walks.enumerated() {
                for noiseSeed: UInt64 in [1, 2, 3] { total.add(Self.replay(walk, extract: extract, sigma: sigma, seed: noiseSeed &+ UInt64(number) &* 1000)) }
            }
            results[sigma] = total
            Self.report(name, sigma: sigma, total)
        }
        return results
    }

    static func report(_ name: String, sigma: Double, _ total: Stats) {
        let minutes = Double(total.fixes) / 60
        print(String(format: "walks %@ σ %2.0f m: %d fixes, %.2f %% right street > 30 m from junctions, changes %d reported / %d true (%.2f×), lag median %.0f s p90 %.0f s (%d turns), ahead on street %.1f %%, the route's next %.1f %% of %d (given for %d of %d expected), distance growths > 5 m: %d, printed %d (%.2f per change, %.2f/min beyond 1.5 per change)",
                     name, sigma, total.fixes, total.correctShare * 100, total.reportedChanges, total.trueChanges, total.changeRatio,
                     total.lag(0.5), total.lag(0.9), total.lags.count,
                     total.aheadGiven == 0 ? 0 : Double(total.aheadOnStreet) * 100 / Double(total.aheadGiven),
                     total.aheadJudged == 0 ? 0 : Double(total.aheadIsNext) * 100 / Double(total.aheadJudged), total.aheadJudged,
                     total.aheadGiven, total.aheadExpected, total.distanceGrowths, total.printed,
                     Double(total.printed) / Double(max(1, total.trueChanges)), max(0, Double(total.printed) - 1.5 * Double(total.trueChanges)) / minutes))
    }

    /// Issue 22's thresholds, over the walks of both extracts together (8 in Helsinki, 4 in Kotka).
    func testWalks() throws {
        let helsinki = try run("Helsinki.osm.pbf", walks: 8, seed: 22)
        let kotka = try run("test.osm.pbf", walks: 4, seed: 23)
        var results: [Double: Stats] = [:]
        for sigma in [0.0, 5.0, 10.0] {
            var total = helsinki[sigma] ?? Stats()
            total.add(kotka[sigma] ?? Stats())
            results[sigma] = total
            Self.report("both", sigma: sigma, total)
        }
        for sigma in [0.0, 5.0] {
            let stats = try XCTUnwrap(results[sigma])
            XCTAssertLessThanOrEqual(stats.lag(0.5), 4, "median lag after a turn at σ \(sigma)")
            XCTAssertLessThanOrEqual(stats.lag(0.9), 8, "p90 lag after a turn at σ \(sigma)")
        }
        let five = try XCTUnwrap(results[5]), ten = try XCTUnwrap(results[10])
        XCTAssertGreaterThanOrEqual(five.correctShare, 0.99)
        XCTAssertLessThanOrEqual(five.changeRatio, 1.2)
        XCTAssertGreaterThanOrEqual(ten.correctShare, 0.98)
        XCTAssertLessThanOrEqual(ten.changeRatio, 1.5)
        XCTAssertGreaterThanOrEqual(Double(five.aheadOnStreet), 0.97 * Double(five.aheadGiven), "intersection ahead on the true street")
        XCTAssertGreaterThanOrEqual(Double(five.aheadIsNext), 0.95 * Double(five.aheadJudged), "intersection ahead is the route's next main junction")
        XCTAssertGreaterThan(five.aheadJudged, 10_000)
        XCTAssertEqual(five.distanceGrowths, 0, "the distance ahead grows by more than 5 m (of \(five.aheadGiven) fixes)")
        let minutes = Double(five.fixes) / 60
        XCTAssertLessThanOrEqual(Double(five.printed), 1.5 * Double(five.trueChanges) + minutes, "printed senses at σ 5 m")
    }

    /// Standing still for 60 s at σ 10 m, without a course (a device reports none when still): one
    /// callout, the first; on 40 random points along the streets of each extract. (The sense may
    /// still change under the noise, or as the averaged position settles: 10 of these 80 points
    /// had their first, one-fix answer corrected; it is not spoken, and nothing may make the
    /// context think the user moves.)
    func testStandingStillIsQuiet() throws {
        var total = 0
        for name in ["Helsinki.osm.pbf", "test.osm.pbf"] {
            let extract = try Self.extract(name)
            var random = SplitMix64(state: 60)
            let lines = extract.network.streets.flatMap { $0.lines }.filter { $0.count >= 2 }
            var extra = 0
            for _ in 0..<40 {
                let line = lines[Int(random.next() % UInt64(lines.count))]
                let k = Int(random.next() % UInt64(line.count - 1))
                let t = random.unit()
                let latitude = line[k].latitude + (line[k + 1].latitude - line[k].latitude) * t
                let longitude = line[k].longitude + (line[k + 1].longitude - line[k].longitude) * t
                var context = LocationContext(source: extract.source)
                var said = 0
                for second in 0..<60 {
                    let noisy = random.noisy(latitude: latitude, longitude: longitude, sigma: 10)
                    let fix = LocationFix(latitude: noisy.latitude, longitude: noisy.longitude, time: Double(second))
                    if context.update(fix) != nil {
                        said += 1
                        if Self.debug, said > 1, let update = context.last {
                            print("STILL \(name) \(second) \(update.changes.rawValue) \(update.sense.kindName) \(update.sense.road?.name ?? "-") area \(update.sense.area?.name ?? "-") ahead \(update.sense.intersectionAhead?.streetNames ?? []) dir \(update.direction?.degrees ?? -1)")
                        }
                    }
                }
                extra += said - 1
            }
            print("standing still 60 s at σ 10 m, 40 points in \(name): \(extra) callouts after the first")
            total += extra
        }
        XCTAssertEqual(total, 0, "callouts after the first while standing still")
    }
}

/// A binary min-heap of (cost, node, street) for the walks' Dijkstra.
private struct MinHeap {
    private var items: [(cost: Double, node: Int64, street: String)] = []

    mutating func push(_ cost: Double, _ node: Int64, _ street: String) {
        items.append((cost, node, street))
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.less(items[child], items[parent]) else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> (Double, Int64, String)? {
        guard let top = items.first else { return nil }
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < items.count, Self.less(items[left], items[smallest]) { smallest = left }
                if right < items.count, Self.less(items[right], items[smallest]) { smallest = right }
                guard smallest != parent else { break }
                items.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return (top.cost, top.node, top.street)
    }

    /// Ordered by cost, then node and street, so that equal costs pop in one order on every run.
    private static func less(_ a: (cost: Double, node: Int64, street: String), _ b: (cost: Double, node: Int64, street: String)) -> Bool {
        (a.cost, a.node, a.street) < (b.cost, b.node, b.street)
    }
}
