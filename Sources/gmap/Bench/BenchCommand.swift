import Dispatch
import Foundation
import GMap

/// `gmap bench MAP`: open time, lookup speed on several point sets, cost per lookup, memory,
/// multi-threaded throughput and the batch path (``BatchBench``), from repeated runs; on a location
/// map also `where` (``LocationBench``); with `--osm FILE.osm.pbf`, first the build of that location
/// map (``BuildBench``); with `--against OTHER` another map on the same points (``AgainstBench``),
/// with `--c-reader PATH` the C reference reader (``CReaderBench``).
enum BenchCommand: Command {
    /// What the command was asked to do.
    struct Settings {
        var location: MapLocation
        var path: String { location.path }
        var pointCount = 1_000_000
        var runs = 11
        var seed: UInt64 = 42
        var nearMetres = 100.0
        var pointsFile: String?
        var answersFile: String?
        var savePointsFile: String?
        var json = false
        /// The walks of the location measurement (60 fixes each).
        var walks = 200
        /// `--osm`: the PBF file to build a location map from, timed, before measuring that map.
        var osmFile: String?
        /// `--against`: another map timed on the same point sets.
        var againstFile: String?
        /// `--c-reader`: a built `gmap_ref` timed on the same point sets.
        var cReaderFile: String?
        /// `--regions`: the region maps (a folder's, or files) stacked and timed against the map.
        var regions: [MapLocation]?
        /// `--only`: one operation called `calls` times and nothing measured (``CallLoop``).
        var only: CallLoop.Operation?
        var calls = 1_000
    }

    static let name = "bench"
    static let summary = "measures opening, lookups, memory, threads and the batch path, against another map or C"
    /// Its options, which the text of its help describes.
    static let options: [CommandOption] = [
        Option.points, Option.runs, Option.seed, Option.near, .json, Option.savePoints, Option.pointsFile, Option.answers,
        Option.against, Option.cReader, Option.osm, Option.walks, Option.regions, Option.only, Option.calls,
    ]

    /// The options bench takes (and `--json`).
    enum Option {
        /// `--points N`: the points of each set.
        static let points = CommandOption.value("--points", "N", rule: positive)
        /// `--runs R`: the timed runs.
        static let runs = CommandOption.value("--runs", "R", rule: positive)
        /// `--seed S`: the seed of the point sets.
        static let seed = CommandOption.value("--seed", "S", rule: positive)
        /// `--near METRES`: how near a boundary the near-border points lie.
        static let near = CommandOption.value("--near", "METRES")
        /// `--save-points FILE`: where the point sets are written.
        static let savePoints = CommandOption.value("--save-points", "FILE")
        /// `--points-file FILE`: the points timed instead of the sets.
        static let pointsFile = CommandOption.value("--points-file", "FILE")
        /// `--answers OUT`: where the answers to the points of `--points-file` are written.
        static let answers = CommandOption.value("--answers", "OUT")
        /// `--against OTHER.gmap`: another map timed on the same points.
        static let against = CommandOption.value("--against", "OTHER.gmap")
        /// `--c-reader GMAP_REF`: the C reference reader timed on the same points.
        static let cReader = CommandOption.value("--c-reader", "GMAP_REF")
        /// `--osm FILE.osm.pbf`: the extract a location map is built from, timed, then measured.
        static let osm = CommandOption.value("--osm", "FILE.osm.pbf")
        /// `--walks W`: the walks of the location bench.
        static let walks = CommandOption.value("--walks", "W", rule: positive)
        /// `--regions DIR`: region maps stacked, timed against the map alone.
        static let regions = CommandOption.value("--regions", "DIR")
        /// `--only OPERATION`: that operation alone, called `--calls` times, for callgrind.
        static let only = CommandOption.value("--only", "OPERATION")
        /// `--calls N`: how many times `--only` calls its operation.
        static let calls = CommandOption.value("--calls", "N", rule: ValueRule.wholeNumber(0...Int.max, .afterValue("must be a whole number")))

        /// A whole number above 0.
        private static let positive = ValueRule.wholeNumber(1...Int.max, .afterValue("must be a positive whole number"))
    }

