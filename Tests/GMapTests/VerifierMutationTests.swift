import XCTest
@_spi(Testing) import GMap
import GMapBuilder
import GMapTestSupport

/// `gmap verify` against damage that recomputed CRCs hide (issue 23): maps built in code are
/// damaged byte by byte, every CRC resealed (``FormatThreeTests/resealed(_:)``), and the verifier
/// must report each damage of the kinds that leave every record well formed but make the file
/// disagree with itself: an edge dropped from one of the tiles it crosses, a corner bit that
/// disagrees with the neighbouring tile, a record count lowered, a layer table tag changed. Random
/// byte damage is measured too: of the copies that answer some point differently, the share the
/// verifier reports.
final class VerifierMutationTests: XCTestCase {
    /// One map to damage: its bytes and what to call it.
    struct Sample {
        let label: String
        let bytes: [UInt8]
        let map: GMap
    }

    // MARK: Targeted damage

    /// Dropping the last edge of a record's last run (its vertex count lowered by one; the record
    /// still reads to its end) when that edge reaches beyond the tile: the neighbours still store
    /// it, and the tile's rings no longer close.
    func testAnEdgeDroppedFromOneOfItsTilesIsReported() throws {
        var tried = 0, segments = 0
        for sample in try Self.samples() {
            var perLayer: [String: Int] = [:]
            for (layer, tile, record) in try Self.records(of: sample) where perLayer[layer, default: 0] < 30 {
                guard let last = record.lastRun, last.count >= 3, let edge = last.lastEdge,
                      !Self.isInside(tile.bounds, edge) else { continue }
                var bytes = sample.bytes
                bytes[last.countOffset] -= 1
                let problems = try Self.problems(of: bytes)
                XCTAssertFalse(problems.isEmpty, "\(sample.label), layer \(layer): the edge \(edge) dropped from the tile at \(tile.bounds) is not reported")
                if tried == 0, let first = problems.first { print("VerifierMutationTests: an edge dropped: \(first)") }
                if sample.map.layer(named: layer)?.geometryKind == .lines {
                    if segments == 0, let first = problems.first { print("VerifierMutationTests: a segment dropped: \(first)") }
                    segments += 1
                }
                perLayer[layer, default: 0] += 1
                tried += 1
            }
            XCTAssertGreaterThan(perLayer.values.reduce(0, +), 0, "\(sample.label) has records whose last edge leaves the tile")
        }
        XCTAssertGreaterThan(segments, 0, "a layer of lines is damaged too")
        print("VerifierMutationTests: \(tried) copies with an edge dropped from one of its tiles (\(segments) segments of lines), all reported")
    }

    /// Flipping one corner bit of a record whose south-east corner lies in the grid: the leaf that
    /// answers for that corner says otherwise.
    func testACornerBitThatDisagreesWithItsNeighbourIsReported() throws {
        var tried = 0
        for sample in try Self.samples() {
            var inSample = 0
            for (layer, tile, record) in try Self.records(of: sample) where inSample < 40 {
                let grid = try XCTUnwrap(sample.map.layer(named: layer)).grid
                guard tile.bounds.east < grid.originX + grid.columns * grid.tileWidth, !record.corners.isEmpty else { continue }
                let corner = record.corners[inSample % record.corners.count]
                var bytes = sample.bytes
                bytes[corner.offset] ^= 1 << corner.bit
                let problems = try Self.problems(of: bytes)
                XCTAssertTrue(problems.contains { $0.reason.contains("corner") }, "\(sample.label), layer \(layer): a corner bit flipped in the tile at \(tile.bounds) is not reported: \(problems.prefix(3))")
                if tried + inSample == 0, let first = problems.first { print("VerifierMutationTests: a corner bit flipped: \(first)") }
                inSample += 1
            }
            if sample.label != "3.1 lines" { XCTAssertGreaterThan(inSample, 0, sample.label) }
            tried += inSample
        }
        print("VerifierMutationTests: \(tried) copies with a corner bit flipped, all reported")
    }

