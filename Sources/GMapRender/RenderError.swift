import GMapCodecs
/// Why a map could not be rendered.
public enum RenderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The picture would have more pixels than the limit.
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// The width asked for is not a positive number of pixels.
    case invalidWidth(Int)
    /// The window is empty, inverted or outside the world (west, south, east, north in degrees).
    case invalidWindow(west: Double, south: Double, east: Double, north: Double, reason: String)

    /// The sentence shown to the user.
    public var description: String {
        switch self {
        case let .tooManyPixels(width, height, limit):
            let fitting = Int((Double(width) * (Double(limit) / Double(width * height)).squareRoot()).rounded(.down))
            return "\(width) × \(height) = \(width * height) pixels is more than the limit of \(limit); "
                + "a width of at most \(fitting) fits this window"
        case .invalidWidth(let width):
            return "width \(width) is not a positive number of pixels"
        case let .invalidWindow(west, south, east, north, reason):
            return "window \([west, south, east, north].map(Self.degrees).joined(separator: ",")) (west,south,east,north): \(reason)"
        }
    }

    /// Degrees as typed: whole numbers without ".0".
    private static func degrees(_ value: Double) -> String {
        value.isFinite && value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
