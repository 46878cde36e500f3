/// The packing of one decoding table entry into 32 bits:
/// bits 0–7 how many input bits the entry consumes, 8–11 extra bits that follow (or a sub-table's index bits),
/// 12–15 the kind, 16–31 the value (a literal byte, a length or distance base, or a sub-table's offset).
enum HuffmanEntry {
    static let literal: UInt32 = 0
    static let lengthOrDistance: UInt32 = 1
    static let endOfBlock: UInt32 = 2
    static let subTable: UInt32 = 3
    static let invalid: UInt32 = 4

    @inline(__always)
    static func make(kind: UInt32, bits: Int, extra: UInt32, value: UInt32) -> UInt32 {
        UInt32(bits) | (extra << 8) | (kind << 12) | (value << 16)
    }

    @inline(__always) static func bits(_ entry: UInt32) -> Int { Int(entry & 0xFF) }
    @inline(__always) static func extra(_ entry: UInt32) -> Int { Int((entry >> 8) & 0xF) }
    @inline(__always) static func kind(_ entry: UInt32) -> UInt32 { (entry >> 12) & 0xF }
    @inline(__always) static func value(_ entry: UInt32) -> Int { Int(entry >> 16) }
}

/// Code lengths that do not make a usable Huffman code, and how.
struct HuffmanCodeError: Error {
    /// E.g. "over-subscribed distance code".
    var text: String

    init(_ text: String) { self.text = text }
}

/// A decoding table for one canonical Huffman code, looked up with the next input bits (least significant
/// bit first, as DEFLATE packs codes): a primary table of `2^rootBits` entries, and sub-tables for longer codes.
final class HuffmanTable {
    /// The longest code DEFLATE allows.
    static let maximumCodeLength = 15

    /// The entries: the primary table first, then the sub-tables.
    let entries: UnsafeMutablePointer<UInt32>
    /// How many input bits index the primary table.
    let rootBits: Int
    private let capacity: Int
    private let alphabet: DeflateAlphabet

    /// An empty table for codes of up to `symbolCount` symbols of `alphabet`.
    init(alphabet: DeflateAlphabet, symbolCount: Int, rootBits: Int) {
        self.alphabet = alphabet
        self.rootBits = rootBits
        // Each sub-table holds at most 2^(15 - rootBits) entries and there are at most as many as symbols.
        capacity = (1 << rootBits) + symbolCount << (Self.maximumCodeLength - rootBits)
        entries = .allocate(capacity: capacity)
        entries.initialize(repeating: HuffmanEntry.make(kind: HuffmanEntry.invalid, bits: 0, extra: 0, value: 0), count: capacity)
    }

    deinit {
        entries.deallocate()
    }

    /// Builds the table from code lengths (0 = the symbol is not used), as RFC 1951 §3.2.2 assigns codes.
    /// An over-subscribed set is an error; so is an incomplete one, except a single code of length 1
    /// (and no code at all for distances), which zlib and gzip also accept.
    func build(lengths: UnsafeBufferPointer<UInt8>) throws(HuffmanCodeError) {
        var counts = [Int](repeating: 0, count: Self.maximumCodeLength + 1)
        var longest = 0
        for length in lengths where length > 0 {
            let l = Int(length)
            guard l <= Self.maximumCodeLength else { throw HuffmanCodeError("a code longer than 15 bits") }
            counts[l] += 1
            longest = max(longest, l)
        }
        var left = 1
        for length in 1...Self.maximumCodeLength {
            left = (left << 1) - counts[length]
            guard left >= 0 else { throw HuffmanCodeError("over-subscribed \(name) code") }
        }
        let rootSize = 1 << rootBits
        let invalid = HuffmanEntry.make(kind: HuffmanEntry.invalid, bits: 0, extra: 0, value: 0)
        entries.update(repeating: invalid, count: rootSize)
        if longest == 0 {
            guard case .distance = alphabet else { throw HuffmanCodeError("empty \(name) code") }
            return
        }
        if left > 0 {
            if case .codeLength = alphabet { throw HuffmanCodeError("incomplete \(name) code") }
            guard longest == 1 else { throw HuffmanCodeError("incomplete \(name) code") }
        }

        var nextCode = [Int](repeating: 0, count: Self.maximumCodeLength + 1)
        var code = 0
        for length in 1...Self.maximumCodeLength {
            code = (code + counts[length - 1]) << 1
            nextCode[length] = code
        }
        // Short codes fill the primary table; long ones note the longest code under each primary prefix.
        var reversedCodes = [Int](repeating: 0, count: lengths.count)
        var longestUnderPrefix = [Int](repeating: 0, count: longest > rootBits ? rootSize : 0)
        for (symbol, length) in lengths.enumerated() where length > 0 {
            let l = Int(length)
            let reversed = Self.reverse(nextCode[l], bits: l)
            nextCode[l] += 1
            reversedCodes[symbol] = reversed
            if l <= rootBits {
                let entry = alphabet.entry(symbol: symbol, bits: l)
                var index = reversed
                while index < rootSize {
                    entries[index] = entry
                    index += 1 << l
                }
            } else {
                let prefix = reversed & (rootSize - 1)
                longestUnderPrefix[prefix] = max(longestUnderPrefix[prefix], l)
            }
        }
        guard longest > rootBits else { return }
        var used = rootSize
        for prefix in 0..<rootSize where longestUnderPrefix[prefix] > 0 {
            let subBits = longestUnderPrefix[prefix] - rootBits
            let size = 1 << subBits
            guard used + size <= capacity else { throw HuffmanCodeError("\(name) code too large") }
            entries[prefix] = HuffmanEntry.make(kind: HuffmanEntry.subTable, bits: rootBits, extra: UInt32(subBits), value: UInt32(used))
            (entries + used).update(repeating: invalid, count: size)
            used += size
        }
        for (symbol, length) in lengths.enumerated() where Int(length) > rootBits {
            let l = Int(length)
            let pointer = entries[reversedCodes[symbol] & (rootSize - 1)]
            let base = HuffmanEntry.value(pointer), subSize = 1 << HuffmanEntry.extra(pointer)
            let entry = alphabet.entry(symbol: symbol, bits: l - rootBits)
            var index = reversedCodes[symbol] >> rootBits
            while index < subSize {
                entries[base + index] = entry
                index += 1 << (l - rootBits)
            }
        }
    }

    private var name: String {
        switch alphabet {
        case .literalLength: return "literal/length"
        case .distance: return "distance"
        case .codeLength: return "code-length"
        }
    }

    /// `code`'s low `bits` bits in reverse order.
    private static func reverse(_ code: Int, bits: Int) -> Int {
        var result = 0, rest = code
        for _ in 0..<bits {
            result = (result << 1) | (rest & 1)
            rest >>= 1
        }
        return result
    }
}
