import Foundation
import GMapCodecs

/// Runs independent pieces of work on several threads and collects their results in order.
enum ParallelBands {
    /// Calls `work` for 0..<count (concurrently when count > 1) and stores each result at its index.
    static func run<Result: Sendable>(count: Int, results: inout [Result], _ work: @Sendable (Int) -> Result) {
        guard count > 1 else {
            if count == 1 { results[0] = work(0) }
            return
        }
        let box = ResultBox(results)
        DispatchQueue.concurrentPerform(iterations: count) { index in
            box.store(work(index), at: index)
        }
        results = box.values
    }
}

/// Results written by several threads, one slot each, behind a lock.
private final class ResultBox<Value: Sendable>: @unchecked Sendable {
    private var slots: [Value]
    private let lock = NSLock()

    init(_ slots: [Value]) { self.slots = slots }

    func store(_ value: Value, at index: Int) {
        lock.lock()
        slots[index] = value
        lock.unlock()
    }

    var values: [Value] {
        lock.lock()
        defer { lock.unlock() }
        return slots
    }
}
