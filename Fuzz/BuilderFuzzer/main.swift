// libFuzzer target: arbitrary bytes as GeoJSON through the builder, and the built map read back.
//
// Compiled together with every file of Sources/GMapBuilder (one module), against the GMap module.
//
// Input layout: byte 0 chooses the reader's chunk size, bytes 1 and 2 the build options (format 3
// or 2, top-level directory form, tile size, precision, split factor, edges per tile), the rest is
// the GeoJSON text. The GeoJSON is read twice from the same `GeoJSONReader`: once to collect the
// features (for an independent even-odd oracle), once through `GeoJSONImport` into a `MapBuilder`
// with small options (few edges per tile, depth 3), so that tiny inputs already split tiles.
// A build that succeeds must open, survey without unreadable records, verify sound, and answer every
// probe point exactly as the brute-force even-odd rule over the quantized rings (Spec/FORMAT.md,
// section 10) at the query's unrounded point (24 bits below a unit, `GridPoint`), computed here in
// exact 128-bit arithmetic independently of the library's `EvenOddRule`. Thrown
// `GeoJSONError`s are expected, and the `BuildError`s a valid input can cause (no polygon, no ring,
// more than 64 features overlapping in a tile of format 3); traps, ASan reports, leaks, timeouts
// and any other build error are not.
import GMap

@inline(never)
func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("invariant violated: \(message())") }
}

/// Top-level tile sizes in degrees. (The automatic choice aims at 65,536 tiles, which makes every
/// run take tens of milliseconds; it is exercised on its own below instead.)
let tileDegrees: [Double] = [20, 10, 5, 3, 2.5, 1.7, 12.3, 0.9]
/// Units per degree.
let precisions: [Int64] = [10_000_000, 10_000_000, 1_000, 1]

/// Edges per tile before a tile is split (`maximumEdgesPerTile`), by control byte 2's bits 5…7.
let edgeLimits = [4, 4, 1, 2, 8, 16, 64, 3]

struct Options {
    var chunkSize: Int
    var build = BuildOptions()

    /// Byte 0: chunk size (and the simplification's tolerance). Byte 1: bits 0–2 tile size, 3–4
    /// precision, 5–6 split factor 2…5, 7 all properties. Byte 2: bits 0–1 top-level directory
    /// (automatic, entries, packed, packed), bits 2–3 = 3 writes format 2 (bit 4: 2.0, else 2.1),
    /// anything else format 3 (bit 4: without run bands, as 3.0 to 3.4, else banded, 3.5); bits 5–7
    /// the edges per tile.
    init(_ control0: UInt8, _ control1: UInt8, _ control2: UInt8) {
        // 1…64 bytes at a time (many chunk boundaries), or everything at once.
        chunkSize = control0 < 0xC0 ? 1 + Int(control0 & 0x3F) : 1 << 20
        // swift-format-ignore: NeverForceUnwrap
        let quantizer = Quantizer(unitsPerDegree: precisions[Int(control1 >> 3) & 3])!
        build.quantizer = quantizer
        build.tileSize = max(1, Int64((tileDegrees[Int(control1 & 7)] * Double(quantizer.unitsPerDegree)).rounded()))
        build.splitFactor = 2 + Int(control1 >> 5) & 3
        build.maximumEdgesPerTile = edgeLimits[Int(control2 >> 5)]
        build.maximumDepth = 3
        build.keptProperties = control1 & 0x80 != 0 ? nil : ["name"]
        build.topDirectory = [.automatic, .entries, .packed, .packed][Int(control2 & 3)]
        if (control2 >> 2) & 3 == 3 {
            build.formatMajorVersion = 2
            build.writesLayerIndexes = control2 & 0x10 == 0
        } else {
            build.formatMajorVersion = 3
            build.writesRunBands = control2 & 0x10 == 0
        }
    }
}

/// A polygon feature as the oracle sees it: its id and its polygons' rings quantized.
struct OracleFeature {
    var id: String
    var polygons: [[[(x: Int64, y: Int64)]]]
    /// Every ring of every polygon.
    var rings: [[(x: Int64, y: Int64)]] { polygons.flatMap { $0 } }
}

/// Whether the format answers a feature as the union of its polygons (format 3; Spec 10.2) rather
/// than by the even-odd rule over all its rings (formats 1 and 2). Set per input.
nonisolated(unsafe) var answersUnion = true