    /// A table's record count lowered (name index, label points, features, properties) in every
    /// layer: the records left out are missed by lookups, `find` or the labels.
    func testALoweredRecordCountIsReported() throws {
        var random = SplitMix64(state: 23)
        var tried = 0
        for sample in try Self.samples() {
            for section in sample.map.sections where ["N", "L", "F", "P"].contains(section.tag.prefix(1)) && section.tag != "LAYR" {
                let offset = Int(section.offset)
                let count = Int(sample.bytes[offset]) | Int(sample.bytes[offset + 1]) << 8 | Int(sample.bytes[offset + 2]) << 16
                guard count > 0 else { continue }
                for lowered in Set([0, count - 1, random.below(count)]) {
                    var bytes = sample.bytes
                    for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: lowered >> (8 * index)) }
                    let problems = try Self.problems(of: bytes)
                    XCTAssertFalse(problems.isEmpty, "\(sample.label): \(section.tag) count \(count) → \(lowered) is not reported")
                    tried += 1
                }
            }
        }
        print("VerifierMutationTests: \(tried) copies with a lowered record count, all reported")
    }

    /// A layer table tag changed (one byte of it, or a label or name tag set to 0): a layer loses
    /// its label points or name index, or takes another layer's sections.
    func testAChangedLayerTagIsReported() throws {
        var random = SplitMix64(state: 5)
        var tried = 0
        for sample in try Self.samples() {
            guard let layers = sample.map.sections.first(where: { $0.tag == "LAYR" }) else { continue }
            let offset = Int(layers.offset), count = Int(sample.bytes[offset]), recordLength = Int(sample.bytes[offset + 4])
            for layer in 0..<count {
                for field in stride(from: 8, to: 32, by: 4) {
                    let tag = offset + 8 + layer * recordLength + field
                    var changes: [[UInt8]] = []
                    for _ in 0..<3 {
                        var bytes = sample.bytes
                        let position = tag + random.below(4)
                        bytes[position] = bytes[position] &+ UInt8(1 + random.below(255))
                        changes.append(bytes)
                    }
                    if field >= 24 {
                        var bytes = sample.bytes
                        for index in 0..<4 { bytes[tag + index] = 0 }
                        changes.append(bytes)
                    }
                    // Another layer's tag for the same part.
                    if count > 1 {
                        var bytes = sample.bytes
                        let other = offset + 8 + ((layer + 1) % count) * recordLength + field
                        for index in 0..<4 { bytes[tag + index] = sample.bytes[other + index] }
                        changes.append(bytes)
                    }
                    for bytes in changes where bytes != sample.bytes {
                        let problems = try Self.problems(of: bytes)
                        XCTAssertFalse(problems.isEmpty, "\(sample.label): layer \(layer)'s tag at LAYR + \(tag - offset) changed is not reported")
                        tried += 1
                    }
                }
            }
        }
        print("VerifierMutationTests: \(tried) copies with a changed layer table tag, all reported")
    }

    // MARK: Random damage

    /// Random bytes of the grid and tile sections XORed with a random value: of the copies that
    /// answer some point of a fine grid differently, the verifier reports nearly all. (Not all can
    /// be: a vertex moved to another valid place in a way that keeps every tile consistent is a
    /// valid, different map.)
    func testMostRandomDamageThatChangesAnswersIsReported() throws {
        var random = SplitMix64(state: 2026)
        var damaged = 0, changed = 0, caught = 0, flagged = 0
        var missed: [String] = []
        for sample in try Self.samples() {
            let probes = Self.probes(sample.map)
            let before = Self.answers(sample.map, probes)
            // The grid and tile sections of the layers of polygons (the reference writer's tags).
            var tags: [String] = []
            for (index, layer) in sample.map.layers.enumerated() where layer.geometryKind == .polygons {
                tags += index == 0 ? ["GRID", "TILE"] : ["G", "T"].map { $0 + String(String(index + 1000).suffix(3)) }
            }
            let structural = sample.map.sections.filter { tags.contains($0.tag) }
            let total = structural.reduce(0) { $0 + Int($1.length) }
            for _ in 0..<Self.randomCopies {
                var position = random.below(total)
                var section = structural[0]
                for candidate in structural {
                    section = candidate
                    if position < Int(candidate.length) { break }
                    position -= Int(candidate.length)
                }
                var bytes = sample.bytes
                bytes[Int(section.offset) + position] ^= UInt8(1 + random.below(255))
                damaged += 1
                let resealed = FormatThreeTests.resealed(bytes)
                guard let copy = try? GMap(bytes: resealed) else {
                    // Refused on open: `gmap verify` says NOT SOUND with the reason.
                    changed += 1; caught += 1; flagged += 1
                    continue
                }
                let reported = !MapVerifier(map: copy).isSound
                if reported { flagged += 1 }
                guard Self.answers(copy, probes) != before else { continue }
                changed += 1
                if reported { caught += 1 } else if missed.count < 5 { missed.append("\(sample.label) \(section.tag) + \(position)") }
            }
        }
        let share = Double(caught) / Double(max(1, changed))
        print("VerifierMutationTests: \(damaged) random copies, \(flagged) reported; \(changed) answer some point differently, "
              + "\(caught) of them reported: \(Int((share * 1000).rounded()) / 10)%; not reported: \(missed)")
        guard !TestSupport.underSanitizer else { return }   // too few copies for a share
        XCTAssertGreaterThan(changed, damaged / 5, "enough damage changes answers to measure")
        XCTAssertGreaterThanOrEqual(share, Self.caughtShareFloor, "\(missed)")
    }

    /// Random copies per sample map (`GMAP_VERIFY_MUTANTS` sets more, for a finer measurement).
    /// Under a sanitizer, 15: the copies are then run for memory safety, not for the share.
    static let randomCopies = TestSupport.underSanitizer ? 15 : max(150, Int(ProcessInfo.processInfo.environment["GMAP_VERIFY_MUTANTS"] ?? "") ?? 150)
    /// The share of answer-changing random damage the verifier must report (measured: see the test's log).
    static let caughtShareFloor = 0.97

    // MARK: Sound maps stay sound

    /// Every map the fixtures build (formats 3 and 2.1, with and without splits), the maps in
    /// Fixtures/ and the shipped map verify sound: the new checks flag no valid map.
    func testFixtureAndShippedMapsVerifySound() throws {
        let fixtures = try FileManager.default.contentsOfDirectory(atPath: TestSupport.fixtures.path).sorted()
        for name in fixtures where name.hasSuffix(".gmap") {
            let map = try GMap(contentsOf: TestSupport.fixtures.appendingPathComponent(name).path)
            XCTAssertEqual(MapVerifier(map: map).problems.map { $0.description }, [], name)
        }
        let shipped = try GMap(contentsOf: TestSupport.shippedMap)
        XCTAssertEqual(MapVerifier(map: shipped).problems.map { $0.description }, [], "the shipped map")
        for name in fixtures where name.hasSuffix(".geojson") && !["streets.geojson", "spec-example-34.geojson", "spec-example-36.geojson"].contains(name) {
            let path = TestSupport.fixtures.appendingPathComponent(name).path
            for (major, maximumEdges) in [(3, 64), (3, 1), (2, 48), (2, 1)] {
                let map = try TestSupport.build(geoJSON: path) { options in
                    options.formatMajorVersion = UInt16(major)
                    options.maximumEdgesPerTile = maximumEdges
                    options.tileSize = 20_000_000
                }.map
                XCTAssertEqual(MapVerifier(map: map).problems.map { $0.description }, [], "\(name), format \(major), max edges \(maximumEdges)")
            }
        }
        for sample in try Self.samples() {
            XCTAssertEqual(MapVerifier(map: sample.map).problems.map { $0.description }, [], sample.label)
        }
    }

    // MARK: Sample maps

    /// The maps damaged: a patchwork of polygons with splits (3.2: one feature has overlapping
    /// parts) with a layer of lines and one of points; the patchwork alone in format 2.1; and the
    /// format 1.0 fixture.
    static func samples() throws -> [Sample] {
        if let cached = cachedSamples { return cached }
        var samples: [Sample] = []
        var options = BuildOptions()
        options.tileSize = 5_000_000
        options.maximumEdgesPerTile = 12
        var layered = LayeredMapBuilder()
        var cells = try MapBuilder(options: options)
        for feature in patchwork(seed: 1) + [twin] { try cells.add(feature) }
        try layered.addLayer(named: "cells", cells)
        var roads = try LineLayerBuilder(options: options)
        for feature in roadLines(seed: 2) { try roads.add(feature) }
        try layered.addLayer(named: "roads", roads)
        var towns = try PointLayerBuilder(options: options)
        var random = SplitMix64(state: 3)
        for index in 0..<30 {
            try towns.add(SourcePointFeature(id: "T\(index)", properties: [.init(key: "name", value: "Town \(index)")],
                                             points: [(10 + 3 * random.unit(), 40 + 3 * random.unit())]))
        }
        try layered.addLayer(named: "towns", towns)
        let threeBytes = try layered.finish().bytes
        samples.append(Sample(label: "3.2 layers", bytes: threeBytes, map: try GMap(bytes: threeBytes)))

        options.formatMajorVersion = 2
        let two = try TestSupport.build(patchwork(seed: 4)) { $0 = options }
        samples.append(Sample(label: "2.1", bytes: two.bytes, map: two.map))

        let oldPath = TestSupport.fixtures.appendingPathComponent("format-1.0-fixtures.gmap").path
        let oldBytes = try Array(Data(contentsOf: URL(fileURLWithPath: oldPath)))
        samples.append(Sample(label: "1.0 fixture", bytes: oldBytes, map: try GMap(bytes: oldBytes)))
        cachedSamples = samples
        return samples
    }

    nonisolated(unsafe) private static var cachedSamples: [Sample]?

    /// `cells × cells` neighbouring polygons over 3° from (10° E, 40° N): a jittered lattice whose
    /// shared borders are cut into six jittered pieces; every fifth cell has a hole with an island
    /// in it; and a large feature overlapping several cells.
    static func patchwork(cells: Int = 6, seed: UInt64) -> [SourceFeature] {
        var random = SplitMix64(state: seed)
        func jitter(_ amount: Double) -> Double { (random.unit() * 2 - 1) * amount }
        let size = 3.0, step = size / Double(cells)
        var lattice: [[(Double, Double)]] = []
        for i in 0...cells {
            lattice.append((0...cells).map { j in
                let inner = i > 0 && i < cells && j > 0 && j < cells
                return (10 + step * (Double(i) + (inner ? jitter(0.2) : 0)), 40 + step * (Double(j) + (inner ? jitter(0.2) : 0)))
            })
        }
        var borders: [String: [(Double, Double)]] = [:]
        func border(_ a: (Int, Int), _ b: (Int, Int)) -> [(Double, Double)] {
            let forward = (a.0, a.1) < (b.0, b.1)
            let (low, high) = forward ? (a, b) : (b, a)
            let key = "\(low.0),\(low.1)-\(high.0),\(high.1)"
            if borders[key] == nil {
                let p = lattice[low.0][low.1], q = lattice[high.0][high.1]
                var points = [p]
                for k in 1..<6 {
                    let t = Double(k) / 6
                    points.append((p.0 + (q.0 - p.0) * t + jitter(0.02), p.1 + (q.1 - p.1) * t + jitter(0.02)))
                }
                points.append(q)
                borders[key] = points
            }
            let points = borders[key] ?? []
            return forward ? points : points.reversed()
        }
        var features: [SourceFeature] = []
        for i in 0..<cells {
            for j in 0..<cells {
                let corners = [(i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1)]
                var ring: [(longitude: Double, latitude: Double)] = []
                for k in 0..<4 { ring += border(corners[k], corners[(k + 1) % 4]).dropLast().map { (longitude: $0.0, latitude: $0.1) } }
                var polygons = [[ring]]
                if (i * cells + j) % 5 == 0 {
                    let cx = corners.map { lattice[$0.0][$0.1].0 }.reduce(0, +) / 4, cy = corners.map { lattice[$0.0][$0.1].1 }.reduce(0, +) / 4
                    let r = step * 0.12
                    polygons[0].append([(cx - r, cy - r), (cx - r, cy + r), (cx + r, cy + r), (cx + r, cy - r)])
                    polygons.append([[(cx - r / 2, cy - r / 2), (cx + r / 2, cy - r / 2), (cx, cy + r / 2)]])
                }
                features.append(SourceFeature(id: "C\(i)_\(j)", properties: [.init(key: "name", value: "Cell \(i)-\(j) land")], polygons: polygons))
            }
        }
        features.append(SourceFeature(id: "BIG", properties: [.init(key: "name", value: "Big Region")],
                                      polygons: [[[(10.7, 40.7), (12.1, 40.9), (11.9, 42.3), (10.6, 42.0)]]]))
        return features
    }

    /// A feature of two overlapping squares: its parts are two parity groups, so the file is 3.2.
    static let twin = SourceFeature(id: "TWIN", properties: [.init(key: "name", value: "Twin Squares")], polygons: [
        [[(11.2, 41.2), (11.8, 41.2), (11.8, 41.8), (11.2, 41.8)]],
        [[(11.5, 41.5), (12.3, 41.5), (12.3, 42.1), (11.5, 42.1)]],
    ])

    /// Wandering lines over the patchwork.
    static func roadLines(seed: UInt64) -> [SourceLineFeature] {
        var random = SplitMix64(state: seed)
        return (0..<8).map { index in
            var point = (10 + 3 * random.unit(), 40 + 3 * random.unit())
            var line = [point]
            for _ in 0..<25 {
                point = (min(13, max(10, point.0 + (random.unit() - 0.5) * 0.4)), min(43, max(40, point.1 + (random.unit() - 0.5) * 0.4)))
                line.append(point)
            }
            return SourceLineFeature(id: "R\(index)", properties: [.init(key: "name", value: "Road \(index)")], lines: [line.map { (longitude: $0.0, latitude: $0.1) }])
        }
    }

    // MARK: Helpers

    /// The problems the verifier finds in `bytes` resealed; a file refused on open counts as one.
    static func problems(of bytes: [UInt8]) throws -> [MapProblem] {
        let resealed = FormatThreeTests.resealed(bytes)
        do {
            return MapVerifier(map: try GMap(bytes: resealed)).problems
        } catch {
            return [MapProblem(location: "open", offset: 0, reason: "\(error)")]
        }
    }

    /// Every record of every layer of polygons or lines of `sample`, parsed.
    static func records(of sample: Sample) throws -> [(layer: String, tile: LeafTile, record: RecordBytes)] {
        var found: [(String, LeafTile, RecordBytes)] = []
        for layer in sample.map.layers where layer.geometryKind != .points {
            var tiles: [LeafTile] = []
            layer.forEachLeafTile { if $0.kind == .record { tiles.append($0) } }
            var seen = Set<Int>()
            for tile in tiles {
                // Records shared by several tiles are damaged once, through their first tile.
                guard let offset = layer.recordOffset(of: tile), seen.insert(offset).inserted else { continue }
                let record = try XCTUnwrap(RecordBytes(sample.bytes, at: offset, bounds: tile.bounds,
                                                       major: layer.formatVersion.major, lines: layer.geometryKind == .lines,
                                                       banded: layer.storesRunBands),
                                           "\(sample.label) \(layer.layerName) record at \(offset)")
                found.append((layer.layerName, tile, record))
            }
        }
        return found
    }

    /// Whether an edge lies wholly inside the open rectangle of a tile (then no other tile meets it).
    static func isInside(_ bounds: TileBounds, _ edge: (Int64, Int64, Int64, Int64)) -> Bool {
        func inside(_ x: Int64, _ y: Int64) -> Bool { x > bounds.west && x < bounds.east && y > bounds.south && y < bounds.north }
        return inside(edge.0, edge.1) && inside(edge.2, edge.3)
    }

    /// A fine grid over the map's features.
    static func probes(_ map: GMap) -> [GridPoint] {
        let q = map.quantizer
        if map.grid.columns > 100 {
            // The world-wide fixture: a coarse grid over the world.
            return (0..<90).flatMap { i in (0..<60).map { j in GridPoint(x: q.units(-179.5 + 4 * Double(i)), y: q.units(-59.5 + 2.5 * Double(j))) } }
        }
        return (0..<90).flatMap { i in (0..<90).map { j in GridPoint(x: q.units(9.9 + 3.2 * Double(i) / 90), y: q.units(39.9 + 3.2 * Double(j) / 90)) } }
    }

    /// Every polygon layer's features containing each probe, by feature index.
    static func answers(_ map: GMap, _ probes: [GridPoint]) -> [[Int]] {
        var all: [[Int]] = []
        for layer in map.layers where layer.geometryKind == .polygons {
            for point in probes {
                var found: [Int] = []
                layer.visitFeatures(containing: point) { found.append($0); return true }
                all.append(found)
            }
        }
        return all
    }
}

