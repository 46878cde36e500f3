import GMapCodecs
import Foundation
import GMap

/// A query point in degrees.
struct BenchPoint: Sendable {
    var latitude: Double
    var longitude: Double
}

/// The point sets a benchmark times.
enum BenchPoints {
    /// Mean Earth radius in metres, for turning metres into degrees.
    static let earthRadius = 6_371_008.8

    /// `count` points uniform on the sphere: latitude = asin(u) for u uniform in [-1, 1].
    static func uniform(count: Int, random: inout SplitMix64) -> [BenchPoint] {
        (0..<count).map { _ in randomPoint(&random) }
    }

    /// The points of `points` that lie in some feature, repeated in order up to `count` points.
    static func onLand(_ points: [BenchPoint], in map: GMap, count: Int) -> [BenchPoint] {
        repeated(points.filter { map.lookup(latitude: $0.latitude, longitude: $0.longitude) != nil }, to: count)
    }

    /// `count` points within `metres` of a feature's boundary (coasts included), found without the
    /// source geometry: a random segment of about 100 km whose ends get different answers is cut in
    /// half until the change lies within 1 cm, and the point found is moved a random distance up
    /// to `metres` (uniform over the disc) in a random direction. Empty when the map has no boundary.
    static func nearBoundary(of map: GMap, count: Int, within metres: Double, random: inout SplitMix64) -> [BenchPoint] {
        var points: [BenchPoint] = []
        points.reserveCapacity(count)
        var attempts = 0
        while points.count < count, attempts < count * 1_000 + 10_000 {
            attempts += 1
            let start = randomPoint(&random)
            let end = moved(start, metres: 100_000, bearing: random.unit() * 2 * .pi)
            var (inner, outer) = (start, end)
            let innerAnswer = answer(map, inner)
            guard innerAnswer != answer(map, outer) else { continue }
            // Keep `inner` on the starting answer and `outer` on another, halving the gap.
            while distanceDegrees(inner, outer) > 1e-7 {
                let middle = BenchPoint(latitude: (inner.latitude + outer.latitude) / 2,
                                        longitude: (inner.longitude + outer.longitude) / 2)
                if answer(map, middle) == innerAnswer { inner = middle } else { outer = middle }
            }
            let radius = metres * random.unit().squareRoot()
            points.append(moved(inner, metres: radius, bearing: random.unit() * 2 * .pi))
        }
        return points
    }

    /// Points read from a file of `lat,lon` (or `lat lon`) lines; blank lines and lines starting with `#` are skipped.
    static func read(file path: String) throws -> [BenchPoint] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure(message: "cannot read points file \(path)")
        }
        var points: [BenchPoint] = []
        var lineNumber = 0
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard case .success(let coordinate) = CoordinateParser.line(Substring(trimmed)) else {
                throw CommandFailure(message: "\(path):\(lineNumber): expected 'lat,lon', found \(InputExcerpt.quoted(trimmed))")
            }
            points.append(BenchPoint(latitude: coordinate.latitude, longitude: coordinate.longitude))
        }
        return points
    }

    /// `points` cycled to `count` points (empty stays empty).
    static func repeated(_ points: [BenchPoint], to count: Int) -> [BenchPoint] {
        guard !points.isEmpty else { return [] }
        return (0..<count).map { points[$0 % points.count] }
    }

    private static func randomPoint(_ random: inout SplitMix64) -> BenchPoint {
        let u = random.unit() * 2 - 1
        return BenchPoint(latitude: asin(u) * 180 / .pi, longitude: random.unit() * 360 - 180)
    }

    private static func answer(_ map: GMap, _ point: BenchPoint) -> Int {
        map.lookup(latitude: point.latitude, longitude: point.longitude)?.index ?? -1
    }

    private static func distanceDegrees(_ a: BenchPoint, _ b: BenchPoint) -> Double {
        max(abs(a.latitude - b.latitude), abs(a.longitude - b.longitude))
    }

    /// `point` moved `metres` along `bearing` (radians from north), on a local flat approximation,
    /// kept within the valid range (latitude clamped, longitude wrapped). The segment between a
    /// point and its moved copy never crosses the antimeridian: longitude is clamped instead.
    static func moved(_ point: BenchPoint, metres: Double, bearing: Double) -> BenchPoint {
        let degreesPerMetre = 180 / (.pi * earthRadius)
        let latitude = min(90, max(-90, point.latitude + metres * cos(bearing) * degreesPerMetre))
        let shrink = max(cos(point.latitude * .pi / 180), 1e-6)
        let longitude = min(180, max(-180, point.longitude + metres * sin(bearing) * degreesPerMetre / shrink))
        return BenchPoint(latitude: latitude, longitude: longitude)
    }
}