/// Whether the edge a→b crosses the ray going east from the exact point `(X / 2^24, Y / 2^24)`
/// (`X`, `Y` the point in 2^-24 units): PNPOLY, `(ay > py) != (by > py)` and
/// `px < ax + (bx − ax)(py − ay)/(by − ay)`, both sides multiplied by `2^24 (by − ay)` and compared
/// as exact 128-bit products (Tests/GMapTestSupport/Oracle.swift does the same).
func crossesEastRay(fineX: Int64, fineY: Int64, ax: Int64, ay: Int64, bx: Int64, by: Int64) -> Bool {
    let scale = GridPoint.fractionScale
    // For whole-unit a.y, a.y > py exactly when a.y·2^24 > Y.
    guard (ay * scale > fineY) != (by * scale > fineY) else { return false }
    let numerator = (bx - ax).multipliedFullWidth(by: fineY - ay * scale)
    let scaled = (fineX - ax * scale).multipliedFullWidth(by: by - ay)
    let less = scaled.high != numerator.high ? scaled.high < numerator.high : scaled.low < numerator.low
    let equal = scaled.high == numerator.high && scaled.low == numerator.low
    return by > ay ? less : !less && !equal
}

/// Whether the even-odd rule puts `point` (with its fractions) inside the feature (all rings, each closed).
func contains(_ feature: OracleFeature, _ point: GridPoint) -> Bool {
    let fineX = point.x * GridPoint.fractionScale + point.fractionX, fineY = point.y * GridPoint.fractionScale + point.fractionY
    func parity(_ rings: [[(x: Int64, y: Int64)]]) -> Bool {
        var inside = false
        for ring in rings where !ring.isEmpty {
            var previous = ring[ring.count - 1]
            for vertex in ring {
                if crossesEastRay(fineX: fineX, fineY: fineY, ax: previous.x, ay: previous.y, bx: vertex.x, by: vertex.y) {
                    inside.toggle()
                }
                previous = vertex
            }
        }
        return inside
    }
    // Format 3: in the feature when inside any of its polygons (even-odd within one polygon).
    return answersUnion ? feature.polygons.contains { parity($0) } : parity(feature.rings)
}

