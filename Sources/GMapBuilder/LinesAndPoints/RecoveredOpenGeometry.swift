import GMap

/// A vertex in grid units.
public typealias GridVertex = (x: Int64, y: Int64)

/// The segments of one line feature as read back from a map: each distinct directed segment
/// once, with what the runs say about which segment follows which on its line.
///
/// A segment is stored whole in every tile it meets, so a segment crossing tiles is read several
/// times; it is kept once. Within a run each segment is followed by the next one of its line, and
/// the vertex two consecutive segments share lies in every tile that holds either, so the runs
/// link every segment to its successor: chaining by these links (``LineChainer``) gives back the
/// lines as built. A feature that holds the same directed segment twice keeps it once.
struct FeatureSegments {
    /// The distinct segments, in the order first read.
    var segments: [(start: GridVertex, end: GridVertex)] = []
    /// The segment that follows each one on its line, or -1.
    var successors: [Int] = []
    /// Whether some segment is followed by this one.
    var hasPredecessor: [Bool] = []
    /// Each segment's position in ``segments``.
    private var positions: [SegmentKey: Int] = [:]

    /// A directed segment as a dictionary key.
    private struct SegmentKey: Hashable {
        let startX: Int64, startY: Int64, endX: Int64, endY: Int64
    }

    /// Adds a segment (once), linking it after `previous` (the position of the segment before it
    /// in its run), and returns its position.
    mutating func add(start: GridVertex, end: GridVertex, after previous: Int?) -> Int {
        let key = SegmentKey(startX: start.x, startY: start.y, endX: end.x, endY: end.y)
        let position: Int
        if let known = positions[key] {
            position = known
        } else {
            position = segments.count
            positions[key] = position
            segments.append((start, end))
            successors.append(-1)
            hasPredecessor.append(false)
        }
        if let previous, previous != position, successors[previous] < 0, !hasPredecessor[position] {
            successors[previous] = position
            hasPredecessor[position] = true
        }
        return position
    }
}

/// Chains a line feature's segments back into polylines: from each segment that follows none,
/// along the successors; then whatever is left (only where links were lost to damage or a
/// repeated segment) from its first unused segment.
struct LineChainer {
    /// The polylines, each of two vertices or more.
    let lines: [[GridVertex]]

    /// The polylines of `feature`.
    init(_ feature: FeatureSegments) {
        var used = [Bool](repeating: false, count: feature.segments.count)
        var lines: [[GridVertex]] = []
        func follow(from first: Int) {
            var line = [feature.segments[first].start, feature.segments[first].end]
            used[first] = true
            var current = first
            while case let next = feature.successors[current], next >= 0, !used[next] {
                used[next] = true
                line.append(feature.segments[next].end)
                current = next
            }
            lines.append(line)
        }
        for first in feature.segments.indices where !feature.hasPredecessor[first] && !used[first] { follow(from: first) }
        for first in feature.segments.indices where !used[first] { follow(from: first) }
        self.lines = lines
    }
}

/// The lines or points of every feature of a layer of lines or points (format 3.1), read back
/// from its tiles in one walk over the directory.
struct RecoveredOpenGeometry {
    /// Per feature: its segments (a layer of lines).
    private(set) var segments: [FeatureSegments] = []
    /// Per feature: its distinct points in the order read (a layer of points).
    private(set) var points: [[GridVertex]] = []
    /// Tile directory entries that could not be read, and records that end in damage.
    private(set) var unreadableTiles = 0, corruptRecords = 0

    /// Reads every leaf tile of `map`, which must be a layer of lines or points.
    init(map: GMap) {
        let kind = map.geometryKind
        if kind == .lines { segments = Array(repeating: FeatureSegments(), count: map.featureCount) }
        if kind == .points { points = Array(repeating: [], count: map.featureCount) }
        var seenPoints: [Set<PointKey>] = kind == .points ? Array(repeating: [], count: map.featureCount) : []
        var previous: (feature: Int, position: Int)?
        unreadableTiles = map.forEachLeafTile { tile in
            let sound: Bool
            if kind == .lines {
                sound = map.forEachSegment(in: tile) { segment in
                    let link = segment.startsRun ? nil : previous.flatMap { $0.feature == segment.featureIndex ? $0.position : nil }
                    let position = segments[segment.featureIndex].add(start: (segment.startX, segment.startY),
                                                                       end: (segment.endX, segment.endY), after: link)
                    previous = (segment.featureIndex, position)
                }
                previous = nil
            } else {
                sound = map.forEachPoint(in: tile) { point in
                    guard seenPoints[point.featureIndex].insert(PointKey(x: point.x, y: point.y)).inserted else { return }
                    points[point.featureIndex].append((point.x, point.y))
                }
            }
            if !sound { corruptRecords += 1 }
        }
    }

    /// A point as a set member.
    private struct PointKey: Hashable {
        let x: Int64, y: Int64
    }
}
