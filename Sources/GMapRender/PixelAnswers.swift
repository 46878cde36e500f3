import GMap
import GMapCodecs

/// What the map answers at the centre of every pixel of a window: the feature a lookup gives (the
/// smallest containing one) and, where features overlap, the next one.
struct PixelAnswers: Sendable {
    /// No feature.
    static let none: Int32 = -1

    let width: Int, height: Int
    /// Per pixel, row by row from the top: the index of the feature that answers, or ``none``.
    private(set) var first: [Int32]
    /// Per pixel: the second-smallest feature containing the centre, or ``none``.
    private(set) var second: [Int32]
    /// The grid x of each column's centre, and the grid y of each row's centre (decreasing).
    let columnX: [Int64], rowY: [Int64]

    /// Looks up every pixel centre of `window` in `map`, spreading rows over `threads` threads.
    init(map: GMap, window: MapWindow, threads: Int = 1) {
        let quantizer = map.quantizer
        width = window.width
        height = window.height
        // Quantized as a lookup quantizes; a centre that rounds onto longitude 180 (or latitude 90)
        // is kept one unit inside, so that columns and rows stay in order.
        columnX = (0..<window.width).map { min(quantizer.units(window.longitude(ofColumn: $0)), quantizer.halfTurn - 1) }
        rowY = (0..<window.height).map { min(quantizer.units(window.latitude(ofRow: $0)), quantizer.quarterTurn - 1) }
        let bands = max(1, min(threads, height))
        var parts = [([Int32], [Int32])](repeating: ([], []), count: bands)
        let columnX = self.columnX, rowY = self.rowY, width = self.width, height = self.height
        ParallelBands.run(count: bands, results: &parts) { band in
            let rows = (height * band / bands)..<(height * (band + 1) / bands)
            var first = [Int32](repeating: Self.none, count: rows.count * width)
            var second = first
            var index = 0
            for row in rows {
                let y = rowY[row]
                for x in columnX {
                    var found = 0
                    map.visitFeatures(containing: GridPoint(x: x, y: y)) { feature in
                        if found == 0 { first[index] = Int32(feature) } else { second[index] = Int32(feature) }
                        found += 1
                        return found < 2
                    }
                    index += 1
                }
            }
            return (first, second)
        }
        first = parts.flatMap(\.0)
        second = parts.flatMap(\.1)
    }

    /// The feature answering at a pixel, or ``none``.
    @inline(__always) func answer(x: Int, y: Int) -> Int32 { first[y * width + x] }

    /// The second feature containing a pixel's centre, or ``none``.
    @inline(__always) func overlap(x: Int, y: Int) -> Int32 { second[y * width + x] }
}
