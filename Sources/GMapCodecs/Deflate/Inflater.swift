/// A streaming DEFLATE decoder (RFC 1951): stored, fixed-Huffman and dynamic-Huffman blocks.
///
/// It reads compressed bits from a ``BitInput`` as it needs them and decodes into a window that keeps the
/// last 32 KiB of output for back-references plus a chunk of new output; ``read(into:)`` hands the new output
/// on. Memory is the window, the input buffer and the Huffman tables, whatever the stream's length.
package final class Inflater {
    /// How far back a match may reach.
    static let windowSize = 32_768
    /// New output decoded at a time, beyond the window.
    static let chunkSize = 1 << 18
    /// Room kept free at the end of the output for one match and an 8-byte copy overshoot.
    private static let slack = 258 + 8

    private enum State {
        case blockHeader
        case stored(remaining: Int)
        case compressed
        case finished
    }

    /// Where the compressed bits come from.
    let input: BitInput
    private var state = State.blockHeader
    private var isLastBlock = false

    private let output: UnsafeMutablePointer<UInt8>
    private let outputCapacity: Int
    /// Decoding stops for a read once `outputEnd` reaches this.
    private let outputStop: Int
    /// `output[0..<outputEnd]` is decoded; `output[delivered..<outputEnd]` is not yet handed on.
    private var outputEnd = 0
    private var delivered = 0
    /// Where this stream's output starts in `output` (0 once it has moved out of the window).
    private var streamStart = 0

    private let fixedLiterals = HuffmanTable(alphabet: .literalLength, symbolCount: 288, rootBits: 10)
    private let fixedDistances = HuffmanTable(alphabet: .distance, symbolCount: 32, rootBits: 8)
    private let dynamicLiterals = HuffmanTable(alphabet: .literalLength, symbolCount: 288, rootBits: 10)
    private let dynamicDistances = HuffmanTable(alphabet: .distance, symbolCount: 32, rootBits: 8)
    private let codeLengthTable = HuffmanTable(alphabet: .codeLength, symbolCount: 19, rootBits: 7)
    private var usesFixedTables = false

    /// A decoder of the stream that starts at `input`'s next bit.
    init(input: BitInput) {
        self.input = input
        outputCapacity = Self.windowSize + Self.chunkSize + Self.slack
        outputStop = outputCapacity - Self.slack
        output = .allocate(capacity: outputCapacity)
        var lengths = [UInt8](repeating: 8, count: 288)
        for symbol in 144..<256 { lengths[symbol] = 9 }
        for symbol in 256..<280 { lengths[symbol] = 7 }
        // The fixed codes are complete and valid, so these builds cannot fail.
        lengths.withUnsafeBufferPointer { try? fixedLiterals.build(lengths: $0) }
        [UInt8](repeating: 5, count: 32).withUnsafeBufferPointer { try? fixedDistances.build(lengths: $0) }
    }

    deinit {
        output.deallocate()
    }

    /// Whether the stream's final block has been decoded and all its output handed on.
    var isFinished: Bool {
        if case .finished = state { return delivered == outputEnd }
        return false
    }

    /// Starts a new DEFLATE stream at the input's next bit (the next gzip member): no back-references into
    /// the previous stream's output.
    func startNextStream() {
        state = .blockHeader
        isLastBlock = false
        streamStart = outputEnd
    }

    /// Copies decoded bytes into `buffer`; returns how many, 0 once the stream has ended. At the end, the input
    /// is aligned to the byte after the stream.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while delivered == outputEnd {
            if case .finished = state { return 0 }
            if outputEnd >= outputStop { slideWindow() }
            try decode()
        }
        let count = min(buffer.count, outputEnd - delivered)
        base.copyMemory(from: output + delivered, byteCount: count)
        delivered += count
        return count
    }

    /// Inflates a raw DEFLATE stream held in memory, stopping after `limit` + 1 bytes of output (so that a
    /// caller expecting `limit` bytes sees that there are more without decoding them all).
    package static func inflate(_ compressed: [UInt8], sizeHint: Int = 0, limit: Int = .max) throws -> [UInt8] {
        let inflater = Inflater(input: BitInput(source: MemoryByteSource(compressed)))
        var result: [UInt8] = []
        result.reserveCapacity(min(sizeHint, compressed.count &* 1032))  // DEFLATE's largest ratio is about 1032:1
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while result.count <= limit {
            let got = try chunk.withUnsafeMutableBytes { try inflater.read(into: $0) }
            if got == 0 { break }
            result.append(contentsOf: chunk[0..<got])
        }
        return result
    }

    /// Keeps the last 32 KiB of output at the start of the buffer.
    private func slideWindow() {
        let keep = min(Self.windowSize, outputEnd)
        let shift = outputEnd - keep
        UnsafeMutableRawPointer(output).copyMemory(from: output + shift, byteCount: keep)  // overlapping: a memmove
        outputEnd = keep
        delivered -= shift
        streamStart = max(0, streamStart - shift)
    }

    /// The error for `reason`, or ``DeflateError/Reason/truncated`` when the bits read ran past the end of
    /// the data (a stream cut short reads as zeros, which can look like any other fault).
    private func fail(_ reason: DeflateError.Reason) -> DeflateError {
        DeflateError(input.overran ? .truncated : reason, byteOffset: input.byteOffset)
    }

    /// Decodes until the output chunk is full or the stream ends.
    private func decode() throws {
        while outputEnd < outputStop {
            switch state {
            case .finished:
                return
            case .blockHeader:
                if isLastBlock {
                    if input.overran { throw fail(.truncated) }
                    input.alignToByte()
                    state = .finished
                    return
                }
                try readBlockHeader()
            case .stored(let remaining):
                if remaining == 0 {
                    state = .blockHeader
                    continue
                }
                let count = try input.copyBytes(to: output + outputEnd, count: min(remaining, outputStop - outputEnd))
                guard count > 0 else { throw fail(.truncated) }
                outputEnd += count
                state = .stored(remaining: remaining - count)
            case .compressed:
                if try decodeCompressed() { state = .blockHeader }
            }
        }
    }

    /// Reads a block header and, for a dynamic block, its code tables.
    private func readBlockHeader() throws {
        let header = try input.read(3)
        isLastBlock = header & 1 == 1
        switch header >> 1 {
        case 0:
            if input.overran { throw fail(.truncated) }
            input.alignToByte()
            var bytes: [Int] = []
            for _ in 0..<4 {
                guard let byte = try input.readByte() else { throw fail(.truncated) }
                bytes.append(Int(byte))
            }
            let length = bytes[0] | bytes[1] << 8, complement = bytes[2] | bytes[3] << 8
            guard length == ~complement & 0xFFFF else { throw fail(.storedLengthMismatch(length: length, complement: complement)) }
            state = .stored(remaining: length)
        case 1:
            usesFixedTables = true
            state = .compressed
        case 2:
            try readDynamicTables()
            usesFixedTables = false
            state = .compressed
        default:
            throw fail(.invalidBlockType)
        }
        if input.overran { throw fail(.truncated) }
    }

    /// The order in which code-length code lengths are written (RFC 1951 §3.2.7).
    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// Reads a dynamic block's code lengths and builds its tables.
    private func readDynamicTables() throws {
        let literalCount = try input.read(5) + 257
        let distanceCount = try input.read(5) + 1
        let codeLengthCount = try input.read(4) + 4
        guard literalCount <= 286, distanceCount <= 30 else {
            throw fail(.invalidCodeLengths("\(literalCount) literal/length and \(distanceCount) distance codes (at most 286 and 30)"))
        }
        var codeLengthLengths = [UInt8](repeating: 0, count: 19)
        for index in 0..<codeLengthCount {
            codeLengthLengths[Self.codeLengthOrder[index]] = UInt8(try input.read(3))
        }
        if input.overran { throw fail(.truncated) }
        do {
            try codeLengthLengths.withUnsafeBufferPointer { try codeLengthTable.build(lengths: $0) }
        } catch let error as HuffmanCodeError {
            throw fail(.invalidCodeLengths(error.text))
        }
        var lengths = [UInt8](repeating: 0, count: literalCount + distanceCount)
        var index = 0
        while index < lengths.count {
            try input.refill()
            let entry = codeLengthTable.entries[Int(truncatingIfNeeded: input.bits) & ((1 << codeLengthTable.rootBits) - 1)]
            guard HuffmanEntry.kind(entry) == HuffmanEntry.literal else { throw fail(.invalidCode) }
            _ = input.take(HuffmanEntry.bits(entry))
            if input.overran { throw fail(.truncated) }
            let symbol = HuffmanEntry.value(entry)
            var repeated: UInt8 = 0, count = 1
            switch symbol {
            case 0...15:
                repeated = UInt8(symbol)
            case 16:
                guard index > 0 else { throw fail(.invalidCodeLengths("a repeat code with no length before it")) }
                repeated = lengths[index - 1]
                count = 3 + input.take(2)
            case 17:
                count = 3 + input.take(3)
            default:
                count = 11 + input.take(7)
            }
            guard index + count <= lengths.count else { throw fail(.invalidCodeLengths("code lengths repeat past the end")) }
            for offset in index..<(index + count) { lengths[offset] = repeated }
            index += count
        }
        if input.overran { throw fail(.truncated) }
        guard lengths[256] > 0 else { throw fail(.invalidCodeLengths("no end-of-block code")) }
        do {
            try lengths.withUnsafeBufferPointer { all in
                try dynamicLiterals.build(lengths: UnsafeBufferPointer(rebasing: all[0..<literalCount]))
                try dynamicDistances.build(lengths: UnsafeBufferPointer(rebasing: all[literalCount...]))
            }
        } catch let error as HuffmanCodeError {
            throw fail(.invalidCodeLengths(error.text))
        }
    }

    /// Decodes Huffman-coded symbols until the end of the block (returns true) or a full output chunk (false).
    /// The hot loop: state lives in locals and is written back on the way out.
    private func decodeCompressed() throws -> Bool {
        let literals = usesFixedTables ? fixedLiterals : dynamicLiterals
        let distances = usesFixedTables ? fixedDistances : dynamicDistances
        let literalEntries = literals.entries, distanceEntries = distances.entries
        let literalRoot = UInt64(literals.rootBits), distanceRoot = UInt64(distances.rootBits)
        let literalMask = (1 << literals.rootBits) - 1, distanceMask = (1 << distances.rootBits) - 1
        let out = output, stop = outputStop, start = streamStart
        let inputBuffer = input.buffer
        var position = input.position, inputEnd = input.end
        var bits = input.bits, bitCount = input.bitCount, padding = input.paddingBytes
        var outPosition = outputEnd
        defer {
            input.position = position
            input.bits = bits
            input.bitCount = bitCount
            outputEnd = outPosition
        }
        while outPosition < stop {
            if inputEnd &- position >= 8 {
                let word = UInt64(littleEndian: UnsafeRawPointer(inputBuffer + position).loadUnaligned(as: UInt64.self))
                bits |= word &<< UInt64(bitCount)
                position &+= (63 &- bitCount) &>> 3
                bitCount |= 56
            } else {
                input.position = position
                input.bits = bits
                input.bitCount = bitCount
                try input.refillSlowly()
                position = input.position
                inputEnd = input.end
                bits = input.bits
                bitCount = input.bitCount
                padding = input.paddingBytes
            }
            let entry = Self.decodeSymbol(literalEntries, rootBits: literalRoot, mask: literalMask, bits: &bits, bitCount: &bitCount)
            let kind = (entry >> 12) & 0xF
            if kind == HuffmanEntry.literal {
                out[outPosition] = UInt8(truncatingIfNeeded: entry >> 16)
                outPosition &+= 1
                if padding != 0 && bitCount < padding &* 8 { throw DeflateError(.truncated, byteOffset: input.byteOffset(position: position, bitCount: bitCount)) }
                continue
            }
            if kind == HuffmanEntry.endOfBlock {
                if padding != 0 && bitCount < padding &* 8 { throw DeflateError(.truncated, byteOffset: input.byteOffset(position: position, bitCount: bitCount)) }
                return true
            }
            guard kind == HuffmanEntry.lengthOrDistance else { throw Self.invalidCode(padding: padding, bitCount: bitCount, offset: input.byteOffset(position: position, bitCount: bitCount)) }
            var extra = UInt64((entry >> 8) & 0xF)
            let length = Int(entry >> 16) &+ Int(truncatingIfNeeded: bits & ((1 &<< extra) &- 1))
            bits &>>= extra
            bitCount &-= Int(extra)

            let distanceEntry = Self.decodeSymbol(distanceEntries, rootBits: distanceRoot, mask: distanceMask, bits: &bits, bitCount: &bitCount)
            guard (distanceEntry >> 12) & 0xF == HuffmanEntry.lengthOrDistance else { throw Self.invalidCode(padding: padding, bitCount: bitCount, offset: input.byteOffset(position: position, bitCount: bitCount)) }
            extra = UInt64((distanceEntry >> 8) & 0xF)
            let distance = Int(distanceEntry >> 16) &+ Int(truncatingIfNeeded: bits & ((1 &<< extra) &- 1))
            bits &>>= extra
            bitCount &-= Int(extra)
            if padding != 0 && bitCount < padding &* 8 { throw DeflateError(.truncated, byteOffset: input.byteOffset(position: position, bitCount: bitCount)) }
            guard distance <= outPosition &- start else {
                throw DeflateError(.distanceTooFarBack(distance: distance, available: outPosition - start),
                                   byteOffset: input.byteOffset(position: position, bitCount: bitCount))
            }
            Self.copyMatch(out + outPosition, distance: distance, length: length)
            outPosition &+= length
        }
        return false
    }

    /// Looks up the next code in a table (and its sub-table) and consumes its bits; returns the entry.
    @inline(__always)
    private static func decodeSymbol(_ entries: UnsafeMutablePointer<UInt32>, rootBits: UInt64, mask: Int,
                                     bits: inout UInt64, bitCount: inout Int) -> UInt32 {
        var entry = entries[Int(truncatingIfNeeded: bits) & mask]
        if (entry >> 12) & 0xF == HuffmanEntry.subTable {
            bits &>>= rootBits
            bitCount &-= Int(rootBits)
            entry = entries[Int(entry >> 16) &+ (Int(truncatingIfNeeded: bits) & ((1 << Int((entry >> 8) & 0xF)) &- 1))]
        }
        bits &>>= UInt64(entry & 0xFF)
        bitCount &-= Int(entry & 0xFF)
        return entry
    }

    /// An invalid code, or truncation when the code's bits (already consumed) reach into the padding past the end.
    private static func invalidCode(padding: Int, bitCount: Int, offset: Int) -> DeflateError {
        DeflateError(padding != 0 && bitCount < padding * 8 ? .truncated : .invalidCode, byteOffset: offset)
    }

    /// Copies `length` bytes from `distance` bytes back; may write up to 7 bytes past the end.
    @inline(__always)
    private static func copyMatch(_ destination: UnsafeMutablePointer<UInt8>, distance: Int, length: Int) {
        var target = destination
        var source = destination - distance
        if distance >= 8 {
            var left = length
            repeat {
                UnsafeMutableRawPointer(target).storeBytes(of: UnsafeRawPointer(source).loadUnaligned(as: UInt64.self), as: UInt64.self)
                target += 8
                source += 8
                left &-= 8
            } while left > 0
        } else if distance == 1 {
            UnsafeMutableRawPointer(target).initializeMemory(as: UInt8.self, repeating: source.pointee, count: length)
        } else {
            for _ in 0..<length {
                target.pointee = source.pointee
                target += 1
                source += 1
            }
        }
    }
}
