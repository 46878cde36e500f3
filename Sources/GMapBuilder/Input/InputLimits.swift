import GMapCodecs

/// The most bytes a reader holds for one piece of its input, so that memory stays bounded whatever the
/// input (a gzip or ZIP bomb, a file with no line ends, a number of a million digits). Each default is
/// far above real data; each exceeded limit stops the read with a message naming it and the
/// `gmap build` option that raises it.
public struct InputLimits: Sendable, Equatable {
    /// The most bytes of one JSON string (a property's value, a member name, an id), decoded: 64 MiB
    /// by default (`--max-string`).
    public var stringBytes: Int = 64 << 20
    /// The most bytes of one number token as written (`-12.5e3`): 1 KiB by default (`--max-number`).
    public var numberBytes: Int = 1 << 10
    /// The most bytes of one feature's properties: each member's name and value (strings decoded,
    /// arrays and objects as compact JSON) plus ``memberOverhead`` bytes for the member itself.
    /// 256 MiB by default (`--max-properties`).
    public var propertyBytes: Int = 256 << 20

    /// What one property member costs beyond its name's and value's bytes, as counted against
    /// ``propertyBytes`` (about what it takes in memory), so that millions of empty members count too.
    public static let memberOverhead = 32

    /// The defaults.
    public init() {}

    /// The limits as the three options name them.
    public init(stringBytes: Int, numberBytes: Int, propertyBytes: Int) {
        self.stringBytes = stringBytes
        self.numberBytes = numberBytes
        self.propertyBytes = propertyBytes
    }

    /// A byte count as the messages say it: "64 MiB", "1 KiB", "1.5 GiB", "100 bytes".
    public static func size(_ bytes: Int) -> String {
        let units: [(shift: Int, name: String)] = [(30, "GiB"), (20, "MiB"), (10, "KiB")]
        for (shift, name) in units where bytes >= 1 << shift {
            let whole = bytes >> shift
            let tenths = ((bytes & ((1 << shift) - 1)) * 10) >> shift
            return tenths == 0 ? "\(whole) \(name)" : "\(whole).\(tenths) \(name)"
        }
        return bytes == 1 ? "1 byte" : "\(bytes) bytes"
    }

    /// Reads a size as the options take it: a whole number of bytes with an optional binary unit,
    /// `K`/`KiB`, `M`/`MiB` or `G`/`GiB` (any case; `KB`, `MB`, `GB` mean the same): `1048576`, `64M`,
    /// `2GiB`. nil for anything else, zero, or more than 2^62 bytes.
    public static func parseSize(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        var index = 0
        var value = 0
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
            value = value &* 10 &+ Int(bytes[index] - 0x30)
            guard value <= 1 << 62 else { return nil }
            index += 1
        }
        guard index > 0 else { return nil }
        let unit = String(decoding: bytes[index...], as: UTF8.self).lowercased()
        let shift: Int
        switch unit {
        case "", "b": shift = 0
        case "k", "kb", "kib": shift = 10
        case "m", "mb", "mib": shift = 20
        case "g", "gb", "gib": shift = 30
        default: return nil
        }
        guard value > 0, value <= (1 << 62) >> shift else { return nil }
        return value << shift
    }
}
