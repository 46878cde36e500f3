import GMapCodecs
import Foundation
import GMap

/// `gmap bench MAP --c-reader PATH`: the C reference reader (`Benchmarks/c-reader`, built as
/// `gmap_ref`) timed on the very same point sets, and Swift ÷ C per set.
///
/// The sets are written to a temporary file in the `--save-points` layout, and `PATH MAP --bench
/// FILE --runs R` times `gm_lookup` in the map's first layer over each set (after a warm-up pass)
/// and prints one line per set: name, points, found, runs, median and best ns per lookup,
/// tab-separated. That process and R passes of this one over each set alternate for ``rounds``
/// rounds; each side's time is the median over the rounds of its medians of R runs.
enum CReaderBench {
    /// What the comparison measured.
    struct Report {
        /// The C reader's path, the rounds and the runs per round.
        var path: String
        var rounds: Int
        var runs: Int
        var sets: [SetComparison]

        /// The warnings the comparison deserves: sets where the readers found different counts.
        var warnings: [String] {
            sets.filter { $0.swiftFound != $0.cFound }.map {
                "\(path) found \($0.cFound) of the \($0.points) \($0.name) points in a feature, gmap \($0.swiftFound): the readers answer differently"
            }
        }
    }

    /// One point set timed in both readers.
    struct SetComparison {
        var name: String
        var points: Int
        /// Points a feature contains, per reader.
        var swiftFound: Int
        var cFound: Int
        /// ns per lookup: the median over the rounds of each round's median of R runs.
        var swiftNanoseconds: Double
        var cNanoseconds: Double
        /// Swift ÷ C (above 1: the C reader is faster).
        var ratio: Double { cNanoseconds > 0 ? swiftNanoseconds / cNanoseconds : .nan }
    }

    /// Why the C reader's comparison could not be made.
    enum Failure: Error, CustomStringConvertible {
        /// The program could not be run.
        case cannotRun(ChildProcess.Failure)
        /// It ran and failed: its exit status (or signal) and what it said.
        case failed(path: String, status: Int32, signalled: Bool, stderr: String)
        /// It printed something other than one line per point set.
        case unparsable(path: String, reason: String)
        /// The temporary points file could not be written.
        case cannotWritePoints(path: String, reason: String)

        var description: String {
            switch self {
            case .cannotRun(let failure):
                return "--c-reader: \(failure) (build it: cc -O2 -std=c99 -o gmap_ref Benchmarks/c-reader/gmap_ref.c Benchmarks/c-reader/main.c -lm)"
            case .failed(let path, let status, let signalled, let stderr):
                let said = stderr.trimmingCharacters(in: .whitespacesAndNewlines)
                return "--c-reader: \(path) \(signalled ? "was killed by signal \(status)" : "exited with status \(status)")"
                    + (said.isEmpty ? "" : ": \(said.split(separator: "\n").prefix(3).joined(separator: "; "))")
            case .unparsable(let path, let reason):
                return "--c-reader: cannot read what \(path) printed (is it gmap_ref from Benchmarks/c-reader?): \(reason)"
            case .cannotWritePoints(let path, let reason):
                return "--c-reader: cannot write the points to \(path): \(reason)"
            }
        }
    }

    /// Rounds of (C reader, this reader) runs.
    static let rounds = 3

