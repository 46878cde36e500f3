// The `.gmap` file layout: every constant a reader or a writer needs, in one place.
// Spec/FORMAT.md describes the same layout in prose; keep the two in step.

/// Constants and byte offsets of the `.gmap` format.
///
/// All integers are little-endian. A file is a fixed ``headerLength``-byte header, a table of
/// sections, and the sections themselves, each starting at a multiple of ``sectionAlignment``.
public enum FormatLayout {
    /// The eight bytes every `.gmap` file starts with: `0x89 'G' 'M' 'A' 'P' 0x0D 0x0A 0x1A`.
    public static let magic: [UInt8] = [0x89, 0x47, 0x4D, 0x41, 0x50, 0x0D, 0x0A, 0x1A]
    /// The major format version this code writes by default. A file with a larger major version is refused.
    public static let majorVersion: UInt16 = 3
    /// The last major version whose directories are sub-directories of `u32` entries in `GRID` and
    /// whose records list each feature's own edges (1.x and 2.x); format 3 stores directory nodes in
    /// `TILE` and every distinct edge of a tile once, with a mask of the features using it.
    public static let lastSubdirectoryMajorVersion: UInt16 = 2
    /// The oldest major version this code still reads (version 1 stores tile runs as varints).
    public static let oldestReadableMajorVersion: UInt16 = 1
    /// The minor format version this code writes for format 3 (3.0).
    public static let minorVersion: UInt16 = FormatMinorVersion.polygons.rawValue
    /// The minor version of a format 3 file with a layer of lines or points (3.1; Spec/FORMAT.md 8.7).
    public static let minorVersionWithLinesAndPoints: UInt16 = FormatMinorVersion.linesAndPoints.rawValue
    /// The minor version of a format 3 file in which some polygon record repeats a feature in
    /// consecutive slots (3.2): a feature with overlapping polygons, answered as their union through
    /// one slot per parity group (Spec/FORMAT.md 8.8). A 3.2 file may also hold lines and points.
    public static let minorVersionWithPartGroups: UInt16 = FormatMinorVersion.partGroups.rawValue
    /// The minor version of a format 3 file with an address index (`ADDR`, 3.3; Spec/FORMAT.md
    /// 5.11): a location map's streets and house numbers, for forward geocoding. A 3.3 file may
    /// also hold lines and points and parity groups.
    public static let minorVersionWithAddressIndex: UInt16 = FormatMinorVersion.addressIndex.rawValue
    /// The minor version of a format 3 file with a layer of compact points (3.4; Spec/FORMAT.md
    /// 5.12): points whose features live in a point table of a few bytes each instead of `FEAT`
    /// and `PROP` records. A 3.4 file may hold everything 3.3 may.
    public static let minorVersionWithCompactPoints: UInt16 = FormatMinorVersion.compactPoints.rawValue
    /// The minor version of a format 3 file with a layer of banded polygons (3.5; Spec/FORMAT.md
    /// 8.5.1): every run of its records carries a band byte, so that a lookup skips the runs that
    /// cannot cross its path. A 3.5 file may hold everything 3.4 may.
    public static let minorVersionWithRunBands: UInt16 = FormatMinorVersion.runBands.rawValue
    /// The minor version of a format 3 file with a layer of named compact points (3.6;
    /// Spec/FORMAT.md 5.13): compact points whose name index is a lexicon of every name of its
    /// features, their other names (other languages, abbreviations) among them. A 3.6 file may
    /// hold everything 3.5 may.
    public static let minorVersionWithLexicons: UInt16 = FormatMinorVersion.lexicons.rawValue
    /// The newest minor version of format 3 this code writes (and knows every part of).
    public static let newestMinorVersion: UInt16 = FormatMinorVersion.newest.rawValue
    /// The minor version of a format 2 file with layers, label points and name indexes (2.1; see
    /// ``LayerRecord``). Larger minor versions are readable (they only add). A format 2 build without
    /// those additions (``minorVersionWithoutLayers``) is written as 2.0.
    public static let minorVersionWithLayers: UInt16 = 1
    /// The minor version of a file written without `LAYR`, `LABL` and `NAME`: byte for byte a 2.0 file.
    public static let minorVersionWithoutLayers: UInt16 = 0
    /// The size of the fixed header in bytes.
    public static let headerLength = 64
    /// The size of one entry of the section table in bytes.
    public static let sectionEntryLength = 32
    /// Every section starts at a multiple of this many bytes.
    public static let sectionAlignment = 8
    /// The largest number of sections a reader accepts.
    public static let maximumSectionCount = 64

