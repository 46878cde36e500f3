/// The five PNG filter types (PNG specification §9.2): how a row is stored as differences from
/// the pixel to its left, the row above, or a prediction from both.
public enum PNGRowFilter: UInt8, Sendable, CaseIterable {
    /// The bytes as they are.
    case none = 0
    /// Each byte minus the byte one pixel to the left.
    case sub = 1
    /// Each byte minus the byte above.
    case up = 2
    /// Each byte minus the floor of the mean of left and above.
    case average = 3
    /// Each byte minus whichever of left, above and upper-left is nearest to left + above − upper-left.
    case paeth = 4

    /// Writes `row` filtered into `output` (the same length). `previous` is the row above (zeros for
    /// the first row); `bytesPerPixel` is how far back "left" is (at least 1).
    func apply(_ row: UnsafeBufferPointer<UInt8>, previous: UnsafeBufferPointer<UInt8>, bytesPerPixel: Int,
               into output: UnsafeMutableBufferPointer<UInt8>) {
        let count = row.count
        switch self {
        case .none:
            for index in 0..<count { output[index] = row[index] }
        case .sub:
            for index in 0..<count { output[index] = row[index] &- (index >= bytesPerPixel ? row[index - bytesPerPixel] : 0) }
        case .up:
            for index in 0..<count { output[index] = row[index] &- previous[index] }
        case .average:
            for index in 0..<count {
                let left = index >= bytesPerPixel ? Int(row[index - bytesPerPixel]) : 0
                output[index] = row[index] &- UInt8((left + Int(previous[index])) / 2)
            }
        case .paeth:
            for index in 0..<count {
                let left = index >= bytesPerPixel ? row[index - bytesPerPixel] : 0
                let upperLeft = index >= bytesPerPixel ? previous[index - bytesPerPixel] : 0
                output[index] = row[index] &- Self.paethPredictor(left: left, above: previous[index], upperLeft: upperLeft)
            }
        }
    }

    /// The Paeth predictor: of left, above and upper-left, the one nearest to left + above − upper-left
    /// (ties in that order).
    static func paethPredictor(left: UInt8, above: UInt8, upperLeft: UInt8) -> UInt8 {
        let estimate = Int(left) + Int(above) - Int(upperLeft)
        let toLeft = abs(estimate - Int(left)), toAbove = abs(estimate - Int(above)), toUpperLeft = abs(estimate - Int(upperLeft))
        if toLeft <= toAbove && toLeft <= toUpperLeft { return left }
        return toAbove <= toUpperLeft ? above : upperLeft
    }
}
