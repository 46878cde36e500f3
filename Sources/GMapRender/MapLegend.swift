import GMapCodecs
/// The key to the tile tints, drawn in the bottom-left corner of a picture with tiles shown.
enum MapLegend {
    /// The entries, top to bottom.
    static let entries: [(name: String, shade: TileShade)] = [
        ("empty", .empty), ("covered", .covered), ("mixed", .mixed), ("split", .split(depth: 2)),
    ]
    /// The neutral colour the swatches tint, standing for any feature.
    static let swatchBase = RGBColour(hex: 0xD8D8D8)

    private static let swatchSize = 9, rowHeight = 12, padding = 4

    /// Draws the legend, unless the picture is too small to hold it three times over.
    static func draw(style: MapStyle, into raster: inout Raster) {
        let textWidth = entries.map { BitmapFont.width(of: $0.name) }.max() ?? 0
        let boxWidth = padding * 2 + swatchSize + 4 + textWidth
        let boxHeight = padding * 2 + rowHeight * entries.count - (rowHeight - swatchSize)
        guard raster.width >= boxWidth * 3, raster.height >= boxHeight * 3 else { return }
        let left = padding, top = raster.height - boxHeight - padding
        raster.fill(x: left - 1, y: top - 1, width: boxWidth + 2, height: boxHeight + 2, with: style.tileLine)
        raster.fill(x: left, y: top, width: boxWidth, height: boxHeight, with: style.halo)
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
