/// A colour of 8-bit red, green and blue (sRGB, as PNG stores it).
public struct RGBColour: Sendable, Hashable, CustomStringConvertible {
    /// Red, 0…255.
    public var red: UInt8
    /// Green, 0…255.
    public var green: UInt8
    /// Blue, 0…255.
    public var blue: UInt8

    /// A colour from its parts.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// A colour from `0xRRGGBB`.
    public init(hex: UInt32) {
        self.init(red: UInt8(truncatingIfNeeded: hex >> 16), green: UInt8(truncatingIfNeeded: hex >> 8), blue: UInt8(truncatingIfNeeded: hex))
    }

    /// The colour as `0xRRGGBB`.
    public var hex: UInt32 { UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue) }

    /// `#rrggbb`.
    public var description: String {
        let digits = String(hex, radix: 16)
        return "#" + String(repeating: "0", count: 6 - digits.count) + digits
    }

    /// This colour moved `amount` (0…1) of the way towards `other`.
    public func blended(with other: RGBColour, amount: Double) -> RGBColour {
        let t = min(1, max(0, amount))
        func mix(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8((Double(a) * (1 - t) + Double(b) * t).rounded()) }
        return RGBColour(red: mix(red, other.red), green: mix(green, other.green), blue: mix(blue, other.blue))
    }

    /// This colour with its channels scaled by `1 − amount` (0…1).
    public func darkened(by amount: Double) -> RGBColour {
        blended(with: .black, amount: amount)
    }

    /// Black.
    public static let black = RGBColour(hex: 0x000000)
    /// White.
    public static let white = RGBColour(hex: 0xFFFFFF)

    /// A colour from hue (degrees), saturation and lightness (0…1).
    public init(hue: Double, saturation: Double, lightness: Double) {
        let chroma = (1 - abs(2 * lightness - 1)) * saturation
        let sector = (hue.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) / 60
        let second = chroma * (1 - abs(sector.truncatingRemainder(dividingBy: 2) - 1))
        let (r, g, b): (Double, Double, Double)
        switch sector {
        case ..<1: (r, g, b) = (chroma, second, 0)
        case ..<2: (r, g, b) = (second, chroma, 0)
        case ..<3: (r, g, b) = (0, chroma, second)
        case ..<4: (r, g, b) = (0, second, chroma)
        case ..<5: (r, g, b) = (second, 0, chroma)
        default: (r, g, b) = (chroma, 0, second)
        }
        let m = lightness - chroma / 2
        func channel(_ value: Double) -> UInt8 { UInt8(min(255, max(0, ((value + m) * 255).rounded()))) }
        self.init(red: channel(r), green: channel(g), blue: channel(b))
    }
}