    static func run(_ list: ArgumentList) throws -> Int32 {
        var settings = try parse(list)
        if let operation = settings.only { return try callOnly(operation, settings) }
        var build: BuildBench.Report?
        if let osm = settings.osmFile {
            let built = try BuildBench.measure(osm: osm, runs: min(settings.runs, 5))
            build = built.report
            settings.location = .argument(built.path)
        }
        defer { if let build { unlink(build.mapPath) } }
        var report = try measure(settings)
        report.build = build
        for warning in (report.against?.warnings ?? []) + (report.cReader?.warnings ?? []) {
            StandardError.write("gmap: warning: \(warning)\n")
        }
        StandardOutput.shared.write(settings.json ? report.json : report.text)
        return ExitCode.success
    }

    static func parse(_ list: ArgumentList) throws -> Settings {
        var settings: Settings
        if list.value(Option.osm) != nil, !list.positional.isEmpty {
            throw CommandFailure(message: "with --osm, gmap bench measures the map it builds from the PBF file; '\(list.positional[0])' is one map too many")
        }
        let map = try LeadingMap.alone(list.positional, usage: "usage: gmap bench [MAP] [--points N] [--runs R] (see 'gmap help bench')")
        switch map {
        case let map?: settings = Settings(location: .argument(map))
        // With --osm, the map is the one built from the PBF file, set once it is built.
        case nil where list.value(Option.osm) != nil: settings = Settings(location: .argument(""))
        case nil: settings = Settings(location: try DefaultMap.location(command: name))
        }
        settings.pointCount = try list.integer(Option.points) ?? settings.pointCount
        settings.runs = try list.integer(Option.runs) ?? settings.runs
        settings.seed = try list.integer(Option.seed).map(UInt64.init) ?? settings.seed
        if let text = list.value(Option.near) {
            guard let metres = Double(text), metres > 0, metres <= 100_000 else {
                throw CommandFailure(message: "--near '\(text)' must be a distance in metres above 0 and at most 100000")
            }
            settings.nearMetres = metres
        }
        settings.pointsFile = list.value(Option.pointsFile)
        settings.answersFile = list.value(Option.answers)
        if settings.answersFile != nil, settings.pointsFile == nil {
            throw CommandFailure(message: "--answers needs --points-file (the answers are written for those points, in order)")
        }
        settings.savePointsFile = list.value(Option.savePoints)
        settings.walks = try list.integer(Option.walks) ?? settings.walks
        if let osm = list.value(Option.osm) {
            guard !osm.isEmpty else { throw CommandFailure(message: "--osm needs an OpenStreetMap PBF file: gmap bench --osm FILE.osm.pbf") }
            settings.osmFile = osm
        }
        if let folder = list.value(Option.regions) {
            guard !folder.isEmpty else { throw CommandFailure(message: "--regions needs a folder of region maps: gmap bench MAP --regions DIR") }
            settings.regions = try StackedMaps.expanded(MapLocation.argument(folder))
        }
        if let other = list.value(Option.against) {
            guard !other.isEmpty else { throw CommandFailure(message: "--against needs a map to compare with: gmap bench MAP --against OTHER.gmap") }
            settings.againstFile = other
        }
        if let reader = list.value(Option.cReader) {
            do {
                try ChildProcess.checkExecutable(reader)
            } catch {
                throw CommandFailure(message: CReaderBench.Failure.cannotRun(error).description)
            }
            settings.cReaderFile = reader
        }
        settings.json = list.has(.json)
        if let text = list.value(Option.only) {
            guard let operation = CallLoop.Operation(rawValue: text) else {
                throw CommandFailure(message: "--only '\(text)' must be one of \(CallLoop.Operation.names)")
            }
            settings.only = operation
        }
        settings.calls = try list.integer(Option.calls) ?? settings.calls
        // Checked before anything is measured, as build, export and render check theirs: an output
        // that is an input (the map, the points file, the PBF file) or not a regular file is refused.
        let inputs = [settings.path, settings.pointsFile, settings.osmFile].compactMap { $0 }.filter { !$0.isEmpty }
        settings.answersFile = try settings.answersFile.map { try OutputFile.prepare($0, inputs: inputs) }
        settings.savePointsFile = try settings.savePointsFile.map { try OutputFile.prepare($0, inputs: inputs) }
        return settings
    }

