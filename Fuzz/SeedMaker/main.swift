// Builds small seed maps for the reader fuzzer from every GeoJSON file given: format 3 maps in both
// top-level forms (UInt32 entries and packed), split factors 2, 3 and 5, small tiles and few edges
// per tile so that directory nodes exist; format 2.1 and 2.0 maps; format 1.0 maps (a 2.0 map with
// its runs rewritten as version 1 runs, see `versionOne`); maps of several layers; and a map with
// a layer of named compact points (3.6: a lexicon of names and other names); and a location map
// (roads, places, addresses with their index `ADDR`, postal codes, intersections: format 3.5).
//
//     seed-maker OUTPUT_DIRECTORY FILE.geojson...
//
// Compiled (without sanitizers) with every file of Sources/GMapBuilder, against the GMap module.
// Every map written is opened again and checked with `MapVerifier`, so a seed is a sound map.
import Foundation
import GMap

/// One way of building a map: the options that differ from the defaults.
struct Variant {
    var suffix: String
    var unitsPerDegree: Int64 = 10_000_000
    var tileDegrees: Int64
    var maximumEdges: Int
    var split: Int
    var depth: Int
    var format: UInt16 = 3
    var layerIndexes = true
    var top: TopDirectoryChoice = .automatic
    /// Format 3: polygons banded (3.5, the default) or without bands (`--format 3.4`).
    var runBands = true
    /// Rewrite the (format 2.0) result as a format 1.0 file.
    var versionOne = false

    func options() -> BuildOptions {
        var options = BuildOptions()
        // swift-format-ignore: NeverForceUnwrap
        options.quantizer = Quantizer(unitsPerDegree: unitsPerDegree)!
        options.tileSize = tileDegrees * unitsPerDegree
        options.maximumEdgesPerTile = maximumEdges
        options.splitFactor = split
        options.maximumDepth = depth
        options.keptProperties = nil
        options.formatMajorVersion = format
        options.writesLayerIndexes = layerIndexes
        options.topDirectory = top
        options.writesRunBands = runBands
        return options
    }
}

let variants: [Variant] = [
    // Format 3: both top-level forms at split factors 2 and 3, small tiles and few edges (nodes).
    Variant(suffix: "-f3-entries-s2", tileDegrees: 10, maximumEdges: 4, split: 2, depth: 6, top: .entries),
    Variant(suffix: "-f3-packed-s2", tileDegrees: 10, maximumEdges: 4, split: 2, depth: 6, top: .packed),
    Variant(suffix: "-f3-entries-s3", tileDegrees: 4, maximumEdges: 2, split: 3, depth: 4, top: .entries),
    Variant(suffix: "-f3-packed-s3", tileDegrees: 4, maximumEdges: 2, split: 3, depth: 4, top: .packed),
    // Format 3: coarse units, an odd split factor (kinds straddle bytes), the default tiling.
    Variant(suffix: "-f3-coarse", unitsPerDegree: 1_000, tileDegrees: 5, maximumEdges: 4, split: 2, depth: 6),
    Variant(suffix: "-f3-s5", tileDegrees: 20, maximumEdges: 3, split: 5, depth: 3, top: .packed),
    Variant(suffix: "-f3-default", tileDegrees: 10, maximumEdges: 64, split: 2, depth: 12),
    // Format 3 without run bands (3.0 to 3.4, `--format 3.4`).
    Variant(suffix: "-f34-entries-s2", tileDegrees: 10, maximumEdges: 4, split: 2, depth: 6, top: .entries, runBands: false),
    // Format 2.1 and 2.0 (sub-directories in GRID, version 2 runs), and 1.0 (version 1 runs).
    Variant(suffix: "-f21", tileDegrees: 4, maximumEdges: 2, split: 3, depth: 4, format: 2),
    Variant(suffix: "-f20", tileDegrees: 10, maximumEdges: 4, split: 2, depth: 6, format: 2, layerIndexes: false),
    Variant(suffix: "-f10", tileDegrees: 10, maximumEdges: 4, split: 2, depth: 6, format: 2, layerIndexes: false, versionOne: true),
]

