import GMapCodecs
/// A point on a rendered map: a cross with a halo, and a label beside it.
enum PointMarker {
    /// The cross's arms reach this many pixels from its centre.
    static let armLength = 3

    /// Draws the cross at `pixel` (in the style's ink, or its miss colour when `found` is false) and
    /// `label` to its right, or to its left when it would not fit in the picture or would cover
    /// `avoiding` (the legend) there and fits on the left.
    static func draw(at pixel: (x: Int, y: Int), label: String, found: Bool, style: MapStyle, avoiding reserved: PixelBox? = nil,
                     into raster: inout Raster) {
        let arm = armLength
        var cross: [(Int, Int)] = [(0, 0)]
        for step in 1...arm { cross += [(step, 0), (-step, 0), (0, step), (0, -step)] }
        for (dx, dy) in cross {
            for hy in -1...1 {
                for hx in -1...1 { raster[pixel.x + dx + hx, pixel.y + dy + hy] = style.halo }
            }
        }
        for (dx, dy) in cross { raster[pixel.x + dx, pixel.y + dy] = found ? style.ink : style.missInk }
        let textY = pixel.y - 3, right = pixel.x + arm + 3, left = pixel.x - arm - 3 - BitmapFont.width(of: label)
        func fits(_ x: Int) -> Bool {
            let box = PixelBox.text(label, x: x, y: textY)
            return x >= 0 && x + BitmapFont.width(of: label) <= raster.width && !(reserved.map(box.intersects) ?? false)
        }
        let textX = !fits(right) && fits(left) ? left : right
        BitmapFont.draw(label, x: textX, y: textY, colour: style.ink, halo: style.halo, into: &raster)
    }
}
