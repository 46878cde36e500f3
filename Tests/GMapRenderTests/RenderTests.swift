import Foundation
import XCTest
import GMap
import GMapBuilder
import GMapCodecs
import GMapRender
import GMapTestSupport

/// `MapRenderer`: every pixel shows what the map answers at its centre, neighbours get different
/// colours, tiles are tinted by kind, points are marked with their answers, and the PNG of a
/// rendered map decodes to the same picture.
final class RenderTests: XCTestCase {
    static let style = MapStyle.standard

    static func square(_ id: String, west: Double, south: Double, east: Double, north: Double) -> SourceFeature {
        SourceFeature(id: id, polygons: [[[(west, south), (east, south), (east, north), (west, north), (west, south)]]])
    }

    /// WEST and EAST share the meridian 9; LID lies across both (the smallest, so it answers there).
    static func fixture(tileSize: Double? = nil) throws -> GMap {
        let features = [
            square("WEST", west: 1, south: 1, east: 9, north: 9),
            square("EAST", west: 9, south: 1, east: 17, north: 9),
            square("LID", west: 5, south: 6, east: 13, north: 8),
        ]
        return try TestSupport.build(features) { options in
            if let tileSize { options.tileSize = Int64(tileSize * 10_000_000) }
        }.map
    }

    static let window = try! MapWindow(west: 0, south: 0, east: 20, north: 10, width: 200, maximumPixels: MapRenderer.maximumPixels)

    /// The centre of a pixel, computed here rather than by the window.
    static func centre(x: Int, y: Int, of window: MapWindow) -> (latitude: Double, longitude: Double) {
        (window.north - (Double(y) + 0.5) * (window.north - window.south) / Double(window.height),
         window.west + (Double(x) + 0.5) * (window.east - window.west) / Double(window.width))
    }

    /// What a lookup answers at each pixel centre: the smallest feature and the next one.
    static func answers(_ map: GMap, window: MapWindow) -> [[(first: Int?, second: Int?)]] {
        (0..<window.height).map { y in
            (0..<window.width).map { x in
                let point = centre(x: x, y: y, of: window)
                let all = map.lookupAll(latitude: point.latitude, longitude: point.longitude).map(\.index)
                return (all.first, all.count > 1 ? all[1] : nil)
            }
        }
    }

