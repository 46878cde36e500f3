/// Checks that the leaf tiles of one layer describe one set of features: damage that leaves every
/// record well formed (and that recomputed CRCs hide) but makes neighbouring tiles disagree.
///
/// For polygons, rings close in every record (``RecordRingCheck``), the corner bits agree with the
/// leaf that answers for the tile's south-east corner, and an edge is stored in every tile it
/// meets; for lines, a segment is stored in every leaf it meets; points have nothing to compare.
/// The rules in full: Docs/Internals.md#tile-consistency-checks.
///
/// Each record is given once (``add(_:leaf:)``); the edges that reach beyond their tile are kept
/// and matched against their neighbours' at the end (``finish()``), so the work is proportional to
/// the file. Records that could not be read are left out of the comparison (their damage is
/// reported already).
struct TileConsistencyCheck {
    /// The layer checked.
    private let map: GMap
    /// Whether the layer's features enclose areas (``GeometryKind/answersContainment``): their
    /// rings close and their corner bits agree, and an edge passes through a tile's inside;
    /// else a segment of a line meets a tile.
    private let areas: Bool
    /// What the records store, for messages: "edge" or "segment" (``GeometryKind/itemName``).
    private let item: String
    private let limit: Int
    /// What was found, with locations as ``MapVerifier`` reports them (it adds the layer).
    private(set) var problems: [MapProblem] = []
    /// Every edge reaching beyond its tile, as stored: by edge, tile and feature.
    private var stored: [EdgeUse] = []
    /// Every edge a tile stores that a neighbouring record must store too.
    private var expected: [EdgeUse] = []
    /// The tiles whose records could not be read (``GridKey/tile(_:)``), sorted at the end.
    private var unreadable: [Int64] = []
    /// The easternmost stored vertex of the layer, in units.
    private var eastmost = Int64.min
    /// The leaves whose south-east corner no leaf answers for (the grid's east column), with the
    /// features their corner bits say contain it.
    private var eastCorners: [(leaf: LocatedTile, inside: [FeatureCount])] = []

    /// One edge in one tile for one feature: the edge's ends as ``GridKey/point(_:_:)`` keys (`low`
    /// first), the tile as ``GridKey/tile(_:)``, and how many of the feature's slots (or uses) it counts for;
    /// `source` is the tile that expects it (for ``expected``).
    private struct EdgeUse {
        var low: Int64, high: Int64
        var tile: Int64
        var feature: Int
        var count: Int
        var source: Int64

        var sortKey: (Int64, Int64, Int64, Int) { (low, high, tile, feature) }
    }

    /// A check of `map`, a layer of `kind` (polygons or lines), keeping at most `limit` problems.
    init(map: GMap, kind: GeometryKind, limit: Int) {
        self.map = map
        areas = kind.answersContainment
        item = kind.itemName
        self.limit = limit
    }

    private var layout: MapLayout { map.layout }

    // MARK: One record

    /// Checks the record of `leaf`, read whole, and keeps what its neighbours must agree with.
    mutating func add(_ record: DecodedRecord, leaf: LocatedTile) {
        guard problems.count < limit else { return }
        for edge in record.edges { eastmost = max(eastmost, edge.ax, edge.bx) }
        if areas {
            for reason in RecordRingCheck.reasons(record, bounds: leaf.bounds, sharedEdges: layout.usesNodes, words: words) {
                report(leaf, reason)
            }
            checkCorner(record, leaf)
        }
        collectEdgesBeyond(record, leaf)
    }

    /// Notes a record leaf whose record could not be read: nothing is expected of it.
    mutating func addUnreadable(_ leaf: LocatedTile) {
        unreadable.append(GridKey.tile(leaf.bounds))
    }

