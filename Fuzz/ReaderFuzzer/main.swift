// libFuzzer target: arbitrary bytes opened as a `.gmap` map.
//
// Compiled together with every file of Sources/GMap (one module), so it needs no `import GMap`.
// Opens the input both in place (`GMap(unsafeBuffer:)`) and as a copy (`GMap(bytes:)`); the two
// must agree on whether the bytes open, on the error, and on every answer. When the map opens,
// it is queried at a spread of points (world corners, 0/0, top-level tile corners and centres,
// corners of split parts), features are read in and out of range, and the whole grid is surveyed.
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
    func addTile(_ bounds: TileBounds) {
        add(x: bounds.west, y: bounds.south)
        add(x: bounds.east - 1, y: bounds.north - 1)
        add(x: bounds.east, y: bounds.south)
        add(x: bounds.west + bounds.width / 2, y: bounds.south + bounds.height / 2)
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

@inline(never)
func exercise(_ map: GMap, twin: GMap?) {
    _ = map.formatVersion
    _ = map.sections.count
    _ = map.byteCount
    let count = map.featureCount
    check(count >= 0, "negative feature count")

    for (latitude, longitude) in queryPoints(for: map) {
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
        }
    }

    // Features in and out of range: only a few, so big tables stay cheap.
    for index in [-1, Int.min, count, count + 1, Int.max, 0, 1, 2, count / 2, count - 2, count - 1] {
        let feature = map.feature(at: index)
        check((feature != nil) == (index >= 0 && index < count), "feature(at: \(index)) with \(count) features")
        if let feature { exercise(feature, of: map) }
    }
    for pair in map.metadata { _ = pair.key.utf8.count &+ pair.value.utf8.count }

    let survey = TileSurvey(of: map)
    check(survey.topLevelTiles == Int(map.grid.columns * map.grid.rows), "survey miscounts top-level tiles")
    check(survey.edgesPerTile.count == survey.coveredTiles + survey.recordTiles, "survey lists a leaf twice")
    _ = TileSurvey.percentile(survey.edgesPerTile, 0.5)
    _ = TileSurvey.percentile(survey.featuresPerTile, 0.99)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let buffer = UnsafeRawBufferPointer(start: data, count: size)
    let inPlace = Result { () throws(GMapError) -> GMap in try GMap(unsafeBuffer: buffer) }
    let copied = Result { () throws(GMapError) -> GMap in try GMap(bytes: Array(buffer)) }
    switch (inPlace, copied) {
    case let (.success(map), .success(copy)):
        check(map != copy, "two storages compare equal")
        exercise(map, twin: copy)
    case let (.failure(error), .failure(other)):
        check(error == other, "the two ways of opening throw different errors: \(error) / \(other)")
        _ = error.description
    default:
        check(false, "one way of opening succeeded and the other failed")
    }
    return 0
}
