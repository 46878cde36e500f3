/// Glyphs of Latin letters with marks, built from a letter of ``FontArt/ascii`` and the marks that
/// the character's Unicode name gives ("LATIN CAPITAL LETTER O WITH DIAERESIS": O and a
/// diaeresis), so that the font covers Latin-1 Supplement and Latin Extended-A (and the
/// letters of Extended-B and Extended Additional) without a picture of each.
///
/// - A mark above goes in rows 0–1: over a small letter's x-height (i and j lose their dot), or
///   over the capital shrunk to 5 rows (``smallCapital(_:of:)``) — so an accented capital whose
///   small letter has the capital's shape (Ö and ö, Š and š, Ž and ž, Ŵ and ŵ) looks like it.
/// - A mark below goes in rows 7–8, under a letter without a descender.
/// - A mark without room (over an ascender, under a descender), or one that ``DiacriticMark``
///   does not draw (a hook, a horn, a stroke not drawn in ``FontArt/latin``), is left out: the
///   character is drawn as its letter.
enum AccentedLetters {
    /// Capitals drawn by hand at 5 rows, where dropping rows reads badly.
    static let smallCapitalOverrides: [Unicode.Scalar: [UInt8]] = ["G": [0b01110, 0b10000, 0b10111, 0b10001, 0b01111]]
    /// The forms of i and j that marks above sit on.
    static let dotless: [Unicode.Scalar: Unicode.Scalar] = ["i": "ı", "j": "ȷ"]

    /// The glyph of the character Unicode names `name`, from the letter and marks of the name, or
    /// nil when the name is not "LATIN CAPITAL|SMALL LETTER X" with an ASCII letter X, optionally
    /// followed by "WITH mark AND mark…".
    static func glyph(named name: String, in glyphs: [Unicode.Scalar: [UInt8]]) -> [UInt8]? {
        let capital = "LATIN CAPITAL LETTER ", small = "LATIN SMALL LETTER "
        let isCapital = name.hasPrefix(capital)
        guard isCapital || name.hasPrefix(small) else { return nil }
        var rest = name.dropFirst(isCapital ? capital.count : small.count)
        guard let letter = rest.unicodeScalars.first, letter.isASCII, letter.properties.isUppercase else { return nil }
        rest = rest.dropFirst()
        var marks: [DiacriticMark] = []
        if !rest.isEmpty {
            guard rest.hasPrefix(" WITH ") else { return nil }
            marks = rest.dropFirst(6).split(separator: " AND ").compactMap { DiacriticMark(unicodeName: $0) }
        }
        let base = isCapital ? letter : Unicode.Scalar(UInt8(letter.value) + 32)
        return glyph(letter: base, marks: marks, in: glyphs)
    }

    /// `letter` (an ASCII letter of `glyphs`) with the first mark above and the first mark below
    /// of `marks` that have room; nil when `glyphs` has no such letter.
    static func glyph(letter: Unicode.Scalar, marks: [DiacriticMark], in glyphs: [Unicode.Scalar: [UInt8]]) -> [UInt8]? {
        guard var rows = glyphs[letter], rows.count == BitmapFont.glyphHeight else { return nil }
        if let above = marks.first(where: \.isAbove) {
            if let dotless = dotless[letter], let form = glyphs[dotless] { rows = form }
            if letter.properties.isUppercase { rows = [0, 0] + smallCapital(Array(rows.prefix(7)), of: letter) + rows.suffix(2) }
            if rows[0] == 0, rows[1] == 0 { rows.replaceSubrange(0..<2, with: above.rows) }
        }
        if let below = marks.first(where: { !$0.isAbove }), rows[7] == 0, rows[8] == 0 {
            rows.replaceSubrange(7..<9, with: below.rows)
        }
        return rows
    }

    /// A capital's 7 rows shrunk to 5: a row repeated next to itself is dropped, from the middle
    /// of the longest such run, until 5 are left; a capital without repeats loses its second row,
    /// then its second-to-last (Z: the diagonal keeps its middle). ``smallCapitalOverrides`` first.
    static func smallCapital(_ rows: [UInt8], of letter: Unicode.Scalar) -> [UInt8] {
        if let drawn = smallCapitalOverrides[letter] { return drawn }
        var rows = rows
        while rows.count > 5 {
            var longest: Range<Int>?
            var start = 0
            while start < rows.count {
                var end = start + 1
                while end < rows.count, rows[end] == rows[start] { end += 1 }
                if end - start > 1, end - start > (longest?.count ?? 0) { longest = start..<end }
                start = end
            }
            if let run = longest {
                rows.remove(at: (run.lowerBound + run.upperBound) / 2)
            } else {
                rows.remove(at: rows.count == 7 ? 1 : rows.count - 2)
            }
        }
        return rows
    }
}
