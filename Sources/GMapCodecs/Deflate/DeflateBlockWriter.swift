/// Writes one DEFLATE block (RFC 1951 §3.2.3) of LZ77 tokens as whichever of the three block
/// types is smallest: stored (the bytes as they are), fixed Huffman codes, or dynamic Huffman
/// codes built for the block's symbol frequencies.
struct DeflateBlockWriter {
    /// The order in which a dynamic header lists the code-length code lengths (§3.2.7).
    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
    /// The largest stored block.
    static let maximumStoredLength = 65_535

    /// Symbol frequencies of one block.
    private struct Frequencies {
        var literalLengths = [Int](repeating: 0, count: DeflateSymbols.literalLengthCount)
        var distances = [Int](repeating: 0, count: DeflateSymbols.distanceCount)
        /// Extra bits of all lengths and distances: the same in every coded block type.
        var extraBits = 0

        init(_ tokens: ArraySlice<LZ77Token>) {
            for token in tokens {
                if token.isLiteral {
                    literalLengths[Int(token.value)] += 1
                } else {
                    let length = DeflateSymbols.length(Int(token.length)), distance = DeflateSymbols.distance(token.distance)
                    literalLengths[length.symbol] += 1
                    distances[distance.symbol] += 1
                    extraBits += length.extraBits + distance.extraBits
                }
            }
            literalLengths[DeflateSymbols.endOfBlock] += 1
        }
    }

    /// A dynamic block's codes and how its header describes them.
    private struct DynamicCodes {
        let literalLengths: HuffmanCode
        let distances: HuffmanCode
        let codeLengths: HuffmanCode
        /// How many literal/length and distance code lengths the header lists.
        let literalLengthCount: Int, distanceCount: Int
        /// How many code-length code lengths the header lists (4…19).
        let codeLengthCount: Int
        /// The run-length coded code lengths: (code-length symbol, extra bits value).
        let runs: [(symbol: Int, extra: UInt32)]

        /// The header's size in bits, after the 3-bit block header.
        var headerBits: Int {
            var bits = 5 + 5 + 4 + 3 * codeLengthCount
            for run in runs {
                bits += codeLengths.length(of: run.symbol)
                bits += run.symbol == 16 ? 2 : run.symbol == 17 ? 3 : run.symbol == 18 ? 7 : 0
            }
            return bits
        }

        init(_ frequencies: Frequencies) {
            literalLengths = HuffmanCode(frequencies: frequencies.literalLengths, maximumLength: 15)
            distances = HuffmanCode(frequencies: frequencies.distances, maximumLength: 15)
            literalLengthCount = max(257, (literalLengths.lengths.lastIndex { $0 > 0 } ?? 0) + 1)
            distanceCount = max(1, (distances.lengths.lastIndex { $0 > 0 } ?? 0) + 1)
            runs = Self.runLengths(Array(literalLengths.lengths[0..<literalLengthCount]) + Array(distances.lengths[0..<distanceCount]))
            var codeLengthFrequencies = [Int](repeating: 0, count: 19)
            for run in runs { codeLengthFrequencies[run.symbol] += 1 }
            codeLengths = HuffmanCode(frequencies: codeLengthFrequencies, maximumLength: 7)
            var count = 19
            while count > 4, codeLengths.lengths[Self.orderedIndex(count - 1)] == 0 { count -= 1 }
            codeLengthCount = count
        }

        private static func orderedIndex(_ position: Int) -> Int { DeflateBlockWriter.codeLengthOrder[position] }

        /// Code lengths as DEFLATE's code-length symbols: 0–15 themselves, 16 repeats the previous
        /// length 3–6 times, 17 and 18 give 3–10 and 11–138 zeros.
        static func runLengths(_ lengths: [UInt8]) -> [(symbol: Int, extra: UInt32)] {
            var runs: [(symbol: Int, extra: UInt32)] = []
            var index = 0
            while index < lengths.count {
                let length = lengths[index]
                var end = index + 1
                while end < lengths.count, lengths[end] == length { end += 1 }
                var remaining = end - index
                if length == 0 {
                    while remaining >= 11 {
                        let count = min(remaining, 138)
                        runs.append((18, UInt32(count - 11)))
                        remaining -= count
                    }
                    if remaining >= 3 {
                        runs.append((17, UInt32(remaining - 3)))
                        remaining = 0
                    }
                } else {
                    runs.append((Int(length), 0))
                    remaining -= 1
                    while remaining >= 3 {
                        let count = min(remaining, 6)
                        runs.append((16, UInt32(count - 3)))
                        remaining -= count
                    }
                }
                for _ in 0..<remaining { runs.append((Int(length), 0)) }
                index = end
            }
            return runs
        }
    }

