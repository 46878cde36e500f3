import GMap
import GMapWorld

/// `gmap bench MAP --regions DIR`: the maps of DIR (region maps, MAP among them) stacked with the
/// shipped world map, against MAP with the world map: the placemark at random points of MAP's
/// streets, and the location sense's update along walks of MAP's streets (the stack through a
/// ``StackLocationSource``, MAP through its ``MapLocationSource``), each timed fix by fix in
/// alternating runs; the medians over runs of each p50.
enum RegionBench {
    /// What was measured.
    struct Report {
        /// The maps of the folder, the points and the fixes of one run, the runs.
        var maps = 0, points = 0, fixes = 0, runs = 0
        /// The placemark, p50 microseconds: MAP and the world map; the folder's maps and the world map.
        var placeSingle = 0.0, placeStack = 0.0
        /// The location sense's update, p50 microseconds: MAP; the folder's maps and the world map.
        var whereSingle = 0.0, whereStack = 0.0
        /// Points whose placemark fields differ between the two, and fixes whose road differs.
        var placeDifferences = 0, roadDifferences = 0
    }

    /// Measures; nil when `map` is not a location map or the world map is not found.
    static func measure(map: GMap, regions: [GMap], walks: Int, runs: Int, seed: UInt64) -> Report? {
        guard let single = try? MapLocationSource(map: map), let world = try? WorldMap.open() else { return nil }
        let segments = LocationBench.roadSegments(single.roadLayer)
        guard !segments.isEmpty else { return nil }
        var random = SplitMix64(state: seed ^ 0x2E61_0A5)
        let walks = (0..<walks).map { _ in LocationBench.walk(along: segments, random: &random) }
        let points = walks.flatMap { $0 }.map { BenchPoint(latitude: $0.latitude, longitude: $0.longitude) }
        let alone = MapStack([map, world]), stack = MapStack(regions + [world])
        guard let stacked = try? StackLocationSource(stack: stack) else { return nil }
        var report = Report(maps: regions.count, points: points.count, fixes: points.count, runs: runs)
        for point in points {
            var a = alone.placemark(latitude: point.latitude, longitude: point.longitude)
            var b = stack.placemark(latitude: point.latitude, longitude: point.longitude)
            (a.answers, b.answers) = ([], [])
            if LayeredQuery.json(a) != LayeredQuery.json(b) { report.placeDifferences += 1 }
        }
        var placeSingle: [Double] = [], placeStack: [Double] = [], whereSingle: [Double] = [], whereStack: [Double] = []
        func update<Source: LocationSource>(_ source: Source, record: Bool = false) -> (times: [Double], roads: [String?]) {
            var times: [Double] = [], roads: [String?] = []
            for walk in walks {
                var context = LocationContext(source: source)
                context.options.throttle = .none
                for fix in walk {
                    let start = Stopwatch.now()
                    let sense = context.update(fix)
                    times.append(Stopwatch.now() - start)
                    withExtendedLifetime(sense) { if record { roads.append(context.currentRoad) } }
                }
            }
            return (times, roads)
        }
        for run in 0..<runs {
            // Alternating which goes first, so that neither always runs on a warmer machine.
            let order = run % 2 == 0 ? [false, true] : [true, false]
            for stacked in order {
                let chosen = stacked ? stack : alone
                let times = Stopwatch.timeEach(points) { chosen.placemark(latitude: $0.latitude, longitude: $0.longitude) }
                if stacked { placeStack.append(Stopwatch.percentile(times, 0.5)) } else { placeSingle.append(Stopwatch.percentile(times, 0.5)) }
            }
            for isStack in order {
                let times = isStack ? update(stacked).times : update(single).times
                if isStack { whereStack.append(Stopwatch.percentile(times, 0.5)) } else { whereSingle.append(Stopwatch.percentile(times, 0.5)) }
            }
        }
        let a = update(single, record: true).roads, b = update(stacked, record: true).roads
        report.roadDifferences = zip(a, b).filter { $0 != $1 }.count
        report.placeSingle = Stopwatch.percentile(placeSingle, 0.5) * 1e6
        report.placeStack = Stopwatch.percentile(placeStack, 0.5) * 1e6
        report.whereSingle = Stopwatch.percentile(whereSingle, 0.5) * 1e6
        report.whereStack = Stopwatch.percentile(whereStack, 0.5) * 1e6
        return report
    }
}
