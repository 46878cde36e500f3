// Added in format 2.1 and kept in 3: the layer table, label points and the name index (Spec/FORMAT.md 5.8–5.10).

extension FormatLayout {
    /// Sizes and offsets of one `LAYR` record. The section starts with UInt32 count and UInt32 record length.
    ///
    /// Record 0 is the first layer and names the sections `GRID`, `TILE`, `FEAT` and `PROP`, so a 2.0
    /// reader, which does not know `LAYR`, reads the first layer. A file without `LAYR` is one layer
    /// with an empty name.
    public enum LayerRecord {
        /// The length of the section's preamble (count and record length).
        public static let preambleLength = 8
        /// The record length this version writes.
        public static let length = 32
        /// UInt32: offset of the layer's name in `STRS`.
        public static let nameOffset = 0
        /// UInt32: length of the name.
        public static let nameLength = 4
        /// UInt32: tag of the layer's grid section (laid out as `GRID`).
        public static let gridTag = 8
        /// UInt32: tag of the layer's tile records (laid out as `TILE`).
        public static let tilesTag = 12
        /// UInt32: tag of the layer's feature table (laid out as `FEAT`).
        public static let featuresTag = 16
        /// UInt32: tag of the layer's property table (laid out as `PROP`).
        public static let propertiesTag = 20
        /// UInt32: tag of the layer's label points (laid out as `LABL`), or 0 for none.
        public static let labelsTag = 24
        /// UInt32: tag of the layer's name index (laid out as `NAME`), or 0 for none.
        public static let namesTag = 28
    }

    /// Sizes and offsets of one `LABL` record: a point inside the feature of the same index.
    public enum LabelRecord {
        /// The length of the section's preamble (count and record length).
        public static let preambleLength = 8
        /// The record length this version writes.
        public static let length = 8
        /// Int32: x (longitude) in units.
        public static let x = 0
        /// Int32: y (latitude) in units.
        public static let y = 4
        /// x and y both this value: the feature has no label point (it kept no ring).
        public static let none = Int32.min
    }

    /// Sizes and offsets of one `NAME` record: a folded key and the feature it names, sorted by key.
    public enum NameRecord {
        /// The length of the section's preamble (count and record length).
        public static let preambleLength = 8
        /// The record length this version writes.
        public static let length = 12
        /// UInt32: offset of the folded key (``NameFolding``) in `STRS`.
        public static let keyOffset = 0
        /// UInt32: length of the key.
        public static let keyLength = 4
        /// UInt32: index of the feature in the layer's feature table.
        public static let feature = 8
    }

    /// Sizes and offsets of the `ADDR` section (3.3, Spec/FORMAT.md 5.11): a 16-byte preamble, then
    /// one record per street of a layer of addresses, sorted by the street's key, each naming the
    /// range of that layer's features (sorted by house number) that lie on the street.
    public enum AddressIndexRecord {
        /// The length of the section's preamble (count, record length, layer, postcodes layer).
        public static let preambleLength = 16
        /// UInt32 in the preamble: the number of street records.
        public static let count = 0
        /// UInt32 in the preamble: the length of each record.
        public static let recordLength = 4
        /// UInt32 in the preamble: the index in `LAYR` of the layer of addresses the records refer to.
        public static let layer = 8
        /// UInt32 in the preamble: the index in `LAYR` of the layer of postal codes, or ``noLayer``.
        public static let postcodesLayer = 12
        /// The preamble's postcodes layer when the file has none.
        public static let noLayer = UInt32.max
        /// The record length this version writes.
        public static let length = 16
        /// UInt32: offset of the street's key (``NameFolding/normalized(_:)``) in `STRS`.
        public static let keyOffset = 0
        /// UInt32: length of the key.
        public static let keyLength = 4
        /// UInt32: index of the street's first address feature in the layer.
        public static let first = 8
        /// UInt32: the number of the street's address features (at least 1).
        public static let featureCount = 12
        /// The property holding a feature's house number.
        public static let houseNumberKey = "housenumber"
    }

    /// The most layers a file can hold: each layer takes up to six sections, and a file has at most
    /// ``maximumSectionCount`` sections, three of them `STRS`, `META` and `LAYR`.
    public static let maximumLayerCount = 10
}

/// The section tags of one layer: `GRID`, `TILE`, … for layer 0, `G001`, `T001`, … for layer 1.
public struct LayerSectionTags: Sendable, Hashable {
    /// The grid section.
    public var grid: UInt32
    /// The tile records.
    public var tiles: UInt32
    /// The feature table.
    public var features: UInt32
    /// The property table.
    public var properties: UInt32
    /// The label points, 0 for none.
    public var labels: UInt32
    /// The name index, 0 for none.
    public var names: UInt32

    /// Tags from their parts.
    public init(grid: UInt32, tiles: UInt32, features: UInt32, properties: UInt32, labels: UInt32, names: UInt32) {
        self.grid = grid
        self.tiles = tiles
        self.features = features
        self.properties = properties
        self.labels = labels
        self.names = names
    }

    /// The tags the reference writer uses for layer `index` (0…999): the 2.0 tags plus `LABL` and
    /// `NAME` for layer 0; for layer k ≥ 1, `G`, `T`, `F`, `P`, `L` and `N` followed by k in three decimal digits.
    public static func standard(layer index: Int) -> LayerSectionTags {
        guard index > 0 else {
            return LayerSectionTags(grid: SectionTag.grid.rawValue, tiles: SectionTag.tiles.rawValue,
                                    features: SectionTag.features.rawValue, properties: SectionTag.properties.rawValue,
                                    labels: SectionTag.labels.rawValue, names: SectionTag.names.rawValue)
        }
        let digits = UInt32(0x30 + index / 100 % 10) << 8 | UInt32(0x30 + index / 10 % 10) << 16 | UInt32(0x30 + index % 10) << 24
        func tag(_ letter: Unicode.Scalar) -> UInt32 { UInt32(letter.value) | digits }
        return LayerSectionTags(grid: tag("G"), tiles: tag("T"), features: tag("F"), properties: tag("P"), labels: tag("L"), names: tag("N"))
    }
}
