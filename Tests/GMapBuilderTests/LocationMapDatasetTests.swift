import XCTest
import GMap
import GMapBuilder
import GMapCodecs
import GMapTestSupport

/// The location map (format 3.3) built from the Helsinki extract, checked against brute force over
/// the extract's own streets, areas and intersections (issue 13; skipped when ../shared/data/osm is absent).
final class LocationMapDatasetTests: XCTestCase {
    struct Built {
        var data: OSMData
        var network: StreetNetwork
        var places: OSMPlaces
        var bytes: [UInt8]
        var summary: LocationMapSummary
        var seconds: Double
    }

    static func helsinki() throws -> Built {
        let data = try OSMPBFReader.read(path: try TestSupport.osmExtract("Helsinki.osm.pbf").path)
        let start = Date()
        let (bytes, summary) = try LocationMapBuilder.build(data)
        let seconds = Date().timeIntervalSince(start)
        return Built(data: data, network: StreetNetwork(data), places: OSMPlaces(data), bytes: bytes, summary: summary, seconds: seconds)
    }

    func testTheMapHoldsEveryStreetPlaceAddressAndIntersection() throws {
        let built = try Self.helsinki()
        let map = try GMap(bytes: built.bytes)
        print("Helsinki location map: \(built.bytes.count) bytes, built in \(String(format: "%.3f", built.seconds)) s; layers \(built.summary.layerBytes.map { "\($0.layer) \($0.bytes)" }.joined(separator: ", "))")
        XCTAssertEqual(map.formatVersion.major, 3)
        XCTAssertEqual(map.formatVersion.minor, 5, "banded polygons (3.5) with lines and points and the address index (3.3)")
        XCTAssertEqual(map.layerNames, ["areas", "roads", "places", "addresses", "postcodes", "intersections", "settlements"])
        XCTAssertEqual(map.layer(named: "roads")?.geometryKind, .lines)
        XCTAssertEqual(map.layer(named: "places")?.geometryKind, .points)
        XCTAssertEqual(map.layer(named: "areas")?.geometryKind, .polygons)
        // A street of which the extract holds single nodes only (its ways cut at the edge) has no line to store.
        let drawable = built.network.streets.filter { street in street.lines.contains { Set($0.map(\.id)).count >= 2 } }
        XCTAssertEqual(map.layer(named: "roads")?.featureCount, drawable.count)
        XCTAssertEqual(built.network.streets.count - drawable.count, 4)
        XCTAssertEqual(map.layer(named: "intersections")?.featureCount, built.network.intersections.count)
        XCTAssertEqual(map.layer(named: "places")?.featureCount, built.places.places.count)
        XCTAssertEqual(map.layer(named: "addresses")?.featureCount, built.places.addresses.count)
        XCTAssertEqual(map.layer(named: "areas")?.featureCount, built.places.areas.count)
        print("  sections: " + map.sections.map { "\($0.tag) \($0.length)" }.joined(separator: ", "))
        XCTAssertEqual(built.summary.waysWithAbsentNodes, 421)
        XCTAssertEqual(built.summary.absentNodeReferences, 4_525)
        XCTAssertLessThanOrEqual(built.bytes.count, 400_000, "issue 13's file target")
        let verifier = MapVerifier(map: map)
        XCTAssertTrue(verifier.isSound, "\(verifier.problems.prefix(5))")
    }
}

extension LocationMapDatasetTests {
    /// One segment of a street of the extract, for the brute-force oracles.
    struct Segment { var name: String; var a: (Double, Double); var b: (Double, Double) }

    /// Every segment of the network's streets.
    static func segments(of network: StreetNetwork) -> [Segment] {
        var segments: [Segment] = []
        for street in network.streets {
            for line in street.lines {
                for (a, b) in zip(line, line.dropFirst()) { segments.append(Segment(name: street.name, a: (a.latitude, a.longitude), b: (b.latitude, b.longitude))) }
            }
        }
        return segments
    }

