/// Names a leaf tile and a grid point in verification messages, in integers only (no floating-point
/// text, so that it reads alike in every build).
///
/// A tile is named as the directory walk names it, "tile (column c, row r)" and " part (i, j)" for
/// each split that leads to it, followed by its south-west corner in degrees, latitude first as
/// queries are written: "tile (column 188, row 137) part (1, 0), south-west corner (47.5, 8.5)".
enum TileName {
    /// The name of the leaf with `bounds` at `depth` in `grid`.
    static func of(_ bounds: TileBounds, depth: Int, grid: GridInfo, quantizer: Quantizer) -> String {
        guard grid.tileWidth > 0, grid.tileHeight > 0 else { return "tile with south-west corner " + point(x: bounds.west, y: bounds.south, quantizer) }
        let column = (bounds.west - grid.originX) / grid.tileWidth, row = (bounds.south - grid.originY) / grid.tileHeight
        var name = "tile (column \(column), row \(row))"
        var current = TileBounds(west: grid.originX + column * grid.tileWidth, south: grid.originY + row * grid.tileHeight,
                                 east: grid.originX + (column + 1) * grid.tileWidth, north: grid.originY + (row + 1) * grid.tileHeight)
        let factor = grid.splitFactor
        for _ in 0..<max(0, depth) where current.width >= factor && current.height >= factor && factor > 0 {
            let partColumn = TileBounds.partIndex(offset: bounds.west - current.west, length: current.width, factor: factor)
            let partRow = TileBounds.partIndex(offset: bounds.south - current.south, length: current.height, factor: factor)
            name += " part (\(partColumn), \(partRow))"
            current = current.part(column: partColumn, row: partRow, factor: factor)
        }
        return name + ", south-west corner " + point(x: bounds.west, y: bounds.south, quantizer)
    }

    /// `(latitude, longitude)` of a grid point in degrees, e.g. `(47.5, -8.25)`.
    static func point(x: Int64, y: Int64, _ quantizer: Quantizer) -> String {
        "(" + degrees(y, quantizer) + ", " + degrees(x, quantizer) + ")"
    }

    /// Units as decimal degrees, to 7 decimals at most (the default precision is exact), without
    /// trailing zeros: `475000000` at 10^7 units per degree is `47.5`.
    static func degrees(_ units: Int64, _ quantizer: Quantizer) -> String {
        let perDegree = quantizer.unitsPerDegree, scale: Int64 = 10_000_000
        let magnitude = units < 0 ? 0 &- units : units
        // |units| ≤ 2^32 and scale < 2^24: the product fits; rounded half up to the nearest 1e-7°.
        let tenMillionths = (magnitude &* scale &+ perDegree / 2) / perDegree
        var text = (units < 0 && tenMillionths > 0 ? "-" : "") + String(tenMillionths / scale)
        var fraction = tenMillionths % scale
        if fraction > 0 {
            var digits = 7
            while fraction % 10 == 0 {
                fraction /= 10
                digits -= 1
            }
            let written = String(fraction)
            text += "." + String(repeating: "0", count: max(0, digits - written.count)) + written
        }
        return text
    }
}
