import GMap

/// How `gmap build --simplify` simplifies a layer's borders.
///
/// Each shared border is simplified once, as an arc between junctions (the points where three or
/// more borders meet, or where the set of features on a border changes), so features that met
/// exactly before still meet exactly after: no slivers of "nowhere", no double answers.
public struct Simplification: Sendable, Equatable {
    /// The largest distance, in metres, between a removed vertex and the simplified border.
    public var toleranceMetres: Double
    /// Whether borders with a feature on one side only (coasts) may move outward only, so every
    /// original vertex stays inside its feature (`--coast-buffer`).
    public var buffersCoasts: Bool

    /// A simplification of `toleranceMetres` metres.
    public init(toleranceMetres: Double, buffersCoasts: Bool = false) {
        self.toleranceMetres = toleranceMetres
        self.buffersCoasts = buffersCoasts
    }

    /// Reads a distance such as `100m`, `1km`, `2.5 km` or `250` (metres); nil when the text is not
    /// a positive, finite distance of at most 1,000 km.
    public static func metres(from text: String) -> Double? {
        var number = Substring(text.lowercased()).drop { $0 == " " }
        while number.last == " " { number = number.dropLast() }
        var scale = 1.0
        if number.hasSuffix("km") {
            scale = 1000
            number = number.dropLast(2)
        } else if number.hasSuffix("m") {
            number = number.dropLast()
        }
        while number.last == " " { number = number.dropLast() }
        guard let value = Double(number), value.isFinite, value > 0, value * scale <= 1_000_000 else { return nil }
        return value * scale
    }
}

/// What a simplification did to one layer.
public struct SimplificationReport: Sendable, Equatable {
    /// The settings used.
    public var settings: Simplification
    /// Vertices before and after, closing vertices included.
    public var verticesBefore = 0, verticesAfter = 0
    /// Arcs found: every border piece between junctions, each counted once however many rings use it.
    public var arcCount = 0
    /// Arcs used by more than one ring (shared borders, or a feature's outline repeated by an overlapping feature).
    public var sharedArcCount = 0
    /// Arcs with features on one side only (coasts), and how many of them moved outward only.
    public var oneSidedArcCount = 0
    /// The largest measured distance between a removed vertex and the simplified border, in metres
    /// (on a sphere of radius 6,371,008.8 m, in the longitude–latitude plane with longitudes scaled by the
    /// cosine of the latitude nearest the equator among the vertex and the segment's ends).
    public var maximumErrorMetres = 0.0
    /// Rings that kept extra vertices so that they would not collapse to a line.
    public var ringsKeptFromCollapse = 0
    /// Rings dropped because they collapsed all the same.
    public var ringsDropped = 0

    /// The settings with nothing done yet.
    public init(settings: Simplification) { self.settings = settings }

    /// One line for the build summary and the map's metadata.
    public var summary: String {
        var text = "\(Self.format(settings.toleranceMetres)) requested, maximum error measured \(Self.format(maximumErrorMetres)); "
        text += "vertices \(verticesBefore) → \(verticesAfter); arcs \(arcCount) (\(sharedArcCount) shared, \(oneSidedArcCount) one-sided"
        text += settings.buffersCoasts ? ", moved outward only)" : ")"
        if ringsDropped > 0 { text += "; \(ringsDropped) rings collapsed and were dropped" }
        return text
    }

    /// A distance as `0.8 cm`, `123.4 m` or `5.00 km`.
    public static func format(_ metres: Double) -> String {
        if metres >= 999.95 {
            let hundredths = (metres / 10).rounded()
            let whole = Int(hundredths) / 100, fraction = Int(hundredths) % 100
            return "\(whole).\(fraction < 10 ? "0" : "")\(fraction) km"
        }
        if metres < 1 {
            let tenths = Int((metres * 1000).rounded())
            return "\(tenths / 10).\(tenths % 10) cm"
        }
        let tenths = Int((metres * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) m"
    }
}
