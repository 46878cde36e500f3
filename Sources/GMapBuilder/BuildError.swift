/// Why a build failed.
public struct BuildError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The sentence shown to the user.
    public var description: String
    /// What is wrong, as values a caller can act on (a command line names its own flag for a
    /// setting out of range); nil when the sentence is all there is.
    public var reason: Reason?

    /// What is wrong with a build, as values.
    public enum Reason: Sendable, Equatable {
        /// A tiling setting is `value`, outside the `range` a build accepts
        /// (``BuildOptions/Setting/acceptedValues(quantizer:)``).
        case outOfRange(setting: BuildOptions.Setting, value: Int64, range: ClosedRange<Int64>)
    }

    /// An error with a message, and no reason beyond it.
    public init(_ description: String) {
        self.description = description
        self.reason = nil
    }

    /// The error for a setting outside its range, with the sentence that says so. The sentence
    /// names the setting as the options' property does, not as a command line's flag (a tool adds that).
    public static func outOfRange(_ setting: BuildOptions.Setting, value: Int64, range: ClosedRange<Int64>) -> BuildError {
        var error = BuildError(sentence(outOfRange: setting, value: value, range: range))
        error.reason = .outOfRange(setting: setting, value: value, range: range)
        return error
    }

    /// E.g. "the split factor must be between 2 and 16 (it is 1)".
    private static func sentence(outOfRange setting: BuildOptions.Setting, value: Int64, range: ClosedRange<Int64>) -> String {
        switch setting {
        case .splitFactor:
            "the split factor must be between \(range.lowerBound) and \(range.upperBound) (it is \(value))"
        case .maximumDepth:
            "the maximum split depth must be between \(range.lowerBound) and \(range.upperBound) (it is \(value))"
        case .maximumEdgesPerTile:
            "the most edges per tile must be at least \(range.lowerBound) (it is \(value))"
        case .tileSize:
            "the tile size must be more than 0 and at most \(BuildOptions.largestTileDegrees) degrees"
        }
    }
}
