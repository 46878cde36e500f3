/// Why a build failed.
public struct BuildError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The sentence shown to the user.
    public var description: String
    /// The option whose value is out of its range, when that is the error (so that a command line
    /// can name its own flag for it without testing the ranges again).
    public var setting: BuildOptions.Setting?

    /// An error with a message, and the option it is about, if one.
    public init(_ description: String, setting: BuildOptions.Setting? = nil) {
        self.description = description
        self.setting = setting
    }
}
