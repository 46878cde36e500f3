import Foundation
import XCTest
import GMap
import GMapBuilder
import GMapTestSupport

/// "Around me / ahead of me" (issue 22, part 7): ``MapLocationSource/placesAround(latitude:longitude:heading:within:category:aheadOnly:limit:)``.
/// The relative-direction boundaries and the spoken category words on their own, the ranking on a
/// small map made here, and the Helsinki location map against brute force over the extract's
/// places (skipped when ../shared/data/osm is absent).
final class PlacesAroundTests: XCTestCase {
    // MARK: Relative directions

    func testRelativeBearingIsInMinus180To180() {
        let cases: [(bearing: Double, heading: Double, expected: Double)] = [
            (0, 0, 0), (10, 350, 20), (350, 10, -20), (90, 0, 90), (270, 0, -90), (0, 180, 180), (180, 0, 180),
            (359.5, 0, -0.5), (45, 370, 35), (100, -620, 0), (200, 20, 180), (20, 200, 180), (0, 720, 0),
        ]
        for (bearing, heading, expected) in cases {
            XCTAssertEqual(RelativeDirection.relativeBearing(bearing, heading: heading), expected, accuracy: 1e-9, "bearing \(bearing), heading \(heading)")
        }
        // -180 is never given: straight behind is 180.
        var random = SplitMix64(state: 22)
        for _ in 0..<10_000 {
            let d = RelativeDirection.relativeBearing(random.unit() * 720 - 360, heading: random.unit() * 720 - 360)
            XCTAssertTrue(d > -180 && d <= 180, "\(d)")
        }
    }

    func testRelativeDirectionBoundaries() {
        let step = 1e-9
        let cases: [(Double, RelativeDirection)] = [
            (0, .ahead), (45, .ahead), (-45, .ahead), (45 + step, .right), (-45 - step, .left),
            (90, .right), (135, .right), (135 + step, .behind), (-90, .left), (-135, .left), (-135 - step, .behind),
            (180, .behind), (-179.9, .behind), (179.9, .behind), (44.999, .ahead), (-44.999, .ahead),
        ]
        for (d, expected) in cases { XCTAssertEqual(RelativeDirection(relativeBearing: d), expected, "d = \(d)") }
        XCTAssertEqual(RelativeDirection.allCases.map(\.words), ["ahead", "to your right", "to your left", "behind"])
        // Through the bearing and the heading: heading 90 (east), a place due north is to the left.
        XCTAssertEqual(RelativeDirection(relativeBearing: RelativeDirection.relativeBearing(0, heading: 90)), .left)
        XCTAssertEqual(RelativeDirection(relativeBearing: RelativeDirection.relativeBearing(135, heading: 90)), .ahead)
        XCTAssertEqual(RelativeDirection(relativeBearing: RelativeDirection.relativeBearing(225, heading: 90)), .right)
        XCTAssertEqual(RelativeDirection(relativeBearing: RelativeDirection.relativeBearing(270, heading: 90)), .behind)
    }

    // MARK: Category words

    func testSpokenCategoryWords() {
        let cases = [("tourism=museum", "museum"), ("railway=tram_stop", "tram stop"), ("amenity=cafe", "cafe"), ("building=yes", "building"),
                     ("historic=yes", "historic"), ("amenity=", "amenity"), ("public_transport=platform", "platform"),
                     ("shop=second_hand", "second hand"), ("man_made=yes", "man made"), ("museum", "museum"), ("", ""),
                     ("tourism=yes_please", "yes please"), ("a=b=c", "b=c"), ("amenity=kahvila_ö", "kahvila ö")]
        for (category, word) in cases { XCTAssertEqual(PlaceAround.spokenCategory(category), word, category) }
        XCTAssertEqual(PlaceAround(name: "X", category: "railway=tram_stop", distance: 1, bearing: 2, featureIndex: 0).kind, "tram stop")
    }

