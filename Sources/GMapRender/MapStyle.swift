import GMapCodecs
/// The colours of a rendered map.
public struct MapStyle: Sendable, Equatable {
    /// Where no feature answers (the sea, on a map of countries).
    public var background: RGBColour
    /// Colours given to features so that neighbours differ; more are made up when a map needs them.
    public var featureColours: [RGBColour]
    /// How much darker a feature's pixels along a border are (0…1).
    public var borderDarkening: Double
    /// How much darker the stripes of a second, overlapping feature are (0…1).
    public var overlapDarkening: Double
    /// Tile tints (with `--tiles`): a leaf tile no feature touches.
    public var emptyTile: RGBColour
    /// A leaf tile one feature covers entirely.
    public var coveredTile: RGBColour
    /// A top-level tile holding edges (a tile record): mixed.
    public var mixedTile: RGBColour
    /// A part of a split tile holding edges; deeper parts are tinted more strongly.
    public var splitTile: RGBColour
    /// How much of a tint a pixel takes (0…1), and how much more a split part takes per depth.
    public var tintAmount: Double, splitTintPerDepth: Double
    /// Outlines of top-level tiles, and of the parts of split tiles.
    public var tileLine: RGBColour, splitLine: RGBColour
    /// Text and point markers; their halo; a marker for a point no feature contains.
    public var ink: RGBColour, halo: RGBColour, missInk: RGBColour
    /// Layers of lines: streets of minor classes, and main and middle roads (wider).
    public var minorLine = RGBColour(hex: 0x7D8794), mainLine = RGBColour(hex: 0xD9822B)
    /// Layers of points: the dots.
    public var pointInk = RGBColour(hex: 0x2E4A8C)

    /// The colours gmap draws with: muted land colours on a pale sea.
    public static let standard = MapStyle(
        background: RGBColour(hex: 0xEDF2F7),
        featureColours: [0xE6D3A3, 0xB8D4A0, 0xE8B6AE, 0xC6BCE0, 0xA5CFC9, 0xF0C28E, 0xD2DB8C, 0xB2C5DF].map(RGBColour.init(hex:)),
        borderDarkening: 0.28,
        overlapDarkening: 0.2,
        emptyTile: RGBColour(hex: 0x5A7FA8),
        coveredTile: RGBColour(hex: 0x3E9B4F),
        mixedTile: RGBColour(hex: 0xE58A23),
        splitTile: RGBColour(hex: 0xB8359E),
        tintAmount: 0.5,
        splitTintPerDepth: 0.07,
        tileLine: RGBColour(hex: 0x3C4450),
        splitLine: RGBColour(hex: 0x7E1F6E),
        ink: RGBColour(hex: 0x111111),
        halo: RGBColour(hex: 0xFFFFFF),
        missInk: RGBColour(hex: 0xD0021B)
    )

    /// The colour of colour slot `slot`: the palette's, then made-up muted hues (golden-angle steps).
    public func featureColour(_ slot: Int) -> RGBColour {
        if slot < featureColours.count { return featureColours[slot] }
        let extra = Double(slot - featureColours.count)
        return RGBColour(hue: 20 + extra * 137.508, saturation: 0.45, lightness: 0.72)
    }

    /// The tint of a leaf tile of `kind` at `depth`, and how much of it a pixel takes.
    func tint(_ kind: TileShade) -> (colour: RGBColour, amount: Double) {
        switch kind {
        case .outside: return (background, 0)
        case .empty: return (emptyTile, tintAmount)
        case .covered: return (coveredTile, tintAmount)
        case .mixed: return (mixedTile, tintAmount)
        case .split(let depth): return (splitTile, min(0.85, tintAmount - splitTintPerDepth + splitTintPerDepth * Double(depth)))
        }
    }
}

/// The four kinds of tile a picture with `--tiles` tells apart, from a leaf tile's kind and depth.
enum TileShade: Equatable {
    /// Not in the grid.
    case outside
    /// No feature touches it.
    case empty
    /// One feature covers it.
    case covered
    /// A top-level tile record: features with their edges.
    case mixed
    /// A tile record that is a part of a split tile, `depth` splits down (≥ 1).
    case split(depth: Int)

    /// The shade as one byte: 0 outside, 1 empty, 2 covered, 3 mixed, 3 + depth split.
    var code: UInt8 {
        switch self {
        case .outside: return 0
        case .empty: return 1
        case .covered: return 2
        case .mixed: return 3
        case .split(let depth): return UInt8(min(3 + depth, 255))
        }
    }

    /// The shade of a code.
    init(code: UInt8) {
        switch code {
        case 0: self = .outside
        case 1: self = .empty
        case 2: self = .covered
        case 3: self = .mixed
        default: self = .split(depth: Int(code) - 3)
        }
    }
}
