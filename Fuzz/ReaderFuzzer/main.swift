// libFuzzer target: arbitrary bytes opened as a `.gmap` map.
//
// Compiled together with every file of Sources/GMap (one module), so it needs no `import GMap`
// (against the GMapChecksum module, which GMap's files import for CRC-32).
// Opens the input both in place (`GMap(unsafeBuffer:)`) and as a copy (`GMap(bytes:)`); the two
// must agree on whether the bytes open, on the error, and on every answer. When the map opens,
// each of its layers is queried at a spread of points (world corners, 0/0, top-level tile corners
// and centres, corners of split parts, points a fraction of a unit inside them), features are read
// in and out of range, nearby searches are made, every leaf tile and edge is walked, the grid is
// surveyed and the file verified. At each point the lookup's answer (`TileRecordReader.evaluate`)
// must equal the answer recomputed from the same record's full walk (`TileRecordReader.walk`, the
// decoder of survey, verify, export and nearby) whenever that walk finds nothing wrong; a layer
// whose geometry the reader refuses (format 3 lines, points or an unknown kind) must answer nothing.
// Any trap, ASan report, leak or timeout is a bug; thrown `GMapError`s are expected.

@inline(never)
func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("invariant violated: \(message())") }
}

/// Touches every public property of a feature, checking what the format guarantees.
@inline(never)
func exercise(_ feature: Feature, of map: GMap) {
    check(feature.index >= 0 && feature.index < map.featureCount, "feature index \(feature.index) out of range")
    check(map.feature(at: feature.index) == feature, "feature(at:) disagrees with a looked-up feature")
    let id = feature.id
    _ = id.utf8.count
    let properties = feature.properties
    for property in properties { _ = property.key.utf8.count &+ property.value.utf8.count }
    if let first = properties.first {
        check(feature.property(first.key) != nil, "property(_:) misses a key from properties")
    }
    _ = feature.property("name")
    let box = feature.boundingBox
    check(box.west.isFinite && box.south.isFinite && box.east.isFinite && box.north.isFinite, "non-finite bounding box")
    _ = feature.area
    _ = feature.labelPoint
    _ = feature.layerName
    var hasher = Hasher()
    feature.hash(into: &hasher)
    _ = hasher.finalize()
}

/// The query points: a few dozen (latitude, longitude) pairs in degrees, valid or not.
func queryPoints(for map: GMap) -> [(Double, Double)] {
    var points: [(Double, Double)] = [
        (0, 0), (90, 180), (-90, -180), (90, -180), (-90, 180), (0, 180),
        (36.14, -5.35), (1e-7, -1e-7), (89.9999999, 179.9999999),
        // Invalid: must answer nothing, never trap.
        (.nan, 0), (90.0000001, 0), (0, -180.0000001), (0, -.infinity),
    ]
    let q = map.quantizer, grid = map.grid
    let unit = q.degrees(1)
    func add(x: Int64, y: Int64) {
        points.append((q.degrees(y), q.degrees(x)))
    }
    /// A point a fraction of a unit north-east of (x, y): the query keeps it (not rounded to a unit).
    func addInside(x: Int64, y: Int64) {
        let fraction = 0.3 / Double(q.unitsPerDegree)
        points.append((q.degrees(y) + fraction, q.degrees(x) + fraction))
    }
    func addTile(_ bounds: TileBounds) {
        add(x: bounds.west, y: bounds.south)
        add(x: bounds.east - 1, y: bounds.north - 1)
        add(x: bounds.east, y: bounds.south)
        add(x: bounds.west + bounds.width / 2, y: bounds.south + bounds.height / 2)
        addInside(x: bounds.west, y: bounds.south)
    }
    // Top-level tiles: first, last, and one in the middle; 2 × 2 parts of the first and middle
    // ones at the file's split factor, and one part of a part.
    let columns = grid.columns, rows = grid.rows
    let picks: [(Int64, Int64)] = [(0, 0), (columns - 1, rows - 1), (columns / 2, rows / 2), (columns - 1, 0)]
    let factor = max(2, min(16, grid.splitFactor))
    for (index, (column, row)) in picks.enumerated() {
        let west = grid.originX + column * grid.tileWidth, south = grid.originY + row * grid.tileHeight
        let tile = TileBounds(west: west, south: south, east: west + grid.tileWidth, north: south + grid.tileHeight)
        addTile(tile)
        if index == 0 || index == 2 {
            let first = tile.part(column: 0, row: 0, factor: factor)
            let last = tile.part(column: factor - 1, row: factor - 1, factor: factor)
            let middle = tile.part(column: factor / 2, row: factor / 2, factor: factor)
            addTile(first)
            addTile(last)
            add(x: middle.west, y: middle.south)
            addTile(middle.part(column: 1, row: 1, factor: factor))
        }
    }
    // Just outside the grid, and one unit inside its north-east corner.
    add(x: grid.originX - 1, y: grid.originY)
    add(x: grid.originX + columns * grid.tileWidth - 1, y: grid.originY + rows * grid.tileHeight - 1)
    points.append((q.degrees(grid.originY) - unit, q.degrees(grid.originX)))
    return points
}