/// Maps of several layers: each layer one input file, with these options in turn.
let layerVariants: [(suffix: String, layers: [Variant])] = [
    ("-f3", [
        Variant(suffix: "", tileDegrees: 10, maximumEdges: 4, split: 2, depth: 6, top: .entries),
        Variant(suffix: "", tileDegrees: 4, maximumEdges: 2, split: 3, depth: 4, top: .packed),
        Variant(suffix: "", tileDegrees: 5, maximumEdges: 8, split: 2, depth: 6),
    ]),
    ("-f3-coarse", [
        Variant(suffix: "", unitsPerDegree: 1_000, tileDegrees: 5, maximumEdges: 4, split: 3, depth: 6, top: .packed),
        Variant(suffix: "", unitsPerDegree: 1_000, tileDegrees: 10, maximumEdges: 4, split: 2, depth: 6, top: .entries),
    ]),
    ("-f21", [
        Variant(suffix: "", tileDegrees: 10, maximumEdges: 4, split: 2, depth: 6, format: 2),
        Variant(suffix: "", tileDegrees: 4, maximumEdges: 2, split: 3, depth: 4, format: 2),
    ]),
]

// MARK: Format 1.0

/// Reads little-endian integers and varints from a byte array.
struct Bytes {
    var bytes: [UInt8]
    func u32(_ at: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * $1) } }
    func u64(_ at: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(bytes[at + $1]) << (8 * $1) } }
    mutating func put32(_ value: UInt32, at: Int) { for i in 0..<4 { bytes[at + i] = UInt8(truncatingIfNeeded: value >> (8 * i)) } }
    mutating func put64(_ value: UInt64, at: Int) { for i in 0..<8 { bytes[at + i] = UInt8(truncatingIfNeeded: value >> (8 * i)) } }
}

struct ConversionError: Error, CustomStringConvertible { var description: String }

/// The varint at `position` in `bytes`, and the position after it.
func varint(_ bytes: ArraySlice<UInt8>, _ position: inout Int) throws -> UInt64 {
    var value: UInt64 = 0, shift: UInt64 = 0
    while true {
        guard position < bytes.endIndex, shift < 64 else { throw ConversionError(description: "bad varint") }
        let byte = bytes[position]
        position += 1
        value |= UInt64(byte & 0x7F) << shift
        if byte & 0x80 == 0 { return value }
        shift += 7
    }
}