    /// The corner bits against the leaf that answers for the south-east corner.
    private mutating func checkCorner(_ record: DecodedRecord, _ leaf: LocatedTile) {
        let corner = GridPoint(x: leaf.bounds.east, y: leaf.bounds.south)
        let mine = record.cornerCounts
        // Outside the grid (the east column): no leaf answers there; ``finish()`` checks it against every edge.
        guard let owner = DirectoryWalker.locate(corner, in: map.storage) else {
            if !mine.isEmpty { eastCorners.append((leaf, mine)) }
            return
        }
        var theirs: [FeatureCount]
        var countsGroups = true
        switch TileEntry.kind(of: owner.entry) {
        case TileEntry.emptyKind:
            theirs = []
        case TileEntry.coveredKind:
            theirs = [FeatureCount(feature: Int(TileEntry.payload(of: owner.entry)), count: 1)]
            countsGroups = false
        case TileEntry.recordKind:
            guard let other = DecodedRecord.read(owner, in: map.storage) else { return }
            theirs = other.insideCounts(at: corner, east: owner.bounds.east, south: owner.bounds.south)
        default:
            return
        }
        var disagreements: [(feature: Int, here: Int, there: Int)] = []
        var mineIndex = 0, theirIndex = 0
        while mineIndex < mine.count || theirIndex < theirs.count {
            let a = mineIndex < mine.count ? mine[mineIndex] : nil, b = theirIndex < theirs.count ? theirs[theirIndex] : nil
            let feature = min(a?.feature ?? Int.max, b?.feature ?? Int.max)
            let here = a?.feature == feature ? a?.count ?? 0 : 0, there = b?.feature == feature ? b?.count ?? 0 : 0
            if a?.feature == feature { mineIndex += 1 }
            if b?.feature == feature { theirIndex += 1 }
            let differ = countsGroups ? here != there : (here > 0) != (there > 0)
            if differ { disagreements.append((feature, here, there)) }
        }
        guard let first = disagreements.first else { return }
        let point = TileName.point(x: corner.x, y: corner.y, layout.quantizer)
        let kind = TileEntry.kind(of: owner.entry)
        let other = kind == TileEntry.recordKind ? "the record of \(tileName(owner))"
            : kind == TileEntry.coveredKind ? "\(tileName(owner)) (covered by \(featureName(Int(TileEntry.payload(of: owner.entry)))))"
            : "\(tileName(owner)) (empty)"
        let name = featureName(first.feature)
        var claim: String
        if first.here > 0 && first.there > 0 {
            claim = "\(first.here) parity groups of \(name) contain its south-east corner \(point), but \(other), which answers for that point, says \(first.there)"
        } else if first.here > 0 {
            claim = "\(name) contains its south-east corner \(point), but \(other), which answers for that point, says it does not"
        } else {
            claim = "\(name) does not contain its south-east corner \(point), but \(other), which answers for that point, says it does"
        }
        if disagreements.count > 1 { claim += " (and so for \(disagreements.count - 1) more features)" }
        report(leaf, "its corner bits say " + claim)
    }

    /// Keeps the edges that reach beyond the tile, and what each neighbour they meet must store.
    private mutating func collectEdgesBeyond(_ record: DecodedRecord, _ leaf: LocatedTile) {
        let bounds = leaf.bounds, tile = GridKey.tile(bounds)
        var uses: [EdgeUse] = []
        for edge in record.edges where !SegmentPlacement.isInside(bounds, edge.ax, edge.ay, edge.bx, edge.by) {
            let (low, high) = GridKey.edge(edge)
            record.forEachSlot(of: edge) { slot in
                uses.append(EdgeUse(low: low, high: high, tile: tile, feature: record.slots[slot].featureIndex, count: 1, source: tile))
            }
        }
        guard !uses.isEmpty else { return }
        uses.sort { $0.sortKey < $1.sortKey }
        var merged: [EdgeUse] = []
        for use in uses {
            if let last = merged.last, last.sortKey == use.sortKey {
                merged[merged.count - 1].count += use.count
            } else {
                merged.append(use)
            }
        }
        stored += merged
        // Only the neighbours the edges can reach: those meeting the box around them.
        var reach = TileBounds(west: Int64.max, south: Int64.max, east: Int64.min, north: Int64.min)
        for use in merged {
            let (ax, ay) = GridKey.coordinates(use.low), (bx, by) = GridKey.coordinates(use.high)
            reach = TileBounds(west: min(reach.west, ax, bx), south: min(reach.south, ay, by),
                               east: max(reach.east, ax, bx), north: max(reach.north, ay, by))
        }
        let neighbours = LeafNeighbours.of(bounds, meeting: reach, in: map.storage)
        for use in merged {
            let (ax, ay) = GridKey.coordinates(use.low), (bx, by) = GridKey.coordinates(use.high)
            for neighbour in neighbours where SegmentPlacement.meetsClosed(neighbour.bounds, ax, ay, bx, by) {
                switch TileEntry.kind(of: neighbour.entry) {
                case TileEntry.recordKind:
                    var wanted = use
                    wanted.tile = GridKey.tile(neighbour.bounds)
                    expected.append(wanted)
                case TileEntry.emptyKind where !areas || SegmentPlacement.meetsOpen(neighbour.bounds, ax, ay, bx, by):
                    report(neighbour, directory: true, "\(featureName(use.feature))'s \(item) \(segmentText(use)), stored in \(tileName(leaf)), "
                           + "\(areas ? "passes through" : "meets") this tile, which is empty")
                case TileEntry.coveredKind where areas && SegmentPlacement.meetsOpen(neighbour.bounds, ax, ay, bx, by):
                    let cover = Int(TileEntry.payload(of: neighbour.entry))
                    // In 3.2 another parity group of the same feature may cover both sides of the edge.
                    if cover == use.feature && layout.minorVersion >= FormatLayout.minorVersionWithPartGroups && layout.usesNodes { continue }
                    report(neighbour, directory: true, "\(featureName(use.feature))'s edge \(segmentText(use)), stored in \(tileName(leaf)), "
                           + "passes through this tile, which is covered by \(featureName(cover)) alone")
                default:
                    continue
                }
            }
        }
    }

