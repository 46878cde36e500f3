/// A mark that ``AccentedLetters`` draws on a letter: two rows of a glyph, above the letter
/// (rows 0–1, over a small letter's x-height or a capital shrunk to 5 rows) or below it (rows 7–8,
/// where descenders go).
enum DiacriticMark: CaseIterable {
    case grave, acute, circumflex, tilde, diaeresis, ringAbove, macron, breve, dotAbove, caron, doubleAcute
    case cedilla, ogonek, commaBelow, dotBelow

    /// The mark as Unicode names it after "WITH" ("LATIN SMALL LETTER A WITH RING ABOVE").
    var unicodeName: String {
        switch self {
        case .grave: return "GRAVE"
        case .acute: return "ACUTE"
        case .circumflex: return "CIRCUMFLEX"
        case .tilde: return "TILDE"
        case .diaeresis: return "DIAERESIS"
        case .ringAbove: return "RING ABOVE"
        case .macron: return "MACRON"
        case .breve: return "BREVE"
        case .dotAbove: return "DOT ABOVE"
        case .caron: return "CARON"
        case .doubleAcute: return "DOUBLE ACUTE"
        case .cedilla: return "CEDILLA"
        case .ogonek: return "OGONEK"
        case .commaBelow: return "COMMA BELOW"
        case .dotBelow: return "DOT BELOW"
        }
    }

    /// The combining character of the mark (U+0300…U+0328), for letters written decomposed.
    var combiningScalar: Unicode.Scalar {
        switch self {
        case .grave: return "\u{300}"
        case .acute: return "\u{301}"
        case .circumflex: return "\u{302}"
        case .tilde: return "\u{303}"
        case .macron: return "\u{304}"
        case .breve: return "\u{306}"
        case .dotAbove: return "\u{307}"
        case .diaeresis: return "\u{308}"
        case .ringAbove: return "\u{30A}"
        case .doubleAcute: return "\u{30B}"
        case .caron: return "\u{30C}"
        case .dotBelow: return "\u{323}"
        case .commaBelow: return "\u{326}"
        case .cedilla: return "\u{327}"
        case .ogonek: return "\u{328}"
        }
    }

    /// Whether the mark sits above the letter (rows 0–1) rather than below it (rows 7–8).
    var isAbove: Bool {
        switch self {
        case .cedilla, .ogonek, .commaBelow, .dotBelow: return false
        default: return true
        }
    }

    /// The mark's two rows, top first; bit 4 is the leftmost pixel.
    var rows: [UInt8] {
        switch self {
        case .grave: return [0b01000, 0b00100]
        case .acute: return [0b00010, 0b00100]
        case .circumflex: return [0b00100, 0b01010]
        case .tilde: return [0b01101, 0b10010]
        case .diaeresis: return [0b01010, 0]
        case .ringAbove: return [0b01110, 0b01010]
        case .macron: return [0b01110, 0]
        case .breve: return [0b10001, 0b01110]
        case .dotAbove: return [0b00100, 0]
        case .caron: return [0b01010, 0b00100]
        case .doubleAcute: return [0b00101, 0b01010]
        case .cedilla: return [0b00100, 0b01100]
        case .ogonek: return [0b00010, 0b00011]
        case .commaBelow: return [0b00100, 0b01000]
        case .dotBelow: return [0b00100, 0]
        }
    }

    /// The mark Unicode names `name`, or nil.
    init?(unicodeName name: Substring) {
        guard let mark = Self.allCases.first(where: { $0.unicodeName == name }) else { return nil }
        self = mark
    }

    /// The mark whose combining character is `scalar`, or nil.
    init?(combining scalar: Unicode.Scalar) {
        guard let mark = Self.allCases.first(where: { $0.combiningScalar == scalar }) else { return nil }
        self = mark
    }
}
