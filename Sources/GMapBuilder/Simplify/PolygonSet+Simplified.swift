import GMap

extension PolygonSet {
    /// This set with every arc simplified once (see ``Simplification``), and what was done.
    ///
    /// Features keep their ids, properties and areas (so their order in the map is that of the full
    /// data); boxes are recomputed. A ring that would collapse to a line keeps one more vertex on
    /// each of its arcs (its neighbours keep it too); one that collapses all the same is dropped.
    func simplified(_ settings: Simplification, quantizer: Quantizer) -> (PolygonSet, SimplificationReport) {
        let topology = ArcTopology(self)
        var report = SimplificationReport(settings: settings)
        report.verticesBefore = vertexCount
        report.arcCount = topology.arcCount
        report.sharedArcCount = topology.useCounts.filter { $0 > 1 }.count
        let sides = arcSides(topology)
        report.oneSidedArcCount = sides.filter { $0 != nil }.count

        var keepsOneInside = [Bool](repeating: false, count: topology.arcCount)
        var result = PolygonSet()
        var firstCollapses = 0
        for round in 0..<3 {
            var simplifier = ArcSimplifier(toleranceMetres: settings.toleranceMetres, quantizer: quantizer)
            var kept: [[Int]] = []
            kept.reserveCapacity(topology.arcCount)
            for arc in 0..<topology.arcCount {
                let vertices = Array(topology.vertices(of: arc))
                let positions = simplifier.keptPositions(xs: vertices.map { Int64(xs[$0]) }, ys: vertices.map { Int64(ys[$0]) },
                                                         side: settings.buffersCoasts ? sides[arc] : nil,
                                                         keepsOneInside: keepsOneInside[arc])
                kept.append(positions.map { vertices[$0] })
            }
            let (assembled, collapsed) = assemble(topology, kept: kept)
            if round == 0 { firstCollapses = collapsed.count }
            var marked = false
            for ring in collapsed {
                for use in topology.uses[ring] where !keepsOneInside[use.arc] {
                    keepsOneInside[use.arc] = true
                    marked = true
                }
            }
            if !marked || round == 2 {
                result = assembled
                report.maximumErrorMetres = simplifier.maximumErrorMetres
                report.ringsDropped = collapsed.count
                report.ringsKeptFromCollapse = firstCollapses - collapsed.count
                break
            }
        }
        report.verticesAfter = result.vertexCount
        return (result, report)
    }

    /// Per arc, the side its features lie on when they all lie on one side (a coast, or an outline
    /// that overlapping features share on the same side); nil for a border with features on both sides.
    private func arcSides(_ topology: ArcTopology) -> [ArcSimplifier.Side?] {
        let leftIsInside = ringInsideIsLeft(topology)
        var sides = [ArcSimplifier.Side?](repeating: nil, count: topology.arcCount)
        var mixed = [Bool](repeating: false, count: topology.arcCount)
        for (ring, uses) in topology.uses.enumerated() {
            for use in uses where !mixed[use.arc] {
                let side: ArcSimplifier.Side = leftIsInside[ring] != use.reversed ? .left : .right
                if let known = sides[use.arc], known != side {
                    mixed[use.arc] = true
                    sides[use.arc] = nil
                } else {
                    sides[use.arc] = side
                }
            }
        }
        return sides
    }

