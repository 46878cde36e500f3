import GMap

/// Which form of top-level directory a format 3 build writes (`gmap build --top`); format 2 always
/// writes one UInt32 entry per tile.
public enum TopDirectoryChoice: String, Sendable, CaseIterable {
    /// One UInt32 entry per top-level tile: the fastest lookups.
    case entries
    /// 2-bit kinds, rank samples and bit-packed payloads: the smallest `GRID`.
    case packed
    /// Packed when the UInt32 entries would be more than
    /// ``TopDirectoryWriter/automaticPackingShare`` of the layer's `GRID` and `TILE` bytes (small
    /// or sparse maps), entries otherwise (big detailed maps keep the faster form).
    case automatic
}

/// Writes format 3's top-level directory, the part of `GRID` after its 32-byte fixed part, in
/// either form (Spec/FORMAT.md, "Packed top-level directory").
enum TopDirectoryWriter {
    /// The share of a layer's `GRID` and `TILE` bytes above which ``TopDirectoryChoice/automatic``
    /// packs the directory, in percent. Measured: packing costs 3–16 % per lookup (countries-10m
    /// +11 % uniform for −4.7 % of the file; regions-josm at 1/65,535° +14 % for −20 %), so it is
    /// chosen only where the directory is a large part of the map.
    static let automaticPackingShare = 20

    /// The form (``FormatLayout/TopForm``) that `choice` writes for `tiles` top-level tiles beside
    /// `tileBytes` bytes of `TILE`.
    static func form(for choice: TopDirectoryChoice, tiles: Int, tileBytes: Int) -> UInt8 {
        switch choice {
        case .entries: return FormatLayout.TopForm.entries
        case .packed: return FormatLayout.TopForm.packed
        case .automatic:
            let entryBytes = 4 * tiles
            let layerBytes = FormatLayout.Grid.directory + entryBytes + tileBytes
            return entryBytes * 100 > automaticPackingShare * layerBytes ? FormatLayout.TopForm.packed : FormatLayout.TopForm.entries
        }
    }

    /// The directory's bytes in `form`, from its entries (row-major from the south-west).
    static func bytes(_ entries: [UInt32], form: UInt8) -> [UInt8] {
        form == FormatLayout.TopForm.packed ? packed(entries) : unpacked(entries)
    }

    /// One little-endian UInt32 per entry.
    static func unpacked(_ entries: [UInt32]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(4 * entries.count)
        for entry in entries { bytes.appendLittleEndian(entry) }
        return bytes
    }

    /// The packed form: kinds (2 bits a tile), a UInt32 rank sample per 64 tiles, the payload
    /// width (the fewest bits holding every payload), then one payload per non-empty tile.
    static func packed(_ entries: [UInt32]) -> [UInt8] {
        let form = FormatLayout.TopForm.self
        var kinds = [UInt8](repeating: 0, count: Int(form.kindBytes(tiles: UInt64(entries.count))))
        var samples: [UInt8] = []
        var payloads: [UInt32] = []
        for (tile, entry) in entries.enumerated() {
            if tile % form.tilesPerSample == 0 { samples.appendLittleEndian(UInt32(payloads.count)) }
            let kind = TileEntry.kind(of: entry)
            guard kind != TileEntry.emptyKind else { continue }
            kinds[tile / 4] |= UInt8(kind) << UInt8(2 * (tile % 4))
            payloads.append(TileEntry.payload(of: entry))
        }
        let width = payloads.reduce(0) { max($0, UInt32.bitWidth - $1.leadingZeroBitCount) }
        var packer = BitPacker()
        for payload in payloads { packer.append(UInt64(payload), width: width) }
        return kinds + samples + [UInt8(width)] + packer.finish()
    }
}
