// Bearings in degrees clockwise from north, as every layer of the reader and the location sense use them.

/// Compass words and angles.
public enum Compass {
    /// The eight sectors, clockwise from north.
    public static let directions = ["north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest"]

    /// `degrees` in 0 ..< 360.
    public static func normalised(_ degrees: Double) -> Double {
        guard degrees.isFinite else { return 0 }
        var value = degrees.truncatingRemainder(dividingBy: 360)
        if value < 0 { value += 360 }
        return value >= 360 ? 0 : value
    }

    /// The sector name of a bearing: north for 337.5 ..< 22.5, and so on.
    public static func direction(_ degrees: Double) -> String {
        directions[Int((normalised(degrees) + 22.5) / 45) % 8]
    }

    /// The angle from bearing `b` to bearing `a`, in -180 ..< 180 (positive: `a` is clockwise of `b`).
    public static func signedDifference(_ a: Double, _ b: Double) -> Double {
        let d = normalised(a - b)
        return d >= 180 ? d - 360 : d
    }

    /// The smallest angle between two bearings, 0 … 180.
    public static func difference(_ a: Double, _ b: Double) -> Double {
        let d = normalised(a - b)
        return d > 180 ? 360 - d : d
    }

    /// The initial bearing from one point to another, degrees clockwise from north (0 when they coincide).
    public static func bearing(fromLatitude latitude1: Double, longitude longitude1: Double, toLatitude latitude2: Double, longitude longitude2: Double) -> Double {
        let radians = Double.pi / 180
        let phi1 = latitude1 * radians, phi2 = latitude2 * radians
        let deltaLambda = (longitude2 - longitude1) * radians
        let y = Trigonometry.sin(deltaLambda) * Trigonometry.cos(phi2)
        let x = Trigonometry.cos(phi1) * Trigonometry.sin(phi2) - Trigonometry.sin(phi1) * Trigonometry.cos(phi2) * Trigonometry.cos(deltaLambda)
        guard x != 0 || y != 0 else { return 0 }
        return normalised(Trigonometry.atan2(y, x) / radians)
    }
}