    /// Byte offsets of the header's fields.
    public enum Header {
        /// 8 bytes: ``FormatLayout/magic``.
        public static let magic = 0
        /// UInt16: major version.
        public static let majorVersion = 8
        /// UInt16: minor version.
        public static let minorVersion = 10
        /// UInt32: header length (64).
        public static let headerLength = 12
        /// UInt32: number of entries in the section table, which follows the header.
        public static let sectionCount = 16
        /// UInt32: quantization, in units per degree (10,000,000 for 1e-7°).
        public static let unitsPerDegree = 20
        /// UInt64: the total length of the file in bytes.
        public static let fileLength = 24
        /// UInt32: flags, zero in this version.
        public static let flags = 32
        /// UInt32: CRC-32 of the header's first 36 bytes followed by the whole section table.
        public static let headerCRC = 36
    }

    /// Byte offsets inside one entry of the section table.
    public enum SectionEntry {
        /// 4 ASCII bytes naming the section.
        public static let tag = 0
        /// UInt32: zero in this version.
        public static let flags = 4
        /// UInt64: offset of the section from the start of the file.
        public static let offset = 8
        /// UInt64: length of the section in bytes.
        public static let length = 16
        /// UInt32: CRC-32 of the section's bytes.
        public static let crc = 24
    }

    /// Byte offsets inside the `GRID` section.
    public enum Grid {
        /// Int32: longitude of the grid's west edge, in units.
        public static let originX = 0
        /// Int32: latitude of the grid's south edge, in units.
        public static let originY = 4
        /// UInt32: width of a top-level tile, in units.
        public static let tileWidth = 8
        /// UInt32: height of a top-level tile, in units.
        public static let tileHeight = 12
        /// UInt32: number of tile columns.
        public static let columns = 16
        /// UInt32: number of tile rows.
        public static let rows = 20
        /// UInt8: how many parts a split tile is cut into along each axis.
        public static let splitFactor = 24
        /// UInt8: the deepest split level the builder wrote.
        public static let maximumDepth = 25
        /// UInt32: number of sub-directories after the top-level directory.
        public static let subdirectoryCount = 28
        /// Where the top-level directory starts: `columns × rows` UInt32 entries, row-major from the south-west.
        public static let directory = 32
        /// Format 3: UInt8, the layer's ``GeometryKind``.
        public static let geometry = 26
        /// Format 3: UInt8, how the top-level directory is stored (``TopForm``: 0 one UInt32 per tile, 1 packed).
        public static let topForm = 27
        /// Format 3: UInt32, the number of directory nodes in `TILE`.
        public static let nodeCount = 28
    }

    /// Format 3's directory nodes, stored in `TILE`: 2-bit child kinds, a payload width, bit-packed payloads.
    public enum DirectoryNode {
        /// The widest payload a node may store, in bits.
        public static let maximumPayloadWidth = 32
        /// The bytes of child kinds for a node of `factor × factor` children.
        @inlinable public static func kindBytes(factor: Int) -> Int { (2 * factor * factor + 7) / 8 }
    }

