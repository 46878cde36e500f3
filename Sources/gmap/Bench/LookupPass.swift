import GMap

/// One pass of `map.lookup` over a point set, timed: the loop every lookup timing of `gmap bench`
/// runs (the point sets, `--against`, `--c-reader`), as `gmap_ref --bench` runs `gm_lookup`.
enum LookupPass {
    /// Nanoseconds per lookup of one pass over `points`, and how many points a feature contains.
    static func run(_ map: GMap, _ points: [BenchPoint]) -> (nanoseconds: Double, found: Int) {
        var found = 0
        let seconds = Stopwatch.time {
            for point in points where map.lookup(latitude: point.latitude, longitude: point.longitude) != nil { found += 1 }
        }
        return (seconds * 1e9 / Double(max(points.count, 1)), found)
    }
}
