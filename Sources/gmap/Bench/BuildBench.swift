import Foundation
import GMap
import GMapBuilder
import GMapCodecs

/// `gmap bench --osm FILE.osm.pbf`: the build of a location map from an OpenStreetMap extract,
/// timed over repeated builds (streamed, as `gmap build --osm` reads), with the process's peak resident memory; the map is written to a
/// temporary file for the rest of the bench.
enum BuildBench {
    /// What the builds measured.
    struct Report {
        /// The PBF file built from.
        var input: String
        /// Where the built map was written (removed when the bench ends).
        var mapPath: String
        /// Builds timed, and the median and slowest of their seconds (read, decode and build; not the write).
        var builds = 0
        var secondsMedian = 0.0, secondsMax = 0.0
        /// The process's resident high-water mark (`VmHWM`) before the first build and after the
        /// last, in KiB: the second bounds the build's peak (nil where `/proc` is missing).
        var peakKiBBefore: Int?, peakKiBAfter: Int?
        /// The map's size in bytes.
        var mapBytes = 0
    }

    /// Builds the map of `osm` `runs` times and writes the last build to a temporary file.
    static func measure(osm: String, runs: Int) throws -> (report: Report, path: String) {
        let path = NSTemporaryDirectory() + "gmap-bench-\(getpid()).gmap"
        var report = Report(input: osm, mapPath: path)
        report.peakKiBBefore = ProcessMemory.peakKiB()
        var seconds: [Double] = []
        var bytes: [UInt8] = []
        for _ in 0..<max(runs, 1) {
            let start = Stopwatch.now()
            do {
                bytes = try LocationMapBuilder.build(pbfPath: osm, metadata: [(key: "attribution", value: OSMBuild.attribution)]).bytes
            } catch let error as OSMPBFError {
                throw CommandFailure(message: error.description)
            } catch let error as FileReadError {
                throw CommandFailure(message: error.description)
            } catch let error as BuildError {
                throw CommandFailure(message: "\(osm): \(error.description)")
            }
            seconds.append(Stopwatch.now() - start)
        }
        report.peakKiBAfter = ProcessMemory.peakKiB()
        report.builds = seconds.count
        report.secondsMedian = Stopwatch.percentile(seconds, 0.5)
        report.secondsMax = seconds.max() ?? 0
        report.mapBytes = bytes.count
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw CommandFailure(message: "cannot write the built map to \(path)")
        }
        return (report, path)
    }
}