    /// Format 3's tile records: feature slots with corner bits, then runs of edges shared by a mask of slots.
    public enum SharedRecord {
        /// The most feature slots a record holds (one bit each in a 64-bit mask).
        public static let maximumSlots = 64
        /// Bits of each run's x and y delta widths.
        public static let widthFieldBits: UInt64 = 6
        /// Extra bits of precision the query point keeps below one unit (see ``GridPoint``).
        public static let fractionBits: Int64 = GridPoint.fractionBits
    }

    /// The top-level directory forms of format 3 (`GRID` byte 27).
    public enum TopForm {
        /// One UInt32 entry per top-level tile.
        public static let entries: UInt8 = 0
        /// Packed: 2-bit kinds of every tile, rank samples, a payload width, bit-packed payloads.
        public static let packed: UInt8 = 1
        /// Packed: the tiles each rank sample stands for, and whose kinds two 8-byte words hold.
        public static let tilesPerSample = 64
        /// Packed: bytes of one rank sample (a UInt32).
        public static let sampleLength = 4
        /// Packed: bytes of the payload width (a UInt8, 0…``maximumPayloadWidth``).
        public static let widthLength = 1
        /// Packed: the widest payload, in bits.
        public static let maximumPayloadWidth = 32
        /// Packed: the bytes of kinds for `tiles` tiles, 2 bits each; in UInt64 so that any
        /// `columns × rows` counts without overflow.
        @inlinable public static func kindBytes(tiles: UInt64) -> UInt64 { tiles / 4 + (tiles % 4 == 0 ? 0 : 1) }
        /// Packed: the rank samples for `tiles` tiles, one per ``tilesPerSample`` tiles.
        @inlinable public static func sampleCount(tiles: UInt64) -> UInt64 {
            tiles / UInt64(tilesPerSample) + (tiles % UInt64(tilesPerSample) == 0 ? 0 : 1)
        }
    }

    /// Sizes and offsets of one `FEAT` record. The section starts with UInt32 count and UInt32 record length.
    public enum FeatureRecord {
        /// The length of the section's preamble (count and record length).
        public static let preambleLength = 8
        /// The record length this version writes.
        public static let length = 40
        /// UInt32: offset of the id in `STRS`.
        public static let idOffset = 0
        /// UInt32: length of the id in bytes.
        public static let idLength = 4
        /// UInt32: index of the first property in `PROP`.
        public static let firstProperty = 8
        /// UInt32: number of properties.
        public static let propertyCount = 12
        /// 4 × Int32: west, south, east, north, in units.
        public static let boundingBox = 16
        /// Float64: area in square kilometres, on a sphere of radius 6371.0088 km.
        public static let area = 32
    }

    /// The point table of a layer of compact points (3.4, Spec/FORMAT.md 5.12), which its `LAYR`
    /// record names in place of `FEAT`: a preamble, the property columns, their dictionaries, the
    /// blocks' offsets, then one varint record per feature.
    public enum CompactPoints {
        /// `GRID` byte 26 of a layer of compact points: a layer of points whose leaf records are
        /// ranges of consecutive features (8.7.4) and whose features are in a point table.
        public static let geometry: UInt8 = LayerEncoding.compactPoints.rawValue
        /// UInt32: number of features.
        public static let count = 0
        /// UInt32: every coordinate is a multiple of this many units (1 … 2^31 − 1).
        public static let step = 4
        /// UInt16: number of property columns.
        public static let columnCount = 8
        /// UInt16: features per block (1 … 256).
        public static let blockSize = 10
        /// UInt32: number of dictionary entries, over all columns.
        public static let dictionaryCount = 12
        /// UInt32: length of the records, in bytes.
        public static let recordsLength = 16
        /// The length of the preamble; the columns follow it.
        public static let preambleLength = 20
        /// One column: UInt32 key offset and length in `STRS`, UInt32 index of its first dictionary entry.
        public static let columnLength = 12
        /// One dictionary entry: UInt32 value offset and length in `STRS`, UInt8 kind, 3 bytes zero.
        public static let dictionaryEntryLength = 12
        /// The block size the reference writer uses.
        public static let writtenBlockSize = 16
        /// A value's tag (`n << 3 | kind`): kinds 0 to 4 are inline values of that ``PropertyKind``
        /// (n bytes follow), 5 names entry n of the column's dictionary, 6 says the feature has no value.
        public static let dictionaryTag: UInt64 = 5
        /// The tag kind of a column the feature has no value for.
        public static let absentTag: UInt64 = 6
        /// The name index of a layer of compact points: records of 3 or 4 bytes, each a
        /// little-endian number whose low bits (the bit width of `count − 1`) are a feature and
        /// whose high bits say where its key starts in the key of the feature's id. The shortest
        /// record a reader accepts.
        public static let nameRecordMinimum = 3
        /// The largest start code of a key of compact points (``NameFolding/compactKeyStart(of:in:)``):
        /// keys from further on are not indexed.
        public static let maximumKeyStart = 255
        /// The most features a layer of compact points with a name index may have (24 bits).
        public static let maximumIndexedFeatures = 1 << 24
    }

