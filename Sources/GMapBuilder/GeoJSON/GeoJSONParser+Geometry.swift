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

extension GeoJSONParser {
    // MARK: - Geometry

    /// Parses a geometry object at `pos`.
    func parseGeometry() throws(GeoJSONError) -> GeoJSONGeometry {
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
                try claim("coordinates", seen: &sawCoordinates, in: "geometry")
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
        case .multiPolygon: return .polygons(try parseList(what: "MultiPolygon") { (number: Int) throws(GeoJSONError) in try parsePolygon(number: number) })
        case .lineString: return .lines([try parsePositions(what: "LineString")])
        case .multiLineString: return .lines(try parseList(what: "MultiLineString") { (_: Int) throws(GeoJSONError) in try parsePositions(what: "line") })
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
    func parsePositions(what: String) throws(GeoJSONError) -> [GeoJSONPosition] {
        try parseList(what: what) { (_: Int) throws(GeoJSONError) in
            let c = try skipWhitespace()
            guard c == Int(cLBracket) else { throw expected("'[' to start a position", c) }
            pos &+= 1
            return try parsePosition()
        }
    }

    /// Parses `[element, …]` at the next non-whitespace byte, each element by `element` (given its index).
    func parseList<Element>(what: String, _ element: (Int) throws(GeoJSONError) -> Element) throws(GeoJSONError) -> [Element] {
        var c = try skipWhitespace()
        guard c == Int(cLBracket) else { throw expected("'[' to start \(what) coordinates", c) }
        pos &+= 1
        var elements: [Element] = []
        c = try skipWhitespace()
        if c == Int(cRBracket) {
            pos &+= 1
            return elements
        }
        repeat {
            elements.append(try element(elements.count))
        } while try nextElement(expecting: "',' or ']' in coordinates") != nil
        return elements
    }

    /// Parses one polygon's rings at the next non-whitespace byte.
    func parsePolygon(number: Int) throws(GeoJSONError) -> [[GeoJSONPosition]] {
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
            guard let next = try nextElement(expecting: "',' or ']' in coordinates") else { return rings }
            c = next
        }
    }

    /// Parses a position after its `[`, up to and including its `]`.
    @inline(__always)
    func parsePosition() throws(GeoJSONError) -> GeoJSONPosition {
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
    func readCoordinate(_ c: Int, start: inout Int) throws(GeoJSONError) -> Double {
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
    func notANumber(_ c: Int, spanStart: Int? = nil) -> GeoJSONError {
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
