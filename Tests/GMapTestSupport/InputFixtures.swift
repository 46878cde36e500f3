import Foundation
import GMap
import GMapBuilder
import GMapCodecs

/// Builds small gzip, ZIP and shapefile inputs from bytes in code, for the input-format tests.
package enum InputFixtures {
    // MARK: - DEFLATE and gzip

    /// A valid raw DEFLATE stream of `data` made only of stored blocks (at most 65,535 bytes each).
    package static func storedDeflate(_ data: [UInt8], blockSize: Int = 65_535) -> [UInt8] {
        var out: [UInt8] = []
        var start = 0
        repeat {
            let end = min(start + blockSize, data.count)
            let length = end - start
            out.append(end == data.count ? 1 : 0)  // BFINAL, BTYPE 00, then byte-aligned
            out += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
            out += data[start..<end]
            start = end
        } while start < data.count
        return out
    }

    /// A gzip member around the raw DEFLATE stream `deflate` of `original`, with optional header fields.
    package static func gzip(deflate: [UInt8], original: [UInt8], name: String? = nil, comment: String? = nil,
                     extra: [UInt8]? = nil, headerChecksum: Bool = false) -> [UInt8] {
        var flags: UInt8 = 0
        if headerChecksum { flags |= 0x02 }
        if extra != nil { flags |= 0x04 }
        if name != nil { flags |= 0x08 }
        if comment != nil { flags |= 0x10 }
        var out: [UInt8] = [0x1F, 0x8B, 8, flags, 0, 0, 0, 0, 0, 3]
        if let extra { out += [UInt8(extra.count & 0xFF), UInt8(extra.count >> 8)] + extra }
        if let name { out += Array(name.utf8) + [0] }
        if let comment { out += Array(comment.utf8) + [0] }
        if headerChecksum {
            let crc = CRC32.checksum(out)
            out += [UInt8(crc & 0xFF), UInt8((crc >> 8) & 0xFF)]
        }
        out += deflate
        out += littleEndian(UInt32(CRC32.checksum(original)), bytes: 4)
        out += littleEndian(UInt32(truncatingIfNeeded: original.count), bytes: 4)
        return out
    }

    /// `value`'s low `bytes` bytes, least significant first.
    package static func littleEndian<T: BinaryInteger>(_ value: T, bytes: Int) -> [UInt8] {
        (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    /// `value` as 4 bytes, most significant first.
    package static func bigEndian32(_ value: Int) -> [UInt8] {
        (0..<4).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    /// Compresses `data` with the system's `gzip` (nil when there is no gzip to run).
    package static func systemGzip(_ data: [UInt8], level: Int = 6) -> [UInt8]? {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gmap-gzip-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("data"), output = directory.appendingPathComponent("data.gz")
        guard (try? Data(data).write(to: input)) != nil else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "command -v gzip >/dev/null && gzip -\(level) -n -c '\(input.path)' > '\(output.path)'"]
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        guard process.terminationStatus == 0, let bytes = try? Data(contentsOf: output) else { return nil }
        return Array(bytes)
    }

    /// Reads a byte source to its end.
    package static func drain(_ source: any ByteSource, chunk: Int = 1 << 16) throws -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: chunk)
        while true {
            let got = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            if got == 0 { return result }
            result += buffer[0..<got]
        }
    }

    // MARK: - Bombs

    /// Raw DEFLATE (one fixed-Huffman block) of `prefix`, then `repeats` × 258 copies of the prefix's
    /// last byte, then `suffix`: 13 bits for each 258 bytes, so gigabytes take a few megabytes.
    /// `prefix` must not be empty; its bytes and the suffix's are written as literals.
    package static func repeatingDeflate(prefix: [UInt8], repeats: Int, suffix: [UInt8]) -> [UInt8] {
        var bits = LSBBitPacker()
        bits.write(1, count: 1)  // BFINAL
        bits.write(1, count: 2)  // BTYPE 01: fixed Huffman
        func literal(_ byte: UInt8) {
            if byte < 144 { bits.writeCode(0x30 + Int(byte), length: 8) } else { bits.writeCode(0x190 + Int(byte) - 144, length: 9) }
        }
        prefix.forEach(literal)
        for _ in 0..<repeats {
            bits.writeCode(0xC0 + 285 - 280, length: 8)  // length 258
            bits.writeCode(0, length: 5)  // distance code 0: distance 1
        }
        suffix.forEach(literal)
        bits.writeCode(0, length: 7)  // end of block (256)
        return bits.bytes()
    }

    /// Bits packed least significant first, as DEFLATE stores them.
    private struct LSBBitPacker {
        private var out: [UInt8] = []
        private var accumulator: UInt64 = 0
        private var count = 0

        /// Writes the low `count` bits of `value`, least significant first (header fields).
        mutating func write(_ value: Int, count bitCount: Int) {
            accumulator |= UInt64(value) << UInt64(count)
            count += bitCount
            while count >= 8 {
                out.append(UInt8(truncatingIfNeeded: accumulator))
                accumulator >>= 8
                count -= 8
            }
        }

        /// Writes a Huffman code of `length` bits, most significant bit first.
        mutating func writeCode(_ code: Int, length: Int) {
            var reversed = 0
            for bit in 0..<length where code & (1 << bit) != 0 { reversed |= 1 << (length - 1 - bit) }
            write(reversed, count: length)
        }

        func bytes() -> [UInt8] {
            count > 0 ? out + [UInt8(truncatingIfNeeded: accumulator)] : out
        }
    }

    /// gzip members, one after another (as `cat a.gz b.gz` makes): `head`, then `unit` `repeats`
    /// times (compressed once), then `tail`. A few MB can hold gigabytes.
    package static func gzipMembers(head: [UInt8], unit: [UInt8], repeats: Int, tail: [UInt8]) -> [UInt8] {
        func member(_ data: [UInt8]) -> [UInt8] { gzip(deflate: DeflateEncoder.compress(data, settings: .fast), original: data) }
        let repeated = member(unit)
        var out = member(head)
        out.reserveCapacity(out.count + repeated.count * repeats + 64)
        for _ in 0..<repeats { out += repeated }
        return out + member(tail)
    }

    // MARK: - ZIP

    /// One file to put in a ZIP archive.
    package struct ZipMember {
        package var name: String
        package var data: [UInt8]
        /// 0 stored, 8 deflate (the data is then stored-block DEFLATE unless `deflated` is given).
        package var method: Int = 0
        /// Precomputed raw DEFLATE data for method 8.
        package var deflated: [UInt8]? = nil
        package var flags: Int = 0
        /// The size and CRC-32 the headers declare, instead of `data`'s (for an entry whose data is
        /// too large to hold: give `deflated` and leave `data` empty).
        package var declared: (size: Int, checksum: UInt32)? = nil

        package init(name: String, data: [UInt8], method: Int = 0, deflated: [UInt8]? = nil, flags: Int = 0,
                     declared: (size: Int, checksum: UInt32)? = nil) {
            self.name = name
            self.data = data
            self.method = method
            self.deflated = deflated
            self.flags = flags
            self.declared = declared
        }
    }

    /// A ZIP archive of `members`, with a central directory.
    package static func zip(_ members: [ZipMember], comment: String = "") -> [UInt8] {
        var out: [UInt8] = [], directory: [UInt8] = []
        for member in members {
            let payload = member.method == 8 ? (member.deflated ?? storedDeflate(member.data)) : member.data
            let name = Array(member.name.utf8), crc = member.declared?.checksum ?? CRC32.checksum(member.data)
            let size = member.declared?.size ?? member.data.count
            let offset = out.count
            func fields() -> [UInt8] {
                littleEndian(member.flags, bytes: 2) + littleEndian(member.method, bytes: 2) + [0, 0, 0x21, 0]
                    + littleEndian(crc, bytes: 4) + littleEndian(payload.count, bytes: 4) + littleEndian(size, bytes: 4)
                    + littleEndian(name.count, bytes: 2) + [0, 0]
            }
            out += [0x50, 0x4B, 3, 4, 20, 0] + fields() + name + payload
            directory += [0x50, 0x4B, 1, 2, 20, 3, 20, 0] + fields() + [0, 0, 0, 0, 0, 0, 0, 0, 0, 0] + littleEndian(offset, bytes: 4) + name
        }
        let directoryOffset = out.count
        out += directory
        out += [0x50, 0x4B, 5, 6, 0, 0, 0, 0] + littleEndian(members.count, bytes: 2) + littleEndian(members.count, bytes: 2)
            + littleEndian(directory.count, bytes: 4) + littleEndian(directoryOffset, bytes: 4)
            + littleEndian(comment.utf8.count, bytes: 2) + Array(comment.utf8)
        return out
    }

    // MARK: - Shapefiles

    /// A shape record: nil for a null shape; otherwise its rings of (x, y) and the shape type.
    package struct Shape {
        package var rings: [[(Double, Double)]]?
        package var type: Int = 5

        package init(rings: [[(Double, Double)]]?, type: Int = 5) {
            self.rings = rings
            self.type = type
        }
    }

    /// A `.shp` file of `shapes`, declaring `fileType` in its header.
    package static func shp(_ shapes: [Shape], fileType: Int = 5) -> [UInt8] {
        var records: [UInt8] = []
        for (index, shape) in shapes.enumerated() {
            var content: [UInt8]
            if let rings = shape.rings {
                let points = rings.flatMap { $0 }
                content = littleEndian(shape.type, bytes: 4)
                content += [UInt8](repeating: 0, count: 32)  // bounding box (not read)
                content += littleEndian(rings.count, bytes: 4) + littleEndian(points.count, bytes: 4)
                var start = 0
                for ring in rings {
                    content += littleEndian(start, bytes: 4)
                    start += ring.count
                }
                for (x, y) in points { content += littleEndian(x.bitPattern, bytes: 8) + littleEndian(y.bitPattern, bytes: 8) }
                if shape.type != 5 {  // M (and Z) ranges and arrays, which the reader ignores
                    let extra = shape.type == 15 ? 2 : 1
                    content += [UInt8](repeating: 0, count: extra * (16 + 8 * points.count))
                }
            } else {
                content = littleEndian(0, bytes: 4)
            }
            records += bigEndian32(index + 1) + bigEndian32(content.count / 2) + content
        }
        var header = bigEndian32(9994) + [UInt8](repeating: 0, count: 20) + bigEndian32((100 + records.count) / 2)
        header += littleEndian(1000, bytes: 4) + littleEndian(fileType, bytes: 4) + [UInt8](repeating: 0, count: 64)
        return header + records
    }

    /// A `.dbf` column: name, type letter, width, and one text per record (padded to the width).
    package struct Column {
        package var name: String
        package var type: Character
        package var width: Int
        package var decimals: Int = 0

        package init(name: String, type: Character, width: Int, decimals: Int = 0) {
            self.name = name
            self.type = type
            self.width = width
            self.decimals = decimals
        }
    }

    /// A dBASE III `.dbf` of `columns` and `rows` (raw field bytes, padded with spaces); `deleted` marks rows.
    package static func dbf(_ columns: [Column], rows: [[[UInt8]]], deleted: Set<Int> = []) -> [UInt8] {
        let recordLength = 1 + columns.reduce(0) { $0 + $1.width }
        let headerLength = 32 + 32 * columns.count + 1
        var out: [UInt8] = [3, 124, 1, 1] + littleEndian(rows.count, bytes: 4) + littleEndian(headerLength, bytes: 2)
            + littleEndian(recordLength, bytes: 2) + [UInt8](repeating: 0, count: 20)
        for column in columns {
            var name = Array(column.name.utf8.prefix(10))
            name += [UInt8](repeating: 0, count: 11 - name.count)
            out += name + [UInt8(ascii: column.type.unicodeScalars.first ?? "C")] + [0, 0, 0, 0]
                + [UInt8(column.width), UInt8(column.decimals)] + [UInt8](repeating: 0, count: 14)
        }
        out.append(0x0D)
        for (index, row) in rows.enumerated() {
            out.append(deleted.contains(index) ? 0x2A : 0x20)
            for (column, value) in Swift.zip(columns, row) {
                let cell = Array(value.prefix(column.width))
                out += cell + [UInt8](repeating: 0x20, count: column.width - cell.count)
            }
        }
        out.append(0x1A)
        return out
    }

    /// Text field bytes.
    package static func text(_ value: String) -> [UInt8] { Array(value.utf8) }

    /// A square ring from (x0, y0) to (x1, y1): clockwise (an outer ring) or counter-clockwise (a hole).
    package static func square(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, clockwise: Bool) -> [(Double, Double)] {
        let ring = [(x0, y0), (x0, y1), (x1, y1), (x1, y0), (x0, y0)]
        return clockwise ? ring : ring.reversed()
    }

    /// The fixture collection's features, one compact JSON text each.
    package static func fixtureFeatureLines() throws -> [String] {
        let data = try Data(contentsOf: TestSupport.fixtures.appendingPathComponent("all-fixtures.geojson"))
        let collection = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let features = collection?["features"] as? [Any] ?? []
        return try features.map { String(decoding: try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]), as: UTF8.self) }
    }
}
