import XCTest
import GMap
import GMapBuilder
import GMapCodecs
import GMapTestSupport

/// Places, addresses and areas made from OSM elements: small hand-made data, and the Helsinki extract.
final class OSMPlacesTests: XCTestCase {
    typealias N = StreetNetworkTests

    /// A square park made of two ways of a multipolygon with a pond (inner), a café node, a
    /// building way with an address, a named street, and a relation missing a member.
    static let sample: OSMData = {
        let nodes = [N.node(1, 60, 25), N.node(2, 60, 25.01), N.node(3, 60.01, 25.01), N.node(4, 60.01, 25),
                     N.node(5, 60.004, 25.004), N.node(6, 60.004, 25.006), N.node(7, 60.006, 25.006),
                     OSMNode(id: 8, latitudeNanodegrees: 60_002_000_000, longitudeNanodegrees: 25_002_000_000,
                             tags: [OSMTag(key: "amenity", value: "cafe"), OSMTag(key: "name", value: "Kahvila")]),
                     N.node(11, 60.02, 25), N.node(12, 60.02, 25.002), N.node(13, 60.022, 25.002), N.node(14, 60.022, 25)]
        let ways = [
            N.way(100, [1, 2, 3], [:]), N.way(101, [3, 4, 1], [:]), N.way(102, [5, 6, 7, 5], [:]),
            N.way(103, [11, 12, 13, 14, 11], ["building": "yes", "name": "Talo", "addr:housenumber": "5", "addr:street": "Xkatu", "addr:postcode": "00100"]),
            N.way(104, [1, 11], ["highway": "residential", "name": "Xkatu"]),
        ]
        let park = OSMRelation(id: 200, members: [OSMMember(kind: .way, id: 100, role: "outer"), OSMMember(kind: .way, id: 102, role: "inner"),
                                                  OSMMember(kind: .way, id: 101, role: "outer")],
                               tags: [OSMTag(key: "type", value: "multipolygon"), OSMTag(key: "leisure", value: "park"), OSMTag(key: "name", value: "Puisto")])
        let cut = OSMRelation(id: 201, members: [OSMMember(kind: .way, id: 100, role: "outer"), OSMMember(kind: .way, id: 999, role: "outer")],
                              tags: [OSMTag(key: "type", value: "multipolygon"), OSMTag(key: "landuse", value: "grass"), OSMTag(key: "name", value: "Nurmi")])
        return OSMData(nodes: nodes, ways: ways, relations: [park, cut])
    }()

    func testPlacesAddressesAndAreas() throws {
        let found = OSMPlaces(Self.sample)
        XCTAssertEqual(found.places.map(\.name), ["Kahvila"])
        XCTAssertEqual(found.places.first?.category, "amenity=cafe")
        XCTAssertEqual(found.addresses, [OSMAddress(houseNumber: "5", street: "Xkatu", postalCode: "00100", latitude: 60.021, longitude: 25.001)])
        XCTAssertEqual(found.areas.map(\.name), ["Talo", "Puisto"], "the street is not an area")
        XCTAssertEqual(found.areas[0].category, "building=yes")
        let park = found.areas[1]
        XCTAssertEqual(park.category, "leisure=park")
        XCTAssertEqual(park.polygons.count, 1)
        XCTAssertEqual(park.polygons[0].map { $0.map(\.id) }, [[1, 2, 3, 4, 1], [5, 6, 7, 5]], "two outer ways joined, the pond as its hole")
        XCTAssertEqual(found.incompleteRelations, 1, "Nurmi's second way is not in the extract")
    }

    func testEvenOddContainment() {
        let ring = [N.node(1, 0, 0), N.node(2, 0, 10), N.node(3, 10, 10), N.node(4, 10, 0), N.node(1, 0, 0)]
        XCTAssertTrue(OSMPlaces.contains(ring, N.node(9, 5, 5)))
        XCTAssertFalse(OSMPlaces.contains(ring, N.node(9, 5, 15)))
        XCTAssertFalse(OSMPlaces.contains(ring, N.node(9, -1, 5)))
        // On the west edge: in (the point moves east); on the east edge: out — one of two neighbours only.
        XCTAssertTrue(OSMPlaces.contains(ring, N.node(9, 5, 0)))
        XCTAssertFalse(OSMPlaces.contains(ring, N.node(9, 5, 10)))
        XCTAssertTrue(OSMPlaces.contains(ring.reversed(), N.node(9, 5, 0)), "either orientation")
        XCTAssertFalse(OSMPlaces.contains(ring.reversed(), N.node(9, 5, 10)))
    }
}

/// Places, addresses and areas of the Helsinki extract (skipped when ../shared/data/osm is absent).
final class OSMPlacesDatasetTests: XCTestCase {
    func testHelsinki() throws {
        let data = try OSMPBFReader.read(path: try TestSupport.osmExtract("Helsinki.osm.pbf").path)
        let found = OSMPlaces(data)
        // Counted here from the raw elements, independently.
        XCTAssertEqual(found.addresses.count, data.nodes.filter { $0.tag("addr:housenumber") != nil }.count
            + data.ways.filter { way in way.tag("addr:housenumber") != nil && way.nodeIDs.allSatisfy { data.node(id: $0) != nil } }.count)
        let namedNodePlaces = data.nodes.filter { node in node.tag("name") != nil && OSMPlaces.placeKeys.contains { node.tag($0).map { $0 != "no" } ?? false } }
        XCTAssertEqual(found.places.filter { $0.source.kind == .node }.count, namedNodePlaces.count)
        XCTAssertGreaterThan(namedNodePlaces.count, 1_000)
        // A multipolygon can be assembled when the file holds every member way and node, and each
        // role's way ends pair up (every end node is used an even number of times).
        var complete = 0, named = 0
        let ways = Dictionary(data.ways.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for relation in data.relations where relation.tag("type") == "multipolygon" && relation.tag("name") != nil
            && OSMPlaces.areaKeys.contains(where: { relation.tag($0) != nil }) {
            named += 1
            let members = relation.members.filter { $0.kind == .way }
            let held = members.compactMap { ways[$0.id] }
            guard held.count == members.count, held.allSatisfy({ $0.nodeIDs.allSatisfy { data.node(id: $0) != nil } }) else { continue }
            var ends: [String: [Int64: Int]] = [:]
            for (member, way) in zip(members, held) {
                let role = member.role == "inner" ? "inner" : "outer"
                if let first = way.nodeIDs.first, let last = way.nodeIDs.last { ends[role, default: [:]][first, default: 0] += 1; ends[role, default: [:]][last, default: 0] += 1 }
            }
            if ends.values.allSatisfy({ $0.values.allSatisfy { $0 % 2 == 0 } }) { complete += 1 }
        }
        XCTAssertEqual(found.areas.filter { $0.source.kind == .relation }.count, complete)
        XCTAssertEqual(found.incompleteRelations, named - complete)
        XCTAssertGreaterThan(found.areas.count, 100)
        for area in found.areas {
            for polygon in area.polygons {
                for ring in polygon { XCTAssertEqual(ring.first?.id, ring.last?.id, "\(area.name): closed"); XCTAssertGreaterThanOrEqual(ring.count, 4) }
            }
        }
        print("Helsinki: \(found.places.count) places, \(found.addresses.count) addresses, \(found.areas.count) areas, \(found.incompleteRelations) incomplete multipolygons")
    }
}
