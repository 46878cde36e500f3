import XCTest
import GMap
import GMapTestSupport

final class VarintTests: XCTestCase {
    func testKnownEncodings() {
        let cases: [(UInt64, [UInt8])] = [(0, [0x00]), (1, [0x01]), (127, [0x7F]), (128, [0x80, 0x01]), (300, [0xAC, 0x02]),
                                          (UInt64.max, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01])]
        for (value, expected) in cases {
            var bytes: [UInt8] = []
            Varint.append(value, to: &bytes)
            XCTAssertEqual(bytes, expected, "\(value)")
            XCTAssertEqual(Varint.length(of: value), expected.count)
        }
    }

    func testZigZag() {
        XCTAssertEqual([0, -1, 1, -2, 2].map(ZigZag.encode), [0, 1, 2, 3, 4])
        for value: Int64 in [0, 1, -1, 1_800_000_000, -1_800_000_000, .max, .min] {
            XCTAssertEqual(ZigZag.decode(ZigZag.encode(value)), value)
        }
    }

    func testCRC32CheckValue() {
        XCTAssertEqual(CRC32.checksum(Array("123456789".utf8)), 0xCBF4_3926)
        XCTAssertEqual(CRC32.checksum([]), 0)
    }
}

final class QuantizationTests: XCTestCase {
    func testRoundsToNearestUnit() throws {
        let q = Quantizer.standard
        XCTAssertEqual(q.units(36.14), 361_400_000)
        XCTAssertEqual(q.units(-5.35), -53_500_000)
        XCTAssertEqual(q.units(0.000_000_05), 1)       // half a unit rounds away from zero
        XCTAssertEqual(q.units(-0.000_000_05), -1)
        XCTAssertEqual(q.units(0.000_000_049), 0)
        XCTAssertEqual(q.maximumPositionError * 100, 0.786, accuracy: 0.001, "half a unit diagonally, in centimetres")
        XCTAssertNil(Quantizer(unitsPerDegree: 0))
        XCTAssertNil(Quantizer(unitsPerDegree: 10_000_001))
    }

    func testQueryPointNormalisation() throws {
        let q = Quantizer.standard
        XCTAssertEqual(q.queryPoint(latitude: 0, longitude: 180), GridPoint(x: -1_800_000_000, y: 0))
        XCTAssertEqual(q.queryPoint(latitude: 90, longitude: 0), GridPoint(x: 0, y: 899_999_999))
        XCTAssertEqual(q.queryPoint(latitude: -90, longitude: -180), GridPoint(x: -1_800_000_000, y: -900_000_000))
        for bad in [(Double.nan, 0.0), (0, .nan), (90.000_001, 0), (-90.1, 0), (0, 180.000_001), (0, -181), (.infinity, 0)] {
            XCTAssertNil(q.queryPoint(latitude: bad.0, longitude: bad.1), "\(bad)")
        }
    }

    /// The query point's rounding (half away from zero, without the C library's `round`) against
    /// the standard library's: halves, values just beside them, whole numbers beyond 2^52, every
    /// precision, and random coordinates.
    func testQueryPointRoundsAsTheStandardLibrary() throws {
        func expected(_ q: Quantizer, _ latitude: Double, _ longitude: Double) -> GridPoint {
            let scale = Double(q.unitsPerDegree * GridPoint.fractionScale)
            var x = Int64((longitude * scale).rounded(.toNearestOrAwayFromZero)), y = Int64((latitude * scale).rounded(.toNearestOrAwayFromZero))
            if x >= q.halfTurn * GridPoint.fractionScale { x = -q.halfTurn * GridPoint.fractionScale }
            if y >= q.quarterTurn * GridPoint.fractionScale { y = (q.quarterTurn - 1) * GridPoint.fractionScale }
            return GridPoint(fineX: x, fineY: y)
        }
        var random = SplitMix64(seed: 1_126)
        var checked = 0
        for unitsPerDegree: Int64 in [1, 3, 100, 65_535, 1_000_000, 10_000_000] {
            guard let q = Quantizer(unitsPerDegree: unitsPerDegree) else { return XCTFail("no quantizer of \(unitsPerDegree)") }
            let scale = Double(unitsPerDegree * GridPoint.fractionScale)
            var values: [Double] = [0, -0.0, 90, -90, 180, -180, 0.5 / scale, -0.5 / scale, 1.5 / scale, -2.5 / scale]
            for _ in 0..<2_000 {
                let whole = Double(random.below(360 * Int(unitsPerDegree)) - 180 * Int(unitsPerDegree)) / Double(unitsPerDegree)
                // A fine half: exactly, and one double either side.
                let half = (whole * scale + 0.5) / scale
                values += [whole, half, half.nextUp, half.nextDown, -half, random.unit() * 360 - 180]
            }
            for longitude in values where abs(longitude) <= 180 {
                let latitude = max(-90, min(90, longitude / 2))
                XCTAssertEqual(q.queryPoint(latitude: latitude, longitude: longitude), expected(q, latitude, longitude), "\(latitude), \(longitude) at \(unitsPerDegree)")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 70_000)
    }
}

final class TileAddressingTests: XCTestCase {
    /// Every offset lands in the part whose bounds hold it, for awkward lengths and factors.
    func testPartIndexMatchesPartBounds() {
        for length: Int64 in [4, 5, 7, 10, 16, 33, 10_000_000] {
            for factor: Int64 in [2, 3, 4, 16] where length >= factor {
                let tile = TileBounds(west: -17, south: 100, east: -17 + length, north: 100 + length)
                var offsets: [Int64] = Array(0..<min(length, 200))
                offsets += [length - 1, length / 2, length / 3]
                for offset in offsets {
                    let index = TileBounds.partIndex(offset: offset, length: length, factor: factor)
                    XCTAssert(index >= 0 && index < factor)
                    let part = tile.part(column: index, row: index, factor: factor)
                    XCTAssert(part.west <= tile.west + offset && tile.west + offset < part.east, "length \(length) factor \(factor) offset \(offset)")
                    XCTAssert(part.south <= tile.south + offset && tile.south + offset < part.north)
                }
                // Parts tile the parent exactly.
                XCTAssertEqual(tile.part(column: 0, row: 0, factor: factor).west, tile.west)
                XCTAssertEqual(tile.part(column: factor - 1, row: 0, factor: factor).east, tile.east)
                for i in 0..<(factor - 1) {
                    XCTAssertEqual(tile.part(column: i, row: 0, factor: factor).east, tile.part(column: i + 1, row: 0, factor: factor).west)
                }
            }
        }
    }