    /// `--only`: the points (the file's, or `--points` uniform ones of the seed; every set with
    /// `--save-points`, which writes them), then the calls at the first set's points; prints
    /// how many calls found something, so that the loop is not optimised away and a wrong map shows.
    static func callOnly(_ operation: CallLoop.Operation, _ settings: Settings) throws -> Int32 {
        let map = try settings.location.open()
        // With --save-points, every set is made (and saved); else the file's points, or the uniform set alone.
        var random = SplitMix64(state: settings.seed)
        let points = settings.savePointsFile != nil ? try pointSets(settings, map: map)[0].points
            : try settings.pointsFile.map { try BenchPoints.read(file: $0) } ?? BenchPoints.uniform(count: settings.pointCount, random: &random)
        guard let found = CallLoop.run(operation, map: map, points: points, calls: settings.calls, seed: settings.seed) else {
            throw CommandFailure(message: "--only \(operation.rawValue): \(settings.path) has nothing to call it on (no points, no roads or no names)")
        }
        StandardOutput.shared.write("\(operation.rawValue)\t\(settings.calls) calls\t\(found) found\n")
        return ExitCode.success
    }

    /// The point sets of the bench (the file's points, or uniform, on land and near border), written
    /// to `--save-points` when asked.
    static func pointSets(_ settings: Settings, map: GMap) throws -> [(name: String, points: [BenchPoint])] {
        var random = SplitMix64(state: settings.seed)
        var sets: [(name: String, points: [BenchPoint])] = []
        if let file = settings.pointsFile {
            let points = try BenchPoints.read(file: file)
            guard !points.isEmpty else { throw CommandFailure(message: "\(file) holds no points") }
            sets.append(("file", points))
        } else {
            let uniform = BenchPoints.uniform(count: settings.pointCount, random: &random)
            sets.append(("uniform", uniform))
            sets.append(("on land", BenchPoints.onLand(uniform, in: map, count: settings.pointCount)))
            let distinct = BenchPoints.nearBoundary(of: map, count: min(settings.pointCount, 200_000),
                                                    within: settings.nearMetres, random: &random)
            sets.append(("near border", BenchPoints.repeated(distinct, to: settings.pointCount)))
        }
        if let file = settings.savePointsFile {
            try OutputFile.write(to: file) { write in try SavedPoints.write(sets, write) }
        }
        return sets
    }

    /// Runs every measurement.
    static func measure(_ settings: Settings) throws -> BenchReport {
        var report = BenchReport(path: settings.path)
        var opens: [Double] = []
        var opened: GMap?
        for _ in 0..<max(settings.runs, 21) {
            opened = nil
            let start = Stopwatch.now()
            opened = try settings.location.open()
            opens.append(Stopwatch.now() - start)
        }
        guard let map = opened else { throw CommandFailure(message: "\(settings.path): could not be opened") }
        let other = try settings.againstFile.map { try MapLocation.argument($0).open() }
        report.byteCount = map.byteCount
        report.featureCount = map.featureCount
        report.openMicroseconds = (Stopwatch.percentile(opens, 0.5) * 1e6, Stopwatch.percentile(opens, 0.99) * 1e6, opens.count)
        report.mappedKiBAfterOpen = map.withUnsafeBytes { $0.baseAddress.flatMap(ProcessMemory.residentKiB(ofMappingAt:)) }
        report.processKiBAfterOpen = ProcessMemory.residentKiB()
        // A second mapping of the file for the location walks' resident pages, before lookups touch anything.
        report.location = LocationBench.measure(map: map, fresh: try? settings.location.open(), walks: settings.walks,
                                                runs: settings.runs, seed: settings.seed)

        let sets = try pointSets(settings, map: map)
        // One pass over the first set: settings.pointCount lookups (or the file's points) have run.
        report.lookupsBeforeMemory = sets[0].points.count
        report.answers = sets[0].points.map { map.lookup(latitude: $0.latitude, longitude: $0.longitude)?.id ?? "" }
        report.mappedKiBAfterLookups = map.withUnsafeBytes { $0.baseAddress.flatMap(ProcessMemory.residentKiB(ofMappingAt:)) }
        report.processKiBAfterLookups = ProcessMemory.residentKiB()

        for (name, points) in sets where !points.isEmpty {
            report.sets.append(measureSet(name: name, points: points, map: map, runs: settings.runs))
        }
        report.threads = measureThreads(points: sets[0].points, map: map, runs: settings.runs)
        // What gmap query MAP - answers: every layer of a map of several layers given as a file.
        let layered = map.layerNames.count > 1 && settings.location.origin != .bundled
        report.batch = try BatchBench.measure(map: map, layered: layered, set: sets[0].name, points: sets[0].points, runs: settings.runs)
        if let other, let path = settings.againstFile {
            report.against = AgainstBench.measure(map: map, other: other, path: path, sets: sets, runs: settings.runs)
        }
        if let reader = settings.cReaderFile {
            do {
                report.cReader = try CReaderBench.measure(binary: reader, mapPath: settings.path, map: map, sets: sets, runs: settings.runs)
            } catch {
                throw CommandFailure(message: error.description)
            }
        }
        if map.layerNames.count > 1 {
            report.placemark = measurePlacemarks(points: Array(sets[0].points.prefix(20_000)), map: map)
        }
        report.stack = StackBench.measure(map: map, seed: settings.seed)
        if let regions = settings.regions {
            let maps = try regions.map { try $0.open() }
            report.regions = RegionBench.measure(map: map, regions: maps, walks: min(settings.walks, 100), runs: max(3, min(settings.runs, 7)), seed: settings.seed)
            if report.regions == nil { throw CommandFailure(message: "--regions: \(settings.path) is not a location map (gmap build --osm), or the shipped world map is missing") }
        }
        report.geocode = GeocodeBench.measure(map: map, seed: settings.seed, runs: settings.runs)
        if let answersFile = settings.answersFile {
            let text = report.answers.joined(separator: "\n") + "\n"
            try OutputFile.write(Array(text.utf8), to: answersFile)
        }
        return report
    }

