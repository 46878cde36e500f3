import GMapCodecs
/// Turns a shapefile polygon's rings into GeoJSON-style polygons `[outer, hole, …]`.
///
/// Shapefile outer rings run clockwise and holes counter-clockwise (a ring of zero area counts as outer).
/// Each hole goes to the smallest outer ring (by area) whose bounding box holds the hole and that holds one
/// of the hole's first eight vertices (even-odd test); failing the vertex test, to the smallest outer ring
/// whose bounding box holds it; failing that, the hole becomes an outer ring of its own. This is exactly
/// what `Scripts/default-map/shp2geojson.py` does, so both give the same polygons.
enum RingGrouping {
    /// An outer ring and the holes given to it.
    private struct Outer {
        var ring: [GeoJSONPosition]
        var area: Double
        var box: Box
        var holes: [[GeoJSONPosition]] = []
    }

    /// A bounding box.
    private struct Box {
        var west: Double, south: Double, east: Double, north: Double

        init(_ ring: [GeoJSONPosition]) {
            west = .infinity; south = .infinity; east = -.infinity; north = -.infinity
            for p in ring {
                west = min(west, p.longitude); east = max(east, p.longitude)
                south = min(south, p.latitude); north = max(north, p.latitude)
            }
        }

        func contains(_ other: Box) -> Bool {
            west <= other.west && south <= other.south && east >= other.east && north >= other.north
        }
    }

    /// The polygons of `rings` (empty rings are dropped); empty when there are no rings.
    static func polygons(_ rings: [[GeoJSONPosition]]) -> [[[GeoJSONPosition]]] {
        var outers: [Outer] = []
        var holes: [[GeoJSONPosition]] = []
        for ring in rings where !ring.isEmpty {
            let area = signedArea(ring)
            if area > 0 {
                holes.append(ring)
            } else {
                outers.append(Outer(ring: ring, area: abs(area), box: Box(ring)))
            }
        }
        // Smallest first; equal areas keep their order (the sort is stable).
        let bySize = outers.indices.sorted { outers[$0].area < outers[$1].area }
        for hole in holes {
            let box = Box(hole)
            let candidates = bySize.filter { outers[$0].box.contains(box) }
            let probes = hole.count > 1 ? Array(hole.dropLast().prefix(8)) : hole
            let owner = probes.lazy.compactMap { probe in
                candidates.first { contains(outers[$0].ring, probe) }
            }.first ?? candidates.first
            if let owner {
                outers[owner].holes.append(hole)
            } else {
                outers.append(Outer(ring: hole, area: abs(signedArea(hole)), box: box))
            }
        }
        return outers.map { [$0.ring] + $0.holes }
    }

    /// The shoelace area: positive counter-clockwise, negative clockwise.
    static func signedArea(_ ring: [GeoJSONPosition]) -> Double {
        guard ring.count >= 3, var previous = ring.last else { return 0 }
        var sum = 0.0
        for point in ring {
            sum += previous.longitude * point.latitude - point.longitude * previous.latitude
            previous = point
        }
        return sum / 2
    }

    /// Even-odd ray casting, written as shp2geojson.py writes it so that the two agree bit for bit.
    static func contains(_ ring: [GeoJSONPosition], _ point: GeoJSONPosition) -> Bool {
        var inside = false
        guard var previous = ring.last else { return false }
        let x = point.longitude, y = point.latitude
        for current in ring {
            let (xi, yi) = (current.longitude, current.latitude), (xj, yj) = (previous.longitude, previous.latitude)
            if (yi > y) != (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi {
                inside.toggle()
            }
            previous = current
        }
        return inside
    }
}
