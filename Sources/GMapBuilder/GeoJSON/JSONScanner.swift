// The byte-level, non-recursive, chunked JSON scanner under the GeoJSON parser: the read buffer
// and its refills, error positions, strings (escapes, UTF-8), numbers (a fast exact path, else
// strtod), literals and generic values walked without recursion. GeoJSONParser.swift reads
// GeoJSON's structure with it.

import GMapCodecs

// ASCII bytes used by the scanner and the GeoJSON parser.
let cQuote: UInt8 = 0x22, cBackslash: UInt8 = 0x5C, cComma: UInt8 = 0x2C, cColon: UInt8 = 0x3A
let cLBracket: UInt8 = 0x5B, cRBracket: UInt8 = 0x5D, cLBrace: UInt8 = 0x7B, cRBrace: UInt8 = 0x7D
let cMinus: UInt8 = 0x2D, cPlus: UInt8 = 0x2B, cDot: UInt8 = 0x2E, cZero: UInt8 = 0x30, cNine: UInt8 = 0x39
let cLowerE: UInt8 = 0x65, cUpperE: UInt8 = 0x45, cNewline: UInt8 = 0x0A, cRecordSeparator: UInt8 = 0x1E

extension GeoJSONParser {
    // MARK: - Buffer

    /// Reads more input, discarding bytes before `pos` (and before `mark`, if set). Buffer indices held by the
    /// caller must be rebased relative to `pos`, which may move. Returns false at the end of the input.
    /// While ``lookAheadLimit`` is set, throws (setting ``lookAheadExhausted``) instead of keeping more
    /// than that many bytes after `mark`.
    func refill() throws(GeoJSONError) -> Bool {
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
        if let lookAhead = lookAheadLimit, mark >= 0, end - mark >= lookAhead {
            lookAheadExhausted = true
            throw fail("the first object is longer than the look-ahead")
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
                    // swift-format-ignore: NeverForceUnwrap
                    (buf + end).update(from: src.baseAddress! + memoryOffset, count: got)
                }
                memoryOffset += got
            }
        } else if let source {
            do {
                got = try source.read(into: UnsafeMutableRawBufferPointer(start: buf + end, count: want))
            } catch {
                // The input's name leads the message already: a ZIP entry's error says the entry, not the archive again.
                var failure = fail((error as? ZipError)?.detail ?? "\(error)", at: end)
                failure.kind = .source
                throw failure
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
    func peek() throws(GeoJSONError) -> Int {
        if pos < end { return Int(buf[pos]) }
        if try refill() { return Int(buf[pos]) }
        return -1
    }

    /// Skips whitespace; returns the next byte without consuming it, or -1 at the end of the input.
    @inline(__always)
    func skipWhitespace() throws(GeoJSONError) -> Int {
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
    func line(at index: Int) -> Int {
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
    func fail(_ message: String, at index: Int? = nil) -> GeoJSONError {
        let i = min(max(index ?? pos, 0), end)
        return GeoJSONError(message: message, featureIndex: featureIndex, byteOffset: baseOffset &+ i, line: line(at: i))
    }

    /// "expected X" at the current position, or "unexpected end of input: expected X" at the end.
    func expected(_ what: String, _ c: Int) -> GeoJSONError {
        if c < 0 { return fail("unexpected end of input: expected \(what)") }
        return fail("expected \(what)")
    }

    /// The buffer bytes `start..<stop` quoted for an error message: at most ``InputExcerpt/maximumBytes``
    /// of them, escaped, in single quotes.
    func quoted(_ start: Int, _ stop: Int) -> String {
        "'" + excerpt(start, stop) + "'"
    }

    /// The buffer bytes `start..<stop` for an error message, as ``quoted(_:_:)`` without the quotes.
    func excerpt(_ start: Int, _ stop: Int) -> String {
        let from = min(max(start, 0), end), to = min(max(stop, from), end)
        return InputExcerpt.text(UnsafeBufferPointer(start: buf + from, count: to - from))
    }

    /// The error for an exceeded limit: "WHAT longer than SIZE, the limit of OPTION (raise it with OPTION SIZE)"
    /// ("larger" with `larger`), at input byte `offset` (on the current line).
    func limitExceeded(_ what: String, limit: Int, option: String, offset: Int, larger: Bool = false) -> GeoJSONError {
        GeoJSONError(message: "\(what) \(larger ? "larger" : "longer") than \(InputLimits.size(limit)), the limit of \(option) (raise it with \(option) SIZE)",
                     featureIndex: featureIndex, byteOffset: offset, line: line(at: pos), kind: .limit)
    }

    // MARK: - Strings

    /// Reads the string whose opening quote is at `pos`, decoding escapes into `out` (which is cleared first).
    func readString(into out: inout [UInt8]) throws(GeoJSONError) {
        out.removeAll(keepingCapacity: true)
        try scanString(into: &out, keep: true)
    }

    /// Skips the string whose opening quote is at `pos`, validating it.
    func skipString() throws(GeoJSONError) {
        var unused: [UInt8] = []
        try scanString(into: &unused, keep: false)
    }

    /// Reads or skips the string whose opening quote is at `pos`; one longer than the string limit
    /// (decoded bytes) is an error at its opening quote, whether it is kept or not.
    func scanString(into out: inout [UInt8], keep: Bool) throws(GeoJSONError) {
        let start = baseOffset &+ pos
        let limit = limits.stringBytes
        var length = 0
        pos &+= 1  // opening quote
        while true {
            var i = pos
            while i < end {
                let c = buf[i]
                if c == cQuote || c == cBackslash || c < 0x20 { break }
                i &+= 1
            }
            length &+= i - pos
            if length > limit { throw limitExceeded("a string", limit: limit, option: "--max-string", offset: start) }
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
            // Backslash escape: at most 4 bytes decoded.
            length &+= 4
            if length > limit { throw limitExceeded("a string", limit: limit, option: "--max-string", offset: start) }
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
    func readHex4() throws(GeoJSONError) -> UInt32 {
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

    func appendUTF8(_ s: UInt32, to out: inout [UInt8]) {
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
    func appendQuoted(_ s: [UInt8], to out: inout [UInt8]) {
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

    func hex2(_ c: UInt8) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: [digits[Int(c >> 4)], digits[Int(c & 15)]], as: UTF8.self)
    }

    func hex4(_ v: UInt32) -> String {
        hex2(UInt8(truncatingIfNeeded: v >> 8)) + hex2(UInt8(truncatingIfNeeded: v))
    }

    // MARK: - Numbers and literals

    /// Scans the bytes that may form a number, starting at `pos`, keeping them contiguous in the buffer.
    /// Returns the buffer index of the first byte; `pos` is left after the last one.
    /// A span longer than the number limit is an error at its first byte.
    @inline(__always)
    func scanNumberSpan() throws(GeoJSONError) -> Int {
        var i = pos
        while true {
            if i == end {
                let offset = i - pos
                let more = try refill()
                i = pos + offset  // `pos` moves when the buffer is compacted, at the end of the input too
                if !more { break }
                continue
            }
            let c = buf[i]
            if (c >= cZero && c <= cNine) || c == cDot || c == cMinus || c == cLowerE || c == cUpperE || c == cPlus {
                i &+= 1
                if i - pos > limits.numberBytes {
                    throw limitExceeded("number \(quoted(pos, i)) is", limit: limits.numberBytes, option: "--max-number", offset: baseOffset &+ pos)
                }
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
    func numberValue(_ start: Int, _ stop: Int, wantValue: Bool) -> Double? {
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
    func slowNumber(_ start: Int, _ stop: Int) -> Double {
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
    func readNumberText() throws(GeoJSONError) -> String {
        let start = try scanNumberSpan()
        try checkNumber(start)
        return String(decoding: UnsafeBufferPointer(start: buf + start, count: pos - start), as: UTF8.self)
    }

    /// Checks that the span `start..<pos` just scanned is a JSON number.
    @inline(__always)
    func checkNumber(_ start: Int) throws(GeoJSONError) {
        guard numberValue(start, pos, wantValue: false) != nil else { throw invalidNumber(start) }
    }

    /// "invalid number 'TEXT'" for the span `start..<pos`, or "unexpected end of input in number 'TEXT'"
    /// when the input ends right after it.
    func invalidNumber(_ start: Int) -> GeoJSONError {
        if pos == end && eof { return fail("unexpected end of input in number \(quoted(start, pos))", at: start) }
        return fail("invalid number \(quoted(start, pos))", at: start)
    }

    /// Consumes the literal `true`, `false` or `null` whose first byte is at `pos`; returns 1, 0 or -1.
    func readLiteral() throws(GeoJSONError) -> Int {
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
    /// `depth` is the nesting of the containers around the value. Non-recursive. When emitting,
    /// `outBytes` growing past `budget` bytes throws ``budgetExhausted()`` (the caller says which limit).
    func walkValue(emit: Bool, depth: Int, budget: Int = .max) throws(GeoJSONError) {
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
                try checkNumber(start)
                if emit { outBytes.append(contentsOf: UnsafeBufferPointer(start: buf + start, count: pos - start)) }
            case 0x74, 0x66, 0x6E:
                let v = try readLiteral()
                if emit { outBytes.append(contentsOf: v == 1 ? Array("true".utf8) : v == 0 ? Array("false".utf8) : Array("null".utf8)) }
            case -1:
                throw fail("unexpected end of input: expected a value")
            default:
                throw fail("expected a value")
            }
            if emit && outBytes.count > budget { throw budgetExhausted() }
            // The value is complete: close containers until another value is due.
            while let isObject = stack.last {
                c = try skipWhitespace()
                if c == Int(cComma) {
                    pos &+= 1
                    if emit { outBytes.append(cComma) }
                    c = try skipWhitespace()
                    if isObject {
                        try walkMemberName(c, emit: emit)
                        if emit && outBytes.count > budget { throw budgetExhausted() }
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

    /// The marker error of a walked value outgrowing its budget; the caller replaces it with the
    /// message of the limit it was given.
    func budgetExhausted() -> GeoJSONError {
        GeoJSONError(message: "", featureIndex: featureIndex, byteOffset: baseOffset &+ pos, line: line(at: pos), kind: .limit)
    }

    /// Reads `"name":` inside a walked object.
    func walkMemberName(_ c: Int, emit: Bool) throws(GeoJSONError) {
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
}