    /// The lexicon of a layer of named compact points (3.6, Spec/FORMAT.md 5.13), which its
    /// `LAYR` record names in place of a name index: every key of every name of the layer's
    /// features, sorted, front-coded in blocks, each with the features it names.
    public enum Lexicon {
        /// `GRID` byte 26 of a layer of named compact points: compact points (5.12) whose
        /// features also have other names, and whose names tag names a lexicon.
        public static let geometry: UInt8 = LayerEncoding.namedCompactPoints.rawValue
        /// UInt32: number of entries.
        public static let count = 0
        /// UInt32: entries per block (1 … 256).
        public static let blockSize = 4
        /// UInt32: length of the entries, in bytes.
        public static let entriesLength = 8
        /// The length of the preamble; the blocks' offsets follow it.
        public static let preambleLength = 12
        /// The largest block size a reader accepts.
        public static let maximumBlockSize = 256
        /// The block size the reference writer uses.
        public static let writtenBlockSize = 16
        /// An entry's display form (the low 3 bits of its head): no other name has this key.
        public static let noDisplay: UInt8 = 0
        /// Display form: the other name is spelled as the key.
        public static let displayAsKey: UInt8 = 1
        /// Display form: the key with the first ASCII letter of each word in capitals.
        public static let displayCapitalized: UInt8 = 2
        /// Display form: the key with every ASCII letter in capitals.
        public static let displayInCapitals: UInt8 = 3
        /// Display form: the spelling follows, a varint length and its UTF-8 bytes.
        public static let displaySpelled: UInt8 = 4
        /// A posting's bit 1: the key is a key of one of the feature's other names, not of its id.
        public static let otherNameBit: UInt64 = 2
        /// A posting's bit 0: another posting of the entry follows.
        public static let morePostingsBit: UInt64 = 1
        /// The longest key a reader decodes (longer ones make the lexicon unreadable there).
        public static let maximumKeyLength = 4096
    }

    /// Sizes and offsets of one `PROP` record. The section starts with UInt32 count and UInt32 record length.
    public enum PropertyRecord {
        /// The length of the section's preamble (count and record length).
        public static let preambleLength = 8
        /// The record length this version writes.
        public static let length = 20
        /// UInt32: offset of the key in `STRS`.
        public static let keyOffset = 0
        /// UInt32: length of the key.
        public static let keyLength = 4
        /// UInt32: offset of the value's text in `STRS`.
        public static let valueOffset = 8
        /// UInt32: length of the value's text.
        public static let valueLength = 12
        /// UInt8: the value's kind (``PropertyKind``).
        public static let kind = 16
    }

    /// Sizes and offsets of one `META` record (build facts such as the source file and options).
    public enum MetadataRecord {
        /// The length of the section's preamble (count and record length).
        public static let preambleLength = 8
        /// UInt32: offset of the key's text in `STRS`.
        public static let keyOffset = 0
        /// UInt32: length of the key's text.
        public static let keyLength = 4
        /// UInt32: offset of the value's text in `STRS`.
        public static let valueOffset = 8
        /// UInt32: length of the value's text.
        public static let valueLength = 12
        /// The record length this version writes.
        public static let length = 16
    }
}