    func testDirectoryEntryBits() {
        let entry = TileEntry.make(kind: TileEntry.splitKind, payload: 12345)
        XCTAssertEqual(TileEntry.kind(of: entry), TileEntry.splitKind)
        XCTAssertEqual(TileEntry.payload(of: entry), 12345)
        XCTAssertEqual(TileEntry.make(kind: TileEntry.coveredKind, payload: 7), 0x4000_0007)
        XCTAssertEqual(SectionTag.grid.name, "GRID")
        XCTAssertEqual(SectionTag.strings.name, "STRS")
    }
}

final class EvenOddRuleTests: XCTestCase {
    /// For closed rings, the tile-local rule (corner parity, flipped by the edges crossing the path
    /// east then south) equals the global ray test at every lattice point of the tile, corners and
    /// edges included. Coordinates sit on a small lattice so that ties (vertices on the ray, edges
    /// through the corner, horizontal and vertical edges) happen all the time.
    func testTileRuleMatchesRayTestOnRandomRings() {
        var random = SplitMix64(state: 7)
        for _ in 0..<3_000 {
            let count = Int.random(in: 3...7, using: &random)
            let ring = (0..<count).map { _ in (Int64.random(in: -4...4, using: &random), Int64.random(in: -4...4, using: &random)) }
            let west = Int64.random(in: -4...1, using: &random), south = Int64.random(in: -4...1, using: &random)
            let east = west + Int64.random(in: 1...4, using: &random), north = south + Int64.random(in: 1...4, using: &random)
            func rayParity(_ px: Int64, _ py: Int64) -> Bool {
                var odd = false
                for i in 0..<count {
                    let (ax, ay) = ring[i], (bx, by) = ring[(i + 1) % count]
                    if EvenOddRule.crossesEastRay(pointX: px, pointY: py, ax: ax, ay: ay, bx: bx, by: by) { odd.toggle() }
                }
                return odd
            }
            let corner = rayParity(east, south)
            for px in west...east {
                for py in south...north {
                    var parity = corner
                    for i in 0..<count {
                        let (ax, ay) = ring[i], (bx, by) = ring[(i + 1) % count]
                        if EvenOddRule.flipsParity(pointX: px, pointY: py, east: east, south: south, ax: ax, ay: ay, bx: bx, by: by) {
                            parity.toggle()
                        }
                    }
                    XCTAssertEqual(parity, rayParity(px, py), "ring \(ring) tile \(west)…\(east)×\(south)…\(north) point (\(px),\(py))")
                }
            }
        }
    }

    /// The ray test is the independent oracle's: hand-checked cases of the half-open rule.
    func testHalfOpenRuleOnAUnitSquare() {
        let square: [(Int64, Int64)] = [(0, 0), (10, 0), (10, 10), (0, 10)]
        func inside(_ px: Int64, _ py: Int64) -> Bool {
            var odd = false
            for i in 0..<4 {
                let (ax, ay) = square[i], (bx, by) = square[(i + 1) % 4]
                if EvenOddRule.crossesEastRay(pointX: px, pointY: py, ax: ax, ay: ay, bx: bx, by: by) { odd.toggle() }
            }
            return odd
        }
        XCTAssertTrue(inside(5, 5))
        XCTAssertTrue(inside(0, 0))     // south-west corner: in (the point moves east and north)
        XCTAssertTrue(inside(0, 5))     // west edge: in
        XCTAssertTrue(inside(5, 0))     // south edge: in
        XCTAssertFalse(inside(10, 5))   // east edge: out (belongs to the neighbour to the east)
        XCTAssertFalse(inside(5, 10))   // north edge: out (belongs to the neighbour to the north)
        XCTAssertFalse(inside(10, 10))
        XCTAssertFalse(inside(-1, 5))
    }
}
