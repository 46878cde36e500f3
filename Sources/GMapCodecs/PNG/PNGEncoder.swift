import GMapChecksum

/// Writes a ``Raster`` as a PNG file (PNG specification, third edition): signature, IHDR, PLTE
/// for a palette, IDAT chunks of zlib-compressed filtered rows, IEND.
///
/// A raster of at most 256 colours becomes an indexed-colour image (colour type 3) with the
/// smallest bit depth that holds its palette (1, 2, 4 or 8 bits per pixel); any other becomes
/// 8-bit RGB (colour type 2). By default the image data is compressed three ways — every row
/// unfiltered, every row filtered Up, and each row with the filter whose output has the smallest
/// sum of absolute byte values (the usual heuristic) — and the smallest is kept: flat maps with
/// a palette compress best unfiltered, zoomed-in ones with Up.
public enum PNGEncoder {
    /// The eight bytes every PNG file starts with.
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// The most image data one IDAT chunk holds.
    public static let idatChunkLength = 1 << 16

    /// How rows are filtered.
    public enum FilterChoice: Sendable, Equatable {
        /// Whichever of ``always(_:)`` with `.none`, `.up` and ``adaptive`` compresses smallest.
        case smallest
        /// Per row, the filter with the smallest sum of absolute (signed) output bytes.
        case adaptive
        /// The same filter for every row.
        case always(PNGRowFilter)
    }

    /// How the image is written.
    public struct Options: Sendable, Equatable {
        /// How rows are filtered.
        public var filter: FilterChoice
        /// How the image data is compressed.
        public var deflate: DeflateEncoder.Settings

        /// Options from their parts.
        public init(filter: FilterChoice = .smallest, deflate: DeflateEncoder.Settings = .best) {
            self.filter = filter
            self.deflate = deflate
        }
    }

    /// A written image and what was chosen for it.
    public struct Encoded: Sendable {
        /// The PNG file.
        public var bytes: [UInt8]
        /// The palette's size for an indexed-colour image; nil for RGB.
        public var paletteSize: Int?
        /// Bits per palette index or per channel.
        public var bitDepth: Int
        /// The filtered rows before compression (the zlib stream's content).
        public var imageDataLength: Int
    }

    /// The PNG file of `raster`.
    public static func encode(_ raster: Raster, options: Options = Options()) -> Encoded {
        let palette = raster.colours(limit: 256)
        let bitDepth: Int
        if let palette {
            bitDepth = palette.count <= 2 ? 1 : palette.count <= 4 ? 2 : palette.count <= 16 ? 4 : 8
        } else {
            bitDepth = 8
        }
        let rows = scanlines(raster, palette: palette, bitDepth: bitDepth)
        let choices: [FilterChoice] = options.filter == .smallest ? [.always(.none), .always(.up), .adaptive] : [options.filter]
        var filtered: [UInt8] = [], compressed: [UInt8] = []
        for choice in choices {
            let candidate = filter(rows: rows.bytes, rowLength: rows.rowLength, height: raster.height,
                                   bytesPerPixel: palette == nil ? 3 : 1, choice: choice)
            var settings = options.deflate
            settings.candidateDistances += [1, rows.rowLength + 1]  // the byte before, the row above
            let stream = ZlibStream.compress(candidate, settings: settings)
            if compressed.isEmpty || stream.count < compressed.count {
                filtered = candidate
                compressed = stream
            }
        }
        var file = signature
        var header: [UInt8] = []
        header += bigEndian(UInt32(raster.width))
        header += bigEndian(UInt32(raster.height))
        header += [UInt8(bitDepth), palette == nil ? 2 : 3, 0, 0, 0]  // depth, colour type, deflate, adaptive filtering, no interlace
        appendChunk("IHDR", header, to: &file)
        if let palette {
            appendChunk("PLTE", palette.flatMap { [$0.red, $0.green, $0.blue] }, to: &file)
        }
        var start = 0
        repeat {
            let end = min(start + idatChunkLength, compressed.count)
            appendChunk("IDAT", Array(compressed[start..<end]), to: &file)
            start = end
        } while start < compressed.count
        appendChunk("IEND", [], to: &file)
        return Encoded(bytes: file, paletteSize: palette?.count, bitDepth: bitDepth, imageDataLength: filtered.count)
    }

