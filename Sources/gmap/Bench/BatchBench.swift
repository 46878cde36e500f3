import Foundation
import GMap

/// `gmap bench`'s batch line: lines per second of the path `gmap query MAP -` takes
/// (``BatchQuery`` through ``BlockPipeline``, the same code), over the first point set as
/// "lat lon" lines held in memory, with the answers written to /dev/null, on one thread and on
/// every core.
enum BatchBench {
    /// What the batch runs measured.
    struct Report {
        /// The point set the lines come from, and how many lines were answered per run.
        var set: String
        var lines: Int
        var runs: Int
        /// Whether each line was answered in every layer (a map of several layers given as a file,
        /// as `gmap query MAP -` answers it), rather than by the first layer's lookup.
        var layered: Bool
        /// One result per thread count: 1, then the number of cores.
        var results: [Result]
    }

    /// The batch path with some threads.
    struct Result {
        var threads: Int
        /// The median over the runs of (time of a run / lines).
        var nanosecondsPerLine: Double
        var linesPerSecond: Double { nanosecondsPerLine > 0 ? 1e9 / nanosecondsPerLine : 0 }
    }

    /// Lines answered at most when every line is a whole placemark (each costs microseconds).
    static let layeredLines = 20_000

    /// Times `runs` runs of the batch path over `points` (at most ``layeredLines`` when
    /// `layered`), alternating one thread and every core run by run.
    static func measure(map: GMap, layered: Bool, set: String, points: [BenchPoint], runs: Int) throws -> Report {
        let lines = layered ? Array(points.prefix(layeredLines)) : points
        let input = SavedPoints.batchLines(lines)
        guard let sink = FileHandle(forWritingAtPath: "/dev/null") else {
            throw CommandFailure(message: "cannot open /dev/null for the batch measurement")
        }
        defer { try? sink.close() }
        let output = StandardOutput(descriptor: sink.fileDescriptor)
        let query = BatchQuery(map: map, style: OutputStyle(all: false, json: false), layered: layered,
                               maximumBytes: LineReader.defaultMaximumBytes)
        let counts = Array(Set([1, BatchQuery.defaultThreads])).sorted()
        var seconds = Array(repeating: [Double](), count: counts.count)
        for _ in 0..<runs {
            for (position, threads) in counts.enumerated() {
                var status = ExitCode.success
                seconds[position].append(Stopwatch.time {
                    status = query.run(reader: LineReader(bytes: input), threads: threads, output: output)
                })
                guard status == ExitCode.success else {
                    throw CommandFailure(message: "the batch path refused lines of the \(set) points (exit \(status))")
                }
            }
        }
        let results = zip(counts, seconds).map { threads, times in
            Result(threads: threads, nanosecondsPerLine: Stopwatch.percentile(times, 0.5) * 1e9 / Double(max(lines.count, 1)))
        }
        return Report(set: set, lines: lines.count, runs: runs, layered: layered, results: results)
    }
}
