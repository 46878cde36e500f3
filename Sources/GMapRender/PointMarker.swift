import GMapCodecs
/// A point on a rendered map: a cross with a halo, and a label beside it.
enum PointMarker {
    /// The cross's arms reach this many pixels from its centre.
    static let armLength = 3

    /// Draws the cross at `pixel` (in the style's ink, or its miss colour when `found` is false) and
    /// `label` to its right, or to its left when it would not fit.
    static func draw(at pixel: (x: Int, y: Int), label: String, found: Bool, style: MapStyle, into raster: inout Raster) {
        let arm = armLength
        var cross: [(Int, Int)] = [(0, 0)]
        for step in 1...arm { cross += [(step, 0), (-step, 0), (0, step), (0, -step)] }
        for (dx, dy) in cross {
            for hy in -1...1 {
                for hx in -1...1 { raster[pixel.x + dx + hx, pixel.y + dy + hy] = style.halo }
            }
        }
        for (dx, dy) in cross { raster[pixel.x + dx, pixel.y + dy] = found ? style.ink : style.missInk }
        let textWidth = BitmapFont.width(of: label)
        var textX = pixel.x + arm + 3
        if textX + textWidth > raster.width, pixel.x - arm - 3 - textWidth >= 0 { textX = pixel.x - arm - 3 - textWidth }
        BitmapFont.draw(label, x: textX, y: pixel.y - 3, colour: style.ink, halo: style.halo, into: &raster)
    }
}
