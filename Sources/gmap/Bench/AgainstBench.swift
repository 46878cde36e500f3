import GMap

/// `gmap bench MAP --against OTHER`: the first layer of another map (the same data built with
/// `--format 2.1`, say) timed on the very same point sets in the same process, the runs of the
/// two maps interleaved (A B A B …) so that the machine's noise falls on both, and the ratio of
/// their medians per set.
///
/// The two maps are compared before they are timed: their first layers' feature counts and their
/// answers (ids) at a sample of every set. A difference is a warning, not a refusal: timing two
/// different maps (two resolutions, two builds) is a fair question, but its ratio is not a
/// format's, so the report carries the agreement beside the ratios.
enum AgainstBench {
    /// What the comparison measured.
    struct Report {
        /// The other map: its path, bytes, format version and first layer's feature count.
        var path: String
        var byteCount: Int
        var format: String
        var featureCount: Int
        /// This map's format version and first layer's feature count.
        var mapFormat: String
        var mapFeatureCount: Int
        /// Points whose answers were compared (the first ``samplePoints`` of each set), and how
        /// many of them the two maps answered differently.
        var sampled: Int
        var differing: Int
        /// Per point set, both medians and their ratio.
        var sets: [SetTiming]

        /// The warnings the comparison deserves: different feature counts, different answers.
        var warnings: [String] {
            var warnings: [String] = []
            if featureCount != mapFeatureCount {
                warnings.append("\(path) has another first layer than the map (features: \(featureCount) against \(mapFeatureCount)): the ratios compare different data, not formats")
            }
            if differing > 0 {
                warnings.append("\(path) answers \(differing) of \(sampled) sample points differently from the map: the ratios compare different data, not formats")
            }
            return warnings
        }
    }

    /// One point set timed on both maps.
    struct SetTiming {
        var name: String
        var points: Int
        var runs: Int
        /// Median over the runs of (time of a run / points), this map and the other.
        var mapNanoseconds: Double
        var otherNanoseconds: Double
        /// This map ÷ the other (above 1: the other is faster).
        var ratio: Double { otherNanoseconds > 0 ? mapNanoseconds / otherNanoseconds : .nan }
    }

    /// Points of each set whose answers are compared.
    static let samplePoints = 10_000

    /// Compares `other` (at `path`) with `map` at a sample of `sets`, then times both, `runs`
    /// passes each over every set, interleaved, after one untimed pass of each.
    static func measure(map: GMap, other: GMap, path: String, sets: [(name: String, points: [BenchPoint])], runs: Int) -> Report {
        var sampled = 0, differing = 0
        for (_, points) in sets {
            for point in points.prefix(samplePoints) {
                sampled += 1
                if map.lookup(latitude: point.latitude, longitude: point.longitude)?.id
                    != other.lookup(latitude: point.latitude, longitude: point.longitude)?.id {
                    differing += 1
                }
            }
        }
        var timings: [SetTiming] = []
        for (name, points) in sets where !points.isEmpty {
            _ = LookupPass.run(map, points)
            _ = LookupPass.run(other, points)
            var mapTimes: [Double] = [], otherTimes: [Double] = []
            for _ in 0..<runs {
                mapTimes.append(LookupPass.run(map, points).nanoseconds)
                otherTimes.append(LookupPass.run(other, points).nanoseconds)
            }
            timings.append(SetTiming(name: name, points: points.count, runs: runs,
                                     mapNanoseconds: Stopwatch.percentile(mapTimes, 0.5),
                                     otherNanoseconds: Stopwatch.percentile(otherTimes, 0.5)))
        }
        return Report(path: path, byteCount: other.byteCount, format: version(other), featureCount: other.featureCount,
                      mapFormat: version(map), mapFeatureCount: map.featureCount,
                      sampled: sampled, differing: differing, sets: timings)
    }

    /// "3.0": a map's format version.
    static func version(_ map: GMap) -> String { "\(map.formatVersion.major).\(map.formatVersion.minor)" }
}