    /// A map of several layers: whole placemarks (every layer, the nearest town included) timed
    /// point by point (clock cost subtracted), after one untimed pass: through a ``MapStack`` of the
    /// one map, which finds the layers' roles once (what `gmap place -` does), and through
    /// `map.placemark`, which keeps them with the map after its first call.
    static func measurePlacemarks(points: [BenchPoint], map: GMap) -> BenchReport.Placemarks {
        var filled = 0
        let stack = MapStack([map])
        for point in points where stack.placemark(latitude: point.latitude, longitude: point.longitude).locality != nil { filled += 1 }
        let single = Stopwatch.timeEach(points) { stack.placemark(latitude: $0.latitude, longitude: $0.longitude) }
        let once = Stopwatch.timeEach(points) { map.placemark(latitude: $0.latitude, longitude: $0.longitude) }
        return BenchReport.Placemarks(points: points.count, withLocality: filled, layers: map.layerNames.count,
                                      microsecondsP50: Stopwatch.percentile(single, 0.5) * 1e6,
                                      microsecondsP99: Stopwatch.percentile(single, 0.99) * 1e6,
                                      microsecondsMean: single.reduce(0, +) / Double(max(single.count, 1)) * 1e6,
                                      onceMicrosecondsP50: Stopwatch.percentile(once, 0.5) * 1e6)
    }

    /// Times `runs` passes over `points`, then each lookup of a sample alone, and counts edges.
    static func measureSet(name: String, points: [BenchPoint], map: GMap, runs: Int) -> BenchReport.PointSet {
        var perLookup: [Double] = []
        var found = 0
        for _ in 0..<runs {
            let pass = LookupPass.run(map, points)
            perLookup.append(pass.nanoseconds / 1e9)
            found = pass.found
        }
        let sample = points.prefix(200_000)
        // Single lookups, each timed alone, less the cost of reading the clock twice.
        let single = Stopwatch.timeEach(sample) { map.lookup(latitude: $0.latitude, longitude: $0.longitude) }
        let edges = sample.map { Double(map.lookupCost(latitude: $0.latitude, longitude: $0.longitude)?.edgeCount ?? 0) }
        return BenchReport.PointSet(
            name: name, points: points.count, found: found, runs: runs,
            nanosecondsMedian: Stopwatch.percentile(perLookup, 0.5) * 1e9,
            nanosecondsP99OfRuns: Stopwatch.percentile(perLookup, 0.99) * 1e9,
            singleLookupP50: Stopwatch.percentile(single, 0.5) * 1e9,
            singleLookupP99: Stopwatch.percentile(single, 0.99) * 1e9,
            edgesMean: edges.reduce(0, +) / Double(max(edges.count, 1)),
            edgesP99: Stopwatch.percentile(edges, 0.99)
        )
    }

