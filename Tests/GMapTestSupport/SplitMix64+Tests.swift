import Foundation
import GMap
import GMapBuilder

extension SplitMix64 {
    /// `count` pseudo-random bytes.
    package mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) } }
    /// A pseudo-random number in `0..<bound`.
    package mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

extension SplitMix64 {
    /// A point within `degrees` of a random vertex of a random feature, clamped to valid coordinates.
    package mutating func pointNear(_ features: [SourceFeature], degrees: Double) -> (Double, Double) {
        let feature = features[Int(next() % UInt64(features.count))]
        let rings = feature.polygons.flatMap { $0 }.filter { !$0.isEmpty }
        let ring = rings[Int(next() % UInt64(rings.count))]
        let vertex = ring[Int(next() % UInt64(ring.count))]
        let latitude = min(90, max(-90, vertex.latitude + (unit() * 2 - 1) * degrees))
        let longitude = min(180, max(-180, vertex.longitude + (unit() * 2 - 1) * degrees))
        return (latitude, longitude)
    }
}

extension SplitMix64 {
    /// A GPS fix around a true position: circular Gaussian noise of `sigma` metres (Box–Muller,
    /// two draws: the radius, then the angle), in a local plane of 111,320 m per degree of latitude.
    package mutating func noisy(latitude: Double, longitude: Double, sigma: Double) -> (latitude: Double, longitude: Double) {
        let radius = sigma * (-2 * log(max(unit(), 1e-300))).squareRoot(), angle = 2 * Double.pi * unit()
        return (latitude + radius * cos(angle) / 111_320, longitude + radius * sin(angle) / (111_320 * cos(latitude * Double.pi / 180)))
    }
}