/// A format 2.0 map (one layer, no LAYR) rewritten as format 1.0: every version 2 run becomes a
/// version 1 run (the first vertex's svarints as they are, then each packed zig-zag delta as a
/// varint, which is the svarint of the delta), `TILE` is rebuilt with the records in the order
/// they are first referred to, the directory entries point at the new offsets, and the sections,
/// their CRCs, the header's CRC and the file length are laid out again (Spec/FORMAT.md 8.2, 8.3).
func versionOne(_ source: [UInt8]) throws -> [UInt8] {
    let file = Bytes(bytes: source)
    guard file.bytes[8] == 2, file.bytes[10] == 0 else { throw ConversionError(description: "not a 2.0 file") }
    let headerLength = Int(file.u32(12)), sectionCount = Int(file.u32(16))
    var sections: [(tag: UInt32, bytes: [UInt8])] = []
    for index in 0..<sectionCount {
        let entry = headerLength + index * 32
        let offset = Int(file.u64(entry + 8)), length = Int(file.u64(entry + 16))
        sections.append((file.u32(entry), Array(source[offset..<offset + length])))
    }
    func index(of name: String) throws -> Int {
        let tag = name.utf8.reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard let found = sections.firstIndex(where: { $0.tag == tag }) else { throw ConversionError(description: "no \(name)") }
        return found
    }
    let gridIndex = try index(of: "GRID"), tilesIndex = try index(of: "TILE")
    var grid = Bytes(bytes: sections[gridIndex].bytes)
    let tiles = sections[tilesIndex].bytes[...]
    let columns = Int(grid.u32(16)), rows = Int(grid.u32(20)), factor = Int(grid.bytes[24]), splits = Int(grid.u32(28))
    var newTiles: [UInt8] = []
    var moved: [UInt32: UInt32] = [:]
    for entryIndex in 0..<(columns * rows + splits * factor * factor) {
        let at = 32 + entryIndex * 4
        let entry = grid.u32(at)
        guard entry >> 30 == 2 else { continue }
        let old = entry & 0x3FFF_FFFF
        if moved[old] == nil {
            moved[old] = UInt32(newTiles.count)
            var position = Int(old)
            let count = try varint(tiles, &position)
            Varint.append(count, to: &newTiles)
            for _ in 0..<count {
                let head = try varint(tiles, &position), runs = try varint(tiles, &position)
                Varint.append(head, to: &newTiles)
                Varint.append(runs, to: &newTiles)
                for _ in 0..<runs {
                    let n = try varint(tiles, &position)
                    let dx0 = try varint(tiles, &position), dy0 = try varint(tiles, &position)
                    let widthX = Int(tiles[position]), widthY = Int(tiles[position + 1])
                    position += 2
                    Varint.append(n, to: &newTiles)
                    Varint.append(dx0, to: &newTiles)
                    Varint.append(dy0, to: &newTiles)
                    var bit = 0
                    func field(_ width: Int) -> UInt64 {
                        var value: UInt64 = 0
                        for t in 0..<width where (tiles[position + (bit + t) / 8] >> ((bit + t) % 8)) & 1 == 1 { value |= 1 << UInt64(t) }
                        bit += width
                        return value
                    }
                    for _ in 1..<Int(n) {
                        Varint.append(field(widthX), to: &newTiles)
                        Varint.append(field(widthY), to: &newTiles)
                    }
                    position += (bit + 7) / 8
                }
            }
        }
        // swift-format-ignore: NeverForceUnwrap
        grid.put32(2 << 30 | moved[old]!, at: at)
    }
    sections[gridIndex].bytes = grid.bytes
    sections[tilesIndex].bytes = newTiles

    // Lay the file out again: header, table, then each section at a multiple of 8.
    var out = Bytes(bytes: Array(source[0..<headerLength]) + [UInt8](repeating: 0, count: sectionCount * 32))
    out.bytes[8] = 1; out.bytes[9] = 0; out.bytes[10] = 0; out.bytes[11] = 0
    for (index, section) in sections.enumerated() {
        while out.bytes.count % 8 != 0 { out.bytes.append(0) }
        let entry = headerLength + index * 32
        out.put32(section.tag, at: entry)
        out.put64(UInt64(out.bytes.count), at: entry + 8)
        out.put64(UInt64(section.bytes.count), at: entry + 16)
        out.put32(CRC32.checksum(section.bytes), at: entry + 24)
        out.bytes += section.bytes
    }
    out.put64(UInt64(out.bytes.count), at: 24)
    var crc = CRC32()
    crc.update(Array(out.bytes[0..<36]))
    crc.update(Array(out.bytes[headerLength..<headerLength + sectionCount * 32]))
    out.put32(crc.value, at: 36)
    return out.bytes
}

// MARK: Building

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    print("usage: seed-maker OUTPUT_DIRECTORY FILE.geojson...")
    exit(2)
}
let directory = arguments[1]
// Fixtures of lines or points alone (streets.geojson) are left out: these seeds are polygon maps.
let inputs = arguments.dropFirst(2).filter { path in
    (try? String(contentsOfFile: path, encoding: .utf8))?.contains("Polygon") ?? true
}
var failures = 0

