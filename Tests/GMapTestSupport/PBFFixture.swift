import GMapBuilder
import GMapCodecs

/// Writes the Protocol Buffers wire format, for making OSM PBF files in tests (the reader's
/// independent counterpart: it shares no code with `ProtobufReader`).
package struct ProtobufWriter {
    package var bytes: [UInt8] = []

    package init() {}

    package mutating func varint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 { bytes.append(UInt8(rest & 0x7F) | 0x80); rest >>= 7 }
        bytes.append(UInt8(rest))
    }
    package mutating func key(_ field: UInt64, _ wireType: UInt64) { varint(field << 3 | wireType) }
    package mutating func int(_ field: UInt64, _ value: Int64) { key(field, 0); varint(UInt64(bitPattern: value)) }
    package mutating func sint(_ field: UInt64, _ value: Int64) { key(field, 0); varint(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }
    package mutating func bytes(_ field: UInt64, _ value: [UInt8]) { key(field, 2); varint(UInt64(value.count)); bytes += value }
    package mutating func string(_ field: UInt64, _ value: String) { bytes(field, Array(value.utf8)) }
    package mutating func packed(_ field: UInt64, _ values: [Int64], signed: Bool) {
        var inner = ProtobufWriter()
        for value in values { inner.varint(signed ? UInt64(bitPattern: (value << 1) ^ (value >> 63)) : UInt64(bitPattern: value)) }
        bytes(field, inner.bytes)
    }
    /// Delta-codes `values` (as PBF's dense ids, coordinates, references and member ids are).
    package static func deltas(_ values: [Int64]) -> [Int64] {
        var previous: Int64 = 0
        return values.map { value in defer { previous = value }; return value - previous }
    }
}

/// Makes small OSM PBF files: a header blob and data blobs, raw or zlib-compressed.
package enum PBFFixture {
    package enum Compression { case raw, zlib, lzma }

    /// A blob framed as the file holds it: length, BlobHeader, Blob.
    package static func framed(type: String, block: [UInt8], compression: Compression = .zlib) -> [UInt8] {
        var blob = ProtobufWriter()
        switch compression {
        case .raw: blob.bytes(1, block)
        case .zlib: blob.int(2, Int64(block.count)); blob.bytes(3, ZlibStream.compress(block))
        case .lzma: blob.int(2, Int64(block.count)); blob.bytes(4, block)
        }
        var header = ProtobufWriter()
        header.string(1, type)
        header.int(3, Int64(blob.bytes.count))
        let length = UInt32(header.bytes.count)
        return [UInt8(length >> 24), UInt8(truncatingIfNeeded: length >> 16), UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)]
            + header.bytes + blob.bytes
    }

    package static func headerBlock(features: [String] = ["OsmSchema-V0.6", "DenseNodes"]) -> [UInt8] {
        var block = ProtobufWriter()
        var box = ProtobufWriter()
        box.sint(1, 24_900_000_000); box.sint(2, 25_000_000_000); box.sint(3, 60_200_000_000); box.sint(4, 60_100_000_000)
        block.bytes(1, box.bytes)
        for feature in features { block.string(4, feature) }
        block.string(16, "gmap tests")
        return block.bytes
    }

    /// A block with: dense nodes 1…4 (node 2 tagged), a plain node 10 (tagged), way 100 over 1, 2, 3, 99
    /// (99 absent), and relation 200 with way 100 (outer) and node 10 (label).
    package static func dataBlock(granularity: Int64 = 100, latitudeOffset: Int64 = 0) -> [UInt8] {
        let strings = ["", "highway", "residential", "name", "Keskuskatu", "amenity", "cafe", "type", "multipolygon", "outer", "label"]
        var table = ProtobufWriter()
        for string in strings { table.string(1, string) }
        // swift-format-ignore: NeverForceUnwrap
        func index(_ string: String) -> Int64 { Int64(strings.firstIndex(of: string)!) }

        var dense = ProtobufWriter()
        let ids: [Int64] = [1, 2, 3, 4]
        // Degrees 60.1700000, 24.9400000 and so on, in units of `granularity` nanodegrees.
        let latitudes: [Int64] = [60_170_000_0, 60_170_100_0, 60_170_200_0, -89_999_999_9].map { ($0 * 100 - latitudeOffset) / granularity }
        let longitudes: [Int64] = [24_940_000_0, 24_940_100_0, 24_940_200_0, 179_999_999_9].map { $0 * 100 / granularity }
        dense.packed(1, ProtobufWriter.deltas(ids), signed: true)
        dense.packed(8, ProtobufWriter.deltas(latitudes), signed: true)
        dense.packed(9, ProtobufWriter.deltas(longitudes), signed: true)
        dense.packed(10, [0, index("amenity"), index("cafe"), index("name"), index("Keskuskatu"), 0, 0, 0], signed: false)

        var node = ProtobufWriter()
        node.sint(1, 10)
        node.packed(2, [index("name")], signed: false)
        node.packed(3, [index("Keskuskatu")], signed: false)
        node.sint(8, (60_171_000_000 - latitudeOffset) / granularity)
        node.sint(9, 24_941_000_000 / granularity)

        var way = ProtobufWriter()
        way.int(1, 100)
        way.packed(2, [index("highway"), index("name")], signed: false)
        way.packed(3, [index("residential"), index("Keskuskatu")], signed: false)
        way.packed(8, ProtobufWriter.deltas([1, 2, 3, 99]), signed: true)

        var relation = ProtobufWriter()
        relation.int(1, 200)
        relation.packed(2, [index("type")], signed: false)
        relation.packed(3, [index("multipolygon")], signed: false)
        relation.packed(8, [index("outer"), index("label")], signed: false)
        relation.packed(9, ProtobufWriter.deltas([100, 10]), signed: true)
        relation.packed(10, [1, 0], signed: false)

        var group = ProtobufWriter()
        group.bytes(2, dense.bytes)
        group.bytes(1, node.bytes)
        group.bytes(3, way.bytes)
        group.bytes(4, relation.bytes)
        var block = ProtobufWriter()
        block.bytes(1, table.bytes)
        block.bytes(2, group.bytes)
        if granularity != 100 { block.int(17, granularity) }
        if latitudeOffset != 0 { block.int(19, latitudeOffset) }
        return block.bytes
    }

    package static func file(compression: Compression = .zlib, features: [String] = ["OsmSchema-V0.6", "DenseNodes"]) -> [UInt8] {
        framed(type: "OSMHeader", block: headerBlock(features: features), compression: compression)
            + framed(type: "OSMData", block: dataBlock(), compression: compression)
    }
}