    /// Brute force: each street's nearest point to `point` whose planar distance is within
    /// `reach` metres, measured on the ellipsoid, nearest first (ties by name).
    static func streets(near point: (latitude: Double, longitude: Double), segments: [Segment], reach: Double) -> [(name: String, distance: Double)] {
        let plane = LocalPlane(latitude: point.latitude, longitude: point.longitude)
        var best: [String: (squared: Double, latitude: Double, longitude: Double)] = [:]
        for segment in segments {
            let a = plane.project(latitude: segment.a.0, longitude: segment.a.1), b = plane.project(latitude: segment.b.0, longitude: segment.b.1)
            let found = LocalPlane.nearest(ax: a.x, ay: a.y, bx: b.x, by: b.y)
            guard found.squared <= reach * reach else { continue }
            if let current = best[segment.name], current.squared <= found.squared { continue }
            best[segment.name] = (found.squared, segment.a.0 + (segment.b.0 - segment.a.0) * found.t, segment.a.1 + (segment.b.1 - segment.a.1) * found.t)
        }
        return best.map { (name: $0.key, distance: Geodesic.distance(latitude: point.latitude, longitude: point.longitude, toLatitude: $0.value.latitude, longitude: $0.value.longitude)) }
            .sorted { ($0.distance, $0.name) < ($1.distance, $1.name) }
    }

    /// Deterministic points in the extract's box.
    static func points(_ count: Int, in data: OSMData, seed: UInt64) -> [(latitude: Double, longitude: Double)] {
        let latitudes = data.nodes.map(\.latitude), longitudes = data.nodes.map(\.longitude)
        let south = latitudes.min() ?? 0, north = latitudes.max() ?? 0, west = longitudes.min() ?? 0, east = longitudes.max() ?? 0
        var random = SplitMix64(state: seed)
        func uniform() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
        return (0..<count).map { _ in (south + (north - south) * uniform(), west + (east - west) * uniform()) }
    }

    /// The nearest street of the map = brute force over every segment of the extract's streets
    /// (ranked in the same local plane, then measured on the ellipsoid): same street, or a tie
    /// within 3 cm (the map stores positions to 1e-7°, about 1 cm); same distance within 3 cm.
    func testNearestStreetMatchesBruteForce() throws {
        let built = try Self.helsinki()
        let map = try GMap(bytes: built.bytes)
        let roads = try XCTUnwrap(map.layer(named: "roads"))
        let segments = Self.segments(of: built.network)
        let radius = 100.0
        let count = ProcessInfo.processInfo.environment["GMAP_LOCATION_ORACLE_POINTS"].flatMap(Int.init) ?? 100_000
        var compared = 0, ties = 0, none = 0
        for point in Self.points(count, in: built.data, seed: 13) {
            let expected = Self.streets(near: point, segments: segments, reach: 105).filter { $0.distance <= radius }
            let found = roads.nearestLines(latitude: point.latitude, longitude: point.longitude, within: radius)
            guard let first = expected.first else {
                // Nothing within the radius: the map may only find a street at the radius's edge.
                if let line = found.first { XCTAssertGreaterThan(line.distance, radius - 0.03, "\(point)") }
                none += 1
                continue
            }
            if first.distance > radius - 0.03 { continue }
            guard let answer = found.first else { return XCTFail("no street within \(radius) m of \(point); brute force: \(first)") }
            compared += 1
            XCTAssertEqual(answer.distance, first.distance, accuracy: 0.03, "\(point)")
            let name = answer.feature.property("name") ?? answer.feature.id
            if name != first.name {
                // A tie: the map's street is as near, by brute force, within 3 cm.
                let same = expected.first { $0.name == name }
                XCTAssertEqual(same?.distance ?? .infinity, first.distance, accuracy: 0.03, "\(point): map \(name), brute force \(first.name)")
                ties += 1
            }
        }
        print("nearest street: \(count) points, \(compared) compared, \(ties) ties within 3 cm, \(none) with no street within \(Int(radius)) m")
        XCTAssertGreaterThan(compared, count / 2)
    }

