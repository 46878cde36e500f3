import GMapBuilder

/// Small hand-made features that exercise each hard case of the even-odd rule.
enum FixtureShapes {
    typealias Ring = [(longitude: Double, latitude: Double)]

    static func box(_ west: Double, _ south: Double, _ east: Double, _ north: Double, clockwise: Bool = false) -> Ring {
        let ring: Ring = [(west, south), (east, south), (east, north), (west, north), (west, south)]
        return clockwise ? ring.reversed() : ring
    }

    /// A square with a square hole.
    static let squareWithHole = SourceFeature(id: "HOLE", polygons: [[box(0, 0, 10, 10), box(3, 3, 7, 7, clockwise: true)]])
    /// A C-shaped polygon whose bounding box holds a lot of outside.
    static let cShape = SourceFeature(id: "C", polygons: [[[(20, 0), (30, 0), (30, 2), (22, 2), (22, 8), (30, 8), (30, 10), (20, 10), (20, 0)]]])
    /// Two countries sharing a zig-zag border, and an enclave of B inside A with an exclave.
    static let countryA = SourceFeature(id: "A", polygons: [
        [[(40, 0), (45, 0), (46, 3), (44.5, 6), (45.5, 10), (40, 10), (40, 0)], box(41, 4, 42, 5, clockwise: true)],
    ])
    static let countryB = SourceFeature(id: "B", polygons: [
        [[(45, 0), (50, 0), (50, 10), (45.5, 10), (44.5, 6), (46, 3), (45, 0)]],
        [box(41, 4, 42, 5)],   // enclave inside A
    ])
    /// A feature split at the antimeridian, as real data stores it.
    static let antimeridian = SourceFeature(id: "FJ", polygons: [
        [box(178, -18, 180, -16)],
        [box(-180, -18, -178, -16, clockwise: true)],
    ])
    /// A polar cap whose ring runs along latitude -90.
    static let polarCap = SourceFeature(id: "AQ", polygons: [
        [[(-180, -90), (180, -90), (180, -70), (90, -65), (0, -70.5), (-90, -66), (-180, -70), (-180, -90)]],
    ])
    /// A self-intersecting bow-tie.
    static let bowTie = SourceFeature(id: "BOW", polygons: [[[(60, 0), (70, 10), (70, 0), (60, 10), (60, 0)]]])
    /// Overlapping features of different sizes.
    static let big = SourceFeature(id: "BIG", polygons: [[box(80, 0, 100, 20)]])
    static let small = SourceFeature(id: "SMALL", polygons: [[box(85, 5, 90, 10)]])
    static let crossing = SourceFeature(id: "CROSS", polygons: [[box(88, 8, 110, 12)]])

    /// Every fixture feature.
    static let all = [squareWithHole, cShape, countryA, countryB, antimeridian, polarCap, bowTie, big, small, crossing]
}
