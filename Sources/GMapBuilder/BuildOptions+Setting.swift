import GMap

extension BuildOptions {
    /// The tiling settings ``validate()`` checks, in the order it checks them: a ``BuildError``
    /// about one of them names it (``BuildError/Reason/outOfRange(setting:value:range:)``).
    public enum Setting: String, Sendable, Equatable, CaseIterable {
        /// ``BuildOptions/splitFactor``.
        case splitFactor
        /// ``BuildOptions/maximumDepth``.
        case maximumDepth
        /// ``BuildOptions/maximumEdgesPerTile``.
        case maximumEdgesPerTile
        /// ``BuildOptions/tileSize``.
        case tileSize

        /// The values a build accepts for the setting: ``BuildOptions/splitFactorRange``,
        /// ``BuildOptions/maximumDepthRange``, at least one edge per tile, and a tile size of at
        /// least one unit and at most ``BuildOptions/largestTileDegrees`` (in units of `quantizer`).
        public func acceptedValues(quantizer: Quantizer) -> ClosedRange<Int64> {
            switch self {
            case .splitFactor: Int64(BuildOptions.splitFactorRange.lowerBound)...Int64(BuildOptions.splitFactorRange.upperBound)
            case .maximumDepth: Int64(BuildOptions.maximumDepthRange.lowerBound)...Int64(BuildOptions.maximumDepthRange.upperBound)
            case .maximumEdgesPerTile: 1...Int64(Int.max)
            case .tileSize: 1...BuildOptions.largestTileDegrees * quantizer.unitsPerDegree
            }
        }

        /// The setting's value in `options`; nil for a tile size the builder chooses.
        func value(in options: BuildOptions) -> Int64? {
            switch self {
            case .splitFactor: Int64(options.splitFactor)
            case .maximumDepth: Int64(options.maximumDepth)
            case .maximumEdgesPerTile: Int64(options.maximumEdgesPerTile)
            case .tileSize: options.tileSize
            }
        }
    }
}