func baseName(_ path: String) -> String {
    String(path.split(separator: "/").last ?? "input").replacingOccurrences(of: ".geojson", with: "")
}

/// Writes `bytes` as `name`, after checking that the map opens and verifies sound (and has `major`).
func write(_ bytes: [UInt8], _ name: String, major: Int) throws {
    let map = try GMap(bytes: bytes)
    let verifier = MapVerifier(map: map)
    guard verifier.isSound else { throw ConversionError(description: "does not verify: \(verifier.problems.prefix(3))") }
    guard map.formatVersion.major == major else { throw ConversionError(description: "format \(map.formatVersion), not \(major)") }
    try AtomicFile.write(bytes, to: "\(directory)/\(name).gmap")
}

for path in inputs {
    let name = baseName(path)
    for variant in variants {
        do {
            var builder = try MapBuilder(options: variant.options())
            builder.addMetadata(key: "source", value: name)
            _ = try GeoJSONImport.read(path: path, into: &builder)
            var (bytes, _) = try builder.finish()
            if variant.versionOne { bytes = try versionOne(bytes) }
            try write(bytes, name + variant.suffix, major: variant.versionOne ? 1 : Int(variant.format))
        } catch {
            print("seed-maker: \(path)\(variant.suffix): \(error)")
            failures += 1
        }
    }
}

// Layered maps: the inputs in groups of up to three, one layer each.
for (group, start) in stride(from: 0, to: inputs.count, by: 3).enumerated() {
    let paths = Array(inputs[start..<min(inputs.count, start + 3)])
    for layered in layerVariants {
        do {
            var map = LayeredMapBuilder()
            for (index, path) in paths.enumerated() {
                var builder = try MapBuilder(options: layered.layers[index % layered.layers.count].options())
                if index == 0 { builder.addMetadata(key: "source", value: paths.map(baseName).joined(separator: ", ")) }
                _ = try GeoJSONImport.read(path: path, into: &builder)
                try map.addLayer(named: baseName(path), builder)
            }
            let (bytes, _) = try map.finish()
            try write(bytes, "layers-\(group)\(layered.suffix)", major: Int(layered.layers[0].format))
        } catch {
            print("seed-maker: layers \(paths)\(layered.suffix): \(error)")
            failures += 1
        }
    }
}
// Named compact points (format 3.6): a layer of towns whose names and other names (other scripts,
// shared starts, capitals) make a lexicon, with admin1_code and country_code columns, after the
// first input's polygons as countries: what the reader's geocoding, typo walk and state read.
do {
    let syllables = ["ka", "lo", "mi", "nen", "ta", "ri", "bar", "ce", "lo", "na", "сан", "ко", "東", "京"]
    var state: UInt64 = 0x5EED_0036
    func below(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }
    func name() -> String {
        let text = (0..<(1 + below(3))).map { _ in syllables[below(syllables.count)] }.joined()
        return text.prefix(1).uppercased() + text.dropFirst()
    }
    var options = BuildOptions()
    options.keptProperties = nil
    var towns = try PointLayerBuilder(options: options)
    towns.compact = true
    for index in 0..<80 {
        let others = index % 3 == 0 ? (0..<(1 + below(3))).map { _ in below(4) == 0 ? name().uppercased() : name() } : []
        let properties = [SourceFeature.KeptProperty(key: "population", value: String(index * 997 % 50_000), kind: .number),
                          SourceFeature.KeptProperty(key: "country_code", value: ["FI", "ES", "US"][index % 3], kind: .string),
                          SourceFeature.KeptProperty(key: "admin1_code", value: ["01", "CA", "56"][index % 3], kind: .string),
                          SourceFeature.KeptProperty(key: "admin1", value: ["Uusimaa", "Catalonia", "Texas"][index % 3], kind: .string)]
        let point = (longitude: Double(below(3_000) - 1_500) / 100, latitude: Double(below(1_600) - 800) / 100)
        try towns.add(SourcePointFeature(id: name(), properties: properties, points: [point], otherNames: others))
    }
    var map = LayeredMapBuilder()
    if let first = inputs.first {
        var countries = try MapBuilder(options: BuildOptions())
        _ = try GeoJSONImport.read(path: first, into: &countries)
        try map.addLayer(named: "countries", countries)
    }
    try map.addLayer(named: "towns", towns)
    let (bytes, _) = try map.finish()
    try write(bytes, "named-towns-f36", major: 3)
} catch {
    print("seed-maker: named towns: \(error)")
    failures += 1
}

