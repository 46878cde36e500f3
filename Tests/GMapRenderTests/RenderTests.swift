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
        XCTAssertEqual(BitmapFont.glyph(for: "é"), BitmapFont.glyph(for: "ø"), "other characters are a box")
        XCTAssertNil(seen[BitmapFont.glyph(for: "é")])
        XCTAssertEqual(BitmapFont.width(of: "US-TX"), 29)
        XCTAssertEqual(BitmapFont.width(of: ""), 0)
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
}
