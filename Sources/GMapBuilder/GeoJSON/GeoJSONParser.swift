// The GeoJSON layer of the streaming reader behind `GeoJSONReader`: the collection (or newline-
// delimited sequence), features, properties and geometries, read with the JSON scanner of
// JSONScanner.swift (buffer, strings, numbers, literals, generic values).

import GMapCodecs

/// Parses one input. Internal state: a read buffer `buf[0..<end]` holding input bytes
/// `baseOffset ..< baseOffset + end`; `pos` is the next byte to look at. A `mark` keeps bytes from being
/// discarded when the buffer is refilled (used to capture raw "coordinates" text seen before the geometry type).
final class GeoJSONParser {
    /// Maximum nesting of arrays and objects, counting the top-level object as 1.
    static let maxDepth = 512

    var buf: UnsafeMutablePointer<UInt8>
    var cap: Int
    var pos = 0
    var end = 0
    var mark = -1
    var baseOffset: Int
    /// Newlines in the bytes already discarded from the buffer, plus the line the input starts at, minus one.
    var linesBefore: Int
    var eof = false
    let chunkSize: Int

    let fd: Int32
    let name: String
    let memory: [UInt8]
    var memoryOffset = 0
    let isMemory: Bool
    /// A byte source read instead of `fd` or `memory`, if any.
    let source: (any ByteSource)?

    /// The feature being parsed, reported with errors.
    var featureIndex: Int?
    /// The most bytes of a string, a number and a feature's properties.
    let limits: InputLimits
    /// While detecting the layout: the most bytes kept after `mark` (see ``refill()``).
    var lookAheadLimit: Int?
    /// Whether the look-ahead ran past ``lookAheadLimit``.
    var lookAheadExhausted = false
    /// The most bytes of its first object that layout detection keeps in the buffer to look at what follows.
    static let lookAheadBytes = 16 << 20

    /// Scratch space: a member name, a string value, a re-serialised value, and a NUL-terminated number.
    var keyBytes: [UInt8] = []
    var stringBytes: [UInt8] = []
    var outBytes: [UInt8] = []
    var numberText: UnsafeMutablePointer<CChar>
    var numberTextCap = 64
    let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// A parser reading a file descriptor.
    convenience init(fd: Int32, name: String, chunkSize: Int, limits: InputLimits = InputLimits()) {
        self.init(fd: fd, source: nil, name: name, chunkSize: chunkSize, limits: limits)
    }

    /// A parser reading a byte source (a decompressor, for example).
    convenience init(source: any ByteSource, name: String, chunkSize: Int, limits: InputLimits = InputLimits()) {
        self.init(fd: -1, source: source, name: name, chunkSize: chunkSize, limits: limits)
    }