    /// The areas containing a point = even-odd over each area's rings (at the map's precision,
    /// as the map stores them), for every area at once.
    func testContainingAreasMatchEvenOdd() throws {
        let built = try Self.helsinki()
        let map = try GMap(bytes: built.bytes)
        let areas = try XCTUnwrap(map.layer(named: "areas"))
        let q = Quantizer.standard
        let rings: [[[(x: Int64, y: Int64)]]] = built.places.areas.map { area in
            area.polygons.flatMap { $0 }.map { ring in ring.map { (q.units($0.longitude), q.units($0.latitude)) } }
        }
        func contains(_ rings: [[(x: Int64, y: Int64)]], x: Double, y: Double) -> Bool {
            var inside = false
            for ring in rings {
                for (a, b) in zip(ring, ring.dropFirst() + ring.prefix(1)) where (Double(a.y) > y) != (Double(b.y) > y) {
                    let crossing = Double(a.x) + (y - Double(a.y)) * Double(b.x - a.x) / Double(b.y - a.y)
                    if x < crossing { inside.toggle() }
                }
            }
            return inside
        }
        let count = ProcessInfo.processInfo.environment["GMAP_LOCATION_ORACLE_POINTS"].flatMap(Int.init) ?? 100_000
        var inside = 0, differ = 0
        for point in Self.points(count, in: built.data, seed: 14) {
            let x = point.longitude * Double(q.unitsPerDegree), y = point.latitude * Double(q.unitsPerDegree)
            let expected = Set(built.places.areas.indices.filter { contains(rings[$0], x: x, y: y) }.map { "\(built.places.areas[$0].source.kind.name)/\(built.places.areas[$0].source.id)" })
            let found = Set(areas.lookupAll(latitude: point.latitude, longitude: point.longitude).map(\.id))
            if !expected.isEmpty { inside += 1 }
            if expected != found {
                differ += 1
                if differ <= 5 { XCTFail("\(point): even-odd \(expected.sorted()), map \(found.sorted())") }
            }
        }
        print("containing areas: \(count) points, \(inside) inside some area, \(differ) differ")
        XCTAssertEqual(differ, 0)
        XCTAssertGreaterThan(inside, count / 50)
    }

    /// The intersections layer = the nodes that two or more kept ways share where three legs or
    /// two streets (name and class) meet, counted here from the ways themselves.
    func testIntersectionsAreTheSharedNodes() throws {
        let built = try Self.helsinki()
        let map = try GMap(bytes: built.bytes)
        let layer = try XCTUnwrap(map.layer(named: "intersections"))
        // The test's own count: kept named highway ways (as StreetNetwork keeps them) through each node.
        var legs: [Int64: Int] = [:], names: [Int64: Set<String>] = [:], ways: [Int64: Int] = [:]
        let present = Set(built.data.nodes.map(\.id))
        for way in built.data.ways {
            // Which ways the walker's profile keeps is RoadProfile's rule (tested on its own in StreetNetworkTests).
            guard let highway = way.tag("highway"), StreetClass.isKept(highway, includePaths: false), RoadProfile.pedestrian.keeps(highway: highway, tag: way.tag),
                  let name = way.tag("name") ?? way.tag("ref") else { continue }
            // A leg leaves the node toward each neighbour along the way that the extract holds.
            var counted = Set<Int64>()
            for (index, node) in way.nodeIDs.enumerated() where present.contains(node) {
                let before = index > 0 && present.contains(way.nodeIDs[index - 1]) ? 1 : 0
                let after = index + 1 < way.nodeIDs.count && present.contains(way.nodeIDs[index + 1]) ? 1 : 0
                legs[node, default: 0] += before + after
                // A street is a name and a class; a way counts at every node of it the file holds.
                if before + after > 0 { names[node, default: []].insert(name + "\u{1}" + highway) }
                if counted.insert(node).inserted { ways[node, default: 0] += 1 }
            }
        }
        let expected = Set(ways.filter { $0.value >= 2 && (legs[$0.key, default: 0] >= 3 || names[$0.key, default: []].count >= 2) }.keys)
        XCTAssertEqual(layer.featureCount, built.network.intersections.count)
        XCTAssertEqual(Set(built.network.intersections.map(\.node.id)), expected)
        print("intersections: \(expected.count) shared nodes, \(built.summary.mainIntersections) main; two or more street names at \(expected.filter { names[$0, default: []].count >= 2 }.count)")
        // Every stored intersection is where its node is, to the map's precision.
        for intersection in built.network.intersections.prefix(200) {
            let found = layer.nearestPoints(latitude: intersection.node.latitude, longitude: intersection.node.longitude, within: 0.05)
            let names = Set(intersection.legs.map { built.network.streets[$0.street].name }).sorted()
            XCTAssertTrue(found.contains { $0.feature.id == names.joined(separator: MapLocationSource.streetSeparator) }, "\(intersection.node.id)")
        }
    }
}

