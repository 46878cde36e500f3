/// A canonical Huffman code for DEFLATE (RFC 1951 §3.2.2): each symbol's code length, and its code
/// bit-reversed, ready to be written least significant bit first.
struct HuffmanCode {
    /// The code length of each symbol, 0 for a symbol without a code.
    let lengths: [UInt8]
    /// Each symbol's code, bit-reversed.
    let codes: [UInt16]

    /// The canonical code for `lengths` (which must satisfy Kraft's inequality).
    init(lengths: [UInt8]) {
        self.lengths = lengths
        var lengthCounts = [Int](repeating: 0, count: 16)
        for length in lengths where length > 0 { lengthCounts[Int(length)] += 1 }
        var nextCode = [Int](repeating: 0, count: 16)
        var code = 0
        for bits in 1..<16 {
            code = (code + lengthCounts[bits - 1]) << 1
            nextCode[bits] = code
        }
        var codes = [UInt16](repeating: 0, count: lengths.count)
        for (symbol, length) in lengths.enumerated() where length > 0 {
            codes[symbol] = Self.reversed(nextCode[Int(length)], bits: Int(length))
            nextCode[Int(length)] += 1
        }
        self.codes = codes
    }

    /// The optimal code for `frequencies` with no code longer than `maximumLength` bits
    /// (package-merge). Every code has at least two symbols, so that it is complete: when fewer
    /// than two symbols occur, the lowest unused ones get codes of length 1.
    init(frequencies: [Int], maximumLength: Int) {
        self.init(lengths: Self.limitedLengths(frequencies: frequencies, maximumLength: maximumLength))
    }

    /// The bits a symbol costs.
    @inline(__always) func length(of symbol: Int) -> Int { Int(lengths[symbol]) }

    /// Writes the code of `symbol`.
    @inline(__always) func write(_ symbol: Int, to writer: inout BitWriter) {
        writer.write(UInt32(codes[symbol]), count: Int(lengths[symbol]))
    }

    /// How many bits `frequencies` cost in this code (not counting extra bits).
    func cost(of frequencies: [Int]) -> Int {
        var total = 0
        for (symbol, frequency) in frequencies.enumerated() where frequency > 0 { total += frequency * Int(lengths[symbol]) }
        return total
    }

    /// Code lengths by package-merge: the optimal lengths under the limit.
    static func limitedLengths(frequencies: [Int], maximumLength: Int) -> [UInt8] {
        var lengths = [UInt8](repeating: 0, count: frequencies.count)
        var used = frequencies.indices.filter { frequencies[$0] > 0 }
        if used.count < 2 {
            // A lone symbol still needs a complete code: pair it with the first other symbol.
            for symbol in frequencies.indices where used.count < 2 && !used.contains(symbol) { used.append(symbol) }
            for symbol in used { lengths[symbol] = 1 }
            return lengths
        }
        // Leaves sorted by weight (ties by symbol, for the same code every time).
        let leaves = used.sorted { (frequencies[$0], $0) < (frequencies[$1], $1) }
        var nodes: [PackageNode] = leaves.map { PackageNode(weight: frequencies[$0], symbol: $0, left: -1, right: -1) }
        let leafIndexes = Array(nodes.indices)
        var list = leafIndexes
        for _ in 1..<maximumLength {
            // Package adjacent pairs of the previous list, then merge the packages with the leaves.
            var packages: [Int] = []
            packages.reserveCapacity(list.count / 2)
            var index = 0
            while index + 1 < list.count {
                nodes.append(PackageNode(weight: nodes[list[index]].weight + nodes[list[index + 1]].weight,
                                         symbol: -1, left: list[index], right: list[index + 1]))
                packages.append(nodes.count - 1)
                index += 2
            }
            var merged: [Int] = []
            merged.reserveCapacity(leafIndexes.count + packages.count)
            var leaf = 0, package = 0
            while leaf < leafIndexes.count || package < packages.count {
                if package == packages.count || (leaf < leafIndexes.count && nodes[leafIndexes[leaf]].weight <= nodes[packages[package]].weight) {
                    merged.append(leafIndexes[leaf])
                    leaf += 1
                } else {
                    merged.append(packages[package])
                    package += 1
                }
            }
            list = merged
        }
        // Each time a leaf appears in the first 2n − 2 items, its code gets one bit longer.
        var stack = Array(list.prefix(2 * leaves.count - 2))
        while let node = stack.popLast() {
            let item = nodes[node]
            if item.symbol >= 0 {
                lengths[item.symbol] += 1
            } else {
                stack.append(item.left)
                stack.append(item.right)
            }
        }
        return lengths
    }

    private static func reversed(_ code: Int, bits: Int) -> UInt16 {
        var result = 0, code = code
        for _ in 0..<bits {
            result = result << 1 | code & 1
            code >>= 1
        }
        return UInt16(result)
    }
}

/// A leaf or a package of package-merge.
private struct PackageNode {
    var weight: Int
    /// The symbol of a leaf, -1 for a package.
    var symbol: Int
    /// A package's two items.
    var left: Int, right: Int
}
