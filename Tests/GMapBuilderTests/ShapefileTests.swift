import Foundation
import XCTest
import GMap
import GMapBuilder
import GMapCodecs
import GMapTestSupport

/// The shapefile reader: polygons with holes and several parts, Z and M types, attributes of every dBASE type,
/// code pages, and damaged files, which must give errors naming the file, record and field.
final class ShapefileTests: XCTestCase {
    typealias F = InputFixtures

    private let columns = [
        F.Column(name: "NAME", type: "C", width: 12),
        F.Column(name: "POP", type: "N", width: 10),
        F.Column(name: "AREA", type: "F", width: 12, decimals: 3),
        F.Column(name: "ISLAND", type: "L", width: 1),
        F.Column(name: "FOUNDED", type: "D", width: 8),
    ]

    private func row(_ name: String, _ pop: String = "", _ area: String = "", _ island: String = "", _ founded: String = "") -> [[UInt8]] {
        [F.text(name), F.text(pop), F.text(area), F.text(island), F.text(founded)]
    }

    /// Two outer rings (clockwise), the second with a hole (counter-clockwise) listed first.
    private let multipart: [[(Double, Double)]] = [
        F.square(12, 2, 13, 3, clockwise: false),
        F.square(0, 0, 4, 4, clockwise: true),
        F.square(10, 0, 15, 5, clockwise: true),
    ]

    private func reader(_ shapes: [F.Shape], _ rows: [[[UInt8]]], deleted: Set<Int> = [], cpg: String? = nil, prj: String? = nil) throws -> ShapefileReader {
        try ShapefileReader(shp: F.shp(shapes), shpName: "t.shp", dbf: F.dbf(columns, rows: rows, deleted: deleted), dbfName: "t.dbf",
                            cpg: cpg, cpgName: "t.cpg", prj: prj, prjName: "t.prj")
    }

    private func features(_ reader: ShapefileReader) throws -> [GeoJSONFeature] {
        var result: [GeoJSONFeature] = []
        try reader.forEachFeature { result.append($0) }
        return result
    }

    private func positions(_ ring: [(Double, Double)]) -> [GeoJSONPosition] {
        ring.map { GeoJSONPosition(longitude: $0.0, latitude: $0.1) }
    }

