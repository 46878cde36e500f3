extension Placemark {
    /// How far a street may be to be the ``thoroughfare``, an address to give the house number,
    /// a postcode point to give the code and a place to be the ``name``, in metres.
    static let streetDistance = 20.0, addressDistance = 30.0, postcodeDistance = 100.0, placeDistance = 30.0

    /// Fills the location-map fields from the layers a location map has. A layer of lines or
    /// points, which contains no point, answers with the features that gave a field.
    mutating func fillStreetFields(from roles: PlacemarkLayers) {
        let layers = roles.layers
        if let index = roles.roads,
           let street = layers[index].nearestLines(latitude: latitude, longitude: longitude, within: Self.streetDistance, limit: 1).first {
            thoroughfare = street.feature.property("name") ?? street.feature.id
            ranks.thoroughfare = FieldRank(0, street.distance)
            answer(index, with: street.feature)
        }
        if let index = roles.addresses {
            let addresses = layers[index]
            // The nearest address with a street gives the street (where no road is near) and is
            // then also the nearest on it; else the nearest address on the road's street.
            if thoroughfare == nil {
                if let nearest = addresses.nearestPoint(latitude: latitude, longitude: longitude, within: Self.addressDistance,
                                                        where: { Self.hasStreet(Feature(map: addresses, index: $0)) }) {
                    thoroughfare = nearest.feature.id
                    subThoroughfare = nearest.feature.property("housenumber")
                    ranks.thoroughfare = FieldRank(1, nearest.distance)
                    ranks.subThoroughfare = FieldRank(0, nearest.distance)
                    answer(index, with: nearest.feature)
                }
            } else if let street = thoroughfare,
                      let onStreet = addresses.nearestPoint(latitude: latitude, longitude: longitude, within: Self.addressDistance,
                                                            where: { Feature(map: addresses, index: $0).idBytes.elementsEqual(street.utf8) }) {
                subThoroughfare = onStreet.feature.property("housenumber")
                ranks.subThoroughfare = FieldRank(0, onStreet.distance)
                answer(index, with: onStreet.feature)
            }
        }
        if let index = roles.postcodes,
           let code = layers[index].nearestPoint(latitude: latitude, longitude: longitude, within: Self.postcodeDistance) {
            postalCode = code.feature.id
            ranks.postalCode = FieldRank(0, code.distance)
            answer(index, with: code.feature)
        }
        if let index = roles.areas {
            let areas = answers[index].features
            var water: String?
            areasOfInterest = areas.map { $0.property("name") ?? $0.id }
            // The smallest area of each kind: a city, town or village; a suburb, quarter or
            // neighbourhood; water.
            for area in areas {
                if let group = Self.settlementKind(of: area)?.group {
                    if group == .locality, locality == nil {
                        locality = area.property("name") ?? area.id
                        localityDistance = 0
                        ranks.locality = FieldRank(0, area.area)
                    } else if group == .subLocality, subLocality == nil {
                        subLocality = area.property("name") ?? area.id
                        ranks.subLocality = FieldRank(0, area.area)
                    }
                }
                if water == nil, area.property(MapLocationSource.LayerName.water) == MapLocationSource.LayerName.inland {
                    water = area.property("name") ?? area.id
                    ranks.inlandWater = FieldRank(0, area.area)
                }
            }
            // A location map's water area is more detailed than a marine layer's lake.
            if let water { inlandWater = water }
            if let smallest = areas.first { ranks.name = FieldRank(0, smallest.area) }
        }
        name = areasOfInterest.first
        if name == nil, let index = roles.places,
           let place = layers[index].nearestPoint(latitude: latitude, longitude: longitude, within: Self.placeDistance) {
            name = place.feature.id
            ranks.name = FieldRank(1, place.distance)
            answer(index, with: place.feature)
        }
        if let index = roles.settlements, locality == nil || subLocality == nil {
            let settlements = layers[index]
            var nearest: (locality: (feature: Feature, distance: Double)?, subLocality: (feature: Feature, distance: Double)?)
            if let points = roles.settlementPoints {
                nearest = Self.nearestSettlements(scanning: points, of: settlements, latitude: latitude, longitude: longitude)
            } else {
                if locality == nil {
                    nearest.locality = Self.nearestSettlement(in: settlements, .locality, latitude: latitude, longitude: longitude).map { ($0.feature, $0.distance) }
                }
                if subLocality == nil {
                    nearest.subLocality = Self.nearestSettlement(in: settlements, .subLocality, latitude: latitude, longitude: longitude).map { ($0.feature, $0.distance) }
                }
            }
            var used: [Feature] = []
            if locality == nil, let match = nearest.locality {
                locality = match.feature.id
                localityDistance = match.distance
                ranks.locality = FieldRank(1, match.distance)
                used.append(match.feature)
            }
            if subLocality == nil, let match = nearest.subLocality {
                subLocality = match.feature.id
                ranks.subLocality = FieldRank(1, match.distance)
                used.append(match.feature)
            }
            answers[index].features = used
        }
    }

    /// The house number of the nearest address within ``addressDistance`` on `street` in the
    /// `addresses` layer of `roles`, and its distance; nil when there is none.
    static func nearestAddress(onStreet street: String, in roles: PlacemarkLayers, latitude: Double, longitude: Double) -> (number: String?, distance: Double)? {
        guard let index = roles.addresses else { return nil }
        let addresses = roles.layers[index]
        return addresses.nearestPoint(latitude: latitude, longitude: longitude, within: addressDistance,
                                      where: { Feature(map: addresses, index: $0).idBytes.elementsEqual(street.utf8) })
            .map { ($0.feature.property("housenumber"), $0.distance) }
    }

    /// Whether an address of a location map names a street: its id (the street) is not its own
    /// house number (the id of an address without `addr:street`).
    static func hasStreet(_ address: Feature) -> Bool {
        for position in 0..<address.propertyCount {
            guard let property = address.propertyBytes(at: position), property.key.elementsEqual("housenumber".utf8) else { continue }
            return !address.idBytes.elementsEqual(property.value)
        }
        return true
    }

    /// Which placemark field a `place=*` value fills.
    enum SettlementGroup { case locality, subLocality }

    /// How far a `place=*` node of each kind may be to be the ``locality`` or ``subLocality``, in
    /// metres, when no area of those kinds contains the point: city 10 km, town 5 km, village
    /// 2 km (``locality``); suburb 2 km, quarter 1 km, neighbourhood 500 m (``subLocality``).
    public static let settlementRadii: [(place: String, metres: Double)] = [
        ("city", 10_000), ("town", 5_000), ("village", 2_000), ("suburb", 2_000), ("quarter", 1_000), ("neighbourhood", 500),
    ]

    /// The field a `place=*` value (its UTF-8 bytes) fills and its kind's radius, or nil for
    /// another value: the first three kinds of ``settlementRadii`` fill ``locality``, the others
    /// ``subLocality``. Compared as bytes: a placemark asks for every settlement it passes.
    static func settlementKind(_ value: some Collection<UInt8>) -> (group: SettlementGroup, radius: Double)? {
        for (position, entry) in settlementRadii.enumerated() where value.elementsEqual(entry.place.utf8) {
            return (position < 3 ? .locality : .subLocality, entry.metres)
        }
        return nil
    }

    /// The settlement kind of a feature of `settlements` or `areas`: its `place` property's.
    static func settlementKind(of feature: Feature) -> (group: SettlementGroup, radius: Double)? {
        for position in 0..<feature.propertyCount {
            guard let property = feature.propertyBytes(at: position),
                  property.key.elementsEqual(MapLocationSource.LayerName.place.utf8) else { continue }
            return settlementKind(property.value)
        }
        return nil
    }

    /// Up to how many settlements the layer is read feature by feature rather than searched
    /// (a city's few: reading them costs less than two searches of the grid).
    static let settlementScanLimit = 64

    /// A settlement of a small layer, read once: its field, its kind's radius and its point.
    struct SettlementPoint: Sendable {
        var group: SettlementGroup
        var radius: Double
        var latitude: Double, longitude: Double
    }

    /// The settlements of a layer of at most ``settlementScanLimit`` features (nil for a larger one),
    /// in feature order; a feature without a settlement kind has none (radius 0, never within it).
    static func settlementPoints(of layer: GMap) -> [SettlementPoint]? {
        guard layer.featureCount <= settlementScanLimit else { return nil }
        return (0..<layer.featureCount).map { index in
            let feature = Feature(map: layer, index: index), box = feature.boundingBox
            let kind = settlementKind(of: feature)
            // A settlement is one point: its bounding box is that point.
            return SettlementPoint(group: kind?.group ?? .locality, radius: kind?.radius ?? -1, latitude: box.south, longitude: box.west)
        }
    }

    /// The nearest settlement of each group within its kind's radius (ties to the lower feature
    /// index), from every point of a small settlements layer: the same answers as
    /// ``nearestSettlement(in:_:latitude:longitude:)``.
    static func nearestSettlements(scanning points: [SettlementPoint], of layer: GMap, latitude: Double, longitude: Double)
        -> (locality: (feature: Feature, distance: Double)?, subLocality: (feature: Feature, distance: Double)?) {
        var best: (locality: (index: Int, distance: Double)?, subLocality: (index: Int, distance: Double)?)
        let plane = LocalPlane(latitude: latitude, longitude: longitude)
        for (index, point) in points.enumerated() where point.radius >= 0 {
            let planar = plane.project(latitude: point.latitude, longitude: point.longitude)
            // Measured on the ellipsoid only when the plane says it may be within the radius and
            // as near as the group's best so far (within the planar slack of that distance).
            let current = point.group == .locality ? best.locality : best.subLocality
            let limit = min(point.radius, current?.distance ?? point.radius)
            let reach = limit * GMap.planarSlack(latitude: latitude, radius: limit) + 1
            guard planar.x * planar.x + planar.y * planar.y <= reach * reach else { continue }
            let distance = Geodesic.distance(latitude: latitude, longitude: longitude, toLatitude: point.latitude, longitude: point.longitude)
            // Points come in index order: only a strictly nearer one replaces the best.
            guard distance <= point.radius, current.map({ distance < $0.distance }) ?? true else { continue }
            if point.group == .locality { best.locality = (index, distance) } else { best.subLocality = (index, distance) }
        }
        return (best.locality.map { (Feature(map: layer, index: $0.index), $0.distance) },
                best.subLocality.map { (Feature(map: layer, index: $0.index), $0.distance) })
    }

    /// The nearest point of the settlements layer whose `place` is of `group` and lies within its
    /// own kind's radius (ties to the lower feature index), or nil.
    static func nearestSettlement(in layer: GMap, _ group: SettlementGroup, latitude: Double, longitude: Double) -> PointMatch? {
        var reach = 0.0
        for entry in settlementRadii where settlementKind(entry.place.utf8)?.group == group { reach = max(reach, entry.metres) }
        return layer.nearestPoint(latitude: latitude, longitude: longitude, within: reach) { index in
            let feature = Feature(map: layer, index: index)
            guard let kind = settlementKind(of: feature), kind.group == group else { return false }
            let radius = kind.radius
            // A settlement is one point: its bounding box is that point.
            let box = feature.boundingBox
            return Geodesic.distance(latitude: latitude, longitude: longitude, toLatitude: box.south, longitude: box.west) <= radius
        }
    }
}