    /// The unfiltered rows: palette indexes packed most significant bits first, or RGB triples.
    private static func scanlines(_ raster: Raster, palette: [RGBColour]?, bitDepth: Int) -> (bytes: [UInt8], rowLength: Int) {
        let width = raster.width, height = raster.height
        guard let palette else {
            var bytes = [UInt8](repeating: 0, count: width * 3 * height)
            for (index, pixel) in raster.pixels.enumerated() {
                bytes[index * 3] = pixel.red
                bytes[index * 3 + 1] = pixel.green
                bytes[index * 3 + 2] = pixel.blue
            }
            return (bytes, width * 3)
        }
        var indexOf: [UInt32: UInt8] = [:]
        for (index, colour) in palette.enumerated() { indexOf[colour.hex] = UInt8(index) }
        let rowLength = (width * bitDepth + 7) / 8, perByte = 8 / bitDepth
        var bytes = [UInt8](repeating: 0, count: rowLength * height)
        var lastColour: UInt32 = .max, lastIndex: UInt8 = 0
        for y in 0..<height {
            for x in 0..<width {
                let key = raster.pixels[y * width + x].hex
                if key != lastColour {
                    lastColour = key
                    lastIndex = indexOf[key] ?? 0
                }
                let shift = 8 - bitDepth * (x % perByte + 1)
                bytes[y * rowLength + x / perByte] |= lastIndex << UInt8(shift)
            }
        }
        return (bytes, rowLength)
    }

    /// Each row preceded by its filter type byte.
    private static func filter(rows: [UInt8], rowLength: Int, height: Int, bytesPerPixel: Int, choice: FilterChoice) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: (rowLength + 1) * height)
        guard rowLength > 0 else { return output }
        let zeros = [UInt8](repeating: 0, count: rowLength)
        var candidate = [UInt8](repeating: 0, count: rowLength)
        rows.withUnsafeBufferPointer { rows in
            zeros.withUnsafeBufferPointer { zeros in
                output.withUnsafeMutableBufferPointer { output in
                    candidate.withUnsafeMutableBufferPointer { candidate in
                        for y in 0..<height {
                            let row = UnsafeBufferPointer(rebasing: rows[(y * rowLength)..<((y + 1) * rowLength)])
                            let previous = y == 0 ? zeros : UnsafeBufferPointer(rebasing: rows[((y - 1) * rowLength)..<(y * rowLength)])
                            let target = UnsafeMutableBufferPointer(rebasing: output[(y * (rowLength + 1) + 1)..<((y + 1) * (rowLength + 1))])
                            let chosen: PNGRowFilter
                            switch choice {
                            case .always(let filter):
                                chosen = filter
                                filter.apply(row, previous: previous, bytesPerPixel: bytesPerPixel, into: target)
                            case .adaptive, .smallest:
                                var best = Int.max, bestFilter = PNGRowFilter.none
                                for filter in PNGRowFilter.allCases {
                                    filter.apply(row, previous: previous, bytesPerPixel: bytesPerPixel, into: candidate)
                                    var sum = 0
                                    for byte in candidate { sum += abs(Int(Int8(bitPattern: byte))) }
                                    if sum < best {
                                        best = sum
                                        bestFilter = filter
                                        _ = target.update(fromContentsOf: candidate)
                                    }
                                }
                                chosen = bestFilter
                            }
                            output[y * (rowLength + 1)] = chosen.rawValue
                        }
                    }
                }
            }
        }
        return output
    }

    /// Appends a chunk: length, type, data, and the CRC-32 of type and data.
    private static func appendChunk(_ type: String, _ data: [UInt8], to file: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        file += bigEndian(UInt32(data.count))
        var crc = CRC32()
        crc.update(typeBytes)
        crc.update(data)
        file += typeBytes
        file += data
        file += bigEndian(crc.value)
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }
}