/// The bytes of one tile record, as far as the mutation tests need them (Spec/FORMAT.md 8.1–8.3,
/// 8.5, 8.7.1): where each slot's corner bit is, and the last run's vertex count and last edge.
struct RecordBytes {
    /// The last run of the record.
    struct Run {
        /// The offset of its vertex count, a one-byte varint (nil run otherwise).
        var countOffset: Int
        /// Its vertex count.
        var count: UInt8
        /// Its last edge, in units.
        var lastEdge: (Int64, Int64, Int64, Int64)?
    }

    /// Each slot's (entry's) corner bit: the byte and the bit in it (none in a record of lines).
    var corners: [(offset: Int, bit: UInt8)] = []
    /// The last run, when its vertex count is one byte.
    var lastRun: Run?

    private let bytes: [UInt8]
    private var position: Int

    /// Parses the record at `offset` of a layer of the file's major version (`banded`: each run's
    /// vertex count is followed by a band byte, 3.5); nil when it does not read.
    init?(_ bytes: [UInt8], at offset: Int, bounds: TileBounds, major: Int, lines: Bool, banded: Bool = false) {
        self.bytes = bytes
        position = offset
        if major >= 3 {
            guard parseShared(bounds: bounds, lines: lines, banded: banded) else { return nil }
        } else {
            guard parseEntries(bounds: bounds, packed: major == 2) else { return nil }
        }
    }

