import Dispatch
import Foundation
import GMap

/// `gmap bench MAP`: open time, lookup speed on several point sets, cost per lookup, memory and
/// multi-threaded throughput, from repeated runs.
enum BenchCommand {
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
    }

    static func run(_ arguments: [String]) throws -> Int32 {
        let list = try ArgumentList(arguments, options: ["--points", "--runs", "--seed", "--near", "--points-file", "--answers", "--save-points"],
                                    flags: ["--json", "--help", "-h"])
        if list.has("--help") || list.has("-h") {
            StandardOutput.shared.write(HelpText.help(for: "bench"))
            return ExitCode.success
        }
        let settings = try parse(list)
        let report = try measure(settings)
        StandardOutput.shared.write(settings.json ? report.json : report.text)
        return ExitCode.success
    }

    static func parse(_ list: ArgumentList) throws -> Settings {
        var settings: Settings
        switch list.positional.count {
        case 0: settings = Settings(location: try DefaultMap.location())
        case 1: settings = Settings(location: .argument(list.positional[0]))
        default: throw CommandFailure(message: "usage: gmap bench [MAP] [--points N] [--runs R] (see 'gmap help bench')")
        }
        settings.pointCount = try positive(list, "--points", default: settings.pointCount)
        settings.runs = try positive(list, "--runs", default: settings.runs)
        settings.seed = UInt64(try positive(list, "--seed", default: Int(settings.seed)))
        if let text = list.value("--near") {
            guard let metres = Double(text), metres > 0, metres <= 100_000 else {
                throw CommandFailure(message: "--near '\(text)' must be a distance in metres above 0 and at most 100000")
            }
            settings.nearMetres = metres
        }
        settings.pointsFile = list.value("--points-file")
        settings.answersFile = list.value("--answers")
        if settings.answersFile != nil, settings.pointsFile == nil {
            throw CommandFailure(message: "--answers needs --points-file (the answers are written for those points, in order)")
        }
        settings.savePointsFile = list.value("--save-points")
        settings.json = list.has("--json")
        return settings
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
        report.byteCount = map.byteCount
        report.featureCount = map.featureCount
        report.openMicroseconds = (Stopwatch.percentile(opens, 0.5) * 1e6, Stopwatch.percentile(opens, 0.99) * 1e6, opens.count)
        report.mappedKiBAfterOpen = map.withUnsafeBytes { $0.baseAddress.flatMap(ProcessMemory.residentKiB(ofMappingAt:)) }
        report.processKiBAfterOpen = ProcessMemory.residentKiB()

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
            var text = ""
            for (name, points) in sets {
                text += "# \(name): \(points.count) points\n"
                for point in points { text += "\(point.latitude),\(point.longitude)\n" }
            }
            guard FileManager.default.createFile(atPath: file, contents: Data(text.utf8)) else {
                throw CommandFailure(message: "cannot write points to \(file)")
            }
        }
        // One pass over the first set: settings.pointCount lookups (or the file's points) have run.
        report.lookupsBeforeMemory = sets[0].points.count
        report.answers = sets[0].points.map { map.lookup(latitude: $0.latitude, longitude: $0.longitude)?.id ?? "" }
        report.mappedKiBAfterLookups = map.withUnsafeBytes { $0.baseAddress.flatMap(ProcessMemory.residentKiB(ofMappingAt:)) }
        report.processKiBAfterLookups = ProcessMemory.residentKiB()

        for (name, points) in sets where !points.isEmpty {
            report.sets.append(measureSet(name: name, points: points, map: map, runs: settings.runs))
        }
        report.threads = measureThreads(points: sets[0].points, map: map, runs: settings.runs)
        if map.layerNames.count > 1 {
            report.placemark = measurePlacemarks(points: Array(sets[0].points.prefix(20_000)), map: map)
        }
        if let answersFile = settings.answersFile {
            let text = report.answers.joined(separator: "\n") + "\n"
            guard FileManager.default.createFile(atPath: answersFile, contents: Data(text.utf8)) else {
                throw CommandFailure(message: "cannot write answers to \(answersFile)")
            }
        }
        return report
    }

    /// A map of several layers: `map.placemark` (every layer, the nearest town included) timed
    /// point by point (clock cost subtracted), after one untimed pass.
    static func measurePlacemarks(points: [BenchPoint], map: GMap) -> BenchReport.Placemarks {
        var filled = 0
        for point in points where map.placemark(latitude: point.latitude, longitude: point.longitude).locality != nil { filled += 1 }
        var overheads: [Double] = []
        for _ in 0..<10_000 {
            let start = Stopwatch.now()
            overheads.append(Stopwatch.now() - start)
        }
        let overhead = Stopwatch.percentile(overheads, 0.5)
        var single: [Double] = []
        single.reserveCapacity(points.count)
        for point in points {
            let start = Stopwatch.now()
            let placemark = map.placemark(latitude: point.latitude, longitude: point.longitude)
            let end = Stopwatch.now()
            withExtendedLifetime(placemark) { single.append(max(0, end - start - overhead)) }
        }
        return BenchReport.Placemarks(points: points.count, withLocality: filled, layers: map.layerNames.count,
                                      microsecondsP50: Stopwatch.percentile(single, 0.5) * 1e6,
                                      microsecondsP99: Stopwatch.percentile(single, 0.99) * 1e6,
                                      microsecondsMean: single.reduce(0, +) / Double(max(single.count, 1)) * 1e6)
    }

    /// Times `runs` passes over `points`, then each lookup of a sample alone, and counts edges.
    static func measureSet(name: String, points: [BenchPoint], map: GMap, runs: Int) -> BenchReport.PointSet {
        var perLookup: [Double] = []
        var found = 0
        for _ in 0..<runs {
            found = 0
            let seconds = Stopwatch.time {
                for point in points where map.lookup(latitude: point.latitude, longitude: point.longitude) != nil { found += 1 }
            }
            perLookup.append(seconds / Double(points.count))
        }
        let sample = points.prefix(200_000)
        // Single lookups, each timed alone, less the cost of reading the clock twice.
        var overheads: [Double] = []
        for _ in 0..<10_000 {
            let start = Stopwatch.now()
            overheads.append(Stopwatch.now() - start)
        }
        let overhead = Stopwatch.percentile(overheads, 0.5)
        var single: [Double] = []
        single.reserveCapacity(sample.count)
        for point in sample {
            let start = Stopwatch.now()
            let feature = map.lookup(latitude: point.latitude, longitude: point.longitude)
            let end = Stopwatch.now()
            withExtendedLifetime(feature) { single.append(max(0, end - start - overhead)) }
        }
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

    private static func positive(_ list: ArgumentList, _ name: String, default value: Int) throws -> Int {
        guard let text = list.value(name) else { return value }
        guard let number = Int(text), number > 0 else { throw CommandFailure(message: "\(name) '\(text)' must be a positive whole number") }
        return number
    }
}
