extension GMap {
    /// The nearest point feature of this layer (a layer of points) within `radius` metres that
    /// `accept` (given a feature index) lets through, or nil. Distances are geodesic (WGS 84), as
    /// for ``nearestPoints(latitude:longitude:within:limit:)``, and ties go to the lower feature
    /// index; but nothing is allocated per feature of the layer, and leaves are read nearest
    /// first and only until none can hold a nearer point, so a layer of many points costs about
    /// what the points near the asked one cost. `accept` is asked only about points that are
    /// (within the planar slack) nearer than the nearest accepted so far.
    public func nearestPoint(latitude: Double, longitude: Double, within radius: Double,
                             where accept: (Int) -> Bool = { _ in true }) -> PointMatch? {
        guard layout.kind == .points, Quantizer.isValid(latitude: latitude, longitude: longitude),
              radius.isFinite, radius >= 0 else { return nil }
        let q = quantizer, plane = LocalPlane(latitude: latitude, longitude: longitude)
        let box = SearchBox(latitude: latitude, longitude: longitude, radius: radius, quantizer: q)
        let unitsPerDegree = Double(q.unitsPerDegree), slack = Self.planarSlack(latitude: latitude, radius: radius)
        let x = q.units(longitude), y = q.units(latitude)
        var leaves: [(distance: Double, tile: LocatedTile)] = []
        DirectoryWalker(storage: storage).walk(within: box) { tile in
            guard TileEntry.kind(of: tile.entry) == TileEntry.recordKind else { return }
            let nearestX = min(max(x, tile.bounds.west), tile.bounds.east), nearestY = min(max(y, tile.bounds.south), tile.bounds.north)
            let p = plane.project(latitude: Double(nearestY) / unitsPerDegree, longitude: Double(nearestX) / unitsPerDegree)
            leaves.append(((p.x * p.x + p.y * p.y).squareRoot(), tile))
        }
        leaves.sort { $0.distance < $1.distance }
        // Accepted candidates within the slack of the nearest accepted so far (planar metres).
        var candidates: [(feature: Int, planar: Double, x: Int64, y: Int64)] = []
        var bound = radius * slack + 1
        var slots: [Int] = []
        for leaf in leaves {
            if leaf.distance > bound + 0.5 { break }
            var reader = TileRecordReader(storage: storage, entry: leaf.tile.entry, bounds: leaf.tile.bounds)
            slots.removeAll(keepingCapacity: true)
            reader.walkPoints(checkingVertices: false, slot: { slots.append($0) }, point: { slot, px, py in
                let p = plane.project(latitude: Double(py) / unitsPerDegree, longitude: Double(px) / unitsPerDegree)
                let planar = (p.x * p.x + p.y * p.y).squareRoot()
                guard planar <= bound, slot < slots.count, slots[slot] < featureCount, accept(slots[slot]) else { return }
                candidates.append((slots[slot], planar, px, py))
                bound = min(bound, planar * slack + 0.05)
            })
        }
        var best: PointMatch?
        for candidate in candidates where candidate.planar <= bound {
            let pointLatitude = Double(candidate.y) / unitsPerDegree, pointLongitude = Double(candidate.x) / unitsPerDegree
            let distance = Geodesic.distance(latitude: latitude, longitude: longitude, toLatitude: pointLatitude, longitude: pointLongitude)
            guard distance <= radius else { continue }
            if let current = best, (current.distance, current.feature.index) <= (distance, candidate.feature) { continue }
            best = PointMatch(feature: Feature(map: self, index: candidate.feature), distance: distance, bearing: 0,
                              latitude: pointLatitude, longitude: pointLongitude)
        }
        if var found = best {
            found.bearing = Compass.bearing(fromLatitude: latitude, longitude: longitude, toLatitude: found.latitude, longitude: found.longitude)
            return found
        }
        return nil
    }
}