    /// Times `binary` against `map` (the file at `mapPath`) on `sets`, `runs` passes a round.
    static func measure(binary: String, mapPath: String, map: GMap, sets: [(name: String, points: [BenchPoint])],
                        runs: Int) throws(Failure) -> Report {
        let timed = sets.filter { !$0.points.isEmpty }
        let file = NSTemporaryDirectory() + "gmap-bench-points-\(getpid()).txt"
        defer { unlink(file) }
        do {
            try OutputFile.write(to: file) { write in try SavedPoints.write(timed, write) }
        } catch let failure as CommandFailure {
            throw .cannotWritePoints(path: file, reason: failure.message)
        } catch {
            throw .cannotWritePoints(path: file, reason: "\(error)")
        }
        for (_, points) in timed { _ = LookupPass.run(map, points) }
        var swift = Array(repeating: [Double](), count: timed.count), swiftFound = Array(repeating: 0, count: timed.count)
        var c = Array(repeating: [Double](), count: timed.count), cFound = Array(repeating: 0, count: timed.count)
        for _ in 0..<rounds {
            let lines = try run(binary, arguments: [mapPath, "--bench", file, "--runs", String(runs)], expecting: timed, runs: runs)
            for (index, line) in lines.enumerated() {
                c[index].append(line.nanoseconds)
                cFound[index] = line.found
            }
            for (index, set) in timed.enumerated() {
                var times: [Double] = []
                for _ in 0..<runs {
                    let pass = LookupPass.run(map, set.points)
                    times.append(pass.nanoseconds)
                    swiftFound[index] = pass.found
                }
                swift[index].append(Stopwatch.percentile(times, 0.5))
            }
        }
        let comparisons = timed.enumerated().map { index, set in
            SetComparison(name: set.name, points: set.points.count, swiftFound: swiftFound[index], cFound: cFound[index],
                          swiftNanoseconds: Stopwatch.percentile(swift[index], 0.5), cNanoseconds: Stopwatch.percentile(c[index], 0.5))
        }
        return Report(path: binary, rounds: rounds, runs: runs, sets: comparisons)
    }

    /// One line of `gmap_ref --bench`.
    struct Line: Equatable {
        var name: String
        var points: Int
        var found: Int
        var runs: Int
        var nanoseconds: Double
    }

    /// Runs the C reader once and reads its lines, one per set of `sets` in order.
    static func run(_ binary: String, arguments: [String], expecting sets: [(name: String, points: [BenchPoint])],
                    runs: Int) throws(Failure) -> [Line] {
        let output: ChildProcess.Output
        do {
            output = try ChildProcess.run(binary, arguments: arguments)
        } catch {
            throw .cannotRun(error)
        }
        guard output.status == 0, !output.signalled else {
            throw .failed(path: binary, status: output.status, signalled: output.signalled, stderr: output.stderr)
        }
        return try parse(output.stdout, path: binary, expecting: sets.map { ($0.name, $0.points.count) }, runs: runs)
    }

    /// The lines of `gmap_ref --bench`'s output `text`: one per expected set, in order, with its
    /// name, point count and runs; anything else is a ``Failure/unparsable(path:reason:)``.
    static func parse(_ text: String, path: String, expecting sets: [(name: String, points: Int)], runs: Int) throws(Failure) -> [Line] {
        let rows = text.split(separator: "\n", omittingEmptySubsequences: true)
        guard rows.count == sets.count else {
            throw .unparsable(path: path, reason: "expected \(sets.count) line\(sets.count == 1 ? "" : "s") (one per point set), got \(rows.count)"
                + (rows.first.map { ", the first \(InputExcerpt.quoted(String($0)))" } ?? ""))
        }
        var lines: [Line] = []
        for (row, set) in zip(rows, sets) {
            let fields = row.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 6, let points = Int(fields[1]), let found = Int(fields[2]), let count = Int(fields[3]),
                  let median = Double(fields[4]), median.isFinite, median >= 0 else {
                throw .unparsable(path: path, reason: "expected 'name, points, found, runs, median ns, best ns' separated by tabs, got \(InputExcerpt.quoted(String(row)))")
            }
            guard String(fields[0]) == set.name, points == set.points, count == runs else {
                throw .unparsable(path: path, reason: "expected the set '\(set.name)' of \(set.points) points timed \(runs) times, got \(InputExcerpt.quoted(String(row)))")
            }
            lines.append(Line(name: set.name, points: points, found: found, runs: count, nanoseconds: median))
        }
        return lines
    }
}