    private mutating func varint() -> UInt64? {
        var value: UInt64 = 0, shift: UInt64 = 0
        while position < bytes.count, shift < 64 {
            let byte = bytes[position]
            position += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
        return nil
    }

    private mutating func svarint() -> Int64? {
        varint().map { Int64(bitPattern: ($0 >> 1) ^ (0 &- ($0 & 1))) }
    }

    private func field(_ start: Int, _ bit: UInt64, _ width: UInt64) -> UInt64 {
        var value: UInt64 = 0
        for t in 0..<width {
            let at = bit + t, index = start + Int(at / 8)
            if index < bytes.count, (bytes[index] >> UInt8(at % 8)) & 1 == 1 { value |= 1 << t }
        }
        return value
    }

    private static func unzigzag(_ z: UInt64) -> Int64 { Int64(bitPattern: (z >> 1) ^ (0 &- (z & 1))) }

    private mutating func parseShared(bounds: TileBounds, lines: Bool, banded: Bool) -> Bool {
        guard let slots = varint() else { return false }
        for _ in 0..<slots { guard varint() != nil else { return false } }
        if !lines {
            for slot in 0..<Int(slots) { corners.append((position + slot / 8, UInt8(slot % 8))) }
            position += (Int(slots) + 7) / 8
        }
        guard let runs = varint() else { return false }
        guard runs > 0 else { return true }
        let widthX = UInt64(bytes[position]), widthY = UInt64(bytes[position + 1])
        position += 2
        let maskBits: UInt64 = slots > 1 ? slots : 0
        for _ in 0..<runs {
            let countOffset = position
            guard let count = varint() else { return false }
            if banded { position += 1 }
            let start = position
            var bit = maskBits
            var x = bounds.west + Self.unzigzag(field(start, bit, widthX)); bit += widthX
            var y = bounds.south + Self.unzigzag(field(start, bit, widthY)); bit += widthY
            let wx = field(start, bit, 6), wy = field(start, bit + 6, 6)
            bit += 12
            var edge: (Int64, Int64, Int64, Int64)?
            for _ in 1..<max(2, count) {
                let nextX = x + Self.unzigzag(field(start, bit, wx)), nextY = y + Self.unzigzag(field(start, bit + wx, wy))
                bit += wx + wy
                edge = (x, y, nextX, nextY)
                (x, y) = (nextX, nextY)
            }
            position = start + Int((bit + 7) / 8)
            lastRun = position - start > 0 && countOffset + (banded ? 2 : 1) == start ? Run(countOffset: countOffset, count: UInt8(count), lastEdge: edge) : nil
        }
        return position <= bytes.count
    }

    private mutating func parseEntries(bounds: TileBounds, packed: Bool) -> Bool {
        guard let entries = varint() else { return false }
        for _ in 0..<entries {
            corners.append((position, 0))
            guard varint() != nil, let runs = varint() else { return false }
            for _ in 0..<runs {
                let countOffset = position
                guard let count = varint(), count >= 2, let firstX = svarint(), let firstY = svarint() else { return false }
                var x = bounds.west + firstX, y = bounds.south + firstY
                var edge: (Int64, Int64, Int64, Int64)?
                if packed {
                    let wx = UInt64(bytes[position]), wy = UInt64(bytes[position + 1])
                    position += 2
                    var bit: UInt64 = 0
                    for _ in 1..<count {
                        let nextX = x + Self.unzigzag(field(position, bit, wx)), nextY = y + Self.unzigzag(field(position, bit + wx, wy))
                        bit += wx + wy
                        edge = (x, y, nextX, nextY)
                        (x, y) = (nextX, nextY)
                    }
                    position += Int((bit + 7) / 8)
                } else {
                    for _ in 1..<count {
                        guard let dx = svarint(), let dy = svarint() else { return false }
                        edge = (x, y, x + dx, y + dy)
                        (x, y) = (x + dx, y + dy)
                    }
                }
                lastRun = bytes[countOffset] < 0x80 ? Run(countOffset: countOffset, count: UInt8(count), lastEdge: edge) : nil
            }
        }
        return position <= bytes.count
    }
}

/// The verifier on maps built from the shared datasets, in formats 3 and 2.1, with and without
/// deep splits: the checks across tiles, of the name index and of the layer table flag no valid
/// map. (Skipped when ../shared/data is absent; other dataset tests verify the maps they build.)
final class VerifierDatasetTests: XCTestCase {
    func testDatasetMapsVerifySound() throws {
        for name in ["countries-50m.geojson", "admin1-50m.geojson"] {
            let path = try TestSupport.sharedFile(name).path
            for (major, maximumEdges) in [(3, 64), (3, 4), (2, 48)] {
                let built = try TestSupport.build(geoJSON: path) { options in
                    options.formatMajorVersion = UInt16(major)
                    options.maximumEdgesPerTile = maximumEdges
                }
                let problems = MapVerifier(map: built.map).problems.map { $0.description }
                XCTAssertEqual(problems.prefix(5), [], "\(name), format \(major), max edges \(maximumEdges)")
            }
        }
    }
}
