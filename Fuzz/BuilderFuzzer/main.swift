// libFuzzer target: arbitrary bytes as GeoJSON through the builder, and the built map read back.
//
// Compiled together with every file of Sources/GMapBuilder (one module), against the GMap module.
//
// Input layout: byte 0 chooses the reader's chunk size, byte 1 the build options, the rest is the
// GeoJSON text. The GeoJSON is read twice from the same `GeoJSONReader`: once to collect the
// features (for an independent even-odd oracle), once through `GeoJSONImport` into a `MapBuilder`
// with small options (at most 4 edges per tile, depth 3), so that tiny inputs already split tiles.
// A build that succeeds must open, survey without unreadable records, and answer every probe point
// exactly as the brute-force even-odd rule over the quantized rings (Spec/FORMAT.md, section 10).
// Thrown `GeoJSONError`/`BuildError`s are expected; traps, ASan reports, leaks and timeouts are not.
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

struct Options {
    var chunkSize: Int
    var build = BuildOptions()

    init(_ control0: UInt8, _ control1: UInt8) {
        // 1…64 bytes at a time (many chunk boundaries), or everything at once.
        chunkSize = control0 < 0xC0 ? 1 + Int(control0 & 0x3F) : 1 << 20
        let quantizer = Quantizer(unitsPerDegree: precisions[Int(control1 >> 3) & 3])!
        build.quantizer = quantizer
        build.tileSize = max(1, Int64((tileDegrees[Int(control1 & 7)] * Double(quantizer.unitsPerDegree)).rounded()))
        build.splitFactor = 2 + Int(control1 >> 5) & 3
        build.maximumEdgesPerTile = 4
        build.maximumDepth = 3
        build.keptProperties = control1 & 0x80 != 0 ? nil : ["name"]
    }
}

/// A polygon feature as the oracle sees it: its id and its rings quantized.
struct OracleFeature {
    var id: String
    var rings: [[(x: Int64, y: Int64)]]
}

/// Whether the even-odd rule puts `point` inside the feature (all rings, each closed).
func contains(_ feature: OracleFeature, _ point: GridPoint) -> Bool {
    var inside = false
    for ring in feature.rings where !ring.isEmpty {
        var previous = ring[ring.count - 1]
        for vertex in ring {
            if EvenOddRule.crossesEastRay(pointX: point.x, pointY: point.y, ax: previous.x, ay: previous.y, bx: vertex.x, by: vertex.y) {
                inside.toggle()
            }
            previous = vertex
        }
    }
    return inside
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    let options = Options(data[0], data[1])
    let text = Array(UnsafeBufferPointer(start: data + 2, count: size - 2))
    var reader = GeoJSONReader(bytes: text, chunkSize: options.chunkSize)
    let quantizer = options.build.quantizer

    // Pass 1: the features, for the oracle.
    var oracle: [OracleFeature] = []
    var valid = true
    let firstPass = Result {
        try reader.forEachFeature { feature in
            guard case .polygons(let polygons) = feature.geometry else { return }
            var rings: [[(x: Int64, y: Int64)]] = []
            for polygon in polygons {
                for ring in polygon {
                    var quantized: [(x: Int64, y: Int64)] = []
                    for position in ring {
                        check(position.longitude.isFinite && position.latitude.isFinite, "the reader let a non-finite position through")
                        if !Quantizer.isValid(latitude: position.latitude, longitude: position.longitude) { valid = false }
                        quantized.append((quantizer.units(position.longitude), quantizer.units(position.latitude)))
                    }
                    rings.append(quantized)
                }
            }
            let id = (try? GeoJSONImport.identifier(of: feature, options: options.build)) ?? ""
            oracle.append(OracleFeature(id: id, rings: rings))
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
    guard let (bytes, report) = try? builder.finish() else { return 0 }
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
    let survey = TileSurvey(of: map)
    check(survey.unreadableRecords == 0, "a freshly built map has \(survey.unreadableRecords) unreadable records")
    check(map.grid.maximumDepth <= 3, "split deeper than the options allow")
    _ = map.metadata

    // Probe points: fixed ones, then vertices of the first rings and their neighbours.
    var probes: [GridPoint] = []
    func probe(_ x: Int64, _ y: Int64) {
        let x = min(max(x, -quantizer.halfTurn), quantizer.halfTurn), y = min(max(y, -quantizer.quarterTurn), quantizer.quarterTurn)
        probes.append(GridPoint(x: x, y: y))
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
    for point in probes {
        let latitude = quantizer.degrees(point.y), longitude = quantizer.degrees(point.x)
        guard let normalised = quantizer.queryPoint(latitude: latitude, longitude: longitude) else {
            check(false, "a probe in the world is not a valid query: \(latitude), \(longitude)")
            continue
        }
        let all = map.lookupAll(latitude: latitude, longitude: longitude)
        check(map.lookup(latitude: latitude, longitude: longitude)?.index == all.first?.index, "lookup and lookupAll disagree")
        check(zip(all, all.dropFirst()).allSatisfy { $0.index < $1.index }, "lookupAll is not in index order")
        let expected = oracle.filter { contains($0, normalised) }.map(\.id).sorted()
        let actual = all.map(\.id).sorted()
        check(expected == actual,
              "at (\(normalised.x), \(normalised.y)) units the map answers \(actual), the even-odd rule \(expected)")
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
    guard let (simpleBytes, simpleReport) = try? simplifier.finish() else { return 0 }
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