    /// A parser reading `source`, or the file descriptor `fd` when there is no source.
    init(fd: Int32, source: (any ByteSource)?, name: String, chunkSize: Int, limits: InputLimits) {
        self.fd = fd
        self.limits = limits
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
    init(memory: [UInt8], chunkSize: Int, baseOffset: Int, baseLine: Int, featureIndex: Int?, limits: InputLimits = InputLimits()) {
        self.fd = -1
        self.limits = limits
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

    // MARK: - Objects with known members

    /// At the `{` of an object: consumes it. Returns the first byte after it (not consumed).
    func beginObject() throws(GeoJSONError) -> Int {
        pos &+= 1
        return try skipWhitespace()
    }

    /// At the opening quote of a member name (`c`): reads the name into `keyBytes` and the `:` after it.
    /// Returns the first byte of the value (not consumed).
    func readMemberName(_ c: Int, in context: String) throws(GeoJSONError) -> Int {
        guard c == Int(cQuote) else { throw expected("a member name string in \(context)", c) }
        try readString(into: &keyBytes)
        let d = try skipWhitespace()
        guard d == Int(cColon) else { throw expected("':' after member name in \(context)", d) }
        pos &+= 1
        return try skipWhitespace()
    }

    /// After a member's value: consumes `,` (returning the next byte) or `}` (returning nil).
    func nextMember(in context: String) throws(GeoJSONError) -> Int? {
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

    /// After an array's element: consumes `,` (returning the next byte) or `]` (returning nil);
    /// `expecting` names what was expected otherwise ("',' or ']' in coordinates").
    @inline(__always)
    func nextElement(expecting: String) throws(GeoJSONError) -> Int? {
        let c = try skipWhitespace()
        if c == Int(cComma) {
            pos &+= 1
            return try skipWhitespace()
        }
        if c == Int(cRBracket) {
            pos &+= 1
            return nil
        }
        throw expected(expecting, c)
    }

    func keyIs(_ s: StaticString) -> Bool {
        let n = s.utf8CodeUnitCount
        guard keyBytes.count == n else { return false }
        return keyBytes.elementsEqual(UnsafeBufferPointer(start: s.utf8Start, count: n))
    }

    func stringBytesAre(_ s: StaticString) -> Bool {
        let n = s.utf8CodeUnitCount
        guard stringBytes.count == n else { return false }
        return stringBytes.elementsEqual(UnsafeBufferPointer(start: s.utf8Start, count: n))
    }

    /// Reads a string value (first byte `c`) that must be a string, into `stringBytes`.
    func readStringValue(_ c: Int, what: String) throws(GeoJSONError) {
        guard c == Int(cQuote) else { throw fail("\(what) must be a string") }
        try readString(into: &stringBytes)
    }

    // MARK: - The collection

    /// Skips a UTF-8 byte order mark at the start of the input; input in UTF-16 or UTF-32 (by its
    /// byte order mark, or by the zero bytes around the ASCII characters JSON starts with) is an error
    /// saying so.
    func skipByteOrderMark() throws(GeoJSONError) {
        while end - pos < 4, try refill() {}
        let head = Array(UnsafeBufferPointer(start: buf + pos, count: min(4, end - pos)))
        if let encoding = TextEncodingSniffer.wideEncoding(of: head) {
            throw fail(encoding.message())
        }
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { pos &+= 3 }
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
    func detectLayout() throws(GeoJSONError) -> GeoJSONLayout {
        var c = try skipWhitespace()
        if c == Int(cRecordSeparator) { return .featureSequence }
        guard c == Int(cLBrace) else { return .featureCollection }
        mark = pos
        lookAheadLimit = Self.lookAheadBytes
        var isFeature = false
        defer {
            pos = mark
            mark = -1
            lookAheadLimit = nil
        }
        do {
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
            // A first Feature too long to look past is read as the first of a sequence (a lone
            // Feature is no FeatureCollection either way); broken input is left to the parse to report.
            return lookAheadExhausted && isFeature ? .featureSequence : .featureCollection
        }
    }

    /// Parses a sequence of Feature objects: newline-delimited GeoJSON, or RFC 8142 text sequences (each
    /// feature after an RS byte). Whitespace and RS bytes between features are skipped.
    func parseSequence(_ body: (GeoJSONFeature) throws -> Void) throws -> Int {
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
    func deliverFeature(_ index: Int, at c: Int, expecting: String, to body: (GeoJSONFeature) throws -> Void) throws {
        featureIndex = index
        guard c == Int(cLBrace) else { throw expected(expecting, c) }
        let feature = try parseFeature(index: index)
        featureIndex = nil
        try body(feature)
    }

    /// Parses a FeatureCollection, calling `body` for each feature.
    func parseCollection(_ body: (GeoJSONFeature) throws -> Void) throws -> Int {
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
                    try readType(c, seen: &sawType, in: "top-level object", what: "top-level", expected: "FeatureCollection") {
                        "top-level type must be FeatureCollection"
                    }
                } else if keyIs("features") {
                    try claim("features", seen: &sawFeatures, in: "top-level object")
                    guard c == Int(cLBracket) else { throw fail("\"features\" must be an array") }
                    pos &+= 1
                    c = try skipWhitespace()
                    if c == Int(cRBracket) {
                        pos &+= 1
                    } else {
                        var element: Int? = c
                        while let start = element {
                            try deliverFeature(count, at: start, expecting: "a feature object", to: body)
                            count += 1
                            element = try nextElement(expecting: "',' or ']' after a feature")
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

    /// Marks a member of an object as read, refusing a second one: `"type"` twice is a damaged file, not a choice.
    func claim(_ member: String, seen: inout Bool, in object: String) throws(GeoJSONError) {
        if seen { throw fail("duplicate \"\(member)\" member in \(object)") }
        seen = true
    }

    /// Reads the `"type"` member at `c` of an object (once), refusing any value but `expected` with `message`.
    func readType(_ c: Int, seen: inout Bool, in object: String, what: String, expected: StaticString,
                          otherwise message: () -> String) throws(GeoJSONError) {
        try claim("type", seen: &seen, in: object)
        try readStringValue(c, what: "\(what) \"type\"")
        if !stringBytesAre(expected) { throw fail(message()) }
    }

    // MARK: - Features

    /// Parses the feature object at `pos`.
    func parseFeature(index: Int) throws(GeoJSONError) -> GeoJSONFeature {
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
                try readType(c, seen: &sawType, in: "feature", what: "feature", expected: "Feature") {
                    "feature type must be \"Feature\", found \"\(InputExcerpt.text(stringBytes))\""
                }
            } else if keyIs("id") {
                try claim("id", seen: &sawID, in: "feature")
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
                try claim("properties", seen: &sawProperties, in: "feature")
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
    /// Their bytes counted as ``InputLimits/propertyBytes`` says are an error past that limit, at the
    /// member that goes over it.
    func parseProperties() throws(GeoJSONError) -> [(key: String, value: JSONValue)] {
        var result: [(key: String, value: JSONValue)] = []
        var total = 0
        let limit = limits.propertyBytes
        var next: Int? = try beginObject()
        if next == Int(cRBrace) {
            pos &+= 1
            next = nil
        }
        while let m = next {
            let memberOffset = baseOffset &+ pos
            let c = try readMemberName(m, in: "properties")
            let key = String(decoding: keyBytes, as: UTF8.self)
            total &+= keyBytes.count &+ InputLimits.memberOverhead
            let valueStart = pos
            let value: JSONValue
            switch c {
            case Int(cQuote):
                try readString(into: &stringBytes)
                total &+= stringBytes.count
                if total > limit { throw propertiesTooLarge(at: memberOffset) }
                value = .string(String(decoding: stringBytes, as: UTF8.self))
            case Int(cMinus), Int(cZero)...Int(cNine):
                value = .number(try readNumberText())
                total &+= pos - valueStart
            case 0x74, 0x66, 0x6E:
                let v = try readLiteral()
                value = v < 0 ? .null : .bool(v == 1)
            case Int(cLBrace), Int(cLBracket):
                outBytes.removeAll(keepingCapacity: true)
                do {
                    try walkValue(emit: true, depth: 4, budget: max(0, limit - total))
                } catch let error where error.kind == .limit && error.message.isEmpty {
                    throw propertiesTooLarge(at: memberOffset)
                }
                total &+= outBytes.count
                value = .other(String(decoding: outBytes, as: UTF8.self))
            case -1:
                throw fail("unexpected end of input: expected a value")
            default:
                throw fail("expected a value")
            }
            if total > limit { throw propertiesTooLarge(at: memberOffset) }
            result.append((key: key, value: value))
            next = try nextMember(in: "properties")
        }
        return result
    }

    /// The error for a feature's properties over ``InputLimits/propertyBytes``, at the member that went over.
    func propertiesTooLarge(at offset: Int) -> GeoJSONError {
        limitExceeded("the feature's properties are", limit: limits.propertyBytes, option: "--max-properties", offset: offset, larger: true)
    }
}
