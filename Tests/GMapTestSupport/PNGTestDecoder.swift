import XCTest
import GMap
import GMapBuilder
import GMapCodecs

/// A PNG reader for the tests, written from the PNG specification apart from the encoder: it checks
/// every chunk's CRC-32, the IHDR fields and the zlib framing (with its own Adler-32), inflates the
/// image data with the project's inflater, and undoes all five row filters.
package struct PNGTestDecoder {
    package struct Chunk {
        package var type: String
        package var data: [UInt8]
    }

    package struct Image {
        package var width: Int, height: Int
        package var bitDepth: Int, colourType: Int
        package var palette: [RGBColour]?
        package var pixels: [RGBColour]
        package var filters: [UInt8]
        package var chunks: [Chunk]

        package func pixel(_ x: Int, _ y: Int) -> RGBColour { pixels[y * width + x] }
    }

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    package static func bigEndian(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The chunks of a PNG file, each CRC checked.
    package static func chunks(_ file: [UInt8]) throws -> [Chunk] {
        guard file.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { throw Failure(description: "no PNG signature") }
        var chunks: [Chunk] = []
        var offset = 8
        while offset < file.count {
            guard offset + 12 <= file.count else { throw Failure(description: "chunk header cut at \(offset)") }
            let length = Int(bigEndian(file[offset..<(offset + 4)]))
            guard offset + 12 + length <= file.count else { throw Failure(description: "chunk data cut at \(offset)") }
            let typeAndData = Array(file[(offset + 4)..<(offset + 8 + length)])
            let stored = bigEndian(file[(offset + 8 + length)..<(offset + 12 + length)])
            let type = String(decoding: typeAndData.prefix(4), as: UTF8.self)
            guard CRC32.checksum(typeAndData) == stored else { throw Failure(description: "bad CRC in chunk \(type) at \(offset)") }
            chunks.append(Chunk(type: type, data: Array(typeAndData.dropFirst(4))))
            offset += 12 + length
        }
        return chunks
    }

    package static func decode(_ file: [UInt8]) throws -> Image {
        let chunks = try chunks(file)
        guard chunks.first?.type == "IHDR", chunks.last?.type == "IEND", chunks.last?.data.isEmpty == true else {
            throw Failure(description: "chunks must run IHDR … IEND, got \(chunks.map(\.type))")
        }
        let header = chunks[0].data
        guard header.count == 13 else { throw Failure(description: "IHDR of \(header.count) bytes") }
        let width = Int(bigEndian(header[0..<4])), height = Int(bigEndian(header[4..<8]))
        let bitDepth = Int(header[8]), colourType = Int(header[9])
        guard width > 0, height > 0, header[10] == 0, header[11] == 0, header[12] == 0 else {
            throw Failure(description: "IHDR fields \(header)")
        }
        let types = chunks.map(\.type)
        var palette: [RGBColour]?
        if let plte = chunks.first(where: { $0.type == "PLTE" }) {
            guard let plteIndex = types.firstIndex(of: "PLTE"), let idatIndex = types.firstIndex(of: "IDAT"), plteIndex < idatIndex else {
                throw Failure(description: "PLTE after IDAT")
            }
            palette = stride(from: 0, to: plte.data.count, by: 3).map { RGBColour(red: plte.data[$0], green: plte.data[$0 + 1], blue: plte.data[$0 + 2]) }
        }
        // IDAT chunks must be consecutive.
        let idats = types.indices.filter { types[$0] == "IDAT" }
        guard let firstIDAT = idats.first, idats == Array(firstIDAT..<(firstIDAT + idats.count)) else { throw Failure(description: "IDAT chunks not consecutive: \(types)") }
        let stream = idats.flatMap { chunks[$0].data }
        guard stream.count >= 6, (UInt16(stream[0]) << 8 | UInt16(stream[1])) % 31 == 0, stream[0] & 0x0F == 8, stream[1] & 0x20 == 0 else {
            throw Failure(description: "bad zlib header")
        }
        let data = try Deflate.inflate(Array(stream.dropFirst(2)))
        guard bigEndian(stream.suffix(4)) == ReferenceChecksums.adler32(data) else { throw Failure(description: "bad Adler-32") }
        let channels: Int
        switch colourType {
        case 2: channels = 3
        case 3: channels = 1
        default: throw Failure(description: "colour type \(colourType)")
        }
        let bitsPerPixel = channels * bitDepth
        let rowLength = (width * bitsPerPixel + 7) / 8, bytesPerPixel = max(1, bitsPerPixel / 8)
        guard data.count == (rowLength + 1) * height else { throw Failure(description: "image data of \(data.count) bytes, expected \((rowLength + 1) * height)") }
        var previous = [UInt8](repeating: 0, count: rowLength)
        var pixels: [RGBColour] = []
        var filters: [UInt8] = []
        for y in 0..<height {
            let start = y * (rowLength + 1)
            let filter = data[start]
            filters.append(filter)
            var row = Array(data[(start + 1)..<(start + 1 + rowLength)])
            for i in 0..<rowLength {
                let left = i >= bytesPerPixel ? Int(row[i - bytesPerPixel]) : 0
                let above = Int(previous[i]), upperLeft = i >= bytesPerPixel ? Int(previous[i - bytesPerPixel]) : 0
                let prediction: Int
                switch filter {
                case 0: prediction = 0
                case 1: prediction = left
                case 2: prediction = above
                case 3: prediction = (left + above) / 2
                case 4:
                    let p = left + above - upperLeft
                    let pa = abs(p - left), pb = abs(p - above), pc = abs(p - upperLeft)
                    prediction = pa <= pb && pa <= pc ? left : pb <= pc ? above : upperLeft
                default: throw Failure(description: "filter type \(filter) in row \(y)")
                }
                row[i] = UInt8(truncatingIfNeeded: Int(row[i]) + prediction)
            }
            for x in 0..<width {
                if let palette {
                    let bit = x * bitDepth
                    let index = Int(row[bit / 8] >> UInt8(8 - bitDepth - bit % 8)) & ((1 << bitDepth) - 1)
                    guard index < palette.count else { throw Failure(description: "palette index \(index) of \(palette.count)") }
                    pixels.append(palette[index])
                } else {
                    pixels.append(RGBColour(red: row[x * 3], green: row[x * 3 + 1], blue: row[x * 3 + 2]))
                }
            }
            previous = row
        }
        return Image(width: width, height: height, bitDepth: bitDepth, colourType: colourType, palette: palette, pixels: pixels,
                     filters: filters, chunks: chunks)
    }
}
