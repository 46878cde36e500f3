// The byte-level, non-recursive, chunked GeoJSON scanner behind `GeoJSONReader`.

import GMapCodecs

// ASCII bytes used by the scanner.
private let cQuote: UInt8 = 0x22, cBackslash: UInt8 = 0x5C, cComma: UInt8 = 0x2C, cColon: UInt8 = 0x3A
private let cLBracket: UInt8 = 0x5B, cRBracket: UInt8 = 0x5D, cLBrace: UInt8 = 0x7B, cRBrace: UInt8 = 0x7D
private let cMinus: UInt8 = 0x2D, cPlus: UInt8 = 0x2B, cDot: UInt8 = 0x2E, cZero: UInt8 = 0x30, cNine: UInt8 = 0x39
private let cLowerE: UInt8 = 0x65, cUpperE: UInt8 = 0x45, cNewline: UInt8 = 0x0A, cRecordSeparator: UInt8 = 0x1E

/// The geometry types the reader knows.
private enum GeometryType {
    case polygon
    case multiPolygon
    case lineString
    case multiLineString
    case point
    case multiPoint
    case other(String)
}

/// Parses one input. Internal state: a read buffer `buf[0..<end]` holding input bytes
/// `baseOffset ..< baseOffset + end`; `pos` is the next byte to look at. A `mark` keeps bytes from being
/// discarded when the buffer is refilled (used to capture raw "coordinates" text seen before the geometry type).
final class GeoJSONParser {
    /// Maximum nesting of arrays and objects, counting the top-level object as 1.
    static let maxDepth = 512

    private var buf: UnsafeMutablePointer<UInt8>
    private var cap: Int
    private var pos = 0
    private var end = 0
    private var mark = -1
    private var baseOffset: Int
    /// Newlines in the bytes already discarded from the buffer, plus the line the input starts at, minus one.
    private var linesBefore: Int
    private var eof = false
    private let chunkSize: Int

    private let fd: Int32
    private let name: String
    private let memory: [UInt8]
    private var memoryOffset = 0
    private let isMemory: Bool
    /// A byte source read instead of `fd` or `memory`, if any.
    private let source: (any ByteSource)?

    /// The feature being parsed, reported with errors.
    private var featureIndex: Int?

    /// Scratch space: a member name, a string value, a re-serialised value, and a NUL-terminated number.
    private var keyBytes: [UInt8] = []
    private var stringBytes: [UInt8] = []
    private var outBytes: [UInt8] = []
    private var numberText: UnsafeMutablePointer<CChar>
    private var numberTextCap = 64
    private let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// A parser reading a file descriptor.
    convenience init(fd: Int32, name: String, chunkSize: Int) {
        self.init(fd: fd, source: nil, name: name, chunkSize: chunkSize)
    }

    /// A parser reading a byte source (a decompressor, for example).
    convenience init(source: any ByteSource, name: String, chunkSize: Int) {
        self.init(fd: -1, source: source, name: name, chunkSize: chunkSize)
    }

    /// A parser reading `source`, or the file descriptor `fd` when there is no source.
    private init(fd: Int32, source: (any ByteSource)?, name: String, chunkSize: Int) {
        self.fd = fd
        self.name = name
        self.memory = []
        self.isMemory = false
        self.source = source
        self.chunkSize = chunkSize
        self.baseOffset = 0
        self.linesBefore = 0
        cap = max(chunkSize, 16)
        buf = .allocate(capacity: cap)
        numberText = .allocate(capacity: numberTextCap)
    }

    /// A parser reading bytes in memory, whose first byte is at `baseOffset` on line `baseLine` of the input.
    init(memory: [UInt8], chunkSize: Int, baseOffset: Int, baseLine: Int, featureIndex: Int?) {
        self.fd = -1
        self.name = "<memory>"
        self.memory = memory
        self.isMemory = true
        self.source = nil
        self.chunkSize = chunkSize
        self.baseOffset = baseOffset
        self.linesBefore = baseLine - 1
        self.featureIndex = featureIndex
        cap = max(min(chunkSize, max(memory.count, 1)), 16)
        buf = .allocate(capacity: cap)
        numberText = .allocate(capacity: numberTextCap)
    }

    deinit {
        buf.deallocate()
        numberText.deallocate()
    }

    // MARK: - Buffer

    /// Reads more input, discarding bytes before `pos` (and before `mark`, if set). Buffer indices held by the
    /// caller must be rebased relative to `pos`, which may move. Returns false at the end of the input.
    private func refill() throws(GeoJSONError) -> Bool {
        if eof { return false }
        var keep = pos
        if mark >= 0 && mark < keep { keep = mark }
        if keep > 0 {
            var newlines = 0
            var i = 0
            while i < keep {
                if buf[i] == cNewline { newlines &+= 1 }
                i &+= 1
            }
            linesBefore &+= newlines
            let remaining = end - keep
            if remaining > 0 { UnsafeMutableRawPointer(buf).copyMemory(from: buf + keep, byteCount: remaining) }  // overlapping: a memmove
            baseOffset &+= keep
            end = remaining
            pos -= keep
            if mark >= 0 { mark -= keep }
        }
        if end == cap {
            let newCap = cap &* 2
            let newBuf = UnsafeMutablePointer<UInt8>.allocate(capacity: newCap)
            newBuf.update(from: buf, count: end)
            buf.deallocate()
            buf = newBuf
            cap = newCap
        }
        let want = min(chunkSize, cap - end)
        var got = 0
        if isMemory {
            got = min(want, memory.count - memoryOffset)
            if got > 0 {
                memory.withUnsafeBufferPointer { src in
                    (buf + end).update(from: src.baseAddress! + memoryOffset, count: got)
                }
                memoryOffset += got
            }
        } else if let source {
            do {
                got = try source.read(into: UnsafeMutableRawBufferPointer(start: buf + end, count: want))
            } catch {
                throw fail("\(error)")
            }
        } else {
            switch SystemCalls.read(fd, into: buf + end, count: want) {
            case let .success(count): got = count
            case let .failure(error): throw fail("cannot read '\(name)': \(error.text)")
            }
        }
        if got == 0 {
            eof = true
            return false
        }
        end += got
        return true
    }