    /// Lookups per second over `points`, split evenly across 1 thread and then across every core.
    static func measureThreads(points: [BenchPoint], map: GMap, runs: Int) -> [BenchReport.Throughput] {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        var results: [BenchReport.Throughput] = []
        for threads in Array(Set([1, cores])).sorted() {
            var seconds: [Double] = []
            for _ in 0..<runs {
                seconds.append(Stopwatch.time {
                    DispatchQueue.concurrentPerform(iterations: threads) { part in
                        let lower = points.count * part / threads, upper = points.count * (part + 1) / threads
                        var found = 0
                        for point in points[lower..<upper] where map.lookup(latitude: point.latitude, longitude: point.longitude) != nil {
                            found += 1
                        }
                        blackHole(found)
                    }
                })
            }
            let median = Stopwatch.percentile(seconds, 0.5)
            results.append(BenchReport.Throughput(threads: threads, lookupsPerSecond: Double(points.count) / median))
        }
        return results
    }

    @inline(never) static func blackHole(_ value: Int) {
        if value == Int.min { StandardError.write("") }
    }
}

extension BenchCommand {
    /// What `gmap help bench` prints.
    static let help = """
    gmap bench [MAP] [--points N] [--runs R] [--seed S] [--near METRES] [--json] [--save-points FILE]
    gmap bench [MAP] --points-file FILE [--answers OUT] [--runs R] [--json]
    gmap bench [MAP] [--against OTHER.gmap] [--c-reader GMAP_REF] [--points N] [--runs R] [--json]
    gmap bench --osm FILE.osm.pbf [--walks W] [--runs R] [--points N] [--json]
    gmap bench [MAP] --only OPERATION [--calls N] [--points-file FILE | --points N [--save-points FILE]]

    Measures the map in this process, from repeated runs:
      open       median and p99 of at least 21 opens (each maps the file and checks its header)
      memory     resident KiB of the map's pages after opening and after one pass over the first
                 point set (from /proc/self/smaps; n/a elsewhere), and the process's RSS
      lookups    for each point set: the median and p99 over R runs (default 11) of the time
                 per lookup, lookups per second, single lookups timed one by one (p50, p99, clock
                 cost subtracted), and the edges stored in each point's tile (mean, p99): what a
                 lookup may test
      threads    lookups per second over the first set split across 1 thread and every core
      batch      the path of gmap query MAP - (blocks, parsing, answers into a buffer) over the
                 first set as "lat lon" lines with six decimals, held in memory, the answers
                 written to /dev/null: the median over R runs of ns per line and lines per
                 second, with 1 thread and with every core (--threads). A map of several
                 layers given as a file answers in every layer, as gmap query does: then only
                 the first 20,000 lines
      against    with --against OTHER.gmap: the first layer of OTHER (the same data built with
                 gmap build --format 2.1, say) timed on the very same point sets, its runs and
                 this map's interleaved (A B A B ..., R each after an untimed pass of each), the
                 two medians and the ratio MAP / OTHER per set (above 1: OTHER is faster).
                 Before timing, both are asked the first 10,000 points of every set: different
                 feature counts in the first layers or different answers only warn (on stderr;
                 the counts are in the report), as the ratios then compare different data, not
                 formats. OTHER as MAP itself shows the noise of the machine
      C reader   with --c-reader GMAP_REF, a built C reference reader (cc -O2 -std=c99 -o
                 gmap_ref Benchmarks/c-reader/gmap_ref.c Benchmarks/c-reader/main.c -lm): the
                 point sets are written to a temporary file (as --save-points writes them), and
                 GMAP_REF MAP --bench FILE --runs R and R passes of this reader over each set
                 alternate for 3 rounds; per set the medians over the rounds of each side's
                 median, Swift / C (above 1: C is faster), and the points each found. A missing or
                 not executable GMAP_REF, its failure or output other than one line per set
                 (name, points, found, runs, median ns, best ns, tab-separated) stop the bench
                 with exit 2
      placemark  a map of several layers (the shipped one): whole placemarks (every layer, the
                 nearest town included), timed one by one on the first 20,000 points of the
                 first set (p50, p99, mean in µs, clock cost subtracted), through a MapStack of
                 the map, which finds the layers' roles once (as gmap place - does), and the p50
                 of GMap.placemark, which keeps them with the map after its first call
      where      on a location map (gmap build --osm): the time of each LocationContext update
                 over W walks (default 200) of 60 fixes along the map's own streets (a random
                 point of a random road segment, straight on at 1.4 m/s, one fix a second,
                 Gaussian noise of 5 m, the walk's course as heading, no throttle), p50 and p99
                 over R runs; a fresh context's first fix (what gmap where answers); how the
                 fixes were answered; and the resident KiB of a second mapping of the file that
                 only the walks touched
      geocode    on a location map: forward geocoding (GMap.geocode) of up to 2,000 of its
                 addresses drawn at random, each as "street number", timed one by one over R
                 runs: the first match only (p50, p99 in µs) and the ten gmap geocode prints
      stacked    on a location map: the placemark of a stack of it and the shipped world map
                 (what gmap place --map MAP answers), timed one by one at 20,000 random points of
                 the bounds of its streets (p50, p99, mean in µs), and each map's own placemark
                 (p50), with how many points got a thoroughfare and a locality
      regions    with --regions DIR: the maps of DIR (region maps, such as one per extract of a
                 cut; MAP among them) and the shipped world map as one stack, against MAP and
                 the world map: the placemark at the fixes of min(W, 100) walks of MAP's streets
                 and the location sense's update along them (a stack's update through its
                 StackLocationSource), p50 in µs, the median over max(3, min(R, 7)) alternating
                 runs; and the points and fixes whose placemark or road differ between the two
      build      with --osm: builds the location map of FILE min(R, 5) times in this process
                 (read, decode, build; median and slowest), the process's peak RSS (VmHWM)
                 before and after, and the map's bytes; the rest of the bench measures that map
                 (written to a temporary file, removed at the end)

    The point sets, from seed S (default 42): "uniform", N points (default 1,000,000) uniform on
    the sphere; "on land", those of them inside some feature, repeated up to N; "near border",
    200,000 points (or N if fewer) within METRES (default 100) of a feature's boundary, coasts
    included, repeated up to N. Near-border points are found with lookups alone: a random
    100 km segment whose ends get different answers is halved until the change is within 1 cm,
    then the point is moved a random distance (uniform over the disc) in a random direction.

    With --points-file, times only the points in FILE (one "lat,lon" or "lat lon" per line; blank
    lines and lines starting with # are skipped), and --answers writes their answers to OUT, one
    id per line in input order, an empty line where no feature contains the point. --json prints
    one JSON object (keys: map, bytes, features, open_us, rss_open_kb, rss_after_kb,
    process_rss_open_kb, process_rss_after_kb, sets[name, points, found, runs, ns_median, ns_p99,
    single_ns_p50, single_ns_p99, edges_mean, edges_p99], threads[threads, lookups_per_second],
    batch{set, lines, runs, layered, threads[threads, ns_per_line, lines_per_second]}; with
    --against against{map, bytes, format, features, map_format, map_features, sample_points,
    sample_differing, sets[name, points, runs, ns_median, other_ns_median, ratio]}; with
    --c-reader c_reader{path, rounds, runs, sets[name, points, found, c_found, ns_median,
    c_ns_median, ratio]}; on a location map where{walks, fixes, runs, update_us_p50,
    update_us_p99, update_us_mean, once_us_p50, once_us_p99, along, inside, other, unknown,
    rss_after_walks_kb, geocode{addresses, found, us_p50, us_p99, ten_us_p50, ten_us_p99}}; with --osm
    build{input, builds, ms_median, ms_max, peak_rss_kb, peak_rss_before_kb, bytes}; for a map of
    several layers placemark{points, with_locality, layers, us_p50, us_p99, us_mean, once_us_p50}; on a location
    map stack{points, with_thoroughfare, with_locality, us_p50, us_p99, us_mean, map_us_p50,
    world_us_p50}).

    With --only, measures nothing: calls one OPERATION N times (default 1,000) and prints
    "OPERATION<tab>N calls<tab>F found", for counting instructions under callgrind
    (Benchmarks/instructions.sh runs it with two values of N on the same inputs; with
    --save-points it makes and saves every point set first). OPERATION is lookup (map.lookup at
    the points of FILE, or of the uniform set of --points N and seed S, in turn), placemark
    (a fresh GMap.placemark at them), stack-placemark (a placemark refilled through a MapStack of
    the map, as gmap place - does), where (LocationContext.update along 100 walks of a location
    map's streets) or geocode (GMap.geocode, limit 1, of 1,000 of a location map's addresses as
    "street number", else of its town names).

    --save-points FILE writes the point sets used, as "lat,lon" lines under a "# name: N points"
    line per set, so other tools can be timed on the very same points.

    EXAMPLES
      gmap bench world.gmap
      gmap bench world.gmap --points 200000 --runs 5 --json
      gmap bench tz.gmap --points-file points.csv --answers answers.txt
      gmap bench --osm Helsinki.osm.pbf --points 100000
      gmap bench world.gmap --against world-2.1.gmap --c-reader ./gmap_ref --runs 7

    """
}