    func testCategoryFilter() {
        for filter in ["tourism=museum", "tourism", "museum", "Museum", "TOURISM=MUSEUM", "TouRism"] {
            XCTAssertTrue(PlaceAround.category("tourism=museum", matches: filter), filter)
        }
        for filter in ["tram stop", "tram_stop", "Tram Stop", "railway", "railway=tram_stop", "RAILWAY=TRAM_STOP"] {
            XCTAssertTrue(PlaceAround.category("railway=tram_stop", matches: filter), filter)
        }
        for filter in ["yes", "building"] { XCTAssertTrue(PlaceAround.category("building=yes", matches: filter), filter) }
        for filter in ["", "muse", "museums", "tourism=", "=museum", " museum", "museum ", "cafe", "tourism museum"] {
            XCTAssertFalse(PlaceAround.category("tourism=museum", matches: filter), filter)
        }
        for filter in ["tram", "stop", "railway=tram stop", "tram-stop"] {
            XCTAssertFalse(PlaceAround.category("railway=tram_stop", matches: filter), filter)
        }
    }

    // MARK: A small map

    /// A location map made here: one road, and places at given metres east and north of 60 N 25 E.
    static let origin = (latitude: 60.0, longitude: 25.0)
    /// `morePoints` gives some places further points (metres east and north), as a layer of points may.
    static func smallMap(places: [(name: String, category: String, east: Double, north: Double)], morePoints: [String: [(Double, Double)]] = [:],
                         withPlaces: Bool = true) throws -> GMap {
        var options = BuildOptions()
        options.quantizer = .standard
        let plane = LocalPlane(latitude: origin.latitude, longitude: origin.longitude)
        func degrees(_ east: Double, _ north: Double) -> (longitude: Double, latitude: Double) {
            (origin.longitude + east / plane.metresPerDegreeEast, origin.latitude + north / plane.metresPerDegreeNorth)
        }
        var roads = try LineLayerBuilder(options: options)
        try roads.add(SourceLineFeature(id: "Akatu", properties: [.init(key: "name", value: "Akatu"), .init(key: "class", value: "residential")],
                                        lines: [[degrees(-500, -30), degrees(500, -30)]]))
        var layer = try PointLayerBuilder(options: options)
        for place in places {
            try layer.add(SourcePointFeature(id: place.name, properties: [.init(key: "category", value: place.category)], points: [degrees(place.east, place.north)] + (morePoints[place.name] ?? []).map { degrees($0.0, $0.1) }))
        }
        var map = LayeredMapBuilder()
        try map.addLayer(named: MapLocationSource.LayerName.roads, roads)
        if withPlaces { try map.addLayer(named: MapLocationSource.LayerName.places, layer) }
        return try GMap(bytes: try map.finish().bytes)
    }

