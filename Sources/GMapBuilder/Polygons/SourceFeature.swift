import GMap

/// A feature to build into a map: its id, its kept properties and its polygons in degrees.
public struct SourceFeature: Sendable {
    /// One kept property.
    public struct KeptProperty: Sendable, Equatable {
        /// The key.
        public var key: String
        /// The value's text.
        public var value: String
        /// The JSON kind of the value.
        public var kind: PropertyKind

        /// A property from its parts.
        public init(key: String, value: String, kind: PropertyKind = .string) {
            self.key = key
            self.value = value
            self.kind = kind
        }
    }

    /// The id the map stores.
    public var id: String
    /// The properties the map stores.
    public var properties: [KeptProperty]
    /// Polygons, each `[outer, hole, …]`, each ring a list of `(longitude, latitude)` in degrees.
    /// Rings may be open or closed, in either orientation; the even-odd rule over all rings decides.
    public var polygons: [[[(longitude: Double, latitude: Double)]]]

    /// A feature from its parts.
    public init(id: String, properties: [KeptProperty] = [], polygons: [[[(longitude: Double, latitude: Double)]]]) {
        self.id = id
        self.properties = properties
        self.polygons = polygons
    }
}