/// The features containing `point` as the full walk of its leaf tile's record gives them (every
/// slot's corner bit, flipped by each edge of each run that counts for it), or nil when the walk
/// finds anything wrong with the record (then the lookup may legitimately stop early or differ).
/// An empty or covered tile, or a point outside the grid, answers as the lookup does. A layer whose
/// geometry this reader refuses (format 3 `GRID` byte 26 neither 0 nor 4, Spec/FORMAT.md 8.7 and 13.1 check 13)
/// must answer nothing: its records are not polygons.
func walkedAnswer(_ map: GMap, _ point: GridPoint) -> [Int]? {
    guard isReadable(map) else { return [] }
    guard let tile = DirectoryWalker.locate(point, in: map.storage) else { return [] }
    switch TileEntry.kind(of: tile.entry) {
    case TileEntry.coveredKind:
        let index = Int(TileEntry.payload(of: tile.entry))
        return index < map.featureCount ? [index] : []
    case TileEntry.recordKind:
        var reader = TileRecordReader(storage: map.storage, entry: tile.entry, bounds: tile.bounds)
        var slots: [RecordSlot] = [], parity: [Bool] = []
        var window = (first: 0, mask: UInt64(0))
        var problems = 0
        let east = tile.bounds.east, south = tile.bounds.south
        let read = reader.walk(slot: { slots.append($0); parity.append(false) },
                               run: { first, mask in window = (first, mask) },
                               edge: { ax, ay, bx, by in
            guard EvenOddRule.flipsParity(point: point, east: east, south: south, ax: ax, ay: ay, bx: bx, by: by) else { return }
            var pending = window.mask
            while pending != 0 {
                let slot = window.first + pending.trailingZeroBitCount
                pending &= pending - 1
                if slot < parity.count { parity[slot].toggle() } else { problems += 1 }
            }
        }, problem: { _ in problems += 1 })
        guard read, problems == 0 else { return nil }
        // A feature's slots (one per parity group of its polygons, format 3.2) are consecutive: it
        // answers once when any of them is inside (the union of its parts).
        var answer: [Int] = []
        for index in slots.indices where slots[index].cornerInside != parity[index] && answer.last != slots[index].featureIndex {
            answer.append(slots[index].featureIndex)
        }
        return answer
    default:
        return []
    }
}

/// Whether the layer's geometry is one this reader answers queries for (polygons).
func isReadable(_ map: GMap) -> Bool {
    map.storage.layout.kind?.isReadable == true
}