    func testOnASmallMap() throws {
        let map = try Self.smallMap(places: [
            ("North café", "amenity=cafe", 0, 50), ("East museum", "tourism=museum", 80, 0), ("South stop", "railway=tram_stop", 0, -120),
            ("West shop", "shop=bakery", -30, 0), ("Far north", "tourism=museum", 0, 300), ("Twin A", "amenity=cafe", 70, 50), ("Twin B", "amenity=cafe", 70, 50),
        ])
        let source = try MapLocationSource(map: map)
        let (latitude, longitude) = Self.origin
        // Around: nearest first, equal distances by feature index (Twin A before Twin B), Far north beyond 200 m.
        let around = source.placesAround(latitude: latitude, longitude: longitude, heading: nil, within: 200)
        XCTAssertEqual(around.map(\.name), ["West shop", "North café", "East museum", "Twin A", "Twin B", "South stop"])
        XCTAssertEqual(around.map(\.featureIndex), [3, 0, 1, 5, 6, 2])
        XCTAssertEqual(around.map(\.kind), ["bakery", "cafe", "museum", "cafe", "cafe", "tram stop"])
        for (place, expected) in zip(around, [30.0, 50, 80, 7400.0.squareRoot(), 7400.0.squareRoot(), 120]) {
            XCTAssertEqual(place.distance, expected, accuracy: 0.05, place.name)
            XCTAssertNil(place.relativeBearing)
            XCTAssertNil(place.direction)
        }
        XCTAssertEqual(around[0].bearing, 270, accuracy: 0.1)
        XCTAssertEqual(around[1].bearing, 0, accuracy: 0.1)
        XCTAssertEqual(around[2].bearing, 90, accuracy: 0.1)
        // Facing east: the museum ahead, the café to the left, the stop to the right, the shop behind.
        let east = source.placesAround(latitude: latitude, longitude: longitude, heading: 90, within: 200)
        XCTAssertEqual(east.map { $0.direction }, [.behind, .left, .ahead, .ahead, .ahead, .right])
        XCTAssertEqual(east[1].relativeBearing ?? 0, -90, accuracy: 0.1)
        XCTAssertEqual(east[3].relativeBearing ?? 0, atan2(70.0, 50) * 180 / Double.pi - 90, accuracy: 0.1)
        XCTAssertEqual(source.placesAround(latitude: latitude, longitude: longitude, heading: 450, within: 200), east, "headings taken modulo 360")
        XCTAssertEqual(source.placesAround(latitude: latitude, longitude: longitude, heading: .nan, within: 200), around, "NaN is no heading")
        // Ahead, a category, a limit, the radius.
        XCTAssertEqual(source.placesAround(latitude: latitude, longitude: longitude, heading: 0, within: 400, aheadOnly: true).map(\.name),
                       ["North café", "Far north"])
        XCTAssertEqual(source.placesAround(latitude: latitude, longitude: longitude, heading: nil, within: 400, category: "museum").map(\.name),
                       ["East museum", "Far north"])
        XCTAssertEqual(source.placesAround(latitude: latitude, longitude: longitude, heading: 0, within: 400, category: "TOURISM", aheadOnly: true).map(\.name),
                       ["Far north"])
        XCTAssertEqual(source.placesAround(latitude: latitude, longitude: longitude, heading: nil, within: 400, category: "tram stop", limit: 1).map(\.name),
                       ["South stop"])
        XCTAssertEqual(source.placesAround(latitude: latitude, longitude: longitude, heading: nil, within: 400, category: "cafe", limit: 2).map(\.name),
                       ["North café", "Twin A"])
        XCTAssertEqual(source.placesAround(latitude: latitude, longitude: longitude, heading: nil, within: 200, limit: 3).map(\.name),
                       ["West shop", "North café", "East museum"])
        XCTAssertEqual(source.placesAround(latitude: latitude, longitude: longitude, heading: nil, within: 29.9).map(\.name), [])
        XCTAssertEqual(source.placesAround(latitude: latitude, longitude: longitude, heading: nil, within: 30.1).map(\.name), ["West shop"])
        // Nothing ahead without a heading; nothing for bad input.
        XCTAssertEqual(source.placesAround(latitude: latitude, longitude: longitude, heading: nil, within: 200, aheadOnly: true), [])
        XCTAssertEqual(source.placesAround(latitude: latitude, longitude: longitude, heading: .nan, within: 200, aheadOnly: true), [])
        XCTAssertEqual(source.placesAround(latitude: latitude, longitude: longitude, heading: nil, within: 200, limit: 0), [])
        XCTAssertEqual(source.placesAround(latitude: latitude, longitude: longitude, heading: nil, within: -1), [])
        XCTAssertEqual(source.placesAround(latitude: latitude, longitude: longitude, heading: nil, within: .infinity), [])
        XCTAssertEqual(source.placesAround(latitude: 91, longitude: longitude, heading: nil, within: 200), [])
        XCTAssertEqual(source.placesAround(latitude: .nan, longitude: longitude, heading: nil, within: 200), [])
        // A map without a places layer answers nothing.
        let bare = try MapLocationSource(map: try Self.smallMap(places: [], withPlaces: false))
        XCTAssertNil(bare.placeLayer)
        XCTAssertEqual(bare.placesAround(latitude: latitude, longitude: longitude, heading: nil, within: 200), [])
    }

