/// Which maps of a ``MapStack`` may answer near a point: each map's bounds, and a coarse grid of
/// cells over them, each cell listing (in stack order) the maps whose bounds, widened by
/// ``margin``, meet it. A point's cell gives the few maps worth a closer look, whatever the number
/// of maps; each is then tested against its own bounds.
struct StackIndex: Sendable {
    /// A map's bounds, with the cosine that turns metres into degrees of longitude anywhere within
    /// ``StackIndex/margin`` of them (0 near a pole: every longitude is near).
    struct Bounded: Sendable {
        let box: MapBounds
        let cosine: Double

        /// Whether the point is within `radius` metres (at most the index's margin) of the box, by
        /// the conservative degrees of ``MapBounds/widened(by:)``.
        func holds(latitude: Double, longitude: Double, within radius: Double) -> Bool {
            let latitudeSpan = radius / 110_000 + 1e-6
            guard latitude >= box.south - latitudeSpan, latitude <= box.north + latitudeSpan else { return false }
            guard cosine > 0 else { return true }
            let longitudeSpan = radius / (110_000 * cosine) + 1e-6
            let west = box.west - longitudeSpan, east = box.east + longitudeSpan
            return (longitude >= west && longitude <= east) || (longitude + 360 >= west && longitude + 360 <= east)
                || (longitude - 360 >= west && longitude - 360 <= east)
        }
    }

    /// Each map's bounds, in stack order; nil for a map asked everywhere (it has no bounds).
    let bounds: [Bounded?]
    /// The metres by which each map's bounds are widened in the cells: the farthest any query
    /// through the index may search (a wider one asks every map).
    let margin: Double
    /// Every map's position, and those of the maps in every cell (no bounds, or bounds so wide
    /// that listing them in cells would not save a test).
    private let everyMap: [Int32], everywhere: [Int32]
    /// The area the cells cover, their size in degrees and their number along each axis.
    private let area: MapBounds
    private let cellWidth: Double, cellHeight: Double
    private let columns: Int, rows: Int
    /// Cell `c` (row-major) lists `maps[starts[c] ..< starts[c + 1]]`.
    private let starts: [Int32], maps: [Int32]

    /// The most cells along an axis.
    static let maximumCells = 256

    /// An index of maps with these bounds (nil: asked everywhere), in stack order.
    init(bounds given: [MapBounds?], margin: Double) {
        self.margin = margin
        bounds = given.map { box in
            box.map { box in
                let farthest = min(90, max(abs(box.south), abs(box.north)) + margin / 110_000 + 1e-6)
                let cosine = Trigonometry.cos(farthest * Double.pi / 180)
                return Bounded(box: box, cosine: cosine > 0.01 ? cosine : 0)
            }
        }
        everyMap = given.indices.map { Int32($0) }
        // The widened boxes that stay within ±180° and away from the poles go into cells.
        var widened: [MapBounds?] = given.map { box in
            guard let wide = box?.widened(by: margin), wide.west >= -180, wide.east <= 180 else { return nil }
            return wide
        }
        let boxes = widened.compactMap { $0 }
        guard let first = boxes.first else {
            everywhere = everyMap
            area = MapBounds(south: 0, west: 0, north: 0, east: 0)
            (cellWidth, cellHeight, columns, rows, starts, maps) = (1, 1, 0, 0, [0], [])
            return
        }
        let area = boxes.dropFirst().reduce(first) { $0.union($1) }
        self.area = area
        // Cells about the size of a typical map, at most maximumCells a side.
        let widths = boxes.map { $0.east - $0.west }.sorted(), heights = boxes.map { $0.north - $0.south }.sorted()
        let cellWidth = max(widths[widths.count / 2], (area.east - area.west) / Double(Self.maximumCells), 1e-9)
        let cellHeight = max(heights[heights.count / 2], (area.north - area.south) / Double(Self.maximumCells), 1e-9)
        let columns = max(1, min(Self.maximumCells, Int(((area.east - area.west) / cellWidth).rounded(.up))))
        let rows = max(1, min(Self.maximumCells, Int(((area.north - area.south) / cellHeight).rounded(.up))))
        (self.cellWidth, self.cellHeight, self.columns, self.rows) = (cellWidth, cellHeight, columns, rows)
        func cells(_ box: MapBounds) -> (columns: ClosedRange<Int>, rows: ClosedRange<Int>) {
            let column = { (longitude: Double) in min(columns - 1, max(0, Int((longitude - area.west) / cellWidth))) }
            let row = { (latitude: Double) in min(rows - 1, max(0, Int((latitude - area.south) / cellHeight))) }
            return (column(box.west)...column(box.east), row(box.south)...row(box.north))
        }
        // A map meeting more than half the cells is asked everywhere.
        for (position, box) in widened.enumerated() {
            guard let box else { continue }
            let covered = cells(box)
            if covered.columns.count * covered.rows.count * 2 > columns * rows { widened[position] = nil }
        }
        everywhere = given.indices.filter { widened[$0] == nil }.map { Int32($0) }
        var lists = Array(repeating: [Int32](), count: columns * rows)
        for (position, box) in widened.enumerated() {
            guard let box else {
                for cell in lists.indices { lists[cell].append(Int32(position)) }
                continue
            }
            let covered = cells(box)
            for row in covered.rows {
                for column in covered.columns { lists[row * columns + column].append(Int32(position)) }
            }
        }
        var starts: [Int32] = [0]
        starts.reserveCapacity(lists.count + 1)
        for list in lists { starts.append(starts[starts.count - 1] + Int32(list.count)) }
        (self.starts, maps) = (starts, lists.flatMap { $0 })
    }

    /// The positions, in stack order, of the maps that may hold or come within `radius` metres of
    /// the point: those of its cell (or every map, for a radius wider than ``margin``). A superset:
    /// test each with ``mayAnswer(_:latitude:longitude:within:)``.
    func candidates(latitude: Double, longitude: Double, within radius: Double) -> ArraySlice<Int32> {
        guard radius <= margin, columns > 0 else { return everyMap[...] }
        guard latitude >= area.south, latitude <= area.north, longitude >= area.west, longitude <= area.east else { return everywhere[...] }
        let column = min(columns - 1, max(0, Int((longitude - area.west) / cellWidth)))
        let row = min(rows - 1, max(0, Int((latitude - area.south) / cellHeight)))
        let cell = row * columns + column
        return maps[Int(starts[cell])..<Int(starts[cell + 1])]
    }

    /// Whether the map at `position` may answer within `radius` metres of the point: it has no
    /// bounds, or the point is within `radius` of them.
    func mayAnswer(_ position: Int, latitude: Double, longitude: Double, within radius: Double) -> Bool {
        guard let box = bounds[position], radius <= margin else { return true }
        return box.holds(latitude: latitude, longitude: longitude, within: radius)
    }
}
