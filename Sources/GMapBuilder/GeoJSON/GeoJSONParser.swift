// The GeoJSON layer of the streaming reader behind `GeoJSONReader`: the collection (or newline-
// delimited sequence), features, properties and geometries, read with the JSON scanner of
// JSONScanner.swift (buffer, strings, numbers, literals, generic values).

import GMapCodecs


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
    private init(fd: Int32, source: (any ByteSource)?, name: String, chunkSize: Int, limits: InputLimits) {
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

    /// Skips a UTF-8 byte order mark at the start of the input; input in UTF-16 or UTF-32 (by its
    /// byte order mark, or by the zero bytes around the ASCII characters JSON starts with) is an error
    /// saying so.
    private func skipByteOrderMark() throws(GeoJSONError) {
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
    private func detectLayout() throws(GeoJSONError) -> GeoJSONLayout {
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
                    throw fail("feature type must be \"Feature\", found \"\(InputExcerpt.text(stringBytes))\"")
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
    /// Their bytes counted as ``InputLimits/propertyBytes`` says are an error past that limit, at the
    /// member that goes over it.
    private func parseProperties() throws(GeoJSONError) -> [(key: String, value: JSONValue)] {
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
    private func propertiesTooLarge(at offset: Int) -> GeoJSONError {
        limitExceeded("the feature's properties are", limit: limits.propertyBytes, option: "--max-properties", offset: offset, larger: true)
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
                    throw fail("unknown geometry type \"\(InputExcerpt.text(stringBytes))\"")
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
            baseLine: captured.line, featureIndex: featureIndex, limits: limits)
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
            throw fail("longitude \(excerpt(start, pos)) is outside [-180, 180]", at: start)
        }
        c = try skipWhitespace()
        if c == Int(cRBracket) { throw fail("position has 1 number, needs at least 2") }
        guard c == Int(cComma) else { throw expected("',' or ']' in position", c) }
        pos &+= 1
        c = try skipWhitespace()
        let latitude = try readCoordinate(c, start: &start)
        if !(latitude >= -90 && latitude <= 90) {
            throw fail("latitude \(excerpt(start, pos)) is outside [-90, 90]", at: start)
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

    /// The error for a coordinate that is not a JSON number, quoting what was written: the scanned
    /// span from `spanStart` and the letters, digits and signs right after it that are in the buffer
    /// (NaN, Infinity, 1.5x), at most ``InputExcerpt/maximumBytes`` of them.
    private func notANumber(_ c: Int, spanStart: Int? = nil) -> GeoJSONError {
        if c < 0 { return fail("unexpected end of input: expected a number in position") }
        let at = spanStart ?? pos
        if let spanStart, pos == end, eof { return invalidNumber(spanStart) }
        var stop = pos
        while stop < end && stop - at <= InputExcerpt.maximumBytes {
            let b = buf[stop]
            let isWordByte = (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
                || b == cMinus || b == cPlus || b == cDot
            if !isWordByte { break }
            stop &+= 1
        }
        if stop == at {
            if c == Int(cQuote) { return fail("coordinate is a string, not a number", at: at) }
            if c == Int(cLBracket) || c == Int(cLBrace) {
                return fail("coordinate is an array or object, not a number", at: at)
            }
            return fail("expected a number in position", at: at)
        }
        return fail("coordinate is not a number: \(excerpt(at, stop))", at: at)
    }
}
