/// What `gmap bench` measured, and how it is printed as text or JSON.
struct BenchReport {
    /// Timings over one set of points.
    struct PointSet {
        var name: String
        var points: Int
        var found: Int
        var runs: Int
        /// Median over runs of (time of a run / points).
        var nanosecondsMedian: Double
        /// 99th percentile over runs of the same.
        var nanosecondsP99OfRuns: Double
        /// Single lookups timed one by one (clock cost subtracted), median and 99th percentile.
        var singleLookupP50: Double
        var singleLookupP99: Double
        /// Edges stored in each point's tile: what a lookup may test.
        var edgesMean: Double
        var edgesP99: Double
    }

    /// Lookups per second with the points split across `threads` threads.
    struct Throughput {
        var threads: Int
        var lookupsPerSecond: Double
    }

    /// Whole placemarks (every layer, the nearest town included), timed one by one.
    struct Placemarks {
        var points: Int
        var withLocality: Int
        var layers: Int
        var microsecondsP50: Double
        var microsecondsP99: Double
        var microsecondsMean: Double
        /// `GMap.placemark`, which keeps the layers' roles with the map after its first call: p50.
        var onceMicrosecondsP50: Double
    }

    var path: String
    var byteCount = 0
    var featureCount = 0
    var openMicroseconds: (median: Double, p99: Double, opens: Int) = (0, 0, 0)
    var mappedKiBAfterOpen: Int?
    var processKiBAfterOpen: Int?
    var lookupsBeforeMemory = 0
    var mappedKiBAfterLookups: Int?
    var processKiBAfterLookups: Int?
    var sets: [PointSet] = []
    var threads: [Throughput] = []
    /// For a map of several layers.
    var placemark: Placemarks?
    /// The first set's answers, in order ("" for none).
    var answers: [String] = []
    /// On a location map: `where` over walks along its streets.
    var location: LocationBench.Report?
    /// With `--osm`: the build of the map.
    var build: BuildBench.Report?
    /// On a location map: the placemark of it stacked on the shipped world map.
    var stack: StackBench.Report?
    /// With `--regions`: the folder's region maps stacked, against this map.
    var regions: RegionBench.Report?
    /// On a map with towns: forward geocoding of their names, whole, with a typo, qualified.
    var geocode: GeocodeBench.Report?
    /// The batch path (`gmap query MAP -`) over the first set.
    var batch: BatchBench.Report?
    /// With `--against OTHER`: the other map on the same sets, interleaved.
    var against: AgainstBench.Report?
    /// With `--c-reader PATH`: the C reference reader on the same sets, interleaved.
    var cReader: CReaderBench.Report?

    private static func kib(_ value: Int?) -> String { value.map { "\($0) KiB" } ?? "n/a" }
    private static func f(_ value: Double) -> String { Stopwatch.format(value) }
    private static func r(_ value: Double) -> String { Stopwatch.formatRatio(value) }
    /// A set's name in the column of the set lines below a comparison's first line.
    private static func indented(_ name: String) -> String { "  " + name.padding(toLength: 11, withPad: " ", startingAt: 0) }