// A location map (format 3.5) from a small street grid: roads of several classes crossing at
// intersections, places, addresses on two streets and one without a street, postal codes; what
// `where`, `nearby`, `place` and address geocoding read, with the address index (`ADDR`).
do {
    func node(_ id: Int64, _ latitude: Double, _ longitude: Double, _ tags: [String: String] = [:]) -> OSMNode {
        OSMNode(id: id, latitudeNanodegrees: Int64((latitude * 1e9).rounded()), longitudeNanodegrees: Int64((longitude * 1e9).rounded()),
                tags: tags.sorted { $0.key < $1.key }.map { OSMTag(key: $0.key, value: $0.value) })
    }
    func way(_ id: Int64, _ nodes: [Int64], _ tags: [String: String]) -> OSMWay {
        OSMWay(id: id, nodeIDs: nodes, tags: tags.sorted { $0.key < $1.key }.map { OSMTag(key: $0.key, value: $0.value) })
    }
    var nodes: [OSMNode] = []
    // A 3 × 3 grid of street corners, 0.002° apart.
    for row in 0..<3 {
        for column in 0..<3 { nodes.append(node(Int64(1 + row * 3 + column), 60.17 + 0.002 * Double(row), 24.94 + 0.002 * Double(column))) }
    }
    let streets = ["Kaivokatu", "Mikonkatu", "Aleksanterinkatu"], avenues = ["Keskuskatu", "Vilhonkatu", "Fabianinkatu"]
    var ways: [OSMWay] = []
    for row in 0..<3 {
        ways.append(way(Int64(100 + row), (0..<3).map { Int64(1 + row * 3 + $0) }, ["highway": row == 0 ? "primary" : "residential", "name": streets[row]]))
    }
    for column in 0..<3 {
        ways.append(way(Int64(200 + column), (0..<3).map { Int64(1 + $0 * 3 + column) }, ["highway": column == 1 ? "footway" : "tertiary", "name": avenues[column]]))
    }
    var next: Int64 = 1_000
    for (index, number) in ["1", "3", "5 B", "12-14", "7a", "9"].enumerated() {
        let street = index < 4 ? "Kaivokatu" : "Mikonkatu", latitude = index < 4 ? 60.1702 : 60.1722
        nodes.append(node(next, latitude, 24.9401 + 0.0006 * Double(index % 4), ["addr:housenumber": number, "addr:street": street, "addr:postcode": index < 3 ? "00100" : "00101"]))
        next += 1
    }
    nodes.append(node(next, 60.1735, 24.9435, ["addr:housenumber": "2"]))
    nodes.append(node(next + 1, 60.1712, 24.9412, ["amenity": "cafe", "name": "Cafe Ekberg"]))
    nodes.append(node(next + 2, 60.1731, 24.9421, ["shop": "books", "name": "Akateeminen"]))
    nodes.append(node(next + 3, 60.1719, 24.9433, ["place": "neighbourhood", "name": "Kluuvi"]))
    let bytes = try LocationMapBuilder.build(OSMData(nodes: nodes, ways: ways, relations: [])).bytes
    try write(bytes, "location-f35", major: 3)
} catch {
    print("seed-maker: location map: \(error)")
    failures += 1
}
exit(failures == 0 ? 0 : 1)