    /// Writes `tokens`, which stand for `bytes`, as one block (or, stored, as several blocks of at most
    /// 65,535 bytes), the last of the stream when `isLast`.
    static func write(_ tokens: ArraySlice<LZ77Token>, standingFor bytes: ArraySlice<UInt8>, isLast: Bool,
                      allowCompression: Bool, to writer: inout BitWriter) {
        let frequencies = Frequencies(tokens)
        let storedBits = storedCost(byteCount: bytes.count, bitPosition: writer.bitCount)
        guard allowCompression else {
            writeStored(bytes, isLast: isLast, to: &writer)
            return
        }
        let fixedBits = 3 + DeflateSymbols.fixedLiteralLengths.cost(of: frequencies.literalLengths)
            + DeflateSymbols.fixedDistances.cost(of: frequencies.distances) + frequencies.extraBits
        let dynamic = DynamicCodes(frequencies)
        let dynamicBits = 3 + dynamic.headerBits + dynamic.literalLengths.cost(of: frequencies.literalLengths)
            + dynamic.distances.cost(of: frequencies.distances) + frequencies.extraBits
        if storedBits < min(fixedBits, dynamicBits) {
            writeStored(bytes, isLast: isLast, to: &writer)
        } else if fixedBits <= dynamicBits {
            writer.write(isLast ? 1 : 0, count: 1)
            writer.write(1, count: 2)
            writeTokens(tokens, literalLengths: DeflateSymbols.fixedLiteralLengths, distances: DeflateSymbols.fixedDistances, to: &writer)
        } else {
            writer.write(isLast ? 1 : 0, count: 1)
            writer.write(2, count: 2)
            writeHeader(dynamic, to: &writer)
            writeTokens(tokens, literalLengths: dynamic.literalLengths, distances: dynamic.distances, to: &writer)
        }
    }

    /// The bits stored blocks for `byteCount` bytes take, starting at bit `bitPosition`.
    static func storedCost(byteCount: Int, bitPosition: Int) -> Int {
        let blocks = max(1, (byteCount + maximumStoredLength - 1) / maximumStoredLength)
        var position = bitPosition
        for _ in 0..<blocks {
            position += 3
            position = (position + 7) / 8 * 8 + 32
        }
        return position - bitPosition + byteCount * 8
    }

    /// Writes `bytes` as stored blocks (one empty block for no bytes).
    static func writeStored(_ bytes: ArraySlice<UInt8>, isLast: Bool, to writer: inout BitWriter) {
        var start = bytes.startIndex
        repeat {
            let end = min(start + maximumStoredLength, bytes.endIndex)
            writer.write(isLast && end == bytes.endIndex ? 1 : 0, count: 1)
            writer.write(0, count: 2)
            writer.alignToByte()
            let length = UInt32(end - start)
            writer.write(length, count: 16)
            writer.write(~length & 0xFFFF, count: 16)
            writer.append(bytes: bytes[start..<end])
            start = end
        } while start < bytes.endIndex
    }

    private static func writeHeader(_ codes: DynamicCodes, to writer: inout BitWriter) {
        writer.write(UInt32(codes.literalLengthCount - 257), count: 5)
        writer.write(UInt32(codes.distanceCount - 1), count: 5)
        writer.write(UInt32(codes.codeLengthCount - 4), count: 4)
        for position in 0..<codes.codeLengthCount {
            writer.write(UInt32(codes.codeLengths.lengths[codeLengthOrder[position]]), count: 3)
        }
        for run in codes.runs {
            codes.codeLengths.write(run.symbol, to: &writer)
            switch run.symbol {
            case 16: writer.write(run.extra, count: 2)
            case 17: writer.write(run.extra, count: 3)
            case 18: writer.write(run.extra, count: 7)
            default: break
            }
        }
    }

    private static func writeTokens(_ tokens: ArraySlice<LZ77Token>, literalLengths: HuffmanCode, distances: HuffmanCode,
                                    to writer: inout BitWriter) {
        for token in tokens {
            if token.isLiteral {
                literalLengths.write(Int(token.value), to: &writer)
            } else {
                let length = DeflateSymbols.length(Int(token.length)), distance = DeflateSymbols.distance(token.distance)
                literalLengths.write(length.symbol, to: &writer)
                writer.write(length.extra, count: length.extraBits)
                distances.write(distance.symbol, to: &writer)
                writer.write(distance.extra, count: distance.extraBits)
            }
        }
        literalLengths.write(DeflateSymbols.endOfBlock, to: &writer)
    }
}
