/// Why a build failed.
public struct BuildError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The sentence shown to the user.
    public var description: String

    /// An error with a message.
    public init(_ description: String) { self.description = description }
}