/// Nearby searches at `latitude`, `longitude`: answers must be consistent with the plain lookup,
/// distances finite and within the radius asked (accurate to 0.5 %).
@inline(never)
func exerciseNearby(_ map: GMap, latitude: Double, longitude: Double) {
    let inside = map.lookupAll(latitude: latitude, longitude: longitude)
    // A refused layer's records are not polygons: no nearby answer and no lookup cost either
    // (spec 8.7: a reader "MUST NOT read the layer's records as polygons"). Until 2026-11-23 the
    // nearby search did read them (inputs in Fuzz/found/).
    if !isReadable(map) {
        check(map.lookup(latitude: latitude, longitude: longitude, within: 100_000) == nil
              && map.lookupAll(latitude: latitude, longitude: longitude, within: 100_000).isEmpty
              && map.lookupCost(latitude: latitude, longitude: longitude) == nil,
              "a layer of geometry \(map.storage.layout.geometryByte) answers a nearby search or has a lookup cost at \(latitude), \(longitude)")
    } else if let cost = map.lookupCost(latitude: latitude, longitude: longitude) {
        check(cost.depth >= 0 && cost.featureCount >= 0 && cost.edgeCount >= 0, "a negative lookup cost \(cost)")
    }
    for radius in [0, 750, 100_000, .nan] as [Double] {
        let limit = min(radius, GMap.maximumNearbyRadius)
        let bound = limit * 1.01 + 1e-6
        let match = map.lookup(latitude: latitude, longitude: longitude, within: radius)
        if let first = inside.first {
            check(match?.kind == .inside && match?.feature.index == first.index && match?.distance == 0,
                  "lookup(within: \(radius)) does not give the containing feature first at \(latitude), \(longitude)")
            continue
        }
        guard let match else { continue }
        check(match.kind == .nearby, "lookup(within:) says inside where lookup finds nothing")
        check(match.distance.isFinite && match.distance >= 0 && match.distance <= bound,
              "nearby distance \(match.distance) for radius \(radius)")
        exercise(match.feature, of: map)
        if radius == 750 {
            // The full search within the radius meets every tile the staged search met.
            let all = map.lookupAll(latitude: latitude, longitude: longitude, within: radius)
            check(all.contains { $0.feature.index == match.feature.index && $0.distance <= match.distance * (1 + 1e-12) + 1e-9 },
                  "lookupAll(within:) misses the nearest feature lookup(within:) found at \(latitude), \(longitude)")
        }
    }
    for radius in [750, -1] as [Double] {
        let all = map.lookupAll(latitude: latitude, longitude: longitude, within: radius)
        check(all.prefix(inside.count).map(\.feature.index) == inside.map(\.index) && all.prefix(inside.count).allSatisfy { $0.kind == .inside },
              "lookupAll(within:) does not start with the containing features")
        let near = all.dropFirst(inside.count)
        check(near.allSatisfy { $0.kind == .nearby && $0.distance.isFinite && $0.distance >= 0 && $0.distance <= radius * 1.01 + 1e-6 },
              "lookupAll(within: \(radius)) gives a bad nearby match")
        check(zip(near, near.dropFirst()).allSatisfy { $0.distance <= $1.distance }, "lookupAll(within:) is not nearest first")
    }
}