    /// The next byte without consuming it, or -1 at the end of the input.
    @inline(__always)
    private func peek() throws(GeoJSONError) -> Int {
        if pos < end { return Int(buf[pos]) }
        if try refill() { return Int(buf[pos]) }
        return -1
    }

    /// Skips whitespace; returns the next byte without consuming it, or -1 at the end of the input.
    @inline(__always)
    private func skipWhitespace() throws(GeoJSONError) -> Int {
        while true {
            while pos < end {
                let c = buf[pos]
                if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 {
                    pos &+= 1
                } else {
                    return Int(c)
                }
            }
            if !(try refill()) { return -1 }
        }
    }

    // MARK: - Errors

    /// The 1-based line of buffer index `index`.
    private func line(at index: Int) -> Int {
        var n = linesBefore &+ 1
        var i = 0
        let stop = min(max(index, 0), end)
        while i < stop {
            if buf[i] == cNewline { n &+= 1 }
            i &+= 1
        }
        return n
    }

    /// An error at buffer index `index` (default: the current position).
    private func fail(_ message: String, at index: Int? = nil) -> GeoJSONError {
        let i = min(max(index ?? pos, 0), end)
        return GeoJSONError(message: message, featureIndex: featureIndex, byteOffset: baseOffset &+ i, line: line(at: i))
    }

    /// "expected X" at the current position, or "unexpected end of input: expected X" at the end.
    private func expected(_ what: String, _ c: Int) -> GeoJSONError {
        if c < 0 { return fail("unexpected end of input: expected \(what)") }
        return fail("expected \(what)")
    }

