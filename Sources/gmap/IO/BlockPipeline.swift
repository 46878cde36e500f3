import Foundation

/// What some lines (or CSV rows) of a block printed: their output bytes, and each bad one's
/// message with the output offset just after its (empty or null) answer.
struct BlockOutput: Sendable {
    var output: [UInt8] = []
    var problems: [(outputEnd: Int, line: Int, message: String)] = []
    /// How many items (lines or rows) these are: the next part's items are numbered after them.
    var items = 0
}

/// The answers of batch input, block after block, written in input order: a block is answered on
/// this thread, or in parts on the global queue while the next block is read and the one before
/// is written. Bad lines' messages go to standard error between the answers around them. One
/// pipeline serves `gmap query -` (``BatchQuery``) and `gmap query --csv` (``CSVQuery``).
struct BlockPipeline {
    /// What a message calls a problem's line, from the items written before its block, the first
    /// item of its part, and the line its answer recorded.
    let lineNumber: (_ before: Int, _ partFirst: Int, _ line: Int) -> Int
    /// Where the answers go: standard output, or for `gmap bench` /dev/null.
    let output: StandardOutput
    /// Items (lines or rows) written so far, and how many of them were bad.
    private(set) var written = 0, bad = 0
    private var inFlight: Flight?

    init(output: StandardOutput = .shared, lineNumber: @escaping (_ before: Int, _ partFirst: Int, _ line: Int) -> Int) {
        self.output = output
        self.lineNumber = lineNumber
    }

    /// A block's answers, filled in part by part.
    private final class Flight: @unchecked Sendable {
        let group: DispatchGroup?
        private var parts: [BlockOutput]
        private let lock = NSLock()

        init(now output: BlockOutput) {
            parts = [output]
            group = nil
        }

        init(parts: Int, answer: @escaping @Sendable (_ part: Int) -> BlockOutput) {
            self.parts = Array(repeating: BlockOutput(), count: parts)
            let group = DispatchGroup()
            self.group = group
            DispatchQueue.global().async(group: group) { [self] in
                DispatchQueue.concurrentPerform(iterations: parts) { part in
                    let output = answer(part)
                    lock.lock()
                    self.parts[part] = output
                    lock.unlock()
                }
            }
        }

        /// Each part's first item (the items of the parts before it) and output, in order, once
        /// all are answered.
        var outputs: [(first: Int, output: BlockOutput)] {
            group?.wait()
            lock.lock()
            defer { lock.unlock() }
            var first = 0
            return parts.map { part in
                defer { first += part.items }
                return (first, part)
            }
        }
    }

    /// Answers a block of `count` items: with `parts` > 1 by `parallel` in that many ranges at once
    /// (written when the next block comes, or at ``finish()``), else by `now` on this thread,
    /// written at once (after the block before).
    mutating func answer(count: Int, parts: Int, now: (Range<Int>) -> BlockOutput,
                         parallel: @escaping @Sendable (Range<Int>) -> BlockOutput) {
        answer(parts: parts, now: {
            var output = now(0..<count)
            output.items = count
            return output
        }, parallel: { part in
            let range = count * part / parts..<count * (part + 1) / parts
            var output = parallel(range)
            output.items = range.count
            return output
        })
    }

    /// Answers a block in `parts` parts that count their own items (``BlockOutput/items``): with
    /// `parts` > 1 by `parallel` for each part at once (written when the next block comes, or at
    /// ``finish()``), else by `now` on this thread, written at once (after the block before).
    mutating func answer(parts: Int, now: () -> BlockOutput, parallel: @escaping @Sendable (_ part: Int) -> BlockOutput) {
        if parts <= 1 {
            flush()
            write(Flight(now: now()))
        } else {
            let flight = Flight(parts: parts, answer: parallel)
            flush()
            inFlight = flight
        }
    }

    /// Writes the block still being answered, if any, and flushes the output.
    mutating func finish() {
        flush()
        output.flush()
    }

    private mutating func flush() {
        if let previous = inFlight { write(previous) }
        inFlight = nil
    }

    private mutating func write(_ flight: Flight) {
        var items = 0
        for (first, part) in flight.outputs {
            items += part.items
            var offset = 0
            for problem in part.problems {
                bad += 1
                output.write(bytes: part.output, range: offset..<problem.outputEnd)
                offset = problem.outputEnd
                output.flush()
                StandardError.write("gmap: line \(lineNumber(written, first, problem.line)): \(problem.message)\n")
            }
            output.write(bytes: part.output, range: offset..<part.output.count)
        }
        written += items
    }
}