/// Exercises one layer; returns what its walk of every leaf tile found unreadable: directory
/// entries, and records that could not be read to their end.
@inline(never)
func exercise(_ map: GMap, twin: GMap?) -> (unreadable: Int, corrupt: Int) {
    _ = map.formatVersion
    _ = map.sections.count
    _ = map.byteCount
    _ = map.layerName
    let count = map.featureCount
    check(count >= 0, "negative feature count")

    let points = queryPoints(for: map)
    for (latitude, longitude) in points {
        let one = map.lookup(latitude: latitude, longitude: longitude)
        let all = map.lookupAll(latitude: latitude, longitude: longitude)
        check(one?.index == all.first?.index, "lookup and lookupAll disagree at \(latitude), \(longitude)")
        if let one { exercise(one, of: map) }
        if let twin {
            check(twin.lookupAll(latitude: latitude, longitude: longitude).map(\.index) == all.map(\.index),
                  "the in-place and the copied map disagree at \(latitude), \(longitude)")
        }
        // The grid-point entry point with the point the query normalises to.
        if let point = map.quantizer.queryPoint(latitude: latitude, longitude: longitude) {
            var indexes: [Int] = []
            map.visitFeatures(containing: point) { indexes.append($0); return indexes.count < 64 }
            check(indexes == Array(all.map(\.index).prefix(64)), "visitFeatures disagrees with lookupAll")
            // The lookup (evaluate, early stop by lowest slot) against the record's full walk.
            // (Polygon layers only: lines and points contain nothing, and their records are walked apart.)
            if map.geometryKind == .polygons, let walked = walkedAnswer(map, point) {
                check(walked == all.map(\.index),
                      "at (\(point.x)+\(point.fractionX), \(point.y)+\(point.fractionY)) the lookup answers \(all.map(\.index)), the record's walk \(walked)")
            }
        }
    }
    // Nearby searches at a few of the points (the world's, a tile's corner and centre, a part's).
    for (position, (latitude, longitude)) in points.enumerated() where position % 12 == 0 {
        exerciseNearby(map, latitude: latitude, longitude: longitude)
    }
    if let (latitude, longitude) = points.last { _ = map.nearbyCost(latitude: latitude, longitude: longitude, within: 5_000) }

    // Features in and out of range: only a few, so big tables stay cheap.
    for index in [-1, Int.min, count, count + 1, Int.max, 0, 1, 2, count / 2, count - 2, count - 1] {
        let feature = map.feature(at: index)
        check((feature != nil) == (index >= 0 && index < count), "feature(at: \(index)) with \(count) features")
        if let feature { exercise(feature, of: map) }
    }
    for pair in map.metadata { _ = pair.key.utf8.count &+ pair.value.utf8.count }
    for found in map.find("a", limit: 4) + map.find("zz", matching: .exact, limit: 2) + map.find("b a", layer: "x", limit: 2) { exercise(found, of: found.map) }  // find searches every layer: each feature with its own layer

    // Every leaf tile and every edge (the walk of survey, export and render).
    var leaves = 0, coveredLeaves = 0, recordLeaves = 0, corruptRecords = 0, edges = 0
    // (Plain tests here, not `check`: its message closures would allocate for every leaf and edge.)
    var badLeaf: LeafTile?, badEdge: TileEdge?, badFeature: Int?
    let unreadable = map.forEachLeafTile { leaf in
        leaves += 1
        if leaf.bounds.width < 1 || leaf.bounds.height < 1 || leaf.depth < 0 || leaf.depth > Int(map.grid.maximumDepth) { badLeaf = leaf }
        switch leaf.kind {
        case .empty: break
        case .covered(let index):
            coveredLeaves += 1
            if index < 0 || index >= count { badLeaf = leaf }
        case .record:
            recordLeaves += 1
            // Each geometry kind's own walker: edges of polygons, segments of lines, points.
            let sound: Bool
            switch map.geometryKind {
            case .lines?:
                sound = map.forEachSegment(in: leaf) { segment in
                    edges += 1
                    if segment.featureIndex < 0 || segment.featureIndex >= count { badFeature = segment.featureIndex }
                }
            case .points?:
                sound = map.forEachPoint(in: leaf) { point in
                    edges += 1
                    if point.featureIndex < 0 || point.featureIndex >= count { badFeature = point.featureIndex }
                }
            case .polygons?, nil:
                sound = map.forEachEdge(in: leaf) { edge in
                    edges += 1
                    if edge.featureIndex < 0 || edge.featureIndex >= count { badEdge = edge }
                }
            }
            if !sound { corruptRecords += 1 }
        }
    }
    check(badLeaf == nil, "a bad leaf tile (bounds, depth or covering feature of \(count)): \(badLeaf.map { "\($0)" } ?? "")")
    check(badEdge == nil, "an edge of a feature out of range (\(count) features): \(badEdge.map { "\($0)" } ?? "")")
    check(badFeature == nil, "a segment or point of feature \(badFeature ?? 0), out of range (\(count) features)")
    check(unreadable >= 0, "negative unreadable count")

    let survey = TileSurvey(of: map)
    check(survey.topLevelTiles == Int(map.grid.columns * map.grid.rows), "survey miscounts top-level tiles")
    check(survey.edgesPerTile.count == survey.coveredTiles + survey.recordTiles, "survey lists a leaf twice")
    check(survey.emptyTiles + survey.coveredTiles + survey.recordTiles == leaves && survey.coveredTiles == coveredLeaves
          && survey.recordTiles == recordLeaves, "survey and forEachLeafTile see different leaves")
    if isReadable(map) {
        check(survey.unreadableRecords == unreadable + corruptRecords,
              "survey finds \(survey.unreadableRecords) unreadable records, forEachLeafTile/forEachEdge \(unreadable) + \(corruptRecords)")
    } else {
        // A refused layer's records are not read as polygons: forEachEdge gives no edge and refuses each record.
        check(edges == 0 && corruptRecords == recordLeaves,
              "forEachEdge reads \(edges) edges from \(recordLeaves - corruptRecords) of \(recordLeaves) records of a layer of geometry \(map.storage.layout.geometryByte)")
        check(survey.unreadableRecords == unreadable + recordLeaves,
              "survey reads records of a layer of geometry \(map.storage.layout.geometryByte): \(survey.unreadableRecords) unreadable of \(recordLeaves)")
    }
    _ = TileSurvey.percentile(survey.edgesPerTile, 0.5)
    _ = TileSurvey.percentile(survey.featuresPerTile, 0.99)
    _ = survey.bytes
    return (unreadable, corruptRecords)
}