    /// Text for an error message from buffer bytes.
    private func text(_ start: Int, _ stop: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: buf + start, count: max(0, stop - start)), as: UTF8.self)
    }

    // MARK: - Strings

    /// Reads the string whose opening quote is at `pos`, decoding escapes into `out` (which is cleared first).
    private func readString(into out: inout [UInt8]) throws(GeoJSONError) {
        out.removeAll(keepingCapacity: true)
        try scanString(into: &out, keep: true)
    }

    /// Skips the string whose opening quote is at `pos`, validating it.
    private func skipString() throws(GeoJSONError) {
        var unused: [UInt8] = []
        try scanString(into: &unused, keep: false)
    }

    private func scanString(into out: inout [UInt8], keep: Bool) throws(GeoJSONError) {
        pos &+= 1  // opening quote
        while true {
            var i = pos
            while i < end {
                let c = buf[i]
                if c == cQuote || c == cBackslash || c < 0x20 { break }
                i &+= 1
            }
            if keep && i > pos {
                out.append(contentsOf: UnsafeBufferPointer(start: buf + pos, count: i - pos))
            }
            pos = i
            if i == end {
                if !(try refill()) { throw fail("unterminated string") }
                continue
            }
            let c = buf[i]
            if c == cQuote {
                pos &+= 1
                return
            }
            if c < 0x20 { throw fail("control character 0x\(hex2(c)) in string") }
            // Backslash escape.
            pos &+= 1
            let e = try peek()
            var decoded: UInt8 = 0
            switch e {
            case 0x22: decoded = 0x22
            case 0x5C: decoded = 0x5C
            case 0x2F: decoded = 0x2F
            case 0x62: decoded = 0x08
            case 0x66: decoded = 0x0C
            case 0x6E: decoded = 0x0A
            case 0x72: decoded = 0x0D
            case 0x74: decoded = 0x09
            case 0x75:
                pos &+= 1
                var scalar = try readHex4()
                if scalar >= 0xD800 && scalar <= 0xDBFF {
                    guard try peek() == 0x5C else { throw fail("lone surrogate \\u\(hex4(scalar)) in string") }
                    pos &+= 1
                    guard try peek() == 0x75 else { throw fail("lone surrogate \\u\(hex4(scalar)) in string") }
                    pos &+= 1
                    let low = try readHex4()
                    guard low >= 0xDC00 && low <= 0xDFFF else {
                        throw fail("lone surrogate \\u\(hex4(scalar)) in string")
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if scalar >= 0xDC00 && scalar <= 0xDFFF {
                    throw fail("lone surrogate \\u\(hex4(scalar)) in string")
                }
                if keep { appendUTF8(scalar, to: &out) }
                continue
            case -1:
                throw fail("unterminated string")
            default:
                throw fail("invalid escape '\\\(Character(Unicode.Scalar(UInt8(e))))' in string")
            }
            pos &+= 1
            if keep { out.append(decoded) }
        }
    }

    /// Reads four hex digits at `pos`.
    private func readHex4() throws(GeoJSONError) -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = try peek()
            var d: UInt32
            switch c {
            case 0x30...0x39: d = UInt32(c - 0x30)
            case 0x41...0x46: d = UInt32(c - 0x41 + 10)
            case 0x61...0x66: d = UInt32(c - 0x61 + 10)
            default: throw c < 0 ? fail("unterminated string") : fail("invalid \\u escape in string")
            }
            v = (v << 4) | d
            pos &+= 1
        }
        return v
    }

    private func appendUTF8(_ s: UInt32, to out: inout [UInt8]) {
        if s < 0x80 {
            out.append(UInt8(s))
        } else if s < 0x800 {
            out.append(UInt8(0xC0 | (s >> 6)))
            out.append(UInt8(0x80 | (s & 0x3F)))
        } else if s < 0x10000 {
            out.append(UInt8(0xE0 | (s >> 12)))
            out.append(UInt8(0x80 | ((s >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (s & 0x3F)))
        } else {
            out.append(UInt8(0xF0 | (s >> 18)))
            out.append(UInt8(0x80 | ((s >> 12) & 0x3F)))
            out.append(UInt8(0x80 | ((s >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (s & 0x3F)))
        }
    }

    /// Appends `s` as a JSON string literal, escaping only what must be escaped.
    private func appendQuoted(_ s: [UInt8], to out: inout [UInt8]) {
        out.append(cQuote)
        for c in s {
            switch c {
            case cQuote: out.append(cBackslash); out.append(cQuote)
            case cBackslash: out.append(cBackslash); out.append(cBackslash)
            case 0x0A: out.append(cBackslash); out.append(0x6E)
            case 0x0D: out.append(cBackslash); out.append(0x72)
            case 0x09: out.append(cBackslash); out.append(0x74)
            case 0x08: out.append(cBackslash); out.append(0x62)
            case 0x0C: out.append(cBackslash); out.append(0x66)
            case 0..<0x20:
                out.append(contentsOf: [cBackslash, 0x75, 0x30, 0x30])
                out.append(contentsOf: Array(hex2(c).utf8))
            default: out.append(c)
            }
        }
        out.append(cQuote)
    }

    private func hex2(_ c: UInt8) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: [digits[Int(c >> 4)], digits[Int(c & 15)]], as: UTF8.self)
    }

    private func hex4(_ v: UInt32) -> String {
        hex2(UInt8(truncatingIfNeeded: v >> 8)) + hex2(UInt8(truncatingIfNeeded: v))
    }

    // MARK: - Numbers and literals

    /// Scans the bytes that may form a number, starting at `pos`, keeping them contiguous in the buffer.
    /// Returns the buffer index of the first byte; `pos` is left after the last one.
    @inline(__always)
    private func scanNumberSpan() throws(GeoJSONError) -> Int {
        var i = pos
        while true {
            if i == end {
                let offset = i - pos
                if !(try refill()) { break }
                i = pos + offset
                continue
            }
            let c = buf[i]
            if (c >= cZero && c <= cNine) || c == cDot || c == cMinus || c == cLowerE || c == cUpperE || c == cPlus {
                i &+= 1
            } else {
                break
            }
        }
        let start = pos
        pos = i
        return start
    }

    /// Checks `buf[start..<stop]` against the JSON number grammar; when `wantValue`, also converts it.
    /// Returns nil if it is not a JSON number, otherwise the value (0 when `wantValue` is false).
    @inline(__always)
    private func numberValue(_ start: Int, _ stop: Int, wantValue: Bool) -> Double? {
        var i = start
        var negative = false
        if i < stop && buf[i] == cMinus {
            negative = true
            i &+= 1
        }
        guard i < stop, buf[i] >= cZero, buf[i] <= cNine else { return nil }
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        var truncated = false
        if buf[i] == cZero {
            i &+= 1
        } else {
            while i < stop {
                let d = buf[i] &- cZero
                if d > 9 { break }
                if digits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(d)
                    digits &+= 1
                } else {
                    truncated = true
                    exponent &+= 1
                }
                i &+= 1
            }
        }
        if i < stop && buf[i] == cDot {
            i &+= 1
            let fracStart = i
            while i < stop {
                let d = buf[i] &- cZero
                if d > 9 { break }
                if mantissa == 0 && d == 0 {
                    exponent &-= 1
                } else if digits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(d)
                    digits &+= 1
                    exponent &-= 1
                } else {
                    truncated = true
                }
                i &+= 1
            }
            if i == fracStart { return nil }
        }
        if i < stop && (buf[i] == cLowerE || buf[i] == cUpperE) {
            i &+= 1
            var expNegative = false
            if i < stop && (buf[i] == cPlus || buf[i] == cMinus) {
                expNegative = buf[i] == cMinus
                i &+= 1
            }
            let expStart = i
            var e = 0
            while i < stop {
                let d = buf[i] &- cZero
                if d > 9 { break }
                if e < 1_000_000 { e = e &* 10 &+ Int(d) }
                i &+= 1
            }
            if i == expStart { return nil }
            exponent = expNegative ? exponent &- e : exponent &+ e
        }
        if i != stop { return nil }
        if !wantValue { return 0 }
        if mantissa == 0 { return negative ? -0.0 : 0.0 }
        if !truncated && mantissa <= (1 << 53) && exponent >= -22 && exponent <= 22 {
            var v = Double(mantissa)
            if exponent < 0 {
                v /= powersOfTen[-exponent]
            } else {
                v *= powersOfTen[exponent]
            }
            return negative ? -v : v
        }
        return slowNumber(start, stop)
    }

    /// Converts an already validated number with strtod.
    private func slowNumber(_ start: Int, _ stop: Int) -> Double {
        let count = stop - start
        if count + 1 > numberTextCap {
            numberText.deallocate()
            numberTextCap = count + 1
            numberText = .allocate(capacity: numberTextCap)
        }
        let raw = UnsafeMutableRawPointer(numberText)
        raw.copyMemory(from: buf + start, byteCount: count)
        numberText[count] = 0
        return SystemCalls.parseDouble(numberText)
    }

    /// Reads a number at `pos`; returns its source text.
    private func readNumberText() throws(GeoJSONError) -> String {
        let start = try scanNumberSpan()
        guard numberValue(start, pos, wantValue: false) != nil else {
            throw fail("invalid number '\(text(start, pos))'", at: start)
        }
        return text(start, pos)
    }

    /// Consumes the literal `true`, `false` or `null` whose first byte is at `pos`; returns 1, 0 or -1.
    private func readLiteral() throws(GeoJSONError) -> Int {
        let c = try peek()
        let word: StaticString
        let result: Int
        switch c {
        case 0x74: word = "true"; result = 1
        case 0x66: word = "false"; result = 0
        default: word = "null"; result = -1
        }
        let start = pos
        let bytes = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for b in bytes {
            let d = try peek()
            if d != Int(b) {
                throw d < 0 ? fail("unexpected end of input in literal") : fail("invalid literal", at: min(start, pos))
            }
            pos &+= 1
        }
        return result
    }

    // MARK: - Generic values

    /// Skips one JSON value (emit false) or re-serialises it compactly into `outBytes` (emit true).
    /// `depth` is the nesting of the containers around the value. Non-recursive.
    private func walkValue(emit: Bool, depth: Int) throws(GeoJSONError) {
        var stack: [Bool] = []  // true: object, false: array
        var c = try skipWhitespace()
        outer: while true {
            // A value starts at `pos` (byte `c`).
            switch c {
            case Int(cLBrace), Int(cLBracket):
                if depth + stack.count + 1 > GeoJSONParser.maxDepth {
                    throw fail("nesting deeper than \(GeoJSONParser.maxDepth) levels")
                }
                let isObject = c == Int(cLBrace)
                pos &+= 1
                if emit { outBytes.append(UInt8(c)) }
                c = try skipWhitespace()
                let close = isObject ? Int(cRBrace) : Int(cRBracket)
                if c == close {
                    pos &+= 1
                    if emit { outBytes.append(UInt8(close)) }
                } else {
                    stack.append(isObject)
                    if isObject { try walkMemberName(c, emit: emit) }
                    c = try skipWhitespace()
                    continue outer
                }
            case Int(cQuote):
                if emit {
                    try readString(into: &stringBytes)
                    appendQuoted(stringBytes, to: &outBytes)
                } else {
                    try skipString()
                }
            case Int(cMinus), Int(cZero)...Int(cNine):
                let start = try scanNumberSpan()
                guard numberValue(start, pos, wantValue: false) != nil else {
                    throw fail("invalid number '\(text(start, pos))'", at: start)
                }
                if emit { outBytes.append(contentsOf: UnsafeBufferPointer(start: buf + start, count: pos - start)) }
            case 0x74, 0x66, 0x6E:
                let v = try readLiteral()
                if emit { outBytes.append(contentsOf: v == 1 ? Array("true".utf8) : v == 0 ? Array("false".utf8) : Array("null".utf8)) }
            case -1:
                throw fail("unexpected end of input: expected a value")
            default:
                throw fail("expected a value")
            }
            // The value is complete: close containers until another value is due.
            while let isObject = stack.last {
                c = try skipWhitespace()
                if c == Int(cComma) {
                    pos &+= 1
                    if emit { outBytes.append(cComma) }
                    c = try skipWhitespace()
                    if isObject {
                        try walkMemberName(c, emit: emit)
                        c = try skipWhitespace()
                    }
                    continue outer
                }
                if isObject && c == Int(cRBrace) || !isObject && c == Int(cRBracket) {
                    pos &+= 1
                    if emit { outBytes.append(UInt8(c)) }
                    stack.removeLast()
                    continue
                }
                throw expected(isObject ? "',' or '}' in object" : "',' or ']' in array", c)
            }
            return
        }
    }

    /// Reads `"name":` inside a walked object.
    private func walkMemberName(_ c: Int, emit: Bool) throws(GeoJSONError) {
        guard c == Int(cQuote) else { throw expected("a member name string", c) }
        if emit {
            try readString(into: &stringBytes)
            appendQuoted(stringBytes, to: &outBytes)
        } else {
            try skipString()
        }
        let d = try skipWhitespace()
        guard d == Int(cColon) else { throw expected("':' after member name", d) }
        pos &+= 1
        if emit { outBytes.append(cColon) }
    }

    // MARK: - Objects with known members

    /// At the `{` of an object: consumes it. Returns the first byte after it (not consumed).
    private func beginObject() throws(GeoJSONError) -> Int {
        pos &+= 1
        return try skipWhitespace()
    }

    /// At the opening quote of a member name (`c`): reads the name into `keyBytes` and the `:` after it.
    /// Returns the first byte of the value (not consumed).
    private func readMemberName(_ c: Int, in context: String) throws(GeoJSONError) -> Int {
        guard c == Int(cQuote) else { throw expected("a member name string in \(context)", c) }
        try readString(into: &keyBytes)
        let d = try skipWhitespace()
        guard d == Int(cColon) else { throw expected("':' after member name in \(context)", d) }
        pos &+= 1
        return try skipWhitespace()
    }

    /// After a member's value: consumes `,` (returning the next byte) or `}` (returning nil).
    private func nextMember(in context: String) throws(GeoJSONError) -> Int? {
        let c = try skipWhitespace()
        if c == Int(cComma) {
            pos &+= 1
            return try skipWhitespace()
        }
        if c == Int(cRBrace) {
            pos &+= 1
            return nil
        }
        throw expected("',' or '}' in \(context)", c)
    }

    private func keyIs(_ s: StaticString) -> Bool {
        let n = s.utf8CodeUnitCount
        guard keyBytes.count == n else { return false }
        return keyBytes.elementsEqual(UnsafeBufferPointer(start: s.utf8Start, count: n))
    }

    private func stringBytesAre(_ s: StaticString) -> Bool {
        let n = s.utf8CodeUnitCount
        guard stringBytes.count == n else { return false }
        return stringBytes.elementsEqual(UnsafeBufferPointer(start: s.utf8Start, count: n))
    }

    /// Reads a string value (first byte `c`) that must be a string, into `stringBytes`.
    private func readStringValue(_ c: Int, what: String) throws(GeoJSONError) {
        guard c == Int(cQuote) else { throw fail("\(what) must be a string") }
        try readString(into: &stringBytes)
    }

    // MARK: - The collection

    /// Skips a UTF-8 byte order mark at the start of the input.
    private func skipByteOrderMark() throws(GeoJSONError) {
        if try peek() == 0xEF {
            for b: UInt8 in [0xEF, 0xBB, 0xBF] {
                guard try peek() == Int(b) else { throw fail("invalid byte order mark") }
                pos &+= 1
            }
        }
    }

    /// Parses the whole input as `layout` says (detecting it for `.automatic`), calling `body` for each feature.
    func parse(_ layout: GeoJSONLayout, _ body: (GeoJSONFeature) throws -> Void) throws -> Int {
        try skipByteOrderMark()
        switch layout {
        case .featureCollection:
            return try parseCollection(body)
        case .featureSequence:
            return try parseSequence(body)
        case .automatic:
            return try detectLayout() == .featureSequence ? parseSequence(body) : parseCollection(body)
        }
    }

    /// Looks ahead, without consuming input, at whether the input is a sequence of features: it starts with
    /// an RS (RFC 8142), or its first object is a Feature followed by another object. A FeatureCollection is
    /// recognised at its first "type" or "features" member, so only the start of it is looked at; a first
    /// Feature is kept in the buffer until the byte after it. Input that is neither (or broken) is left to
    /// ``parseCollection(_:)`` to report.
    private func detectLayout() throws(GeoJSONError) -> GeoJSONLayout {
        var c = try skipWhitespace()
        if c == Int(cRecordSeparator) { return .featureSequence }
        guard c == Int(cLBrace) else { return .featureCollection }
        mark = pos
        defer {
            pos = mark
            mark = -1
        }
        do {
            var isFeature = false
            c = try beginObject()
            var next: Int? = c == Int(cRBrace) ? nil : c
            while let m = next {
                c = try readMemberName(m, in: "top-level object")
                if keyIs("features") { return .featureCollection }
                if keyIs("type") {
                    guard c == Int(cQuote) else { return .featureCollection }
                    try readString(into: &stringBytes)
                    guard stringBytesAre("Feature") else { return .featureCollection }
                    isFeature = true
                } else {
                    if keyIs("geometry") || keyIs("properties") { isFeature = true }
                    try walkValue(emit: false, depth: 1)
                }
                next = try nextMember(in: "top-level object")
            }
            if !isFeature { return .featureCollection }
            c = try skipWhitespace()
            return c == Int(cLBrace) || c == Int(cRecordSeparator) ? .featureSequence : .featureCollection
        } catch {
            return .featureCollection
        }
    }

    /// Parses a sequence of Feature objects: newline-delimited GeoJSON, or RFC 8142 text sequences (each
    /// feature after an RS byte). Whitespace and RS bytes between features are skipped.
    private func parseSequence(_ body: (GeoJSONFeature) throws -> Void) throws -> Int {
        var count = 0
        while true {
            var c = try skipWhitespace()
            while c == Int(cRecordSeparator) {
                pos &+= 1
                c = try skipWhitespace()
            }
            if c < 0 { return count }
            try deliverFeature(count, at: c, expecting: "a Feature object", to: body)
            count += 1
        }
    }

    /// Parses the feature object that starts at `pos` (byte `c`, which must be `{`, else an error saying
    /// `expecting`) as feature `index`, and hands it to `body`.
    private func deliverFeature(_ index: Int, at c: Int, expecting: String, to body: (GeoJSONFeature) throws -> Void) throws {
        featureIndex = index
        guard c == Int(cLBrace) else { throw expected(expecting, c) }
        let feature = try parseFeature(index: index)
        featureIndex = nil
        try body(feature)
    }

    /// Parses a FeatureCollection, calling `body` for each feature.
    private func parseCollection(_ body: (GeoJSONFeature) throws -> Void) throws -> Int {
        var c = try skipWhitespace()
        guard c == Int(cLBrace) else {
            throw c < 0 ? fail("empty input: expected a FeatureCollection object") : fail("top-level value must be an object")
        }
        c = try beginObject()
        var sawType = false
        var sawFeatures = false
        var count = 0
        if c == Int(cRBrace) {
            pos &+= 1
        } else {
            var next: Int? = c
            while let m = next {
                c = try readMemberName(m, in: "top-level object")
                if keyIs("type") {
                    if sawType { throw fail("duplicate \"type\" member in top-level object") }
                    sawType = true
                    try readStringValue(c, what: "top-level \"type\"")
                    if !stringBytesAre("FeatureCollection") {
                        throw fail("top-level type must be FeatureCollection")
                    }
                } else if keyIs("features") {
                    if sawFeatures { throw fail("duplicate \"features\" member in top-level object") }
                    sawFeatures = true
                    guard c == Int(cLBracket) else { throw fail("\"features\" must be an array") }
                    pos &+= 1
                    c = try skipWhitespace()
                    if c == Int(cRBracket) {
                        pos &+= 1
                    } else {
                        while true {
                            try deliverFeature(count, at: c, expecting: "a feature object", to: body)
                            count += 1
                            c = try skipWhitespace()
                            if c == Int(cComma) {
                                pos &+= 1
                                c = try skipWhitespace()
                                continue
                            }
                            if c == Int(cRBracket) {
                                pos &+= 1
                                break
                            }
                            throw expected("',' or ']' after a feature", c)
                        }
                    }
                } else {
                    try walkValue(emit: false, depth: 1)
                }
                next = try nextMember(in: "top-level object")
            }
        }
        c = try skipWhitespace()
        if c >= 0 { throw fail("unexpected data after the top-level object") }
        if !sawType { throw fail("top-level object has no \"type\" member") }
        if !sawFeatures { throw fail("top-level object has no \"features\" member") }
        return count
    }

    // MARK: - Features

    /// Parses the feature object at `pos`.
    private func parseFeature(index: Int) throws(GeoJSONError) -> GeoJSONFeature {
        var sawType = false
        var sawID = false
        var sawProperties = false
        var id: JSONValue? = nil
        var properties: [(key: String, value: JSONValue)] = []
        var geometry: GeoJSONGeometry? = nil
        var next: Int? = try beginObject()
        if next == Int(cRBrace) {
            pos &+= 1
            next = nil
        }
        while let m = next {
            let c = try readMemberName(m, in: "feature")
            if keyIs("type") {
                if sawType { throw fail("duplicate \"type\" member in feature") }
                sawType = true
                try readStringValue(c, what: "feature \"type\"")
                if !stringBytesAre("Feature") {
                    throw fail("feature type must be \"Feature\", found \"\(String(decoding: stringBytes, as: UTF8.self))\"")
                }
            } else if keyIs("id") {
                if sawID { throw fail("duplicate \"id\" member in feature") }
                sawID = true
                switch c {
                case Int(cQuote):
                    try readString(into: &stringBytes)
                    id = .string(String(decoding: stringBytes, as: UTF8.self))
                case Int(cMinus), Int(cZero)...Int(cNine):
                    id = .number(try readNumberText())
                case 0x6E:
                    _ = try readLiteral()
                default:
                    throw fail("feature \"id\" must be a string or a number")
                }
            } else if keyIs("properties") {
                if sawProperties { throw fail("duplicate \"properties\" member in feature") }
                sawProperties = true
                if c == Int(cLBrace) {
                    properties = try parseProperties()
                } else if c == 0x6E {
                    _ = try readLiteral()
                } else {
                    throw fail("feature \"properties\" must be an object or null")
                }
            } else if keyIs("geometry") {
                if geometry != nil { throw fail("duplicate \"geometry\" member in feature") }
                if c == Int(cLBrace) {
                    geometry = try parseGeometry()
                } else if c == 0x6E {
                    _ = try readLiteral()
                    geometry = .unsupported("null")
                } else {
                    throw fail("feature \"geometry\" must be an object or null")
                }
            } else {
                try walkValue(emit: false, depth: 3)
            }
            next = try nextMember(in: "feature")
        }
        if !sawType { throw fail("feature \(index) has no \"type\" member") }
        guard let geometry else { throw fail("feature \(index) has no \"geometry\" member") }
        return GeoJSONFeature(index: index, id: id, properties: properties, geometry: geometry)
    }

    /// Parses a "properties" object at `pos`.
    private func parseProperties() throws(GeoJSONError) -> [(key: String, value: JSONValue)] {
        var result: [(key: String, value: JSONValue)] = []
        var next: Int? = try beginObject()
        if next == Int(cRBrace) {
            pos &+= 1
            next = nil
        }
        while let m = next {
            let c = try readMemberName(m, in: "properties")
            let key = String(decoding: keyBytes, as: UTF8.self)
            let value: JSONValue
            switch c {
            case Int(cQuote):
                try readString(into: &stringBytes)
                value = .string(String(decoding: stringBytes, as: UTF8.self))
            case Int(cMinus), Int(cZero)...Int(cNine):
                value = .number(try readNumberText())
            case 0x74, 0x66, 0x6E:
                let v = try readLiteral()
                value = v < 0 ? .null : .bool(v == 1)
            case Int(cLBrace), Int(cLBracket):
                outBytes.removeAll(keepingCapacity: true)
                try walkValue(emit: true, depth: 4)
                value = .other(String(decoding: outBytes, as: UTF8.self))
            case -1:
                throw fail("unexpected end of input: expected a value")
            default:
                throw fail("expected a value")
            }
            result.append((key: key, value: value))
            next = try nextMember(in: "properties")
        }
        return result
    }

    // MARK: - Geometry

    /// Parses a geometry object at `pos`.
    private func parseGeometry() throws(GeoJSONError) -> GeoJSONGeometry {
        var kind: GeometryType? = nil
        var geometry: GeoJSONGeometry? = nil
        var captured: (bytes: [UInt8], offset: Int, line: Int)? = nil
        var sawCoordinates = false
        var next: Int? = try beginObject()
        if next == Int(cRBrace) {
            pos &+= 1
            next = nil
        }
        while let m = next {
            let c = try readMemberName(m, in: "geometry")
            if keyIs("type") {
                if kind != nil { throw fail("duplicate \"type\" member in geometry") }
                try readStringValue(c, what: "geometry \"type\"")
                if stringBytesAre("Polygon") {
                    kind = .polygon
                } else if stringBytesAre("MultiPolygon") {
                    kind = .multiPolygon
                } else if stringBytesAre("LineString") {
                    kind = .lineString
                } else if stringBytesAre("MultiLineString") {
                    kind = .multiLineString
                } else if stringBytesAre("Point") {
                    kind = .point
                } else if stringBytesAre("MultiPoint") {
                    kind = .multiPoint
                } else if stringBytesAre("GeometryCollection") {
                    kind = .other(String(decoding: stringBytes, as: UTF8.self))
                } else {
                    throw fail("unknown geometry type \"\(String(decoding: stringBytes, as: UTF8.self))\"")
                }
            } else if keyIs("coordinates") {
                if sawCoordinates { throw fail("duplicate \"coordinates\" member in geometry") }
                sawCoordinates = true
                switch kind {
                case .other?:
                    try walkValue(emit: false, depth: 4)
                case let known?:
                    geometry = try parseCoordinates(of: known)
                case nil:
                    // The type is not known yet: keep the raw text and parse it once it is.
                    mark = pos
                    let offset = baseOffset &+ pos
                    let line = line(at: pos)
                    try walkValue(emit: false, depth: 4)
                    let bytes = Array(UnsafeBufferPointer(start: buf + mark, count: pos - mark))
                    mark = -1
                    captured = (bytes, offset, line)
                }
            } else {
                try walkValue(emit: false, depth: 4)
            }
            next = try nextMember(in: "geometry")
        }
        guard let kind else { throw fail("geometry has no \"type\" member") }
        if case .other(let name) = kind { return .unsupported(name) }
        if let geometry { return geometry }
        guard let captured else { throw fail("\(Self.name(of: kind)) geometry has no \"coordinates\" member") }
        let sub = GeoJSONParser(
            memory: captured.bytes, chunkSize: max(captured.bytes.count, 1), baseOffset: captured.offset,
            baseLine: captured.line, featureIndex: featureIndex)
        return try sub.parseCoordinates(of: kind)
    }

    /// The GeoJSON name of a geometry type.
    private static func name(of kind: GeometryType) -> String {
        switch kind {
        case .polygon: return "Polygon"
        case .multiPolygon: return "MultiPolygon"
        case .lineString: return "LineString"
        case .multiLineString: return "MultiLineString"
        case .point: return "Point"
        case .multiPoint: return "MultiPoint"
        case .other(let name): return name
        }
    }

    /// Parses the coordinates of a geometry of type `kind` at the next non-whitespace byte.
    private func parseCoordinates(of kind: GeometryType) throws(GeoJSONError) -> GeoJSONGeometry {
        switch kind {
        case .polygon: return .polygons([try parsePolygon(number: 0)])
        case .multiPolygon: return .polygons(try parseMultiPolygon())
        case .lineString: return .lines([try parsePositions(what: "LineString")])
        case .multiLineString: return .lines(try parseList(what: "MultiLineString") { () throws(GeoJSONError) in try parsePositions(what: "line") })
        case .point:
            let c = try skipWhitespace()
            guard c == Int(cLBracket) else { throw expected("'[' to start Point coordinates", c) }
            pos &+= 1
            return .points([try parsePosition()])
        case .multiPoint: return .points(try parsePositions(what: "MultiPoint"))
        case .other(let name): return .unsupported(name)
        }
    }

    /// Parses a list of positions (a LineString's or a MultiPoint's coordinates) at the next
    /// non-whitespace byte.
    private func parsePositions(what: String) throws(GeoJSONError) -> [GeoJSONPosition] {
        try parseList(what: what) { () throws(GeoJSONError) in
            let c = try skipWhitespace()
            guard c == Int(cLBracket) else { throw expected("'[' to start a position", c) }
            pos &+= 1
            return try parsePosition()
        }
    }

    /// Parses `[element, …]` at the next non-whitespace byte, each element by `element`.
    private func parseList<Element>(what: String, _ element: () throws(GeoJSONError) -> Element) throws(GeoJSONError) -> [Element] {
        var c = try skipWhitespace()
        guard c == Int(cLBracket) else { throw expected("'[' to start \(what) coordinates", c) }
        pos &+= 1
        var elements: [Element] = []
        c = try skipWhitespace()
        if c == Int(cRBracket) {
            pos &+= 1
            return elements
        }
        while true {
            elements.append(try element())
            c = try skipWhitespace()
            if c == Int(cComma) {
                pos &+= 1
                continue
            }
            if c == Int(cRBracket) {
                pos &+= 1
                return elements
            }
            throw expected("',' or ']' in coordinates", c)
        }
    }

    /// Parses MultiPolygon coordinates at the next non-whitespace byte.
    private func parseMultiPolygon() throws(GeoJSONError) -> [[[GeoJSONPosition]]] {
        var c = try skipWhitespace()
        guard c == Int(cLBracket) else { throw expected("'[' to start MultiPolygon coordinates", c) }
        pos &+= 1
        var polygons: [[[GeoJSONPosition]]] = []
        c = try skipWhitespace()
        if c == Int(cRBracket) {
            pos &+= 1
            return polygons
        }
        while true {
            polygons.append(try parsePolygon(number: polygons.count))
            c = try skipWhitespace()
            if c == Int(cComma) {
                pos &+= 1
                continue
            }
            if c == Int(cRBracket) {
                pos &+= 1
                return polygons
            }
            throw expected("',' or ']' in coordinates", c)
        }
    }

    /// Parses one polygon's rings at the next non-whitespace byte.
    private func parsePolygon(number: Int) throws(GeoJSONError) -> [[GeoJSONPosition]] {
        var c = try skipWhitespace()
        guard c == Int(cLBracket) else { throw expected("'[' to start polygon \(number)", c) }
        pos &+= 1
        var rings: [[GeoJSONPosition]] = []
        c = try skipWhitespace()
        if c == Int(cRBracket) {
            pos &+= 1
            return rings
        }
        while true {
            guard c == Int(cLBracket) else { throw expected("'[' to start ring \(rings.count) of polygon \(number)", c) }
            pos &+= 1
            var ring: [GeoJSONPosition] = []
            c = try skipWhitespace()
            if c != Int(cRBracket) {
                while true {
                    guard c == Int(cLBracket) else { throw expected("'[' to start a position", c) }
                    pos &+= 1
                    ring.append(try parsePosition())
                    c = try skipWhitespace()
                    if c == Int(cComma) {
                        pos &+= 1
                        c = try skipWhitespace()
                        continue
                    }
                    if c == Int(cRBracket) { break }
                    throw expected("',' or ']' in coordinates", c)
                }
            }
            pos &+= 1  // the ring's ']'
            if ring.count < 4 {
                throw fail(
                    "ring \(rings.count) of polygon \(number) has \(ring.count) position\(ring.count == 1 ? "" : "s"), needs at least 4",
                    at: pos - 1)
            }
            rings.append(ring)
            c = try skipWhitespace()
            if c == Int(cComma) {
                pos &+= 1
                c = try skipWhitespace()
                continue
            }
            if c == Int(cRBracket) {
                pos &+= 1
                return rings
            }
            throw expected("',' or ']' in coordinates", c)
        }
    }

    /// Parses a position after its `[`, up to and including its `]`.
    @inline(__always)
    private func parsePosition() throws(GeoJSONError) -> GeoJSONPosition {
        var c = try skipWhitespace()
        if c == Int(cRBracket) { throw fail("position has 0 numbers, needs at least 2") }
        var start = 0
        let longitude = try readCoordinate(c, start: &start)
        if !(longitude >= -180 && longitude <= 180) {
            throw fail("longitude \(text(start, pos)) is outside [-180, 180]", at: start)
        }
        c = try skipWhitespace()
        if c == Int(cRBracket) { throw fail("position has 1 number, needs at least 2") }
        guard c == Int(cComma) else { throw expected("',' or ']' in position", c) }
        pos &+= 1
        c = try skipWhitespace()
        let latitude = try readCoordinate(c, start: &start)
        if !(latitude >= -90 && latitude <= 90) {
            throw fail("latitude \(text(start, pos)) is outside [-90, 90]", at: start)
        }
        c = try skipWhitespace()
        while c == Int(cComma) {
            pos &+= 1
            c = try skipWhitespace()
            _ = try readCoordinate(c, start: &start)
            c = try skipWhitespace()
        }
        guard c == Int(cRBracket) else { throw expected("',' or ']' in position", c) }
        pos &+= 1
        return GeoJSONPosition(longitude: longitude, latitude: latitude)
    }

    /// Reads a coordinate number whose first byte `c` is at `pos`; `start` receives its buffer index.
    @inline(__always)
    private func readCoordinate(_ c: Int, start: inout Int) throws(GeoJSONError) -> Double {
        guard c == Int(cMinus) || (c >= Int(cZero) && c <= Int(cNine)) else {
            throw notANumber(c)
        }
        let s = try scanNumberSpan()
        guard let v = numberValue(s, pos, wantValue: true) else {
            throw notANumber(c, spanStart: s)
        }
        start = s
        return v
    }

    /// The error for a coordinate that is not a JSON number, quoting what was written.
    private func notANumber(_ c: Int, spanStart: Int? = nil) -> GeoJSONError {
        if c < 0 { return fail("unexpected end of input: expected a number in position") }
        let at = spanStart ?? pos
        var word = spanStart.map { text($0, pos) } ?? ""
        // Gather a short word (NaN, Infinity, null, ...) for the message.
        var i = pos
        while i < end && word.utf8.count < 24 {
            let b = buf[i]
            let isWordByte = (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
                || b == cMinus || b == cPlus || b == cDot
            if !isWordByte { break }
            word.append(Character(Unicode.Scalar(b)))
            i &+= 1
        }
        if word.isEmpty {
            if c == Int(cQuote) { return fail("coordinate is a string, not a number", at: at) }
            if c == Int(cLBracket) || c == Int(cLBrace) {
                return fail("coordinate is an array or object, not a number", at: at)
            }
            return fail("expected a number in position", at: at)
        }
        return fail("coordinate is not a number: \(word)", at: at)
    }
}
