/// Distances on the WGS 84 ellipsoid, in pure Swift (no C library, so it also builds in Embedded Swift).
///
/// ``distance(latitude:longitude:toLatitude:longitude:)`` uses Andoyer's formula with Lambert's
/// first-order flattening correction: its error is of the order of the flattening squared
/// (about 1e-5 of the distance), far inside the 0.5 % the nearby search promises. (A sphere of
/// mean radius is not good enough: north–south near the equator it is 0.56 % too long.)
/// Checked against GeographicLib's geodesics in the tests.
public enum Geodesic {
    /// WGS 84 semi-major axis, in metres.
    public static let equatorialRadius = 6_378_137.0
    /// WGS 84 flattening.
    public static let flattening = 1 / 298.257223563
    /// The smallest meridional radius of curvature, `a·(1 − e²)` (at the equator), in metres: no
    /// geodesic is shorter than this times its latitude change in radians.
    public static let smallestMeridianRadius = 6_335_439.327
    /// Degrees to radians.
    @usableFromInline static let radiansPerDegree = Double.pi / 180

    /// The geodesic distance in metres between two points given in degrees.
    public static func distance(latitude latitude1: Double, longitude longitude1: Double,
                                toLatitude latitude2: Double, longitude longitude2: Double) -> Double {
        let f = (latitude1 + latitude2) * 0.5 * radiansPerDegree
        let g = (latitude1 - latitude2) * 0.5 * radiansPerDegree
        let l = (longitude1 - longitude2) * 0.5 * radiansPerDegree
        let sinF = Trigonometry.sin(f), cosF = Trigonometry.cos(f)
        let sinG = Trigonometry.sin(g), cosG = Trigonometry.cos(g)
        let sinL = Trigonometry.sin(l), cosL = Trigonometry.cos(l)
        let sinG2 = sinG * sinG, cosG2 = cosG * cosG, sinF2 = sinF * sinF, cosF2 = cosF * cosF
        let sinL2 = sinL * sinL, cosL2 = cosL * cosL
        let s = sinG2 * cosL2 + cosF2 * sinL2
        let c = cosG2 * cosL2 + sinF2 * sinL2
        guard s > 0 else { return 0 }
        guard c > 0 else { return Double.pi * equatorialRadius }   // antipodal: never within a nearby radius
        let omega = Trigonometry.atan2(s.squareRoot(), c.squareRoot())
        let r = (s * c).squareRoot() / omega
        let d = 2 * omega * equatorialRadius
        let h1 = (3 * r - 1) / (2 * c), h2 = (3 * r + 1) / (2 * s)
        return d * (1 + flattening * (h1 * sinF2 * cosG2 - h2 * cosF2 * sinG2))
    }
}

/// Sine, cosine and arctangent in pure Swift, accurate to a few units in the last place for the
/// arguments geodesy needs (|x| up to a few π). The C library is not available in Embedded Swift.
public enum Trigonometry {
    // π/2 split in two parts (Cody–Waite), so that x − k·π/2 stays exact for moderate k.
    private static let halfPiHigh = 1.57079632673412561417e+00
    private static let halfPiLow = 6.07710050650619224932e-11

    /// The sine of `x` radians.
    public static func sin(_ x: Double) -> Double {
        let (r, quadrant) = reduce(x)
        switch quadrant & 3 {
        case 0: return sinKernel(r)
        case 1: return cosKernel(r)
        case 2: return -sinKernel(r)
        default: return -cosKernel(r)
        }
    }

    /// The cosine of `x` radians.
    public static func cos(_ x: Double) -> Double {
        let (r, quadrant) = reduce(x)
        switch quadrant & 3 {
        case 0: return cosKernel(r)
        case 1: return -sinKernel(r)
        case 2: return -cosKernel(r)
        default: return sinKernel(r)
        }
    }

