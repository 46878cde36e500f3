import GMap

/// `gmap bench MAP --only OPERATION --calls N`: N calls of one operation and nothing else (no clock,
/// no report), for counting instructions under callgrind. `Benchmarks/instructions.sh` runs it with
/// two call counts on the same inputs and divides the difference of the counts by the difference of
/// the calls, so that opening, reading the points and making the walks cancel out.
enum CallLoop {
    /// What is called.
    enum Operation: String, CaseIterable, Sendable {
        /// `map.lookup(latitude:longitude:)`: the first layer's smallest feature.
        case lookup
        /// `map.placemark(latitude:longitude:)`, a fresh placemark as a new user calls it.
        case placemark
        /// A placemark refilled through a ``MapStack`` of the map (what `gmap place -` does).
        case stackPlacemark = "stack-placemark"
        /// `LocationContext.update` along walks of the map's streets (a location map).
        case `where`
        /// `map.geocode(_:limit: 1)`: a location map's addresses as "street number", or town names.
        case geocode

        /// The words the option takes, for its help and its error.
        static let names = allCases.map(\.rawValue).joined(separator: ", ")
    }

    /// The inputs of `operation` on `map`, made whatever the number of calls, so that two runs of
    /// different call counts do the same work before the loop. Nil when the map cannot take it.
    static func run(_ operation: Operation, map: GMap, points: [BenchPoint], calls: Int, seed: UInt64) -> Int? {
        var random = SplitMix64(state: seed)
        var found = 0
        switch operation {
        case .lookup:
            guard !points.isEmpty else { return nil }
            // Whole passes over the points, then part of one: a loop as plain as the C reader's.
            var left = calls
            while left > 0 {
                for point in points.prefix(left) where map.lookup(latitude: point.latitude, longitude: point.longitude) != nil { found += 1 }
                left -= min(left, points.count)
            }
        case .placemark:
            guard !points.isEmpty else { return nil }
            for call in 0..<calls {
                let point = points[call % points.count]
                if map.placemark(latitude: point.latitude, longitude: point.longitude).isoCountryCode != nil { found += 1 }
            }
        case .stackPlacemark:
            guard !points.isEmpty else { return nil }
            let stack = MapStack([map])
            var placemark = Placemark(latitude: 0, longitude: 0)
            for call in 0..<calls {
                let point = points[call % points.count]
                stack.placemark(latitude: point.latitude, longitude: point.longitude, into: &placemark)
                if placemark.isoCountryCode != nil { found += 1 }
            }
        case .where:
            guard let source = try? MapLocationSource(map: map), let roads = map.layer(named: MapLocationSource.LayerName.roads) else { return nil }
            let segments = LocationBench.roadSegments(roads)
            guard !segments.isEmpty else { return nil }
            let walks = (0..<100).map { _ in LocationBench.walk(along: segments, random: &random) }
            var call = 0
            walking: while true {
                for walk in walks {
                    var context = LocationContext(source: source)
                    context.options.throttle = .none
                    for fix in walk {
                        guard call < calls else { break walking }
                        if let sense = context.update(fix), sense != .unknown { found += 1 }
                        call += 1
                    }
                }
            }
        case .geocode:
            let texts = geocodeTexts(map, random: &random)
            guard !texts.isEmpty else { return nil }
            for call in 0..<calls where !map.geocode(texts[call % texts.count], limit: 1).isEmpty { found += 1 }
        }
        return found
    }

    /// A location map's addresses as "street number", else the ids of its towns: 1,000 drawn at random.
    static func geocodeTexts(_ map: GMap, random: inout SplitMix64) -> [String] {
        var texts: [String] = []
        if let addresses = map.layer(named: MapLocationSource.LayerName.addresses), addresses.featureCount > 0 {
            for _ in 0..<2_000 where texts.count < 1_000 {
                guard let feature = addresses.feature(at: Int(random.next() % UInt64(addresses.featureCount))),
                      let number = feature.property("housenumber"), feature.id != number else { continue }
                texts.append("\(feature.id) \(number)")
            }
        } else if let towns = map.layers.first(where: { $0.layerName == "towns" && $0.geometryKind == .points }), towns.featureCount > 0 {
            for _ in 0..<1_000 {
                if let town = towns.feature(at: Int(random.next() % UInt64(towns.featureCount))) { texts.append(town.id) }
            }
        }
        return texts
    }
}