    func testEveryPixelShowsTheAnswerAtItsCentre() throws {
        let map = try Self.fixture()
        let window = Self.window
        let rendered = MapRenderer.render(map, window: window)
        XCTAssertEqual(rendered.raster.width, 200)
        XCTAssertEqual(rendered.raster.height, 100)
        XCTAssertEqual(rendered.featuresDrawn, 3)
        let answers = Self.answers(map, window: window)
        // Learn each feature's colour from its interior pixels: one colour per feature, from the palette.
        var colourOf: [Int: RGBColour] = [:]
        for y in 1..<(window.height - 1) {
            for x in 1..<(window.width - 1) {
                guard let first = answers[y][x].first, answers[y][x].second == nil || (x + y) % 4 != 0 else { continue }
                let around = [answers[y][x - 1], answers[y][x + 1], answers[y - 1][x], answers[y + 1][x]]
                guard around.allSatisfy({ $0.first == first }) else { continue }
                let colour = rendered.raster[x, y]
                if let known = colourOf[first] { XCTAssertEqual(colour, known, "pixel (\(x), \(y))") } else { colourOf[first] = colour }
                XCTAssert(Self.style.featureColours.contains(colour))
            }
        }
        XCTAssertEqual(colourOf.count, 3)
        XCTAssertEqual(Set(colourOf.values).count, 3, "the three features touch or overlap, so they differ")
        // Then every pixel: background, the feature's colour, stripes of the second, darker on borders.
        var borders = 0, stripes = 0
        for y in 0..<window.height {
            for x in 0..<window.width {
                let answer = answers[y][x]
                guard let first = answer.first, let base = colourOf[first] else {
                    XCTAssertEqual(rendered.raster[x, y], Self.style.background, "pixel (\(x), \(y)) answers nothing")
                    continue
                }
                var expected = base
                if let second = answer.second, (x + y) % 4 == 0, let secondColour = colourOf[second] {
                    expected = secondColour.darkened(by: Self.style.overlapDarkening)
                    stripes += 1
                }
                let neighbours = [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)].filter { $0.0 >= 0 && $0.1 >= 0 && $0.0 < window.width && $0.1 < window.height }
                if neighbours.contains(where: { answers[$0.1][$0.0].first.map { $0 < first } ?? true }) {
                    expected = expected.darkened(by: Self.style.borderDarkening)
                    borders += 1
                }
                XCTAssertEqual(rendered.raster[x, y], expected, "pixel (\(x), \(y)) answers \(first)")
            }
        }
        XCTAssertGreaterThan(borders, 4 * 160, "coasts and the shared border are drawn")
        XCTAssertGreaterThan(stripes, 100, "the overlap is striped")
        XCTAssertEqual(rendered.overlapPixels, answers.joined().filter { $0.second != nil }.count)
    }

    func testKnownPixelsAfterEncodingAndDecoding() throws {
        let map = try Self.fixture()
        let rendered = MapRenderer.render(map, window: Self.window)
        let image = try PNGTestDecoder.decode(PNGEncoder.encode(rendered.raster).bytes)
        XCTAssert(image.pixels == rendered.raster.pixels)
        XCTAssertEqual(image.colourType, 3, "a flat map fits a palette")
        // (3, 5) is inside WEST only, (15, 3) inside EAST only, (0.5, 19) in the sea: pixel (x, y) has its
        // centre at longitude x/10 + 0.05 and latitude 9.95 − y/10.
        let west = image.pixel(30, 50), east = image.pixel(150, 70), sea = image.pixel(190, 95)
        XCTAssertEqual(sea, Self.style.background)
        XCTAssert(Self.style.featureColours.contains(west))
        XCTAssert(Self.style.featureColours.contains(east))
        XCTAssertNotEqual(west, east)
        // Inside LID (lat 7, lon 7) the colour is LID's, not WEST's.
        XCTAssertNotEqual(image.pixel(70, 29), west)
        XCTAssertEqual(image.pixel(70, 29), image.pixel(110, 29), "LID has one colour on both sides of the meridian 9")
    }

    func testNeighboursGetDifferentColours() throws {
        // A 4 × 4 board of touching squares: every pair sharing a side must differ.
        var features: [SourceFeature] = []
        for row in 0..<4 {
            for column in 0..<4 {
                features.append(Self.square("S\(row)\(column)", west: Double(column * 4), south: Double(row * 2), east: Double(column * 4 + 4), north: Double(row * 2 + 2)))
            }
        }
        let map = try TestSupport.build(features).map
        let window = try MapWindow(west: 0, south: 0, east: 16, north: 8, width: 160, maximumPixels: 1 << 20)
        let rendered = MapRenderer.render(map, window: window)
        func colour(row: Int, column: Int) -> RGBColour {
            rendered.raster[column * 40 + 20, (3 - row) * 20 + 10]
        }
        for row in 0..<4 {
            for column in 0..<4 {
                if column < 3 { XCTAssertNotEqual(colour(row: row, column: column), colour(row: row, column: column + 1), "S\(row)\(column) east") }
                if row < 3 { XCTAssertNotEqual(colour(row: row, column: column), colour(row: row + 1, column: column), "S\(row)\(column) north") }
            }
        }
        XCTAssertEqual(rendered.featuresDrawn, 16)
        XCTAssertLessThanOrEqual(rendered.colourCount, Self.style.featureColours.count)
    }

    /// A map with every tile kind: 2° tiles, and a 512-sided polygon with at most 8 edges per tile, so
    /// that tiles along its edge are split.
    static func tiledFixture() throws -> GMap {
        let ring = (0...512).map { step -> (longitude: Double, latitude: Double) in
            let angle = Double(step % 512) / 512 * 2 * .pi
            return (10 + 7 * cos(angle), 5 + 3.5 * sin(angle))
        }
        let features = [SourceFeature(id: "ROUND", polygons: [[ring]])]
        return try TestSupport.build(features) { options in
            options.tileSize = 20_000_000
            options.maximumEdgesPerTile = 8
            options.splitFactor = 2
        }.map
    }

    func testTilesAreTintedByKindAndOutlined() throws {
        let map = try Self.tiledFixture()
        let window = try MapWindow(west: 0, south: 0, east: 20, north: 10, width: 200, maximumPixels: 1 << 20)
        let plain = MapRenderer.render(map, window: window).raster
        let tiled = MapRenderer.render(map, window: window, options: .init(showsTiles: true))
        XCTAssertGreaterThan(tiled.leafTiles, 0)
        let style = Self.style
        var kindsSeen: Set<String> = [], checked = 0, topLevelLinePixels = 0
        map.forEachLeafTile { tile in
            let west = map.quantizer.degrees(tile.bounds.west), east = map.quantizer.degrees(tile.bounds.east)
            let south = map.quantizer.degrees(tile.bounds.south), north = map.quantizer.degrees(tile.bounds.north)
            // The pixels whose centres lie in the tile: x/10 + 0.05 in [west, east), 9.95 − y/10 in [south, north).
            let columns = (0..<200).filter { Double($0) / 10 + 0.05 >= west && Double($0) / 10 + 0.05 < east }
            let rows = (0..<100).filter { 9.95 - Double($0) / 10 >= south && 9.95 - Double($0) / 10 < north }
            guard let firstColumn = columns.first, !rows.isEmpty else { return }
            let tint: (RGBColour, Double)
            switch tile.kind {
            case .empty: tint = (style.emptyTile, style.tintAmount); kindsSeen.insert("empty")
            case .covered: tint = (style.coveredTile, style.tintAmount); kindsSeen.insert("covered")
            case .record where tile.depth == 0: tint = (style.mixedTile, style.tintAmount); kindsSeen.insert("mixed")
            case .record:
                tint = (style.splitTile, min(0.85, style.tintAmount + style.splitTintPerDepth * Double(tile.depth - 1)))
                kindsSeen.insert("split")
            }
            // Away from the outlines (each tile's first column and row), the plain colour tinted.
            for y in rows.dropFirst() {
                for x in columns.dropFirst() {
                    XCTAssertEqual(tiled.raster[x, y], plain[x, y].blended(with: tint.0, amount: tint.1), "pixel (\(x), \(y)) in \(tile)")
                    checked += 1
                }
            }
            // A top-level tile's west edge (every 2°, 20 pixels) is outlined in the tile-line colour.
            if (tile.bounds.west - map.grid.originX) % map.grid.tileWidth == 0, firstColumn > 0, rows.count > 2 {
                XCTAssertEqual(tiled.raster[firstColumn, rows[rows.count / 2]], style.tileLine, "west edge of \(tile)")
                topLevelLinePixels += 1
            }
        }
        XCTAssertEqual(kindsSeen, ["empty", "covered", "mixed", "split"], "the fixture has all four kinds")
        XCTAssertGreaterThan(checked, 10_000)
        XCTAssertGreaterThan(topLevelLinePixels, 20)
        // Split parts 1° wide (10 pixels) are outlined too, in the split-line colour.
        XCTAssert(tiled.raster.pixels.contains(style.splitLine))
    }

    func testNarrowTilesGetNoOutlinesAndBigPicturesALegend() throws {
        let map = try Self.tiledFixture()
        // 2° tiles at 1.5 pixels per degree are 3 pixels wide: too narrow for lines.
        let narrow = try MapWindow(west: -180, south: -90, east: 180, north: 90, width: 540, maximumPixels: 1 << 20)
        let raster = MapRenderer.render(map, window: narrow, options: .init(showsTiles: true)).raster
        let legendBottom = raster.height - 4
        var linePixels = 0
        for y in 0..<(legendBottom - 70) {
            for x in 0..<raster.width where raster[x, y] == Self.style.tileLine || raster[x, y] == Self.style.splitLine { linePixels += 1 }
        }
        XCTAssertEqual(linePixels, 0)
        // The legend sits in the bottom-left corner: a frame in the tile-line colour around a white box.
        XCTAssertEqual(raster[3, raster.height - 4], Self.style.tileLine)
        XCTAssertEqual(raster[5, raster.height - 6], Self.style.halo)
    }

    func testPointsAreMarkedAndLabelledWithTheirAnswers() throws {
        let map = try Self.fixture()
        let points = [RenderPoint(latitude: 3, longitude: 4), RenderPoint(latitude: 0.5, longitude: 18.5), RenderPoint(latitude: 50, longitude: 50)]
        let rendered = MapRenderer.render(map, window: Self.window, options: .init(points: points))
        XCTAssertEqual(rendered.pointsDrawn, 2)
        XCTAssertEqual(rendered.pointsOutside, 1)
        let raster = rendered.raster
        // (3, 4) is pixel (40, 70): a cross in ink, in WEST, labelled WEST to its right.
        XCTAssertEqual(raster[40, 70], Self.style.ink)
        XCTAssertEqual(raster[43, 70], Self.style.ink)
        XCTAssertEqual(raster[40, 67], Self.style.ink)
        XCTAssertEqual(raster[41, 71], Self.style.halo)
        XCTAssertEqual(Self.inkPixels(in: raster, x: 46, y: 67, width: BitmapFont.width(of: "WEST"), height: BitmapFont.glyphHeight),
                       FontInk.pixels(of: "WEST"))
        // (0.5, 18.5) is pixel (185, 95), in no feature: a red cross labelled "-" (which fits on the right).
        XCTAssertEqual(raster[185, 95], Self.style.missInk)
        XCTAssertEqual(Self.inkPixels(in: raster, x: 191, y: 92, width: BitmapFont.width(of: "-"), height: BitmapFont.glyphHeight),
                       FontInk.pixels(of: "-"))
    }

    static func inkPixels(in raster: Raster, x: Int, y: Int, width: Int, height: Int) -> Int {
        var count = 0
        for row in y..<(y + height) {
            for column in x..<(x + width) where raster[column, row] == style.ink { count += 1 }
        }
        return count
    }

    func testFontHasADistinctGlyphForEveryPrintableCharacter() {
        var seen: [[UInt8]: Character] = [:]
        for code in 32..<127 {
            let character = Character(Unicode.Scalar(UInt8(code)))
            let glyph = BitmapFont.glyph(for: character)
            XCTAssertEqual(glyph.count, BitmapFont.glyphHeight)
            XCTAssert(glyph.allSatisfy { $0 < 1 << BitmapFont.glyphWidth }, "'\(character)' is 5 pixels wide")
            XCTAssertEqual(glyph.allSatisfy { $0 == 0 }, character == " ", "'\(character)' has ink")
            if let other = seen[glyph] { XCTFail("'\(character)' looks like '\(other)'") }
            seen[glyph] = character
            if character.isUppercase || character.isNumber {
                XCTAssertEqual(glyph[7], 0, "'\(character)' stays above the baseline")
                XCTAssertEqual(glyph[8], 0)
            }
        }
        // One glyph of each band of the font's art, bit for bit: the bands line up with their characters.
        XCTAssertEqual(BitmapFont.glyph(for: "-"), [0, 0, 0, 0b11111, 0, 0, 0, 0, 0])
        XCTAssertEqual(BitmapFont.glyph(for: ":"), [0, 0b01100, 0b01100, 0, 0b01100, 0b01100, 0, 0, 0])
        XCTAssertEqual(BitmapFont.glyph(for: "I"), [0b01110, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110, 0, 0])
        XCTAssertEqual(BitmapFont.glyph(for: "T"), [0b11111, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100, 0, 0])
        XCTAssertEqual(BitmapFont.glyph(for: "_"), [0, 0, 0, 0, 0, 0, 0, 0b11111, 0])
        XCTAssertEqual(BitmapFont.glyph(for: "g").suffix(2), [0b00001, 0b01110], "g has a descender")
        XCTAssertEqual(BitmapFont.glyph(for: "|"), [0b00100, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100, 0, 0])
        XCTAssertEqual(BitmapFont.glyph(for: "Ж"), BitmapFont.glyph(for: "東"), "other scripts are a box")
        XCTAssertNil(seen[BitmapFont.glyph(for: "Ж")])
        XCTAssertFalse(BitmapFont.covers("Ж"))
        XCTAssertEqual(BitmapFont.width(of: "US-TX"), 29)
        XCTAssertEqual(BitmapFont.width(of: ""), 0)
    }

    /// Every character of Latin-1 Supplement and Latin Extended-A (U+00A0…U+017F) has a glyph of
    /// its own: none is the box, and none looks like another character, except the few that are
    /// the same picture on purpose (a no-break space, a soft hyphen, Đ and Ð) and accented
    /// capitals whose 5-row form is their small letter's (Ö and ö).
    func testFontCoversLatin1AndLatinExtendedA() {
        let box = BitmapFont.glyph(for: "Ж")
        func sameOnPurpose(_ a: Character, _ b: Character) -> Bool {
            let pair = Set([a, b])
            return pair == [" ", "\u{A0}"] || pair == ["-", "\u{AD}"] || pair == ["Ð", "Đ"]
                || (a.isUppercase && String(a).lowercased() == String(b)) || (b.isUppercase && String(b).lowercased() == String(a))
        }
        var seen: [[UInt8]: Character] = [:]
        var sameCount = 0
        let characters = (32..<127).compactMap(Unicode.Scalar.init) + (0xA0...0x17F).compactMap(Unicode.Scalar.init)
        for scalar in characters {
            let character = Character(scalar)
            let glyph = BitmapFont.glyph(for: character)
            XCTAssertTrue(BitmapFont.covers(character), "U+\(String(scalar.value, radix: 16)) \(character)")
            XCTAssertNotEqual(glyph, box, "\(character) is not a box")
            XCTAssertEqual(glyph.count, BitmapFont.glyphHeight)
            XCTAssert(glyph.allSatisfy { $0 < 1 << BitmapFont.glyphWidth }, "'\(character)' is 5 pixels wide")
            XCTAssertEqual(glyph.allSatisfy { $0 == 0 }, character == " " || character == "\u{A0}", "'\(character)' has ink")
            if let other = seen[glyph] {
                XCTAssert(sameOnPurpose(other, character), "'\(character)' looks like '\(other)'")
                sameCount += 1
            } else {
                seen[glyph] = character
            }
        }
        XCTAssertLessThan(sameCount, 25, "only a few accented capitals look like their small letters")
        XCTAssertEqual(seen[BitmapFont.glyph(for: "ö")], "Ö")
        XCTAssertNotEqual(BitmapFont.glyph(for: "Ü"), BitmapFont.glyph(for: "ü"))
    }

    /// A letter with a mark is its letter with the mark drawn above (rows 0–1) or below (rows 7–8):
    /// a small letter keeps its x-height rows, a capital is 5 rows tall under a mark above and
    /// whole over a mark below; decomposed letters and other Latin letters are built the same way.
    func testAccentedLettersAreTheirLetterAndMark() {
        func rows(_ character: Character, _ range: Range<Int>) -> [UInt8] { Array(BitmapFont.glyph(for: character)[range]) }
        XCTAssertEqual(rows("ü", 2..<9), rows("u", 2..<9))
        XCTAssertEqual(rows("ü", 0..<2), [0b01010, 0])
        XCTAssertEqual(rows("é", 0..<2), [0b00010, 0b00100])
        XCTAssertEqual(rows("è", 0..<2), [0b01000, 0b00100])
        XCTAssertEqual(rows("í", 2..<7), rows("ı", 2..<7), "i loses its dot under a mark")
        XCTAssertEqual(rows("ç", 0..<7), rows("c", 0..<7))
        XCTAssertEqual(rows("Ç", 0..<7), rows("C", 0..<7), "a capital stays whole over a mark below")
        XCTAssertEqual(rows("Ç", 7..<9), [0b00100, 0b01100])
        XCTAssertEqual(rows("Ö", 2..<7), [0b01110, 0b10001, 0b10001, 0b10001, 0b01110], "O shrunk to 5 rows")
        XCTAssertEqual(rows("É", 2..<7), [0b11111, 0b10000, 0b11110, 0b10000, 0b11111])
        XCTAssertEqual(rows("Ö", 7..<9), [0, 0])
        XCTAssertEqual(BitmapFont.glyph(for: "u\u{308}"), BitmapFont.glyph(for: "ü"), "decomposed as precomposed")
        XCTAssertEqual(BitmapFont.glyph(for: "Ș"), rows("S", 0..<7) + [0b00100, 0b01000], "Latin Extended-B: S with a comma below")
        XCTAssertEqual(BitmapFont.glyph(for: "ơ"), BitmapFont.glyph(for: "o"), "a mark the font does not draw: the letter")
        XCTAssertEqual(BitmapFont.glyph(for: "’"), BitmapFont.glyph(for: "'"))
        XCTAssertEqual(BitmapFont.glyph(for: "–"), BitmapFont.glyph(for: "-"))
        // Names of the shipped map's towns draw without a box.
        for name in ["Zürich", "Charleville-Mézières", "Łódź", "Ústí nad Labem", "Nykøbing Falster", "Győr", "Şanlıurfa", "Côte d’Ivoire"] {
            XCTAssert(name.allSatisfy(BitmapFont.covers), name)
            XCTAssertFalse(name.contains { BitmapFont.glyph(for: $0) == BitmapFont.glyph(for: "Ж") }, name)
        }
        var raster = Raster(width: 40, height: 12, filledWith: Self.style.background)
        BitmapFont.draw("Zürich", x: 1, y: 1, colour: Self.style.ink, into: &raster)
        XCTAssertEqual(Self.inkPixels(in: raster, x: 0, y: 0, width: 40, height: 12), FontInk.pixels(of: "Zürich"))
        XCTAssertNotEqual(FontInk.pixels(of: "Zürich"), FontInk.pixels(of: "Zurich"))
    }

    func testWindowShapesAndLimits() throws {
        let world = try MapWindow(west: -180, south: -90, east: 180, north: 90, width: 1000, maximumPixels: MapRenderer.maximumPixels)
        XCTAssertEqual(world.height, 500)
        XCTAssertEqual(world.longitude(ofColumn: 0), -179.82, accuracy: 1e-9)
        XCTAssertEqual(world.latitude(ofRow: 499), -89.82, accuracy: 1e-9)
        XCTAssertEqual(world.pixel(latitude: 90, longitude: -180)?.x, 0)
        XCTAssertEqual(world.pixel(latitude: -90, longitude: 180)?.y, 499)
        XCTAssertNil(world.pixel(latitude: 0, longitude: 181))
        XCTAssertEqual(MapWindow.width(longerSide: 2048, west: -10, south: 0, east: 10, north: 40), 1024)
        XCTAssertThrowsError(try MapWindow(west: -180, south: -90, east: 180, north: 90, width: 10_000, maximumPixels: MapRenderer.maximumPixels)) { error in
            XCTAssertEqual(error as? RenderError, .tooManyPixels(width: 10_000, height: 5_000, limit: MapRenderer.maximumPixels))
            XCTAssert("\(error)".contains("a width of at most 5792"), "\(error)")
        }
        XCTAssertThrowsError(try MapWindow(west: 10, south: 0, east: 5, north: 1, width: 100, maximumPixels: 1 << 20)) { error in
            XCTAssert("\(error)".contains("west must be less than east"), "\(error)")
        }
        XCTAssertThrowsError(try MapWindow(west: 0, south: 0, east: 1e-300, north: 90, width: 100, maximumPixels: 1 << 20))
        XCTAssertThrowsError(try MapWindow(west: 0, south: -91, east: 1, north: 1, width: 100, maximumPixels: 1 << 20))
        XCTAssertThrowsError(try MapWindow(west: 0, south: 0, east: 1, north: 1, width: 0, maximumPixels: 1 << 20))
    }

    func testShippedWorldMapRendersAsItAnswers() throws {
        let map = try GMap(contentsOf: TestSupport.repositoryRoot.appendingPathComponent("Sources/GMapWorld/Resources/world.gmap").path)
        let window = try MapWindow(west: -180, south: -90, east: 180, north: 90, width: 720, maximumPixels: MapRenderer.maximumPixels)
        let rendered = MapRenderer.render(map, window: window, options: .init(threads: 2))
        XCTAssertGreaterThan(rendered.featuresDrawn, 150)
        let encoded = PNGEncoder.encode(rendered.raster)
        let image = try PNGTestDecoder.decode(encoded.bytes)
        XCTAssert(image.pixels == rendered.raster.pixels)
        // Every pixel is the background exactly where a lookup of its centre finds nothing.
        for y in stride(from: 0, to: window.height, by: 7) {
            for x in stride(from: 0, to: window.width, by: 3) {
                let point = Self.centre(x: x, y: y, of: window)
                let found = map.lookup(latitude: point.latitude, longitude: point.longitude) != nil
                XCTAssertEqual(image.pixel(x, y) != Self.style.background, found, "pixel (\(x), \(y)) at \(point)")
            }
        }
        // A flat map compresses far: under a tenth of its filtered rows.
        XCTAssertLessThan(encoded.bytes.count * 10, encoded.imageDataLength)
    }

    /// The shipped map's towns: dots, without names unless asked for; 1-pixel dots over the world,
    /// where there are more than one for every 400 pixels, 3 × 3 dots with a halo over the sparse
    /// towns of northern Canada.
    func testTownsAreDotsAndNamedOnlyWithLabels() throws {
        let map = try GMap(contentsOf: TestSupport.shippedMap)
        let towns = try XCTUnwrap(map.layer(named: "towns"))
        func count(_ raster: Raster, _ colour: RGBColour) -> Int { raster.pixels.reduce(0) { $0 + ($1 == colour ? 1 : 0) } }
        let world = try MapWindow(west: -180, south: -90, east: 180, north: 90, width: 1200, maximumPixels: MapRenderer.maximumPixels)
        let dots = MapRenderer.render(map, window: world, options: .init(threads: 2, overlays: [towns]))
        XCTAssertEqual(dots.mapPointsDrawn, towns.featureCount)
        XCTAssertGreaterThan(count(dots.raster, Self.style.pointInk), 5_000, "a pixel for each town, some shared")
        XCTAssertEqual(count(dots.raster, Self.style.halo), 0, "no halo, no names")
        XCTAssertEqual(count(dots.raster, Self.style.ink), 0)
        let named = MapRenderer.render(map, window: world, options: .init(threads: 2, overlays: [towns], labels: true))
        XCTAssertGreaterThan(count(named.raster, Self.style.ink), 10_000, "names")
        XCTAssertGreaterThan(count(named.raster, Self.style.halo), 10_000)
        let north = try MapWindow(west: -130, south: 60, east: -90, north: 70, width: 900, maximumPixels: MapRenderer.maximumPixels)
        let sparse = MapRenderer.render(map, window: north, options: .init(threads: 2, overlays: [towns]))
        XCTAssertGreaterThan(sparse.mapPointsDrawn, 3)
        XCTAssertLessThan(sparse.mapPointsDrawn * 400, 900 * 750)
        XCTAssertEqual(Double(count(sparse.raster, Self.style.pointInk)), Double(9 * sparse.mapPointsDrawn), accuracy: Double(9 * sparse.mapPointsDrawn) / 5,
                       "3 × 3 dots (a few overlap)")
        XCTAssertEqual(count(sparse.raster, Self.style.ink), 0)
    }

    /// With tiles, the legend is drawn last and names keep out of it: its rectangle is the same
    /// with and without names and points, and no name's ink touches its frame.
    func testNothingCoversTheLegend() throws {
        let map = try GMap(contentsOf: TestSupport.shippedMap)
        let towns = try XCTUnwrap(map.layer(named: "towns"))
        // Benelux at 900 pixels: Beauvais and Cergy lie by the legend in the bottom-left corner, and
        // so do the two points marked (under it: the legend hides their crosses and labels).
        let window = try MapWindow(west: 2, south: 49, east: 8, north: 54, width: 900, maximumPixels: MapRenderer.maximumPixels)
        let points = [RenderPoint(latitude: 49.05, longitude: 2.1), RenderPoint(latitude: 49.2, longitude: 2.2)]
        let plain = MapRenderer.render(map, window: window, options: .init(showsTiles: true, threads: 2)).raster
        let busy = MapRenderer.render(map, window: window, options: .init(showsTiles: true, points: points, threads: 2, overlays: [towns], labels: true)).raster
        // The legend's frame: 64 × 55 pixels, 3 pixels from the left edge and from the bottom.
        let frame = (x: 3, y: busy.height - 58, width: 64, height: 55)
        XCTAssertEqual(busy[frame.x, frame.y], Self.style.tileLine)
        XCTAssertEqual(busy[frame.x + frame.width - 1, frame.y + frame.height - 1], Self.style.tileLine)
        XCTAssertEqual(busy[frame.x + frame.width, frame.y + frame.height], plain[frame.x + frame.width, frame.y + frame.height])
        var inkAround = 0
        for y in (frame.y - 1)...(frame.y + frame.height) {
            for x in (frame.x - 1)...(frame.x + frame.width) {
                let inside = x >= frame.x && x < frame.x + frame.width && y >= frame.y && y < frame.y + frame.height
                if inside {
                    XCTAssertEqual(busy[x, y], plain[x, y], "legend pixel (\(x), \(y))")
                } else if busy[x, y] == Self.style.ink {
                    inkAround += 1
                }
            }
        }
        XCTAssertEqual(inkAround, 0, "no name runs into the legend")
        XCTAssertGreaterThan(busy.pixels.filter { $0 == Self.style.ink }.count, 1_000, "names elsewhere")
    }
}
