import GMapRender

/// Ink in the renderer's bitmap font, to check drawn labels against.
package enum FontInk {
    /// The pixels of ink in `text` drawn in the bitmap font.
    package static func pixels(of text: String) -> Int {
        text.reduce(0) { total, character in total + BitmapFont.glyph(for: character).reduce(0) { $0 + $1.nonzeroBitCount } }
    }
}