/// The four-byte names of the sections.
public enum SectionTag: UInt32, Sendable, CaseIterable {
    /// The tile grid and its directories.
    case grid = 0x4449_5247      // "GRID"
    /// Tile records: the geometry of mixed tiles and lists of covering features.
    case tiles = 0x454C_4954     // "TILE"
    /// The feature table.
    case features = 0x5441_4546  // "FEAT"
    /// The property table.
    case properties = 0x504F_5250 // "PROP"
    /// The string pool (UTF-8).
    case strings = 0x5352_5453   // "STRS"
    /// Build metadata: key and value strings.
    case metadata = 0x4154_454D  // "META"
    /// The layer table (2.1): each layer's name and the tags of its sections.
    case layers = 0x5259_414C    // "LAYR"
    /// Label points of the first layer's features (2.1).
    case labels = 0x4C42_414C    // "LABL"
    /// The name index of the first layer (2.1).
    case names = 0x454D_414E     // "NAME"
    /// The address index (3.3): the streets of a layer of addresses and where their features lie.
    case addressIndex = 0x5244_4441 // "ADDR"

    /// The tag as four ASCII characters, for messages.
    public var name: String { Self.name(of: rawValue) }

    /// Any tag as four characters (bytes outside printable ASCII shown as `?`), for messages.
    public static func name(of tag: UInt32) -> String {
        var text = ""
        var value = tag
        for _ in 0..<4 {
            let byte = UInt8(truncatingIfNeeded: value)
            text.unicodeScalars.append(Unicode.Scalar(byte >= 0x20 && byte < 0x7F ? byte : UInt8(ascii: "?")))
            value >>= 8
        }
        return text
    }

    /// The tag of four ASCII bytes, such as `G001`.
    public static func tag(_ text: StaticString) -> UInt32 {
        var value: UInt32 = 0
        text.withUTF8Buffer { bytes in
            for (index, byte) in bytes.prefix(4).enumerated() { value |= UInt32(byte) << (8 * UInt32(index)) }
        }
        return value
    }
}

/// What a property value was in the source GeoJSON.
public enum PropertyKind: UInt8, Sendable {
    /// A JSON string; the text is the string itself.
    case string = 0
    /// A JSON number; the text is the number as written in the source.
    case number = 1
    /// `true` or `false`; the text is that word.
    case boolean = 2
    /// `null`; the text is empty.
    case null = 3
    /// An array or object; the text is its compact JSON.
    case json = 4
}

/// How one 32-bit tile directory entry is read: the top two bits are the kind, the low 30 the payload.
public enum TileEntry {
    /// No feature touches the tile. The whole entry is zero.
    public static let emptyKind: UInt32 = 0
    /// One feature covers the whole tile; the payload is its index.
    public static let coveredKind: UInt32 = 1
    /// The payload is the byte offset of a tile record in `TILE`.
    public static let recordKind: UInt32 = 2
    /// The tile is split; the payload is the index of its sub-directory (format 1 and 2) or the
    /// offset of its directory node in `TILE` (format 3).
    public static let splitKind: UInt32 = 3
    /// The largest payload an entry can hold.
    public static let maximumPayload: UInt32 = (1 << 30) - 1

    /// Makes an entry from a kind and a payload.
    @inlinable public static func make(kind: UInt32, payload: UInt32) -> UInt32 {
        (kind << 30) | (payload & maximumPayload)
    }
    /// The kind of an entry.
    @inlinable public static func kind(of entry: UInt32) -> UInt32 { entry >> 30 }
    /// The payload of an entry.
    @inlinable public static func payload(of entry: UInt32) -> UInt32 { entry & maximumPayload }
}
