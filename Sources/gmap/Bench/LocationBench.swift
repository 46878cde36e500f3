import Foundation
import GMap

/// `gmap bench` on a location map (one with a `roads` layer, from `gmap build --osm`): the time
/// of `LocationContext.update` over walks along the map's own streets, of a one-shot `where`, and
/// the map pages a walk leaves resident.
enum LocationBench {
    /// What was measured.
    struct Report {
        /// Fixes per run, walks, runs.
        var fixes = 0, walks = 0, runs = 0
        /// `update` (unthrottled, one context per walk, state kept along it), microseconds per fix.
        var updateP50 = 0.0, updateP99 = 0.0
        /// Median over runs of the mean time per `update`, microseconds.
        var updateMeanMedian = 0.0
        /// A fresh context's first `update` (what `gmap where` answers), microseconds.
        var oneShotP50 = 0.0, oneShotP99 = 0.0
        /// How the fixes were answered in the last run: along a road, inside an area, other or unknown.
        var along = 0, inside = 0, other = 0, unknown = 0
        /// Resident KiB of a fresh mapping of the file after one run of the walks (nil where `/proc` is missing).
        var residentKiBAfterWalks: Int?
        /// Forward geocoding of the map's addresses as "street number" (``GMap/geocode(_:near:limit:)``),
        /// microseconds per query: the first match only, and the ten `gmap geocode` prints.
        var geocodeP50 = 0.0, geocodeP99 = 0.0, geocodeTenP50 = 0.0, geocodeTenP99 = 0.0
        /// Addresses geocoded per run, and of them those whose first match was that address.
        var geocodeQueries = 0, geocodeFound = 0
    }

    /// The walks' speed and noise: a pedestrian's 1.4 m/s, one fix a second, GPS noise of σ 5 m.
    static let speed = 1.4, sigma = 5.0, fixesPerWalk = 60

    /// Measures `map` (the bench's mapping) and `fresh` (a second mapping of the same file, touched
    /// only by one run of the walks, for the resident pages). Nil when `map` is not a location map.
    static func measure(map: GMap, fresh: GMap?, walks: Int, runs: Int, seed: UInt64) -> Report? {
        guard let source = try? MapLocationSource(map: map), let roads = map.layer(named: MapLocationSource.LayerName.roads) else { return nil }
        var random = SplitMix64(state: seed ^ 0x5EED_0F_57_12EE7)
        let segments = roadSegments(roads)
        guard !segments.isEmpty else { return nil }
        let fixes = (0..<walks).map { _ in walk(along: segments, random: &random) }
        var report = Report(fixes: fixes.reduce(0) { $0 + $1.count }, walks: walks, runs: runs)

        if let fresh, let freshSource = try? MapLocationSource(map: fresh) {
            var context = LocationContext(source: freshSource)
            context.options.throttle = .none
            for walk in fixes { for fix in walk { _ = context.update(fix) } }
            report.residentKiBAfterWalks = fresh.withUnsafeBytes { $0.baseAddress.flatMap(ProcessMemory.residentKiB(ofMappingAt:)) }
        }

        var each: [Double] = [], means: [Double] = []
        each.reserveCapacity(report.fixes * runs)
        for run in 0..<runs {
            var total = 0.0
            if run == runs - 1 { report.along = 0; report.inside = 0; report.other = 0; report.unknown = 0 }
            for walk in fixes {
                var context = LocationContext(source: source)
                context.options.throttle = .none
                for fix in walk {
                    let start = Stopwatch.now()
                    let sense = context.update(fix)
                    let seconds = Stopwatch.now() - start
                    each.append(seconds)
                    total += seconds
                    if run == runs - 1 { report.count(sense) }
                }
            }
            means.append(total / Double(max(report.fixes, 1)))
        }
        report.updateP50 = Stopwatch.percentile(each, 0.5) * 1e6
        report.updateP99 = Stopwatch.percentile(each, 0.99) * 1e6
        report.updateMeanMedian = Stopwatch.percentile(means, 0.5) * 1e6

        var oneShot: [Double] = []
        for walk in fixes {
            for fix in walk.prefix(10) {
                let start = Stopwatch.now()
                var context = LocationContext(source: source)
                let sense = context.update(fix)
                let seconds = Stopwatch.now() - start
                withExtendedLifetime(sense) { oneShot.append(seconds) }
            }
        }
        report.oneShotP50 = Stopwatch.percentile(oneShot, 0.5) * 1e6
        report.oneShotP99 = Stopwatch.percentile(oneShot, 0.99) * 1e6
        measureGeocoding(map, runs: runs, random: &random, into: &report)
        return report
    }

    /// The most addresses geocoded per run.
    static let geocodeAddresses = 2_000

