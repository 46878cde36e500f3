/// A rectangle of pixels that text or the legend takes, so that nothing else is drawn over it.
struct PixelBox: Equatable {
    var x: Int, y: Int, width: Int, height: Int

    /// Whether the two rectangles share a pixel.
    func intersects(_ other: PixelBox) -> Bool {
        x < other.x + other.width && other.x < x + width && y < other.y + other.height && other.y < y + height
    }

    /// Whether the rectangle lies inside a picture of `width` × `height` pixels.
    func isInside(width pictureWidth: Int, height pictureHeight: Int) -> Bool {
        x >= 0 && y >= 0 && x + width <= pictureWidth && y + height <= pictureHeight
    }

    /// The box a line of `text` drawn at (`x`, `y`) takes with its halo (one pixel around the glyphs).
    static func text(_ text: String, x: Int, y: Int) -> PixelBox {
        PixelBox(x: x - 1, y: y - 1, width: BitmapFont.width(of: text) + 2, height: BitmapFont.glyphHeight + 2)
    }
}
