import GMapCodecs
/// A tiny bitmap font drawn for gmap, in a 5 × 9 cell (capitals and digits 7 pixels tall, 2 rows
/// below the baseline for descenders), advancing 6 pixels per character. It covers:
///
/// - printable ASCII, and the Latin-1 Supplement and Latin Extended-A blocks (U+00A0…U+017F):
///   symbols and letters drawn in ``FontArt``, letters with marks built from their letter and
///   marks (``AccentedLetters``: an accented capital is drawn 5 rows tall under its mark);
/// - the letters of Latin Extended-B and Latin Extended Additional, from their names in the same
///   way, where this font draws the mark, and as the plain letter where it does not (Ș, ạ, ơ → O);
/// - letters followed by combining marks (U+0300…U+0328), as the letter with its first marks;
/// - typographic quotes, dashes and spaces, as their ASCII forms (’ → ', – → -).
///
/// Any other character (Greek, Cyrillic, CJK, …) is drawn as a hollow box.
public enum BitmapFont {
    /// Columns of a glyph.
    public static let glyphWidth = 5
    /// Rows of a glyph: 7 above the baseline, 2 below.
    public static let glyphHeight = 9
    /// Pixels from one character to the next.
    public static let advance = 6

    /// The glyph of each character the font draws: ``FontArt``, ``FontArt/sameAs``, then ``AccentedLetters``
    /// for the Latin letters of U+00C0…U+024F and U+1E00…U+1EFF that have none yet.
    private static let glyphs: [Unicode.Scalar: [UInt8]] = {
        var table = FontArt.glyphs(FontArt.ascii, characters: FontArt.asciiCharacters)
        table.merge(FontArt.glyphs(FontArt.latin, characters: FontArt.latinCharacters)) { drawn, _ in drawn }
        for (character, shown) in FontArt.sameAs { table[character] = table[shown] }
        for block in [UInt32(0x00C0)...0x024F, 0x1E00...0x1EFF] {
            for value in block {
                guard let scalar = Unicode.Scalar(value), table[scalar] == nil, let name = scalar.properties.name else { continue }
                table[scalar] = AccentedLetters.glyph(named: name, in: table)
            }
        }
        return table
    }()

    /// Drawn for characters the font does not cover.
    private static let replacement: [UInt8] = [0b11111, 0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b11111, 0, 0]

    /// The rows of `character`'s glyph, top first; bit 4 of a row is the leftmost pixel. A
    /// character of several scalars (a letter and combining marks) is drawn as its first scalar,
    /// with the marks ``DiacriticMark`` draws when that is an ASCII letter.
    public static func glyph(for character: Character) -> [UInt8] {
        let scalars = character.unicodeScalars
        guard let first = scalars.first, let glyph = glyphs[first] else { return replacement }
        guard scalars.count > 1, first.isASCII else { return glyph }
        let marks = scalars.dropFirst().compactMap(DiacriticMark.init(combining:))
        return AccentedLetters.glyph(letter: first, marks: marks, in: glyphs) ?? glyph
    }

    /// Whether the font draws `character` (false: it shows as the hollow box).
    public static func covers(_ character: Character) -> Bool {
        character.unicodeScalars.first.map { glyphs[$0] != nil } ?? false
    }

    /// The width in pixels of `text` drawn in one line (no space after the last character).
    public static func width(of text: String) -> Int {
        text.isEmpty ? 0 : text.count * advance - (advance - glyphWidth)
    }

    /// Draws `text` with its top-left corner at (`x`, `y`), in `colour`, each ink pixel surrounded
    /// by `halo` (its 8 neighbours) so that it can be read on any background.
    public static func draw(_ text: String, x: Int, y: Int, colour: RGBColour, halo: RGBColour? = nil, into raster: inout Raster) {
        if let halo {
            forEachInkPixel(of: text, x: x, y: y) { px, py in
                for dy in -1...1 {
                    for dx in -1...1 where dx != 0 || dy != 0 { raster[px + dx, py + dy] = halo }
                }
            }
        }
        forEachInkPixel(of: text, x: x, y: y) { px, py in raster[px, py] = colour }
    }

    private static func forEachInkPixel(of text: String, x: Int, y: Int, _ body: (Int, Int) -> Void) {
        for (position, character) in text.enumerated() {
            for (row, bits) in glyph(for: character).enumerated() {
                for column in 0..<glyphWidth where bits & (1 << (glyphWidth - 1 - column)) != 0 {
                    body(x + position * advance + column, y + row)
                }
            }
        }
    }
}