    /// The arctangent of `x`, in (−π/2, π/2).
    public static func atan(_ x: Double) -> Double {
        guard x == x else { return x }
        if x < 0 { return -atan(-x) }
        if x > 1 { return Double.pi / 2 - atan(1 / x) }
        // 0 ≤ x ≤ 1: halve the angle twice (tan(θ/2) = t / (1 + √(1 + t²))), then a short series.
        var t = x
        t = t / (1 + (1 + t * t).squareRoot())
        t = t / (1 + (1 + t * t).squareRoot())
        // |t| ≤ tan(π/16) ≈ 0.199: 12 terms of t − t³/3 + t⁵/5 − … reach 1e-18.
        let t2 = t * t
        let sum: Double = 1.0 + t2 * (-0.3333333333333333 + t2 * (0.2 + t2 * (-0.14285714285714285 + t2 * (0.1111111111111111 + t2 * (-0.09090909090909091 + t2 * (0.07692307692307693 + t2 * (-0.06666666666666667 + t2 * (0.058823529411764705 + t2 * (-0.05263157894736842 + t2 * (0.047619047619047616 + t2 * (-0.043478260869565216)))))))))))
        return 4 * t * sum
    }

    /// The angle of the vector `(x, y)`, in [−π, π].
    public static func atan2(_ y: Double, _ x: Double) -> Double {
        if x > 0 { return atan(y / x) }
        if x < 0 { return y >= 0 ? atan(y / x) + Double.pi : atan(y / x) - Double.pi }
        if y > 0 { return Double.pi / 2 }
        if y < 0 { return -Double.pi / 2 }
        return 0
    }

    /// The arcsine of `x` (clamped to [−1, 1]), in [−π/2, π/2].
    public static func asin(_ x: Double) -> Double {
        let clamped = x > 1 ? 1 : (x < -1 ? -1 : x)
        // |x| ≤ 1/8 (a nearby search's half-width, below 83° of latitude): the series
        // x + x³/6 + 3x⁵/40 + … to x¹⁹, whose rest is below 1e-18 of x, with no division or root.
        if clamped.magnitude <= 0.125 {
            let x2 = clamped * clamped
            let sum: Double = 1.0 + x2 * (0.16666666666666666 + x2 * (0.075 + x2 * (0.044642857142857144 + x2 * (0.030381944444444444 + x2 * (0.022372159090909092 + x2 * (0.017352764423076924 + x2 * (0.01396484375 + x2 * (0.011551800896139705 + x2 * 0.009761609529194078))))))))
            return clamped * sum
        }
        return atan2(clamped, ((1 - clamped) * (1 + clamped)).squareRoot())
    }

    /// `x − k·π/2` in [−π/4, π/4] and `k`.
    private static func reduce(_ x: Double) -> (Double, Int) {
        let k = (x / (Double.pi / 2)).rounded(.toNearestOrAwayFromZero)
        guard k.magnitude < 1e9 else { return (0, 0) }
        return ((x - k * halfPiHigh) - k * halfPiLow, Int(k))
    }

    /// sin(r) for |r| ≤ π/4: the Taylor series to r¹⁹, by Horner's rule.
    private static func sinKernel(_ r: Double) -> Double {
        let r2 = r * r
        let sum: Double = 1.0 + r2 * (-0.16666666666666666 + r2 * (0.008333333333333333 + r2 * (-0.0001984126984126984 + r2 * (2.7557319223985893e-06 + r2 * (-2.505210838544172e-08 + r2 * (1.6059043836821613e-10 + r2 * (-7.647163731819816e-13 + r2 * (2.8114572543455206e-15 + r2 * (-8.22063524662433e-18)))))))))
        return r * sum
    }

    /// cos(r) for |r| ≤ π/4: the Taylor series to r²⁰, by Horner's rule.
    private static func cosKernel(_ r: Double) -> Double {
        let r2 = r * r
        return 1.0 + r2 * (-0.5 + r2 * (0.041666666666666664 + r2 * (-0.001388888888888889 + r2 * (2.48015873015873e-05 + r2 * (-2.755731922398589e-07 + r2 * (2.08767569878681e-09 + r2 * (-1.1470745597729725e-11 + r2 * (4.779477332387385e-14 + r2 * (-1.5619206968586225e-16 + r2 * (4.110317623312165e-19))))))))))
    }
}
