/// Monotonic time and the summaries a benchmark prints.
enum Stopwatch {
    /// Seconds on the monotonic clock.
    static func now() -> Double {
        SystemCalls.monotonicSeconds()
    }

    /// Seconds `body` takes.
    static func time(_ body: () -> Void) -> Double {
        let start = now()
        body()
        return now() - start
    }

    /// The value at fraction `q` (0…1) of `values`, nearest rank; 0 when empty.
    static func percentile(_ values: [Double], _ q: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * q + 0.5))]
    }

    /// `value` with one decimal.
    static func format(_ value: Double) -> String {
        "\((value * 10).rounded() / 10)"
    }
}
