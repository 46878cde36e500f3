#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GMap

/// `gmap bench MAP`: open time and lookup speed from repeated runs.
enum BenchCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let list = try ArgumentList(arguments, options: ["--points", "--runs", "--seed"], flags: ["--help", "-h"])
        if list.has("--help") || list.has("-h") {
            StandardOutput.shared.write(HelpText.help(for: "bench"))
            return ExitCode.success
        }
        let path: String
        switch list.positional.count {
        case 0: path = try DefaultMap.path()
        case 1: path = list.positional[0]
        default: throw CommandFailure(message: "usage: gmap bench [MAP] [--points N] [--runs R]")
        }
        let pointCount = try positive(list, "--points", default: 1_000_000)
        let runs = try positive(list, "--runs", default: 11)
        var random = SplitMix64(state: UInt64(try positive(list, "--seed", default: 42)))

        var openTimes: [Double] = []
        var map: GMap?
        for _ in 0..<max(runs, 21) {
            let start = now()
            do { map = try GMap(contentsOf: path) } catch { throw CommandFailure(message: error.description) }
            openTimes.append(now() - start)
        }
        guard let map else { return ExitCode.usage }

        // Uniform on the sphere: latitude = asin(u), u uniform in [-1, 1].
        var uniform: [(Double, Double)] = []
        uniform.reserveCapacity(pointCount)
        for _ in 0..<pointCount {
            let u = Double(random.next() >> 11) / Double(1 << 53) * 2 - 1
            let longitude = Double(random.next() >> 11) / Double(1 << 53) * 360 - 180
            uniform.append((asin(u) * 180 / Double.pi, longitude))
        }
        var onLand = uniform.filter { map.lookup(latitude: $0.0, longitude: $0.1) != nil }
        while !onLand.isEmpty, onLand.count < pointCount { onLand += onLand.prefix(pointCount - onLand.count) }

        var out = "\(path): \(map.byteCount) bytes, \(map.featureCount) features\n"
        out += "open           median \(format(percentile(openTimes, 0.5) * 1e6)) µs, p99 \(format(percentile(openTimes, 0.99) * 1e6)) µs (\(openTimes.count) opens)\n"
        for (name, points) in [("uniform", uniform), ("on land", onLand)] where !points.isEmpty {
            var perLookup: [Double] = []
            var found = 0
            for _ in 0..<runs {
                found = 0
                let start = now()
                for point in points where map.lookup(latitude: point.0, longitude: point.1) != nil { found += 1 }
                perLookup.append((now() - start) / Double(points.count))
            }
            out += "\(name.padding(toLength: 14, withPad: " ", startingAt: 0)) median \(format(percentile(perLookup, 0.5) * 1e9)) ns/lookup, p99 of runs \(format(percentile(perLookup, 0.99) * 1e9)) ns (\(runs) runs × \(points.count) points, \(found) found)\n"
        }
        StandardOutput.shared.write(out)
        return ExitCode.success
    }

    private static func positive(_ list: ArgumentList, _ name: String, default value: Int) throws -> Int {
        guard let text = list.value(name) else { return value }
        guard let number = Int(text), number > 0 else { throw CommandFailure(message: "\(name) '\(text)' must be a positive whole number") }
        return number
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }

    private static func percentile(_ values: [Double], _ q: Double) -> Double {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * q + 0.5))]
    }

    private static func format(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return "\(rounded)"
    }
}

/// A small deterministic random number generator (SplitMix64).
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