    var text: String {
        var lines: [String] = []
        lines.append("\(path): \(byteCount) bytes, \(featureCount) features")
        lines.append("open          median \(Self.f(openMicroseconds.median)) µs, p99 \(Self.f(openMicroseconds.p99)) µs (\(openMicroseconds.opens) opens)")
        lines.append("memory        map pages resident \(Self.kib(mappedKiBAfterOpen)) after open, \(Self.kib(mappedKiBAfterLookups)) after \(lookupsBeforeMemory) lookups; process RSS \(Self.kib(processKiBAfterOpen)) → \(Self.kib(processKiBAfterLookups))")
        for set in sets {
            let name = set.name.padding(toLength: 13, withPad: " ", startingAt: 0)
            lines.append("\(name) median \(Self.f(set.nanosecondsMedian)) ns/lookup (p99 of runs \(Self.f(set.nanosecondsP99OfRuns)) ns), \(Self.f(1e3 / max(set.nanosecondsMedian, 1e-9))) M lookups/s; one by one p50 \(Self.f(set.singleLookupP50)) ns, p99 \(Self.f(set.singleLookupP99)) ns; edges in tile mean \(Self.f(set.edgesMean)), p99 \(Self.f(set.edgesP99)); \(set.runs) runs × \(set.points) points, \(set.found) found")
        }
        if let one = threads.first {
            let parts = threads.map { "\($0.threads) thread\($0.threads == 1 ? "" : "s") \(Self.f($0.lookupsPerSecond / 1e6)) M/s (\(Self.f($0.lookupsPerSecond / one.lookupsPerSecond))×)" }
            lines.append("threads       \(parts.joined(separator: ", ")) on the \(sets.first?.name ?? "") points")
        }
        if let batch, let one = batch.results.first {
            let parts = batch.results.map {
                "\($0.threads) thread\($0.threads == 1 ? "" : "s") \(Self.f($0.nanosecondsPerLine)) ns/line (\(Self.f($0.linesPerSecond / 1e6)) M lines/s"
                    + ($0.threads == 1 ? ")" : ", \(Self.f(one.nanosecondsPerLine / max($0.nanosecondsPerLine, 1e-9)))×)")
            }
            let answer = batch.layered ? "every layer's answers" : "ids"
            lines.append("batch         \(parts.joined(separator: ", ")); gmap query MAP - over \(batch.lines) \(batch.set) points as \"lat lon\" lines in memory, \(answer) written to /dev/null; \(batch.runs) runs")
        }
        if let against {
            lines.append("against       \(against.path): format \(against.format), \(against.byteCount) bytes, \(against.featureCount) features (this map: format \(against.mapFormat), \(byteCount) bytes, \(against.mapFeatureCount) features); \(against.differing) of \(against.sampled) sample points answered differently")
            for set in against.sets {
                lines.append("\(Self.indented(set.name)) \(Self.f(set.mapNanoseconds)) ns/lookup against \(Self.f(set.otherNanoseconds)) ns: ratio \(Self.r(set.ratio)) (this map ÷ the other); medians of \(set.runs) interleaved runs × \(set.points) points")
            }
        }
        if let cReader {
            lines.append("C reader      \(cReader.path): \(cReader.rounds) rounds of \(cReader.runs) runs, alternating with this reader's (gm_lookup against lookup in the first layer)")
            for set in cReader.sets {
                let found = set.cFound == set.swiftFound ? "\(set.cFound) found by both" : "\(set.swiftFound) found by gmap, \(set.cFound) by the C reader"
                lines.append("\(Self.indented(set.name)) \(Self.f(set.swiftNanoseconds)) ns/lookup against \(Self.f(set.cNanoseconds)) ns: Swift ÷ C \(Self.r(set.ratio)); \(set.points) points, \(found)")
            }
        }
        if let build {
            lines.append("build         median \(Self.f(build.secondsMedian * 1e3)) ms, slowest \(Self.f(build.secondsMax * 1e3)) ms (\(build.builds) builds of \(build.input), read and build); peak RSS \(Self.kib(build.peakKiBAfter)) (\(Self.kib(build.peakKiBBefore)) before); \(build.mapBytes) bytes")
        }
        if let location {
            lines.append("where update  p50 \(Self.f(location.updateP50)) µs, p99 \(Self.f(location.updateP99)) µs, mean (median of runs) \(Self.f(location.updateMeanMedian)) µs; \(location.runs) runs × \(location.walks) walks × \(LocationBench.fixesPerWalk) fixes along the streets, σ \(Self.f(LocationBench.sigma)) m, unthrottled")
            lines.append("where once    p50 \(Self.f(location.oneShotP50)) µs, p99 \(Self.f(location.oneShotP99)) µs (a fresh context's first fix, as gmap where)")
            lines.append("where senses  along a road \(location.along), inside an area \(location.inside), other \(location.other), unknown \(location.unknown); map pages resident after the walks \(Self.kib(location.residentKiBAfterWalks)) (a fresh mapping)")
            if location.geocodeQueries > 0 {
                lines.append("geocode       p50 \(Self.f(location.geocodeP50)) µs, p99 \(Self.f(location.geocodeP99)) µs (an address as \"street number\", the first match); ten matches p50 \(Self.f(location.geocodeTenP50)) µs, p99 \(Self.f(location.geocodeTenP99)) µs; \(location.runs) runs × \(location.geocodeQueries) addresses, \(location.geocodeFound) found first")
            }
        }
        if let p = placemark {
            lines.append("placemark     one by one p50 \(Self.f(p.microsecondsP50)) µs, p99 \(Self.f(p.microsecondsP99)) µs, mean \(Self.f(p.microsecondsMean)) µs; \(p.layers) layers, nearest town included; \(p.points) \(sets.first?.name ?? "") points, \(p.withLocality) with a locality; GMap.placemark, roles kept by the map, p50 \(Self.f(p.onceMicrosecondsP50)) µs")
        }
        if let regions {
            lines.append("regions       \(regions.maps) region maps and the world map against this map and the world map: placemark p50 \(Self.f(regions.placeStack)) µs against \(Self.f(regions.placeSingle)) µs (\(Self.f(regions.placeStack / max(regions.placeSingle, 1e-9)))×), where update p50 \(Self.f(regions.whereStack)) µs against \(Self.f(regions.whereSingle)) µs (\(Self.f(regions.whereStack / max(regions.whereSingle, 1e-9)))×), medians of \(regions.runs) runs over \(regions.points) fixes; \(regions.placeDifferences) placemarks and \(regions.roadDifferences) roads differ")
        }
        if let stack {
            lines.append("stacked       placemark one by one p50 \(Self.f(stack.p50)) µs, p99 \(Self.f(stack.p99)) µs, mean \(Self.f(stack.mean)) µs (this map alone p50 \(Self.f(stack.locationP50)) µs, the world map alone \(Self.f(stack.worldP50)) µs); this map and the shipped world map, \(stack.points) points in the streets' bounds, \(stack.withThoroughfare) with a thoroughfare, \(stack.withLocality) with a locality")
        }
        for line in geocode?.lines ?? [] {
            lines.append("geocode       \(line.name): p50 \(Self.f(line.p50)) µs, p99 \(Self.f(line.p99)) µs, mean \(Self.f(line.mean)) µs; \(line.queries) names of random towns, \(line.found) found that town first")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    var json: String {
        func number(_ value: Double) -> String { value.isFinite ? Self.f(value) : "null" }
        func ratio(_ value: Double) -> String { value.isFinite ? Self.r(value) : "null" }
        func optional(_ value: Int?) -> String { value.map(String.init) ?? "null" }
        let setText = sets.map { set in
            "{\"name\":\(JSONText.string(set.name)),\"points\":\(set.points),\"found\":\(set.found),\"runs\":\(set.runs),"
                + "\"ns_median\":\(number(set.nanosecondsMedian)),\"ns_p99\":\(number(set.nanosecondsP99OfRuns)),"
                + "\"single_ns_p50\":\(number(set.singleLookupP50)),\"single_ns_p99\":\(number(set.singleLookupP99)),"
                + "\"edges_mean\":\(number(set.edgesMean)),\"edges_p99\":\(number(set.edgesP99))}"
        }.joined(separator: ",")
        let threadText = threads.map { "{\"threads\":\($0.threads),\"lookups_per_second\":\(number($0.lookupsPerSecond))}" }.joined(separator: ",")
        return "{\"map\":\(JSONText.string(path)),\"bytes\":\(byteCount),\"features\":\(featureCount),"
            + "\"open_us\":{\"median\":\(number(openMicroseconds.median)),\"p99\":\(number(openMicroseconds.p99)),\"opens\":\(openMicroseconds.opens)},"
            + "\"rss_open_kb\":\(optional(mappedKiBAfterOpen)),\"rss_after_kb\":\(optional(mappedKiBAfterLookups)),\"lookups_before_rss_after\":\(lookupsBeforeMemory),"
            + "\"process_rss_open_kb\":\(optional(processKiBAfterOpen)),\"process_rss_after_kb\":\(optional(processKiBAfterLookups)),"
            + "\"sets\":[\(setText)],\"threads\":[\(threadText)]"
            + (batch.map { batch in
                ",\"batch\":{\"set\":\(JSONText.string(batch.set)),\"lines\":\(batch.lines),\"runs\":\(batch.runs),\"layered\":\(batch.layered),\"threads\":["
                    + batch.results.map { "{\"threads\":\($0.threads),\"ns_per_line\":\(number($0.nanosecondsPerLine)),\"lines_per_second\":\(number($0.linesPerSecond))}" }.joined(separator: ",")
                    + "]}"
            } ?? "")
            + (against.map { against in
                ",\"against\":{\"map\":\(JSONText.string(against.path)),\"bytes\":\(against.byteCount),\"format\":\(JSONText.string(against.format)),\"features\":\(against.featureCount),"
                    + "\"map_format\":\(JSONText.string(against.mapFormat)),\"map_features\":\(against.mapFeatureCount),\"sample_points\":\(against.sampled),\"sample_differing\":\(against.differing),\"sets\":["
                    + against.sets.map { "{\"name\":\(JSONText.string($0.name)),\"points\":\($0.points),\"runs\":\($0.runs),\"ns_median\":\(number($0.mapNanoseconds)),\"other_ns_median\":\(number($0.otherNanoseconds)),\"ratio\":\(ratio($0.ratio))}" }.joined(separator: ",")
                    + "]}"
            } ?? "")
            + (cReader.map { c in
                ",\"c_reader\":{\"path\":\(JSONText.string(c.path)),\"rounds\":\(c.rounds),\"runs\":\(c.runs),\"sets\":["
                    + c.sets.map { "{\"name\":\(JSONText.string($0.name)),\"points\":\($0.points),\"found\":\($0.swiftFound),\"c_found\":\($0.cFound),\"ns_median\":\(number($0.swiftNanoseconds)),\"c_ns_median\":\(number($0.cNanoseconds)),\"ratio\":\(ratio($0.ratio))}" }.joined(separator: ",")
                    + "]}"
            } ?? "")
            + (build.map { ",\"build\":{\"input\":\(JSONText.string($0.input)),\"builds\":\($0.builds),\"ms_median\":\(number($0.secondsMedian * 1e3)),\"ms_max\":\(number($0.secondsMax * 1e3)),\"peak_rss_kb\":\(optional($0.peakKiBAfter)),\"peak_rss_before_kb\":\(optional($0.peakKiBBefore)),\"bytes\":\($0.mapBytes)}" } ?? "")
            + (location.map { ",\"where\":{\"walks\":\($0.walks),\"fixes\":\($0.fixes),\"runs\":\($0.runs),\"update_us_p50\":\(number($0.updateP50)),\"update_us_p99\":\(number($0.updateP99)),\"update_us_mean\":\(number($0.updateMeanMedian)),\"once_us_p50\":\(number($0.oneShotP50)),\"once_us_p99\":\(number($0.oneShotP99)),\"along\":\($0.along),\"inside\":\($0.inside),\"other\":\($0.other),\"unknown\":\($0.unknown),\"rss_after_walks_kb\":\(optional($0.residentKiBAfterWalks)),\"geocode\":{\"addresses\":\($0.geocodeQueries),\"found\":\($0.geocodeFound),\"us_p50\":\(number($0.geocodeP50)),\"us_p99\":\(number($0.geocodeP99)),\"ten_us_p50\":\(number($0.geocodeTenP50)),\"ten_us_p99\":\(number($0.geocodeTenP99))}}" } ?? "")
            + (placemark.map { ",\"placemark\":{\"points\":\($0.points),\"with_locality\":\($0.withLocality),\"layers\":\($0.layers),\"us_p50\":\(number($0.microsecondsP50)),\"us_p99\":\(number($0.microsecondsP99)),\"us_mean\":\(number($0.microsecondsMean)),\"once_us_p50\":\(number($0.onceMicrosecondsP50))}" } ?? "")
            + (geocode.map { ",\"geocode\":[" + $0.lines.map { "{\"kind\":\(JSONText.string($0.name)),\"queries\":\($0.queries),\"found\":\($0.found),\"us_p50\":\(number($0.p50)),\"us_p99\":\(number($0.p99)),\"us_mean\":\(number($0.mean))}" }.joined(separator: ",") + "]" } ?? "")
            + (stack.map { ",\"stack\":{\"points\":\($0.points),\"with_thoroughfare\":\($0.withThoroughfare),\"with_locality\":\($0.withLocality),\"us_p50\":\(number($0.p50)),\"us_p99\":\(number($0.p99)),\"us_mean\":\(number($0.mean)),\"map_us_p50\":\(number($0.locationP50)),\"world_us_p50\":\(number($0.worldP50))}" } ?? "")
            + "}\n"
    }
}