    /// Times ``GMap/geocode(_:near:limit:)`` on up to ``geocodeAddresses`` of the map's addresses
    /// (drawn at random, those with a street), written "street number", one by one, `runs` times.
    static func measureGeocoding(_ map: GMap, runs: Int, random: inout SplitMix64, into report: inout Report) {
        guard let addresses = map.layer(named: MapLocationSource.LayerName.addresses), addresses.featureCount > 0 else { return }
        var texts: [(text: String, street: String, number: String)] = []
        for _ in 0..<(geocodeAddresses * 2) where texts.count < geocodeAddresses {
            let feature = addresses.features[Int(random.next() % UInt64(addresses.featureCount))]
            guard let number = feature.property("housenumber"), feature.id != number else { continue }
            texts.append(("\(feature.id) \(number)", feature.id, number))
        }
        guard !texts.isEmpty else { return }
        var first: [Double] = [], ten: [Double] = []
        var found = 0
        for run in 0..<runs {
            for query in texts {
                var start = Stopwatch.now()
                let matches = map.geocode(query.text, limit: 1)
                first.append(Stopwatch.now() - start)
                start = Stopwatch.now()
                let more = map.geocode(query.text, limit: 10)
                ten.append(Stopwatch.now() - start)
                // The same street and number (a street may be spelt several ways: one key).
                if run == 0, let head = matches.first, head.kind == .address, more.count >= 1,
                   NameFolding.normalized(head.thoroughfare ?? "") == NameFolding.normalized(query.street),
                   NameFolding.houseNumberKey(head.subThoroughfare ?? "") == NameFolding.houseNumberKey(query.number) {
                    found += 1
                }
            }
        }
        report.geocodeQueries = texts.count
        report.geocodeFound = found
        report.geocodeP50 = Stopwatch.percentile(first, 0.5) * 1e6
        report.geocodeP99 = Stopwatch.percentile(first, 0.99) * 1e6
        report.geocodeTenP50 = Stopwatch.percentile(ten, 0.5) * 1e6
        report.geocodeTenP99 = Stopwatch.percentile(ten, 0.99) * 1e6
    }

    /// A road segment in degrees.
    struct Segment {
        var latitude: Double, longitude: Double, endLatitude: Double, endLongitude: Double
        var metres: Double
    }

    /// Every stored segment of the roads layer at least 5 m long.
    static func roadSegments(_ roads: GMap) -> [Segment] {
        let quantizer = roads.quantizer
        var segments: [Segment] = []
        _ = roads.forEachLeafTile { tile in
            _ = roads.forEachSegment(in: tile) { segment in
                let latitude = quantizer.degrees(segment.startY), longitude = quantizer.degrees(segment.startX)
                let endLatitude = quantizer.degrees(segment.endY), endLongitude = quantizer.degrees(segment.endX)
                let metres = Geodesic.distance(latitude: latitude, longitude: longitude, toLatitude: endLatitude, longitude: endLongitude)
                if metres >= 5 { segments.append(Segment(latitude: latitude, longitude: longitude, endLatitude: endLatitude, endLongitude: endLongitude, metres: metres)) }
            }
        }
        return segments
    }

    /// A walk of ``fixesPerWalk`` fixes, one a second: from a random point of a random segment,
    /// straight on in the segment's direction (or against it) at ``speed``, each fix moved by
    /// Gaussian noise of ``sigma`` metres, the course that of the walk.
    static func walk(along segments: [Segment], random: inout SplitMix64) -> [LocationFix] {
        let segment = segments[Int(random.next() % UInt64(segments.count))]
        let along = random.unit()
        let reverse = random.next() & 1 == 1
        var latitude = segment.latitude + (segment.endLatitude - segment.latitude) * along
        var longitude = segment.longitude + (segment.endLongitude - segment.longitude) * along
        let metresPerDegree = 111_320.0, cosine = cos(latitude * .pi / 180)
        var north = (segment.endLatitude - segment.latitude) * metresPerDegree
        var east = (segment.endLongitude - segment.longitude) * metresPerDegree * cosine
        let length = max((north * north + east * east).squareRoot(), 1e-9)
        north = north / length * (reverse ? -1 : 1)
        east = east / length * (reverse ? -1 : 1)
        let course = (atan2(east, north) * 180 / .pi + 360).truncatingRemainder(dividingBy: 360)
        var fixes: [LocationFix] = []
        for second in 0..<fixesPerWalk {
            let (noiseNorth, noiseEast) = gaussianPair(&random)
            fixes.append(LocationFix(latitude: latitude + noiseNorth * sigma / metresPerDegree,
                                     longitude: longitude + noiseEast * sigma / (metresPerDegree * cosine),
                                     time: Double(second), course: course))
            latitude += north * speed / metresPerDegree
            longitude += east * speed / (metresPerDegree * cosine)
        }
        return fixes
    }

    /// Two independent standard normal values (Box–Muller).
    static func gaussianPair(_ random: inout SplitMix64) -> (Double, Double) {
        let u = max(random.unit(), 1e-300), v = random.unit()
        let radius = (-2 * log(u)).squareRoot()
        return (radius * cos(2 * .pi * v), radius * sin(2 * .pi * v))
    }
}

extension LocationBench.Report {
    /// Counts how `sense` answered (nil, a throttled fix, is not counted: the walks are unthrottled).
    mutating func count(_ sense: LocationSense?) {
        switch sense {
        case .alongRoad?: along += 1
        case .inside?: inside += 1
        case .other?: other += 1
        case .unknown?, .noLocation?: unknown += 1
        case nil: break
        }
    }
}
