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

    /// The seconds each call of `body` takes, one per item, each timed alone less the median cost
    /// of reading the clock twice (never below 0). `body`'s result is kept alive past the clock read.
    static func timeEach<Item, Result>(_ items: some Collection<Item>, _ body: (Item) -> Result) -> [Double] {
        var overheads: [Double] = []
        for _ in 0..<10_000 {
            let start = now()
            overheads.append(now() - start)
        }
        let overhead = percentile(overheads, 0.5)
        var seconds: [Double] = []
        seconds.reserveCapacity(items.count)
        for item in items {
            let start = now()
            let result = body(item)
            let end = now()
            withExtendedLifetime(result) { seconds.append(max(0, end - start - overhead)) }
        }
        return seconds
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

    /// A ratio with two decimals ("1.20"), "n/a" when it is not a number.
    static func formatRatio(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return "n/a" }
        let hundredths = Int((abs(value) * 100).rounded())
        let fraction = hundredths % 100
        return (value < 0 && hundredths > 0 ? "-" : "") + "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }
}