extension LocationMapDatasetTests {
    /// Each road lists its intersections in order along each of its lines: the test walks the
    /// street's own nodes and compares positions, so the indices, their order and the split into
    /// lines are all checked.
    func testRoadsListTheirIntersectionsInOrder() throws {
        let built = try Self.helsinki()
        let map = try GMap(bytes: built.bytes)
        let source = try MapLocationSource(map: map)
        let roads = source.roadLayer, layer = try XCTUnwrap(source.intersectionLayer)
        var position: [Int: (latitude: Double, longitude: Double)] = [:]
        _ = layer.forEachLeafTile { tile in
            _ = layer.forEachPoint(in: tile) { point in
                position[point.featureIndex] = (layer.quantizer.degrees(point.y), layer.quantizer.degrees(point.x))
            }
        }
        let shared = Set(built.network.intersections.map(\.node.id))
        var listed = 0, roadsWithIntersections = 0
        for index in 0..<roads.featureCount {
            let road = try XCTUnwrap(roads.feature(at: index))
            let name = try XCTUnwrap(road.property("name")), roadClass = try XCTUnwrap(road.property("class"))
            let street = try XCTUnwrap(built.network.streets.first { $0.name == name && $0.highwayClass == roadClass })
            let kept = street.lines.filter { Set($0.map { "\(Quantizer.standard.units($0.latitude)),\(Quantizer.standard.units($0.longitude))" }).count >= 2 }
            let lines = source.intersections(along: road)
            let expected = kept.map { line in line.filter { shared.contains($0.id) } }
            if expected.allSatisfy(\.isEmpty) {
                XCTAssertEqual(lines, [], "\(name): no intersection")
                continue
            }
            roadsWithIntersections += 1
            XCTAssertEqual(lines.count, kept.count, "\(name): one list per line")
            for (found, nodes) in zip(lines, expected) {
                XCTAssertEqual(found.count, nodes.count, "\(name)")
                for (feature, node) in zip(found, nodes) {
                    let at = try XCTUnwrap(position[feature.index])
                    XCTAssertEqual(at.latitude, node.latitude, accuracy: 1e-6, "\(name): \(feature.id)")
                    XCTAssertEqual(at.longitude, node.longitude, accuracy: 1e-6, "\(name): \(feature.id)")
                    XCTAssertTrue(feature.id.components(separatedBy: MapLocationSource.streetSeparator).contains(name), "\(feature.id) on \(name)")
                    listed += 1
                }
            }
        }
        XCTAssertGreaterThan(roadsWithIntersections, 50)
        print("roads' intersection lists: \(roadsWithIntersections) roads list \(listed) intersections in order")
        // By name: every feature of that name, lines in order.
        XCTAssertFalse(source.intersections(alongRoadNamed: "Mannerheimintie").joined().isEmpty)
        XCTAssertEqual(source.intersections(alongRoadNamed: "no such street"), [])
    }

