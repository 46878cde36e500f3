/// The point sets of a bench as text: what `--save-points` writes and what `--c-reader` hands the
/// C reader (`gmap_ref MAP --bench FILE` reads the same layout).
enum SavedPoints {
    /// Bytes handed to `write` at a time, about.
    static let chunkBytes = 1 << 20

    /// Writes `sets` through `write` in chunks: per set a line "# NAME: N points", then one
    /// "lat,lon" line per point, each number as Swift prints a `Double` (it reads back as the
    /// same value, in Swift and with C's `strtod`).
    static func write(_ sets: [(name: String, points: [BenchPoint])], _ write: ([UInt8]) throws -> Void) throws {
        var chunk: [UInt8] = []
        chunk.reserveCapacity(chunkBytes + 128)
        for (name, points) in sets {
            chunk.append(contentsOf: "# \(name): \(points.count) points\n".utf8)
            for point in points {
                chunk.append(contentsOf: "\(point.latitude),\(point.longitude)\n".utf8)
                if chunk.count >= chunkBytes {
                    try write(chunk)
                    chunk.removeAll(keepingCapacity: true)
                }
            }
        }
        if !chunk.isEmpty { try write(chunk) }
    }

    /// `points` as "lat lon" lines with six decimals (about 11 cm), the common form of batch input,
    /// which ``FastCoordinate`` reads without the general parser.
    static func batchLines(_ points: some Collection<BenchPoint>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(points.count * 24)
        for point in points {
            appendDecimal(point.latitude, to: &bytes)
            bytes.append(0x20)
            appendDecimal(point.longitude, to: &bytes)
            bytes.append(0x0A)
        }
        return bytes
    }

    /// `value` (at most 180 in magnitude) with exactly six decimals, "-" before a negative one
    /// that does not round to zero.
    static func appendDecimal(_ value: Double, to bytes: inout [UInt8]) {
        let scaled = UInt64((abs(value) * 1e6).rounded())
        if value < 0, scaled > 0 { bytes.append(0x2D) }
        bytes.append(contentsOf: String(scaled / 1_000_000).utf8)
        bytes.append(0x2E)
        let fraction = scaled % 1_000_000
        var divisor: UInt64 = 100_000
        while divisor > 0 {
            bytes.append(0x30 + UInt8(fraction / divisor % 10))
            divisor /= 10
        }
    }
}