    /// A feature with several points is one place, at its nearest point.
    func testAPlaceOfSeveralPointsIsListedOnceAtItsNearest() throws {
        let map = try Self.smallMap(places: [("Doors", "amenity=library", 0, 150), ("Kiosk", "shop=kiosk", 60, 0)],
                                    morePoints: ["Doors": [(0, -40), (300, 0), (0, -90)]])
        let source = try MapLocationSource(map: map)
        let (latitude, longitude) = Self.origin
        let around = source.placesAround(latitude: latitude, longitude: longitude, heading: 0, within: 200)
        XCTAssertEqual(around.map(\.name), ["Doors", "Kiosk"])
        XCTAssertEqual(around.first?.distance ?? 0, 40, accuracy: 0.05)
        XCTAssertEqual(around.first?.direction, .behind)
        XCTAssertEqual(source.placesAround(latitude: latitude, longitude: longitude, heading: 0, within: 200, aheadOnly: true).map(\.name), [],
                       "ahead is judged at the nearest point")
        XCTAssertEqual(source.placesAround(latitude: latitude, longitude: longitude, heading: nil, within: 30), [])
    }

    // MARK: Helsinki against brute force

    /// An independent reading of the category rule: equal, ignoring case, to the whole
    /// `key=value`, the key, the value, or the value (the key for `yes`) with spaces for underscores.
    static func oracleMatches(_ category: String, _ filter: String) -> Bool {
        let parts = category.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        var forms = [category]
        if parts.count == 2 {
            forms += [parts[0], parts[1]]
            forms.append((parts[1].isEmpty || parts[1] == "yes" ? parts[0] : parts[1]).replacingOccurrences(of: "_", with: " "))
        } else {
            forms.append(category.replacingOccurrences(of: "_", with: " "))
        }
        return forms.contains { $0.lowercased() == filter.lowercased() }
    }