    private func assertShapefileError(_ body: @autoclosure () throws -> Any, _ kind: ShapefileError.Kind, _ text: String,
                                      file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            XCTAssertEqual((error as? ShapefileError)?.kind, kind, "\(error)", file: file, line: line)
            XCTAssertTrue("\(error)".contains(text), "\(error)", file: file, line: line)
        }
    }

    func testPolygonsHolesAndParts() throws {
        let hole = [F.square(1, 1, 2, 2, clockwise: true), F.square(0, 0, 3, 3, clockwise: true), F.square(1, 1, 2, 2, clockwise: false)]
        let shapes = [F.Shape(rings: multipart), F.Shape(rings: nil), F.Shape(rings: [F.square(20, 20, 21, 21, clockwise: true)], type: 15),
                      F.Shape(rings: [F.square(30, 30, 31, 31, clockwise: true)], type: 25), F.Shape(rings: hole)]
        let read = try features(reader(shapes, [row("Two"), row("Null"), row("Z"), row("M"), row("Nested")]))
        XCTAssertEqual(read.map(\.index), [0, 1, 2, 3, 4])
        XCTAssertEqual(read[0].geometry, .polygons([[positions(multipart[1])], [positions(multipart[2]), positions(multipart[0])]]))
        XCTAssertEqual(read[1].geometry, .unsupported("null"))
        XCTAssertEqual(read[2].geometry, .polygons([[positions(F.square(20, 20, 21, 21, clockwise: true))]]))
        XCTAssertEqual(read[3].geometry, .polygons([[positions(F.square(30, 30, 31, 31, clockwise: true))]]))
        // The hole goes to the smallest outer ring that contains it: the 1×1 island ring, not the 3×3 one.
        XCTAssertEqual(read[4].geometry, .polygons([[positions(hole[0]), positions(hole[2])], [positions(hole[1])]]))
    }

    func testAHoleOutsideEveryOuterRingBecomesAnOuterRing() throws {
        let rings = [F.square(0, 0, 1, 1, clockwise: true), F.square(5, 5, 6, 6, clockwise: false)]
        let read = try features(reader([F.Shape(rings: rings)], [row("A")]))
        XCTAssertEqual(read[0].geometry, .polygons([[positions(rings[0])], [positions(rings[1])]]))
    }

    func testAttributesOfEveryType() throws {
        let rows = [row("Alpha", "  1234", "  -12.500", "T", "19991231"), row("", "", "", "?", ""),
                    row("Beta", "+0042", ".5", "n", "00000000"), row("Gamma", "**********", "1.5E3", "y", "        ")]
        let shapes = Array(repeating: F.Shape(rings: [F.square(0, 0, 1, 1, clockwise: true)]), count: 4)
        let read = try features(reader(shapes, rows))
        func values(_ index: Int) -> [JSONValue] { read[index].properties.map(\.value) }
        XCTAssertEqual(read[0].properties.map(\.key), ["NAME", "POP", "AREA", "ISLAND", "FOUNDED"])
        XCTAssertEqual(values(0), [.string("Alpha"), .number("1234"), .number("-12.500"), .bool(true), .string("1999-12-31")])
        XCTAssertEqual(values(1), [.string(""), .null, .null, .null, .null])
        XCTAssertEqual(values(2), [.string("Beta"), .number("42"), .number("0.5"), .bool(false), .null])
        XCTAssertEqual(values(3), [.string("Gamma"), .null, .number("1.5e3"), .bool(true), .null])
    }

    func testBadAttributeValuesNameRecordAndField() {
        let shapes = Array(repeating: F.Shape(rings: [F.square(0, 0, 1, 1, clockwise: true)]), count: 2)
        assertShapefileError(try features(reader(shapes, [row("A", "1"), row("B", "12x")])), .malformed,
                             "t.dbf: record 2, field POP, byte ")
        assertShapefileError(try features(reader(shapes, [row("A", "1", "", "X"), row("B")])), .malformed,
                             "record 1, field ISLAND")
        assertShapefileError(try features(reader(shapes, [row("A", "1", "", "", "19991331"), row("B")])), .malformed,
                             "record 1, field FOUNDED, byte 229: '19991331' is not a valid date (YYYYMMDD) value")
    }

    func testDeletedRecordsAndNullShapesAreSkippedAndCounted() throws {
        let shapes = [F.Shape(rings: [F.square(0, 0, 1, 1, clockwise: true)]), F.Shape(rings: nil), F.Shape(rings: [F.square(2, 2, 3, 3, clockwise: true)])]
        var options = BuildOptions()
        options.idProperty = "NAME"
        var builder = try MapBuilder(options: options)
        try reader(shapes, [row("A"), row("B"), row("C")], deleted: [2]).forEachFeature { try GeoJSONImport.add($0, to: &builder) }
        XCTAssertEqual(builder.skippedGeometries, ["null": 1, "deleted": 1])
        let map = try GMap(bytes: builder.finish().bytes)
        XCTAssertEqual(map.lookup(latitude: 0.5, longitude: 0.5)?.id, "A")
        XCTAssertNil(map.lookup(latitude: 2.5, longitude: 2.5))
    }

    func testCodePages() throws {
        let shapes = [F.Shape(rings: [F.square(0, 0, 1, 1, clockwise: true)])]
        let latin1: [UInt8] = [0x43, 0x75, 0x72, 0x61, 0xE7, 0x61, 0x6F]  // "Curaçao" in ISO 8859-1
        let utf8 = Array("Curaçao".utf8), euro: [UInt8] = [0x80, 0x20, 0x35]
        func name(_ raw: [UInt8], cpg: String?) throws -> JSONValue? {
            try features(reader(shapes, [[raw, [], [], [], []]], cpg: cpg))[0].properties.first?.value
        }
        XCTAssertEqual(try name(utf8, cpg: nil), .string("Curaçao"))
        XCTAssertEqual(try name(latin1, cpg: nil), .string("Curaçao"), "invalid UTF-8 falls back to Latin-1")
        XCTAssertEqual(try name(utf8, cpg: "UTF-8\n"), .string("Curaçao"))
        XCTAssertEqual(try name(latin1, cpg: "ISO-8859-1"), .string("Curaçao"))
        XCTAssertEqual(try name(latin1, cpg: "88591"), .string("Curaçao"))
        XCTAssertEqual(try name(euro, cpg: "ANSI 1252"), .string("€ 5"))
        XCTAssertEqual(try name(euro, cpg: "latin1"), .string("\u{80} 5"))
        assertShapefileError(try name(utf8, cpg: "CP1251") as Any, .unsupportedCodePage, "t.cpg: code page 'CP1251'")
    }

    func testProjectionAndCoordinateChecks() throws {
        let shapes = [F.Shape(rings: [F.square(0, 0, 1, 1, clockwise: true)])]
        let geographic = "GEOGCS[\"GCS_WGS_1984\",DATUM[\"D_WGS_1984\",SPHEROID[\"WGS_1984\",6378137.0,298.257223563]],PRIMEM[\"Greenwich\",0.0],UNIT[\"Degree\",0.0174532925199433]]"
        XCTAssertEqual(try features(reader(shapes, [row("A")], prj: geographic)).count, 1)
        assertShapefileError(try reader(shapes, [row("A")], prj: "PROJCS[\"WGS_1984_Web_Mercator\",GEOGCS[\"GCS_WGS_1984\"]]"), .notGeographic,
                             "t.prj: the coordinates are projected (PROJCS \"WGS_1984_Web_Mercator\")")
        let projected = [F.Shape(rings: [F.square(500_000, 4_000_000, 500_100, 4_000_100, clockwise: true)])]
        assertShapefileError(try features(reader(projected, [row("A")])), .coordinateOutOfRange, "t.shp: record 1, byte 156: point 0 (500000.0, 4000000.0)")
    }

    func testUnsupportedShapeTypesAndDamagedFiles() throws {
        let square = F.square(0, 0, 1, 1, clockwise: true)
        let dbf = F.dbf(columns, rows: [row("A")])
        func open(_ shp: [UInt8], _ dbf: [UInt8]) throws -> [GeoJSONFeature] {
            try features(ShapefileReader(shp: shp, shpName: "t.shp", dbf: dbf, dbfName: "t.dbf"))
        }
        assertShapefileError(try open(F.shp([F.Shape(rings: [square], type: 3)], fileType: 3), dbf), .unsupportedShapeType(3),
                             "shape type 3 (PolyLine) is not a polygon")
        assertShapefileError(try open(F.shp([F.Shape(rings: [square], type: 1)]), dbf), .unsupportedShapeType(1), "t.shp: record 1, byte 108")
        assertShapefileError(try open(F.shp([F.Shape(rings: [square]), F.Shape(rings: [square])]), dbf), .recordCountMismatch,
                             "2 shapes, but t.dbf has 1 records")
        let good = F.shp([F.Shape(rings: [square])])
        assertShapefileError(try open(Array(good.dropLast(8)), dbf), .malformed, "truncated?")
        assertShapefileError(try open(Array(good.prefix(50)), dbf), .malformed, "shorter than the 100-byte .shp header")
        assertShapefileError(try open(Array(repeating: 0, count: 100), dbf), .malformed, "not a .shp file")
        var badPart = good
        badPart[100 + 8 + 44] = 9  // the first part starts at point 9 of 5
        assertShapefileError(try open(badPart, dbf), .malformed, "t.shp: record 1, byte 152: part 0 spans points 9..<5 of 5")
        assertShapefileError(try open(good, Array(dbf.dropLast(20))), .malformed, "t.dbf: record 1")
        assertShapefileError(try open(good, Array(dbf.prefix(10))), .malformed, "shorter than the 32-byte .dbf header")
    }

    func testEveryTruncationAndManyMutationsFailCleanly() throws {
        let shp = F.shp([F.Shape(rings: multipart), F.Shape(rings: nil), F.Shape(rings: multipart, type: 15)])
        let dbf = F.dbf(columns, rows: [row("A", "1", "2.5", "T", "20200101"), row("B"), row("C", "-3")])
        var random = SystemRandomNumberGenerator()
        var cases: [([UInt8], [UInt8])] = (0..<shp.count).map { (Array(shp[0..<$0]), dbf) } + (0..<dbf.count).map { (shp, Array(dbf[0..<$0])) }
        for _ in 0..<3_000 {
            var (s, d) = (shp, dbf)
            if Bool.random(using: &random) {
                s[Int.random(in: 0..<s.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            } else {
                d[Int.random(in: 0..<d.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            cases.append((s, d))
        }
        for (s, d) in cases {
            do {
                _ = try features(ShapefileReader(shp: s, shpName: "t.shp", dbf: d, dbfName: "t.dbf"))
            } catch {
                XCTAssertTrue(error is ShapefileError, "\(error)")
            }
        }
    }

    func testShapefileInAZipArchive() throws {
        let shp = F.shp([F.Shape(rings: multipart)]), dbf = F.dbf(columns, rows: [row("Two")])
        let bytes = F.zip([.init(name: "data/", data: []), .init(name: "data/places.shp", data: shp, method: 8),
                           .init(name: "data/places.DBF", data: dbf), .init(name: "data/places.cpg", data: F.text("UTF-8")),
                           .init(name: "__MACOSX/data/._places.shp", data: [0, 1, 2])])
        let read = try features(ShapefileReader(archive: ZipArchive(bytes: bytes, name: "p.zip")))
        XCTAssertEqual(read.count, 1)
        XCTAssertEqual(read[0].properties.first?.value, .string("Two"))

        let two = F.zip([.init(name: "a.shp", data: shp), .init(name: "a.dbf", data: dbf), .init(name: "b.shp", data: shp)])
        assertShapefileError(try ShapefileReader(archive: ZipArchive(bytes: two, name: "two.zip")), .ambiguous,
                             "two.zip: 2 shapefiles in the archive (a.shp, b.shp)")
        let none = F.zip([.init(name: "readme.txt", data: [])])
        assertShapefileError(try ShapefileReader(archive: ZipArchive(bytes: none, name: "none.zip")), .missingFile,
                             "no .shp file in the archive (it holds: readme.txt)")
        let noDBF = F.zip([.init(name: "a.shp", data: shp)])
        assertShapefileError(try ShapefileReader(archive: ZipArchive(bytes: noDBF, name: "x.zip")), .missingFile, "no a.dbf in the archive")
        let badDBF = F.zip([.init(name: "a.shp", data: shp), .init(name: "a.dbf", data: F.dbf(columns, rows: [row("A", "?")]))])
        assertShapefileError(try features(ShapefileReader(archive: ZipArchive(bytes: badDBF, name: "x.zip"))), .malformed,
                             "x.zip/a.dbf: record 1, field POP")
    }
}
