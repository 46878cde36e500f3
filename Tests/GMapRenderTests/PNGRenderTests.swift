import XCTest
import GMap
import GMapBuilder
import GMapCodecs
import GMapRender
import GMapTestSupport

/// The PNG writer: chunk structure and CRCs, IHDR fields, palette and RGB images at every bit
/// depth, every row filter, and image data spread over several IDAT chunks, all read back by an
/// independent decoder.
final class PNGRenderTests: XCTestCase {
    /// A raster of `colourCount` distinct colours placed at random.
    static func raster(width: Int, height: Int, colourCount: Int, seed: UInt64) -> Raster {
        var random = SplitMix64(state: seed)
        let colours = (0..<colourCount).map { RGBColour(hex: UInt32(truncatingIfNeeded: $0 &* 2_654_435_761) & 0xFFFFFF) }
        var raster = Raster(width: width, height: height, filledWith: colours[0])
        for y in 0..<height {
            for x in 0..<width { raster[x, y] = colours[random.below(colourCount)] }
        }
        // Every colour at least once.
        for (index, colour) in colours.enumerated() { raster[index % width, (index / width) % height] = colour }
        return raster
    }

    func testChunksHeaderAndCRCs() throws {
        let raster = Self.raster(width: 37, height: 11, colourCount: 5, seed: 1)
        let encoded = PNGEncoder.encode(raster)
        XCTAssertEqual(Array(encoded.bytes.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let chunks = try PNGTestDecoder.chunks(encoded.bytes)
        XCTAssertEqual(chunks.map(\.type), ["IHDR", "PLTE", "IDAT", "IEND"])
        XCTAssertEqual(chunks[0].data, [0, 0, 0, 37, 0, 0, 0, 11, 4, 3, 0, 0, 0], "width, height, 4-bit palette, deflate, no interlace")
        XCTAssertEqual(chunks[1].data.count, 15)
        XCTAssertEqual(encoded.paletteSize, 5)
        XCTAssertEqual(encoded.bitDepth, 4)
        XCTAssertEqual(encoded.imageDataLength, 11 * (1 + 19))
        // A damaged byte anywhere in a chunk is caught by its CRC.
        var damaged = encoded.bytes
        damaged[8 + 8 + 5] ^= 0x01
        XCTAssertThrowsError(try PNGTestDecoder.chunks(damaged))
        // The CRC of IEND (no data) is the well-known AE426082.
        XCTAssertEqual(Array(encoded.bytes.suffix(4)), [0xAE, 0x42, 0x60, 0x82])
    }

    func testEveryBitDepthAndFilterReadsBack() throws {
        let cases: [(colours: Int, depth: Int, type: Int)] = [
            (1, 1, 3), (2, 1, 3), (3, 2, 3), (4, 2, 3), (5, 4, 3), (16, 4, 3), (17, 8, 3), (256, 8, 3), (257, 8, 2), (1000, 8, 2),
        ]
        let choices: [PNGEncoder.FilterChoice] = [.adaptive] + PNGRowFilter.allCases.map { .always($0) }
        for (index, item) in cases.enumerated() {
            for width in [1, 13, 64] {
                let height = max(9, (item.colours + width - 1) / width)  // room for every colour
                let raster = Self.raster(width: width, height: height, colourCount: item.colours, seed: UInt64(index * 100 + width))
                XCTAssertEqual(raster.colours(limit: 2_000)?.count, item.colours)
                for choice in choices {
                    let encoded = PNGEncoder.encode(raster, options: .init(filter: choice))
                    let image = try PNGTestDecoder.decode(encoded.bytes)
                    XCTAssertEqual(image.bitDepth, item.depth, "\(item.colours) colours")
                    XCTAssertEqual(image.colourType, item.type, "\(item.colours) colours")
                    XCTAssertEqual(image.width, raster.width)
                    XCTAssertEqual(image.height, raster.height)
                    XCTAssert(image.pixels == raster.pixels, "\(item.colours) colours, width \(width), \(choice)")
                    if case .always(let filter) = choice { XCTAssertEqual(Set(image.filters), [filter.rawValue]) }
                }
            }
        }
    }

    func testLargeImageSpansSeveralIDATChunks() throws {
        let raster = Self.raster(width: 300, height: 300, colourCount: 5_000, seed: 9)
        let encoded = PNGEncoder.encode(raster, options: .init(deflate: .fast))
        let image = try PNGTestDecoder.decode(encoded.bytes)
        let idats = image.chunks.filter { $0.type == "IDAT" }
        XCTAssertGreaterThan(idats.count, 2)
        XCTAssert(idats.dropLast().allSatisfy { $0.data.count == PNGEncoder.idatChunkLength })
        XCTAssertEqual(image.colourType, 2)
        XCTAssert(image.pixels == raster.pixels)
    }

    func testRepeatedRowsAreFilteredUpAndCompressFar() throws {
        var raster = Raster(width: 500, height: 200, filledWith: .white)
        for x in 0..<500 { raster[x, 0] = RGBColour(hex: UInt32(x % 7) * 0x242424) }
        for y in 1..<200 {
            for x in 0..<500 { raster[x, y] = raster[x, 0] }
        }
        let adaptive = PNGEncoder.encode(raster, options: .init(filter: .adaptive))
        let image = try PNGTestDecoder.decode(adaptive.bytes)
        XCTAssert(image.filters.dropFirst().allSatisfy { $0 == PNGRowFilter.up.rawValue }, "rows equal to the one above filter to zeros")
        XCTAssert(image.pixels == raster.pixels)
        // The default keeps the smallest of unfiltered, Up and adaptive.
        let encoded = PNGEncoder.encode(raster)
        XCTAssert(try PNGTestDecoder.decode(encoded.bytes).pixels == raster.pixels)
        for choice in [PNGEncoder.FilterChoice.adaptive, .always(.none), .always(.up)] {
            XCTAssertLessThanOrEqual(encoded.bytes.count, PNGEncoder.encode(raster, options: .init(filter: choice)).bytes.count, "\(choice)")
        }
        XCTAssertLessThan(encoded.bytes.count, 1_000, "100,000 pixels of repeated rows")
    }
}