/// Whether a build error is one that valid input can cause: nothing to build, or (format 3) more
/// features overlapping in one tile than a record's 64 slots, where the tile cannot be split.
func isExpected(_ error: Error, options: BuildOptions, featureCount: Int) -> Bool {
    guard let error = error as? BuildError else { return false }
    let text = error.description
    if text.hasPrefix("no Polygon or MultiPolygon features") { return featureCount == 0 }
    if text.hasPrefix("no feature has a ring with three or more distinct positions") { return true }
    if text.contains("features overlap in the tile") {
        return options.formatMajorVersion >= 3 && featureCount > FormatLayout.SharedRecord.maximumSlots
    }
    return false
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 3 else { return 0 }
    let options = Options(data[0], data[1], data[2])
    answersUnion = options.build.formatMajorVersion >= 3
    let text = Array(UnsafeBufferPointer(start: data + 3, count: size - 3))
    var reader = GeoJSONReader(bytes: text, chunkSize: options.chunkSize)
    let quantizer = options.build.quantizer

    // Pass 1: the features, for the oracle.
    var oracle: [OracleFeature] = []
    var valid = true
    let firstPass = Result {
        try reader.forEachFeature { feature in
            guard case .polygons(let polygons) = feature.geometry else { return }
            var quantizedPolygons: [[[(x: Int64, y: Int64)]]] = []
            for polygon in polygons {
                var rings: [[(x: Int64, y: Int64)]] = []
                for ring in polygon {
                    var quantized: [(x: Int64, y: Int64)] = []
                    for position in ring {
                        check(position.longitude.isFinite && position.latitude.isFinite, "the reader let a non-finite position through")
                        if !Quantizer.isValid(latitude: position.latitude, longitude: position.longitude) { valid = false }
                        quantized.append((quantizer.units(position.longitude), quantizer.units(position.latitude)))
                    }
                    rings.append(quantized)
                }
                quantizedPolygons.append(rings)
            }
            let id = (try? GeoJSONImport.identifier(of: feature, options: options.build)) ?? ""
            oracle.append(OracleFeature(id: id, polygons: quantizedPolygons))
        }
    }

    // Pass 2: the build.
    guard var builder = try? MapBuilder(options: options.build) else {
        check(false, "MapBuilder refused the fuzzer's options")
        return 0
    }
    let imported = Result { try GeoJSONImport.read(&reader, into: &builder) }
    switch (firstPass, imported) {
    case let (.success(a), .success(b)):
        check(a == b, "two passes over the same bytes read \(a) and \(b) features")
    case (.failure, .failure):
        return 0
    case (.success, .failure):
        // Only the builder may refuse what the reader accepted: positions outside the world.
        check(!valid, "the import failed on input the reader accepted")
        return 0
    case (.failure, .success):
        check(false, "the import succeeded where a plain read failed")
        return 0
    }
    check(valid, "the builder accepted a position outside the world")

    // The automatic tile size over the features' extent: at least one unit, at most 16°.
    var extent = TileBounds(west: .max, south: .max, east: .min, north: .min)
    for feature in oracle { for ring in feature.rings { for vertex in ring {
        extent.west = min(extent.west, vertex.x); extent.east = max(extent.east, vertex.x)
        extent.south = min(extent.south, vertex.y); extent.north = max(extent.north, vertex.y)
    } } }
    if extent.west <= extent.east {
        let automatic = BuildOptions.automaticTileSize(for: extent, quantizer: quantizer)
        check(automatic >= 1 && automatic <= 16 * quantizer.unitsPerDegree, "automatic tile size \(automatic)")
    }
    let bytes: [UInt8], report: BuildReport
    do {
        (bytes, report) = try builder.finish()
    } catch {
        check(isExpected(error, options: options.build, featureCount: oracle.count), "the build failed: \(error)")
        return 0
    }
    check(report.byteCount == bytes.count, "the report's byte count is wrong")

    // A built map must open and be sound.
    let map: GMap
    do {
        map = try GMap(bytes: bytes)
    } catch {
        check(false, "a freshly built map does not open: \(error)")
        return 0
    }
    check(map.featureCount == oracle.count, "\(map.featureCount) features in the map, \(oracle.count) polygon features read")
    // Format 3 is 3.5 (banded polygons), or without bands 3.0, or 3.2 when a feature's polygons
    // overlap (parity groups).
    let banded = options.build.formatMajorVersion == 3 && options.build.writesRunBands
    let expectedVersion = options.build.formatMajorVersion == 3 ? (3, banded ? Int(FormatLayout.minorVersionWithRunBands) : 0)
        : (2, options.build.writesLayerIndexes ? 1 : 0)
    let partGroups = (3, Int(FormatLayout.minorVersionWithPartGroups))
    check(map.formatVersion == expectedVersion || (options.build.formatMajorVersion == 3 && !banded && map.formatVersion == partGroups),
          "format \(map.formatVersion) written, \(expectedVersion) asked for")
    if options.build.formatMajorVersion == 3 {
        let packed = map.grid.topForm == FormatLayout.TopForm.packed
        check(options.build.topDirectory == .automatic || packed == (options.build.topDirectory == .packed),
              "top-level directory form \(map.grid.topForm) for \(options.build.topDirectory)")
    }
    let verifier = MapVerifier(map: map)
    check(verifier.isSound, "a freshly built map does not verify: \(verifier.problems.prefix(3))")
    let survey = TileSurvey(of: map)
    check(survey.unreadableRecords == 0, "a freshly built map has \(survey.unreadableRecords) unreadable records")
    check(map.grid.maximumDepth <= 3, "split deeper than the options allow")
    _ = map.metadata

    // Probe points: fixed ones, then vertices of the first rings and their neighbours (whole
    // units, given as degrees); then points a fraction of a unit from vertices and on or next to
    // edges (in 2^-24 units, given as grid points and as degrees).
    var probes: [GridPoint] = []
    func probe(_ x: Int64, _ y: Int64) {
        let x = min(max(x, -quantizer.halfTurn), quantizer.halfTurn), y = min(max(y, -quantizer.quarterTurn), quantizer.quarterTurn)
        probes.append(GridPoint(x: x, y: y))
    }
    let scale = GridPoint.fractionScale
    var fineProbes: [GridPoint] = []
    func probeFine(_ fineX: Int64, _ fineY: Int64) {
        // Normalised: x in [−180°, 180°), y in [−90°, 90°).
        let x = min(max(fineX, -quantizer.halfTurn * scale), quantizer.halfTurn * scale - 1)
        let y = min(max(fineY, -quantizer.quarterTurn * scale), quantizer.quarterTurn * scale - 1)
        fineProbes.append(GridPoint(fineX: x, fineY: y))
    }
    probe(0, 0); probe(-quantizer.halfTurn, -quantizer.quarterTurn); probe(quantizer.halfTurn, quantizer.quarterTurn)
    probe(-quantizer.halfTurn, quantizer.quarterTurn)
    outer: for feature in oracle {
        for ring in feature.rings {
            for (index, vertex) in ring.enumerated() {
                probe(vertex.x, vertex.y)
                probe(vertex.x - 1, vertex.y + 1)
                probe(vertex.x + 1, vertex.y - 1)
                if index + 1 < ring.count {
                    let next = ring[index + 1]
                    probe((vertex.x + next.x) / 2, (vertex.y + next.y) / 2)
                }
                if probes.count >= 48 { break outer }
            }
        }
    }
    fine: for feature in oracle {
        for ring in feature.rings {
            for (index, vertex) in ring.enumerated() {
                let x = vertex.x * scale, y = vertex.y * scale
                probeFine(x - 1, y)                 // just west of the vertex
                probeFine(x + scale / 3, y - 1)     // a third of a unit east, just south
                let next = ring[(index + 1) % ring.count]
                // A third of the way along the edge (rounded down), and the fine points either side.
                let onX = (2 * x + next.x * scale) / 3, onY = (2 * y + next.y * scale) / 3
                probeFine(onX, onY)
                probeFine(onX + 1, onY)
                probeFine(onX, onY + 1)
                if fineProbes.count >= 60 { break fine }
            }
        }
    }
    func expected(at point: GridPoint) -> [String] { oracle.filter { contains($0, point) }.map(\.id).sorted() }
    for point in fineProbes {
        var indexes: [Int] = []
        map.visitFeatures(containing: point) { indexes.append($0); return true }
        check(indexes == indexes.sorted() && Set(indexes).count == indexes.count, "visitFeatures is not in index order")
        let actual = indexes.compactMap { map.feature(at: $0)?.id }.sorted()
        let wanted = expected(at: point)
        check(wanted == actual,
              "at (\(point.x)+\(point.fractionX)/2^24, \(point.y)+\(point.fractionY)/2^24) units the map answers \(actual), the even-odd rule \(wanted)")
        // The same point as degrees: the query keeps it to 2^-24 unit, wherever the double lands.
        let latitude = Double(point.y * scale + point.fractionY) / Double(quantizer.unitsPerDegree * scale)
        let longitude = Double(point.x * scale + point.fractionX) / Double(quantizer.unitsPerDegree * scale)
        if let queried = quantizer.queryPoint(latitude: latitude, longitude: longitude) {
            let all = map.lookupAll(latitude: latitude, longitude: longitude)
            let queriedWanted = queried == point ? wanted : expected(at: queried)
            check(queriedWanted == all.map(\.id).sorted(),
                  "at \(latitude), \(longitude) (\(queried)) the map answers \(all.map(\.id).sorted()), the even-odd rule \(queriedWanted)")
        }
    }
    for point in probes {
        let latitude = quantizer.degrees(point.y), longitude = quantizer.degrees(point.x)
        guard let normalised = quantizer.queryPoint(latitude: latitude, longitude: longitude) else {
            check(false, "a probe in the world is not a valid query: \(latitude), \(longitude)")
            continue
        }
        let all = map.lookupAll(latitude: latitude, longitude: longitude)
        check(map.lookup(latitude: latitude, longitude: longitude)?.index == all.first?.index, "lookup and lookupAll disagree")
        check(zip(all, all.dropFirst()).allSatisfy { $0.index < $1.index }, "lookupAll is not in index order")
        let wanted = expected(at: normalised)
        let actual = all.map(\.id).sorted()
        check(wanted == actual,
              "at (\(normalised.x)+\(normalised.fractionX)/2^24, \(normalised.y)+\(normalised.fractionY)/2^24) units the map answers \(actual), the even-odd rule \(wanted)")
        for feature in all {
            _ = feature.properties
            _ = feature.boundingBox
            _ = feature.area
        }
    }

    // The same features simplified (`--simplify`, with or without `--coast-buffer`): the build must
    // succeed, open, be sound, keep every feature and never answer outside the world.
    var simplifiedOptions = options.build
    let tolerance = 10 * Double(1 + Int(data[0] >> 1))
    simplifiedOptions.simplification = Simplification(toleranceMetres: tolerance, buffersCoasts: data[0] & 1 == 1)
    var again = GeoJSONReader(bytes: text, chunkSize: options.chunkSize)
    guard var simplifier = try? MapBuilder(options: simplifiedOptions), (try? GeoJSONImport.read(&again, into: &simplifier)) != nil else {
        check(false, "the simplifying builder refused input the plain one accepted")
        return 0
    }
    let simpleBytes: [UInt8], simpleReport: BuildReport
    do {
        (simpleBytes, simpleReport) = try simplifier.finish()
    } catch {
        check(isExpected(error, options: simplifiedOptions, featureCount: oracle.count), "the simplified build failed: \(error)")
        return 0
    }
    guard let simple = try? GMap(bytes: simpleBytes) else {
        check(false, "a freshly built simplified map does not open")
        return 0
    }
    check(simple.featureCount == oracle.count, "the simplified map has \(simple.featureCount) features, not \(oracle.count)")
    check(TileSurvey(of: simple).unreadableRecords == 0, "a simplified map has unreadable records")
    check(simpleReport.vertexCount <= report.vertexCount, "simplification added vertices")
    check((simpleReport.simplification?.maximumErrorMetres ?? 0) <= tolerance,
          "simplification moved a border farther than asked")
    for point in probes { _ = simple.lookupAll(latitude: quantizer.degrees(point.y), longitude: quantizer.degrees(point.x)) }
    return 0
}
