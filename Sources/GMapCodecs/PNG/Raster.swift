/// A picture in memory: `width × height` colours, row by row from the top left.
public struct Raster: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// The pixels, row by row from the top, each row from the left.
    public private(set) var pixels: [RGBColour]

    /// A raster filled with `colour`, at least 1 × 1 (PNG has no empty image).
    public init(width: Int, height: Int, filledWith colour: RGBColour) {
        self.width = max(1, width)
        self.height = max(1, height)
        pixels = [RGBColour](repeating: colour, count: self.width * self.height)
    }

    /// Whether the pixel lies in the raster.
    @inline(__always) public func contains(x: Int, y: Int) -> Bool {
        x >= 0 && y >= 0 && x < width && y < height
    }

    /// The colour at a pixel; reading outside the raster gives black, writing there does nothing.
    public subscript(x: Int, y: Int) -> RGBColour {
        get { contains(x: x, y: y) ? pixels[y * width + x] : .black }
        set { if contains(x: x, y: y) { pixels[y * width + x] = newValue } }
    }

    /// Paints the rectangle of pixels `x..<x+width`, `y..<y+height`, clipped to the raster.
    public mutating func fill(x: Int, y: Int, width: Int, height: Int, with colour: RGBColour) {
        let left = max(0, x), right = min(self.width, x + width), top = max(0, y), bottom = min(self.height, y + height)
        guard left < right, top < bottom else { return }
        for row in top..<bottom {
            for column in left..<right { pixels[row * self.width + column] = colour }
        }
    }

    /// The distinct colours in the raster, in order of first appearance; nil once there are more than `limit`.
    public func colours(limit: Int) -> [RGBColour]? {
        var seen: [UInt32: Int] = [:]
        var order: [RGBColour] = []
        var last: UInt32 = .max
        for pixel in pixels {
            let key = pixel.hex
            if key == last { continue }
            last = key
            if seen[key] == nil {
                guard order.count < limit else { return nil }
                seen[key] = order.count
                order.append(pixel)
            }
        }
        return order
    }
}