    // MARK: Matching the neighbours

    /// Matches every edge a tile expects of a neighbouring record against what that record stores.
    mutating func finish() {
        checkEastCorners()
        guard problems.count < limit, !expected.isEmpty else { return }
        stored.sort { $0.sortKey < $1.sortKey }
        expected.sort { ($0.tile, $0.low, $0.high, $0.feature) < ($1.tile, $1.low, $1.high, $1.feature) }
        unreadable.sort()
        var previous: (Int64, Int64, Int64, Int)?
        for wanted in expected {
            guard problems.count < limit else { return }
            if let previous, previous == wanted.sortKey { continue }
            previous = wanted.sortKey
            if Self.contains(unreadable, wanted.tile) { continue }
            let found = storedUse(wanted)
            if let found, !areas || found.count == wanted.count { continue }
            // A count that differs is seen from both tiles: report it once.
            if found != nil, wanted.source > wanted.tile { continue }
            guard let target = leaf(at: wanted.tile), let source = leaf(at: wanted.source) else { continue }
            if let found {
                report(target, "\(featureName(wanted.feature))'s edge \(segmentText(wanted)) counts \(found.count) times for it here "
                       + "and \(wanted.count) times in \(tileName(source)), which it also meets")
            } else {
                report(target, "\(featureName(wanted.feature))'s \(item) \(segmentText(wanted)) meets this tile but is not stored here "
                       + "(\(tileName(source)) stores it)")
            }
        }
    }

    /// A corner of the grid's east column east of every stored edge is inside no feature: even-odd,
    /// a ray from it eastwards crosses no edge. (A corner on the easternmost vertices is not checked:
    /// its answer depends on the edges through it.)
    private mutating func checkEastCorners() {
        for (leaf, inside) in eastCorners where leaf.bounds.east > eastmost {
            guard problems.count < limit, let first = inside.first else { return }
            let point = TileName.point(x: leaf.bounds.east, y: leaf.bounds.south, layout.quantizer)
            let more = inside.count > 1 ? " (and so for \(inside.count - 1) more features)" : ""
            report(leaf, "its corner bits say \(featureName(first.feature)) contains its south-east corner \(point), "
                   + "which lies east of every stored edge of the layer, so inside no feature\(more)")
        }
    }

    /// The stored use with the same edge, tile and feature as `wanted`, if any.
    private func storedUse(_ wanted: EdgeUse) -> EdgeUse? {
        var low = 0, high = stored.count
        let key = wanted.sortKey
        while low < high {
            let middle = (low + high) / 2
            if stored[middle].sortKey < key { low = middle + 1 } else { high = middle }
        }
        return low < stored.count && stored[low].sortKey == key ? stored[low] : nil
    }

    /// Whether the sorted `keys` hold `key`.
    private static func contains(_ keys: [Int64], _ key: Int64) -> Bool {
        var low = 0, high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low < keys.count && keys[low] == key
    }

    /// The leaf whose south-west corner is the tile key's.
    private func leaf(at key: Int64) -> LocatedTile? {
        let (x, y) = GridKey.coordinates(key)
        return DirectoryWalker.locate(GridPoint(x: x, y: y), in: map.storage)
    }

    // MARK: Words

    private var words: ProblemWords { ProblemWords(map: map) }
    private func featureName(_ index: Int) -> String { words.feature(index) }
    private func tileName(_ leaf: LocatedTile) -> String { words.tile(leaf) }
    private func segmentText(_ use: EdgeUse) -> String { words.edge(use.low, use.high) }

    /// Reports at a leaf: its record (the record's byte), or with `directory`, its directory entry.
    private mutating func report(_ leaf: LocatedTile, directory: Bool = false, _ reason: String) {
        guard problems.count < limit else { return }
        let record = TileEntry.kind(of: leaf.entry) == TileEntry.recordKind && !directory
        let offset = record ? layout.tilesOffset + Int(TileEntry.payload(of: leaf.entry)) : layout.directoryOffset
        let location = (record ? "section TILE, record of " : "directory entry of ") + tileName(leaf)
        problems.append(MapProblem(location: location, offset: offset, reason: reason))
    }
}
