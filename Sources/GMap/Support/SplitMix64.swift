/// A small deterministic random number generator (SplitMix64): benchmark points and test points
/// replay exactly from a seed. Shared by the tool and the tests within the package; not public API.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The generator's state; the next value is a function of it alone.
    package var state: UInt64

    /// A generator starting from `state`.
    package init(state: UInt64) { self.state = state }

    /// A generator starting from `seed` (the same as `init(state:)`).
    package init(seed: UInt64) { self.state = seed }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A double uniform in [0, 1).
    package mutating func unit() -> Double {
        Double(next() >> 11) / Double(UInt64(1) << 53)
    }
}
