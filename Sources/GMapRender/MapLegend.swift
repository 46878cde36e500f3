import GMapCodecs
/// The key to the tile tints, drawn in the bottom-left corner of a picture with tiles shown, last,
/// so that nothing covers it (labels keep out of its ``frame(width:height:)``).
enum MapLegend {
    /// The entries, top to bottom.
    static let entries: [(name: String, shade: TileShade)] = [
        ("empty", .empty), ("covered", .covered), ("mixed", .mixed), ("split", .split(depth: 2)),
    ]
    /// The neutral colour the swatches tint, standing for any feature.
    static let swatchBase = RGBColour(hex: 0xD8D8D8)

    private static let swatchSize = 9, rowHeight = 12, padding = 4

    /// The rectangle the legend takes in a picture of `width` × `height` pixels, its frame
    /// included; nil when the picture is too small to hold it three times over (no legend then).
    static func frame(width: Int, height: Int) -> PixelBox? {
        let textWidth = entries.map { BitmapFont.width(of: $0.name) }.max() ?? 0
        let boxWidth = padding * 2 + swatchSize + 4 + textWidth
        let boxHeight = padding * 2 + rowHeight * entries.count - (rowHeight - swatchSize)
        guard width >= boxWidth * 3, height >= boxHeight * 3 else { return nil }
        return PixelBox(x: padding - 1, y: height - boxHeight - padding - 1, width: boxWidth + 2, height: boxHeight + 2)
    }

    /// Draws the legend in its ``frame(width:height:)``, over whatever is there.
    static func draw(style: MapStyle, into raster: inout Raster) {
        guard let frame = frame(width: raster.width, height: raster.height) else { return }
        let left = frame.x + 1, top = frame.y + 1
        raster.fill(x: frame.x, y: frame.y, width: frame.width, height: frame.height, with: style.tileLine)
        raster.fill(x: left, y: top, width: frame.width - 2, height: frame.height - 2, with: style.halo)
        for (row, entry) in entries.enumerated() {
            let y = top + padding + row * rowHeight
            if case .split = entry.shade {
                // A split swatch shows the tint deepening with depth, in three bands.
                for band in 0..<3 {
                    let tint = style.tint(.split(depth: band + 1))
                    raster.fill(x: left + padding + band * 3, y: y, width: band == 2 ? swatchSize - 6 : 3, height: swatchSize,
                                with: swatchBase.blended(with: tint.colour, amount: tint.amount))
                }
            } else {
                let tint = style.tint(entry.shade)
                raster.fill(x: left + padding, y: y, width: swatchSize, height: swatchSize, with: swatchBase.blended(with: tint.colour, amount: tint.amount))
            }
            BitmapFont.draw(entry.name, x: left + padding + swatchSize + 4, y: y + 1, colour: style.ink, into: &raster)
        }
    }
}