    /// Per ring, whether its feature lies to the left of the ring's direction: a counter-clockwise
    /// outer ring or a clockwise hole (a hole being a ring inside an odd number of its feature's other rings).
    private func ringInsideIsLeft(_ topology: ArcTopology) -> [Bool] {
        let rings = topology.rings
        var boxes: [TileBounds] = []
        boxes.reserveCapacity(rings.count)
        var counterClockwise: [Bool] = []
        for ring in rings {
            var box = TileBounds(west: .max, south: .max, east: .min, north: .min)
            var twiceArea = 0.0
            let originX = Int64(xs[ring.start]), originY = Int64(ys[ring.start])
            for index in ring.start...ring.end {
                let x = Int64(xs[index]), y = Int64(ys[index])
                box.west = min(box.west, x); box.east = max(box.east, x)
                box.south = min(box.south, y); box.north = max(box.north, y)
                if index < ring.end {
                    let ax = Double(x - originX), ay = Double(y - originY)
                    let bx = Double(Int64(xs[index + 1]) - originX), by = Double(Int64(ys[index + 1]) - originY)
                    twiceArea += ax * by - bx * ay
                }
            }
            boxes.append(box)
            counterClockwise.append(twiceArea > 0)
        }
        var result = [Bool](repeating: true, count: rings.count)
        var firstOfFeature = 0
        for (index, ring) in rings.enumerated() {
            if ring.feature != rings[firstOfFeature].feature { firstOfFeature = index }
            // The midpoint of the ring's first edge, in half units, seldom lies on another ring.
            let px = Int64(xs[ring.start]) + Int64(xs[ring.start + 1]), py = Int64(ys[ring.start]) + Int64(ys[ring.start + 1])
            var containing = 0
            var other = firstOfFeature
            while other < rings.count, rings[other].feature == ring.feature {
                let box = boxes[other]
                if other != index, px >= 2 * box.west, px <= 2 * box.east, py >= 2 * box.south, py <= 2 * box.north,
                   containsHalfUnitPoint(px, py, ring: rings[other]) {
                    containing += 1
                }
                other += 1
            }
            result[index] = counterClockwise[index] != (containing % 2 == 1)
        }
        return result
    }

    /// The even-odd test of a point given in half units against one ring.
    private func containsHalfUnitPoint(_ px: Int64, _ py: Int64, ring: ArcTopology.Ring) -> Bool {
        var inside = false
        for index in ring.start..<ring.end {
            let ax = 2 * Int64(xs[index]), ay = 2 * Int64(ys[index])
            let bx = 2 * Int64(xs[index + 1]), by = 2 * Int64(ys[index + 1])
            guard (ay > py) != (by > py) else { continue }
            // Crossing left of the point: (px − ax)·(by − ay) < (py − ay)·(bx − ax), flipped when by < ay.
            let comparison = Geometry.compareWideProducts(px - ax, by - ay, py - ay, bx - ax)
            if by > ay ? comparison < 0 : comparison > 0 { inside.toggle() }
        }
        return inside
    }

    /// The rings rebuilt from the simplified arcs, without the rings that collapsed (fewer than three
    /// distinct positions), and the indices of those.
    private func assemble(_ topology: ArcTopology, kept: [[Int]]) -> (PolygonSet, [Int]) {
        var result = PolygonSet()
        result.ids = ids
        result.properties = properties
        result.areas = areas
        result.boxes = [TileBounds](repeating: TileBounds(west: .max, south: .max, east: .min, north: .min), count: featureCount)
        result.ringCounts = [Int](repeating: 0, count: featureCount)
        var collapsed: [Int] = []
        var ring: [Int] = []
        for (ringIndex, uses) in topology.uses.enumerated() {
            ring.removeAll(keepingCapacity: true)
            for use in uses {
                let vertices = kept[use.arc]
                if use.reversed {
                    for vertex in vertices.reversed().dropLast() { ring.append(vertex) }
                } else {
                    for vertex in vertices.dropLast() { ring.append(vertex) }
                }
            }
            var distinct = Set<UInt64>()
            for vertex in ring where distinct.count < 3 {
                distinct.insert(UInt64(UInt32(bitPattern: xs[vertex])) << 32 | UInt64(UInt32(bitPattern: ys[vertex])))
            }
            if distinct.count < 3 {
                collapsed.append(ringIndex)
                continue
            }
            let feature = Int(topology.rings[ringIndex].feature)
            var box = result.boxes[feature]
            for vertex in ring + [ring[0]] {
                let x = xs[vertex], y = ys[vertex]
                result.xs.append(x)
                result.ys.append(y)
                box.west = min(box.west, Int64(x)); box.east = max(box.east, Int64(x))
                box.south = min(box.south, Int64(y)); box.north = max(box.north, Int64(y))
            }
            result.boxes[feature] = box
            result.isRingEnd.append(contentsOf: repeatElement(false, count: ring.count))
            result.isRingEnd.append(true)
            result.featureOfVertex.append(contentsOf: repeatElement(UInt32(feature), count: ring.count + 1))
            result.ringCounts[feature] += 1
            result.ringCount += 1
            result.ringPolygons.append(ringPolygons[ringIndex])
        }
        for feature in 0..<featureCount where result.boxes[feature].west > result.boxes[feature].east {
            result.boxes[feature] = TileBounds(west: 0, south: 0, east: 0, north: 0)
        }
        return (result, collapsed)
    }
}