/// `MapVerifier` over the whole file (every layer): when it finds nothing wrong but checksums, the
/// readers must have found nothing wrong either (`walks`: each layer's result of ``exercise(_:twin:)``).
@inline(never)
func verify(_ map: GMap, walks: [(unreadable: Int, corrupt: Int)]) {
    let limit = 200
    let verifier = MapVerifier(map: map, limit: limit)
    check(verifier.problems.count <= limit, "the verifier kept more problems than its limit")
    for problem in verifier.problems { _ = problem.description.utf8.count }
    _ = map.sectionsFailingChecksum
    let structural = verifier.problems.filter { !$0.reason.hasPrefix("CRC-32") && $0.reason != "flags are not zero" }
    guard structural.isEmpty, verifier.problems.count < limit else { return }
    for (index, walk) in walks.enumerated() {
        check(walk.unreadable == 0 && walk.corrupt == 0,
              "verify finds the structure sound, but layer \(index) has \(walk.unreadable) unreadable entries and \(walk.corrupt) corrupt records")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let buffer = UnsafeRawBufferPointer(start: data, count: size)
    let inPlace = Result { () throws(GMapError) -> GMap in try GMap(unsafeBuffer: buffer) }
    let copied = Result { () throws(GMapError) -> GMap in try GMap(bytes: Array(buffer)) }
    switch (inPlace, copied) {
    case let (.success(map), .success(copy)):
        check(map != copy, "two storages compare equal")
        let names = map.layerNames
        check(!names.isEmpty && names.count <= FormatLayout.maximumLayerCount, "\(names.count) layers")
        check(map.layerIndex == 0, "the opened map is not the first layer")
        var walks = [exercise(map, twin: copy)]
        // The other layers, each with its twin from the copy.
        for index in 1..<max(1, names.count) {
            guard let layer = map.layer(at: index) else { check(false, "layer \(index) of \(names.count) is missing"); continue }
            check(layer.layerIndex == index && layer.layerName == names[index], "layer(at: \(index)) reads layer \(layer.layerIndex)")
            walks.append(exercise(layer, twin: copy.layer(at: index)))
        }
        check(map.layer(at: names.count) == nil && map.layer(at: -1) == nil, "a layer out of range")
        if let last = names.last { _ = map.layer(named: last) }
        _ = map.placemark(latitude: 36.14, longitude: -5.35)
        // Names: whole, by prefix and words, typos (the walk over a lexicon), qualifiers.
        for text in ["Kalo", "kalo, US", "Barcelna", "Сан", "ka lo mi, Texas", "60.1,24.9"] { _ = map.geocode(text, limit: 3) }
        _ = map.findMatches("ka", limit: 5)
        verify(map, walks: walks)
    case let (.failure(error), .failure(other)):
        check(error == other, "the two ways of opening throw different errors: \(error) / \(other)")
        _ = error.description
    default:
        check(false, "one way of opening succeeded and the other failed")
    }
    return 0
}