    /// On 2,000 points (half within 300 m of a random place, half anywhere in the extract's box),
    /// with random headings (a fifth none), radii (5 m to 2 km), categories (a third none; else a
    /// place's category as key=value, key, value or word, in random case, or one that no place has),
    /// `aheadOnly` (a quarter of those with a heading) and limits (1 to 30), the map's list is the
    /// brute-force list over `OSMPlaces(data).places` ranked by geodesic distance then index. The map
    /// stores positions at 1e-7° (about 1 cm), so distances agree within 0.05 m, a place within
    /// 0.05 m of the radius or of the limit-th distance may be in or out, one whose bearing lies
    /// within 0.05 m (as an angle at its distance) of the ahead boundary may be ahead or not, and
    /// two places may swap only when their distances are within 0.05 m of each other.
    func testHelsinkiAgainstBruteForce() throws {
        let data = try OSMPBFReader.read(path: try TestSupport.osmExtract("Helsinki.osm.pbf").path)
        let map = try GMap(bytes: try LocationMapBuilder.build(data).bytes)
        let source = try MapLocationSource(map: map)
        let places = OSMPlaces(data).places
        XCTAssertEqual(source.placeLayer?.featureCount, places.count, "one feature per place, in order")
        let categories = Array(Set(places.map(\.category))).sorted()
        let latitudes = places.map(\.latitude), longitudes = places.map(\.longitude)
        let south = latitudes.min() ?? 0, north = latitudes.max() ?? 0, west = longitudes.min() ?? 0, east = longitudes.max() ?? 0
        let tolerance = 0.05
        // 2,000 queries; 100 in a sanitizer build (a debug build many times slower: 225 s there for 2,000).
        let count = ProcessInfo.processInfo.environment["GMAP_PLACES_AROUND_POINTS"].flatMap(Int.init) ?? (TestSupport.underSanitizer ? 100 : 2_000)
        var random = SplitMix64(state: 2207)
        var differences: [String] = []
        var listed = 0, empty = 0, borderline = 0, swaps = 0, withHeading = 0, aheadQueries = 0, filtered = 0, sameAsNearest = 0
        var seconds = 0.0
        for pointNumber in 0..<count {
            let latitude: Double, longitude: Double
            if pointNumber % 2 == 0 {
                let place = places[random.below(places.count)]
                latitude = place.latitude + (random.unit() * 2 - 1) * 300 / 111_320
                longitude = place.longitude + (random.unit() * 2 - 1) * 300 / 55_500
            } else {
                latitude = south + (north - south) * random.unit()
                longitude = west + (east - west) * random.unit()
            }
            let heading: Double? = random.below(5) == 0 ? nil : random.unit() * 360
            let radius = 5 + random.unit() * 1_995
            var category: String?
            switch random.below(9) {
            case 0, 1, 2: category = nil
            case 8: category = "nosuchcategory"
            case let form:
                let chosen = categories[random.below(categories.count)]
                let parts = chosen.split(separator: "=", maxSplits: 1).map(String.init)
                switch form {
                case 3: category = chosen
                case 4: category = parts.first
                case 5: category = parts.last
                case 6: category = PlaceAround.spokenCategory(chosen).uppercased()
                default: category = (parts.last ?? chosen).capitalized
                }
            }
            let aheadOnly = heading != nil && random.below(4) == 0
            let limit = 1 + random.below(30)
            if heading != nil { withHeading += 1 }
            if aheadOnly { aheadQueries += 1 }
            if category != nil { filtered += 1 }

            let start = Date()
            let answer = source.placesAround(latitude: latitude, longitude: longitude, heading: heading, within: radius,
                                             category: category, aheadOnly: aheadOnly, limit: limit)
            seconds += Date().timeIntervalSince(start)
            // Unfiltered, the list is the places layer's nearestPoints, exactly.
            if category == nil, !aheadOnly {
                let nearest = source.placeLayer?.nearestPoints(latitude: latitude, longitude: longitude, within: radius, limit: limit) ?? []
                if nearest.map(\.feature.index) != answer.map(\.featureIndex) || nearest.map(\.distance) != answer.map(\.distance) {
                    differences.append("(\(latitude), \(longitude)) within \(radius) limit \(limit): nearestPoints gives \(nearest.map(\.feature.index)), placesAround \(answer.map(\.featureIndex))")
                }
                sameAsNearest += 1
            }
            // Brute force: every place, its geodesic distance and bearing from its source position.
            struct Candidate { var index: Int; var distance: Double; var relative: Double?; var sure: Bool }
            var candidates: [Candidate] = []
            for (index, place) in places.enumerated() {
                if let category, !Self.oracleMatches(place.category, category) { continue }
                let distance = Geodesic.distance(latitude: latitude, longitude: longitude, toLatitude: place.latitude, longitude: place.longitude)
                guard distance <= radius + tolerance else { continue }
                var sure = distance <= radius - tolerance
                var relative: Double?
                if let heading {
                    let bearing = Compass.bearing(fromLatitude: latitude, longitude: longitude, toLatitude: place.latitude, longitude: place.longitude)
                    var d = (bearing - heading).truncatingRemainder(dividingBy: 360)
                    if d > 180 { d -= 360 } else if d <= -180 { d += 360 }
                    relative = d
                    if aheadOnly {
                        let slack = distance > 0 ? tolerance / distance * 180 / Double.pi + 1e-9 : 360
                        guard abs(d) <= 45 + slack else { continue }
                        if abs(d) > 45 - slack { sure = false }
                    }
                }
                candidates.append(Candidate(index: index, distance: distance, relative: relative, sure: sure))
            }
            candidates.sort { ($0.distance, $0.index) < ($1.distance, $1.index) }
            var problems: [String] = []
            let byIndex = Dictionary(uniqueKeysWithValues: candidates.map { ($0.index, $0) })
            // Each answer: a candidate, with the same name, category, distance and (within the angle
            // the tolerance makes at its distance) relative bearing and direction.
            for (rank, place) in answer.enumerated() {
                guard let expected = byIndex[place.featureIndex] else {
                    problems.append("#\(rank) \(place.name) (index \(place.featureIndex), \(place.distance) m) is not within the radius or filter")
                    continue
                }
                let source = places[place.featureIndex]
                if place.name != source.name || place.category != source.category { problems.append("#\(rank) is \(place.name)/\(place.category), the place \(source.name)/\(source.category)") }
                if abs(place.distance - expected.distance) > tolerance { problems.append("#\(rank) \(place.name): \(place.distance) m, brute force \(expected.distance) m") }
                if !expected.sure { borderline += 1 }
                switch (heading, place.relativeBearing, place.direction, expected.relative) {
                case (nil, nil, nil, nil): break
                case let (_?, relative?, direction?, oracle?):
                    let slack = expected.distance > 0 ? tolerance / expected.distance * 180 / Double.pi + 1e-9 : 360
                    var gap = abs(relative - oracle)
                    if gap > 180 { gap = 360 - gap }
                    if gap > slack { problems.append("#\(rank) \(place.name): relative bearing \(relative), brute force \(oracle)") }
                    if direction != RelativeDirection(relativeBearing: oracle),
                       [45.0, 135.0].allSatisfy({ abs(abs(oracle) - $0) > slack }) && abs(abs(oracle) - 180) > slack {
                        problems.append("#\(rank) \(place.name): \(direction), brute force \(RelativeDirection(relativeBearing: oracle)) at \(oracle)°")
                    }
                    if aheadOnly, direction != .ahead { problems.append("#\(rank) \(place.name) is \(direction) with aheadOnly") }
                default:
                    problems.append("#\(rank) \(place.name): relative bearing \(String(describing: place.relativeBearing)) with heading \(String(describing: heading))")
                }
                // Order: nearest first by the brute-force distances too, a swap only within the tolerance.
                if rank > 0, let previous = byIndex[answer[rank - 1].featureIndex], previous.distance > expected.distance {
                    if previous.distance - expected.distance <= tolerance { swaps += 1 } else {
                        problems.append("#\(rank) \(place.name) at \(expected.distance) m after \(answer[rank - 1].name) at \(previous.distance) m")
                    }
                }
            }
            if Set(answer.map(\.featureIndex)).count != answer.count { problems.append("a place twice") }
            // Completeness: fewer than the limit only when no sure candidate is left out; and no
            // sure candidate nearer (beyond the tolerance) than the last answer is left out.
            let answered = Set(answer.map(\.featureIndex))
            let sure = candidates.filter(\.sure)
            if answer.count > limit { problems.append("\(answer.count) answers for limit \(limit)") }
            let cutoff = answer.count < limit ? Double.infinity : (answer.last.flatMap { byIndex[$0.featureIndex]?.distance } ?? -1) - tolerance
            for missing in sure where missing.distance < cutoff && !answered.contains(missing.index) {
                problems.append("missing \(places[missing.index].name) (index \(missing.index)) at \(missing.distance) m")
            }
            if answer.count < min(limit, sure.count) { problems.append("\(answer.count) answers, \(min(limit, sure.count)) expected at least") }
            if answer.isEmpty { empty += 1 }
            listed += answer.count
            if !problems.isEmpty {
                differences.append("(\(latitude), \(longitude)) heading \(String(describing: heading)) within \(radius) category \(String(describing: category)) ahead \(aheadOnly) limit \(limit): "
                                   + problems.prefix(3).joined(separator: "; "))
            }
        }
        print("placesAround on Helsinki (\(places.count) places): \(count) points (\(withHeading) with a heading, \(aheadQueries) ahead only, \(filtered) with a category), "
              + "\(listed) places listed, \(empty) empty answers; \(borderline) borderline (within 0.05 m of the radius or the ahead line), "
              + "\(swaps) swaps within 0.05 m; \(sameAsNearest) unfiltered lists compared with nearestPoints; \(differences.count) differences; "
              + "placesAround \(String(format: "%.1f", seconds / Double(max(count, 1)) * 1e6)) µs a call on average")
        XCTAssertEqual(differences.count, 0, differences.prefix(5).joined(separator: "\n"))
        XCTAssertGreaterThan(listed, count, "the points find places")
        XCTAssertLessThan(empty, count / 2)
    }
}
