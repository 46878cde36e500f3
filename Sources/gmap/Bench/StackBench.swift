import GMap
import GMapWorld

/// `gmap bench` on a location map: the placemark of a ``MapStack`` of that map and the shipped
/// world map (what `gmap place --map MAP` answers), timed one by one at random points of the
/// location map's bounds, with each map's own placemark alongside.
enum StackBench {
    /// What was measured.
    struct Report {
        /// Points timed, and how many of them got a thoroughfare and a locality from the stack.
        var points = 0, withThoroughfare = 0, withLocality = 0
        /// The stack's placemark, microseconds (clock cost subtracted).
        var p50 = 0.0, p99 = 0.0, mean = 0.0
        /// The location map's placemark alone, and the world map's alone, p50 in microseconds.
        var locationP50 = 0.0, worldP50 = 0.0
    }

    /// How many points are timed.
    static let pointCount = 20_000

    /// Measures the stack of `map` and the shipped world map; nil when `map` is not a location
    /// map or the world map is not found.
    static func measure(map: GMap, seed: UInt64) -> Report? {
        guard MapStack.isLocationMap(map), let roads = map.layer(named: MapLocationSource.LayerName.roads),
              let world = try? WorldMap.open() else { return nil }
        // The bounds of the streets: where a city map answers.
        var west = 180.0, south = 90.0, east = -180.0, north = -90.0
        for index in 0..<roads.featureCount {
            guard let box = roads.feature(at: index)?.boundingBox else { continue }
            west = min(west, box.west); south = min(south, box.south); east = max(east, box.east); north = max(north, box.north)
        }
        guard west < east, south < north else { return nil }
        var random = SplitMix64(state: seed ^ 0x57AC_4ED)
        let points = (0..<pointCount).map { _ in
            BenchPoint(latitude: south + random.unit() * (north - south), longitude: west + random.unit() * (east - west))
        }
        let stack = MapStack([map, world])
        var report = Report(points: points.count)
        for point in points {
            let placemark = stack.placemark(latitude: point.latitude, longitude: point.longitude)
            if placemark.thoroughfare != nil { report.withThoroughfare += 1 }
            if placemark.locality != nil { report.withLocality += 1 }
        }
        let timed = Stopwatch.timeEach(points) { stack.placemark(latitude: $0.latitude, longitude: $0.longitude) }
        report.p50 = Stopwatch.percentile(timed, 0.5) * 1e6
        report.p99 = Stopwatch.percentile(timed, 0.99) * 1e6
        report.mean = timed.reduce(0, +) / Double(max(timed.count, 1)) * 1e6
        report.locationP50 = Stopwatch.percentile(Stopwatch.timeEach(points) { map.placemark(latitude: $0.latitude, longitude: $0.longitude) }, 0.5) * 1e6
        report.worldP50 = Stopwatch.percentile(Stopwatch.timeEach(points) { world.placemark(latitude: $0.latitude, longitude: $0.longitude) }, 0.5) * 1e6
        return report
    }
}