    /// The placemark of a location map: street, house number within 30 m, postal code, the named
    /// areas around, each checked against the extract by brute force.
    func testPlacemarkStreetFields() throws {
        let built = try Self.helsinki()
        let map = try GMap(bytes: built.bytes)
        var checked = 0, withNumber = 0
        for address in built.places.addresses.prefix(400) {
            guard let street = address.street else { continue }
            let placemark = map.placemark(latitude: address.latitude, longitude: address.longitude)
            // Brute force: the nearest address within 30 m on the placemark's street gives the number.
            let distances = built.places.addresses.map {
                Geodesic.distance(latitude: $0.latitude, longitude: $0.longitude, toLatitude: address.latitude, longitude: address.longitude)
            }
            let sameSpot = built.places.addresses.indices.filter { distances[$0] < 0.05 }.map { built.places.addresses[$0] }
            let onStreet = built.places.addresses.indices.filter { built.places.addresses[$0].street == placemark.thoroughfare && distances[$0] <= 30 }
            if let nearest = onStreet.min(by: { distances[$0] < distances[$1] }) {
                let tied = onStreet.filter { distances[$0] <= distances[nearest] + 0.05 }.map { built.places.addresses[$0].houseNumber }
                XCTAssertTrue(tied.contains(placemark.subThoroughfare ?? "-"), "\(address): \(placemark)")
            } else {
                XCTAssertNil(placemark.subThoroughfare, "\(address): \(placemark)")
            }
            if placemark.thoroughfare == street { withNumber += 1 }
            if let code = address.postalCode, sameSpot.count == 1 { XCTAssertEqual(placemark.postalCode, code, "\(address)") }
            let areas = NetworkLocationSource(network: built.network, places: built.places).areas(latitude: address.latitude, longitude: address.longitude)
            XCTAssertEqual(Set(placemark.areasOfInterest), Set(areas.map(\.name)), "\(address)")
            checked += 1
        }
        print("placemark: \(checked) addresses, \(withNumber) on the street within 20 m with their number")
        XCTAssertGreaterThan(withNumber, checked / 2)
        // Far from every street, address and area: no street fields.
        let empty = map.placemark(latitude: 10, longitude: 10)
        XCTAssertNil(empty.thoroughfare)
        XCTAssertNil(empty.postalCode)
        XCTAssertEqual(empty.areasOfInterest, [])
    }
}

extension LocationMapDatasetTests {
    /// Inside first (issue 22): the sense of one fix on the map = brute force with the new
    /// precedence: the smallest named area that contains the point (even-odd over the extract's
    /// rings), else the nearest street less than 20 m away (every segment measured), else neither.
    /// Points within 3 cm of the 20 m limit, or with two streets within 3 cm of the same distance,
    /// are skipped (the map stores positions to 1e-7°, about 1 cm).
    func testInsideComesBeforeAlongAgainstBruteForce() throws {
        let built = try Self.helsinki()
        let source = try MapLocationSource(map: try GMap(bytes: built.bytes))
        let oracle = NetworkLocationSource(network: built.network, places: built.places)
        let segments = Self.segments(of: built.network)
        let count = ProcessInfo.processInfo.environment["GMAP_LOCATION_ORACLE_POINTS"].flatMap(Int.init) ?? 100_000
        var kinds: [String: Int] = [:], skipped = 0, differ = 0, insideNearRoad = 0
        for point in Self.points(count, in: built.data, seed: 22) {
            // Brute force: the nearest street and its distance.
            let streets = Self.streets(near: point, segments: segments, reach: 22)
            if let first = streets.first, abs(first.distance - 20) < 0.03 || (streets.count > 1 && streets[1].distance - first.distance < 0.03) {
                skipped += 1
                continue
            }
            let area = oracle.areas(latitude: point.latitude, longitude: point.longitude).first
            let road = streets.first.flatMap { $0.distance < 20 ? $0 : nil }
            var context = LocationContext(source: source)
            let sense = try XCTUnwrap(context.update(LocationFix(latitude: point.latitude, longitude: point.longitude, time: 0)))
            kinds[sense.kindName, default: 0] += 1
            let expectedKind = area != nil ? "inside" : road != nil ? "along_road" : nil
            let same: Bool
            switch sense {
            case let .inside(found, nearestRoad, _):
                same = expectedKind == "inside" && found.name == area?.name
                if road != nil { insideNearRoad += 1; XCTAssertEqual(nearestRoad?.name, road?.name, "\(point): the inside sense names the road along") }
            case let .alongRoad(found, _, _):
                same = expectedKind == "along_road" && found.name == road?.name
            case .other, .unknown, .noLocation:
                same = expectedKind == nil
            }
            if !same {
                differ += 1
                if differ <= 5 { XCTFail("\(point): map \(sense.kindName) \(sense.area?.name ?? sense.road?.name ?? "-"), brute force \(expectedKind ?? "neither") \(area?.name ?? road?.name ?? "-")") }
            }
        }
        print("inside first: \(count) points, \(kinds) (\(insideNearRoad) inside with a road less than 20 m away), \(skipped) at a tie, \(differ) differ")
        XCTAssertEqual(differ, 0)
        XCTAssertGreaterThan(insideNearRoad, count / 100, "the precedence is tested where it matters")
    }
}
