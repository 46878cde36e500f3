/// Checks the layer table (`LAYR`, Spec/FORMAT.md 5.7 and 5.8) against the section table: that
/// each tag it names is a section of the file, that no section serves two layers or two purposes,
/// that every layer section of the file belongs to a layer, and that layer names are valid.
///
/// Opening already requires each layer's grid, tiles, features and properties; a label or name
/// section whose tag names no section, though, leaves the layer silently without label points or
/// name index, and a changed tag may point one layer at another's sections. Without `LAYR` the
/// file is one layer of `GRID`, `TILE`, `FEAT`, `PROP` (and `LABL`, `NAME` if present).
enum LayerTableCheck {
    /// One use of a section by a layer.
    private struct Use {
        var tag: UInt32
        /// The part the section holds, with its layer: "the name index of layer 1 ('marine')".
        var role: String
        /// Absolute offset of the tag in `LAYR` (or of the section's table entry without `LAYR`).
        var offset: Int
    }

    /// Everything wrong with the layer table, as problems located in `LAYR` or the section table.
    static func problems(map: GMap) -> [MapProblem] {
        let span = map.span, header = FormatLayout.Header.self
        let headerLength = Int(span.getUInt32(at: header.headerLength) ?? 0)
        var entries: [(tag: UInt32, entry: Int, offset: Int, length: Int)] = []
        for index in 0..<map.sections.count {
            let entry = headerLength + index * FormatLayout.sectionEntryLength
            guard let tag = span.getUInt32(at: entry + FormatLayout.SectionEntry.tag) else { continue }
            let section = map.sections[index]
            entries.append((tag, entry, Int(section.offset), Int(section.length)))
        }
        var problems: [MapProblem] = []
        var uses: [Use] = []
        let layerTable = entries.first { $0.tag == SectionTag.layers.rawValue }
        if let layers = layerTable {
            uses = readLayers(map, span: span, offset: layers.offset, length: layers.length, problems: &problems)
        } else {
            let standard = LayerSectionTags.standard(layer: 0)
            for (tag, role) in [(standard.grid, "grid"), (standard.tiles, "tile records"), (standard.features, "features"),
                                (standard.properties, "properties"), (standard.labels, "label points"), (standard.names, "name index")] {
                if let entry = entries.first(where: { $0.tag == tag }) { uses.append(Use(tag: tag, role: "the \(role) of the layer", offset: entry.entry)) }
            }
        }
        let present = entries.map { $0.tag }
        for use in uses where !present.contains(use.tag) {
            problems.append(MapProblem(location: "section LAYR", offset: use.offset,
                                       reason: "\(use.role) should be the section \(SectionTag.name(of: use.tag)), which the file does not have"))
        }
        for (index, use) in uses.enumerated() {
            if let earlier = uses[..<index].first(where: { $0.tag == use.tag }) {
                problems.append(MapProblem(location: "section LAYR", offset: use.offset,
                                           reason: "\(use.role) is said to be the section \(SectionTag.name(of: use.tag)), which holds \(earlier.role) already"))
            }
        }
        for entry in entries where isLayerTag(entry.tag) && !uses.contains(where: { $0.tag == entry.tag }) {
            problems.append(MapProblem(location: "section table", offset: entry.entry,
                                       reason: "the section \(SectionTag.name(of: entry.tag)) belongs to no layer"
                                       + (layerTable != nil ? " (no layer record of LAYR names it)" : " (the file has no layer table, LAYR)")))
        }
        // A tag no version up to the file's defines (a damaged tag: readers skip the section, as one of a later version).
        let version = map.formatVersion
        if version.major < Int(FormatLayout.majorVersion) || version.minor <= Int(FormatLayout.newestMinorVersion) {
            for entry in entries where SectionTag(rawValue: entry.tag) == nil && !isLayerTag(entry.tag) && !uses.contains(where: { $0.tag == entry.tag }) {
                problems.append(MapProblem(location: "section table", offset: entry.entry,
                                           reason: "the section \(SectionTag.name(of: entry.tag)) is not one that format \(version.major).\(version.minor) defines "
                                           + "(a reader skips it, as a section of a later version)"))
            }
        }
        return problems
    }

    /// The sections each layer record names (tag 0, "none", left out); reports bad layer names.
    private static func readLayers(_ map: GMap, span: ByteSpan, offset: Int, length: Int, problems: inout [MapProblem]) -> [Use] {
        guard length >= FormatLayout.LayerRecord.preambleLength, let count = span.getUInt32(at: offset),
              let recordLength = span.getUInt32(at: offset + 4) else { return [] }
        let r = FormatLayout.LayerRecord.self
        var uses: [Use] = []
        var names: [[UInt8]] = []
        for index in 0..<Int(count) {
            let record = offset + r.preambleLength + index * Int(recordLength)
            guard let nameOffset = span.getUInt32(at: record + r.nameOffset), let nameLength = span.getUInt32(at: record + r.nameLength) else { continue }
            let name = map.stringBytes(offset: nameOffset, length: nameLength).map { Array($0) } ?? []
            let layer = "layer \(index) ('\(String(decoding: name, as: UTF8.self))')"
            if name.isEmpty || name.count > 255 {
                problems.append(MapProblem(location: "section LAYR", offset: record + r.nameLength, reason: "\(layer)'s name is \(name.count) bytes long (1…255)"))
            } else if !isValidUTF8(name) {
                problems.append(MapProblem(location: "section LAYR", offset: record + r.nameOffset, reason: "\(layer)'s name is not valid UTF-8"))
            } else if names.contains(name) {
                problems.append(MapProblem(location: "section LAYR", offset: record + r.nameOffset, reason: "\(layer)'s name is the name of an earlier layer"))
            }
            names.append(name)
            for (field, role) in [(r.gridTag, "grid"), (r.tilesTag, "tile records"), (r.featuresTag, "features"),
                                  (r.propertiesTag, "properties"), (r.labelsTag, "label points"), (r.namesTag, "name index")] {
                guard let tag = span.getUInt32(at: record + field), tag != 0 else { continue }
                uses.append(Use(tag: tag, role: "the \(role) of \(layer)", offset: record + field))
            }
        }
        return uses
    }

    /// The tags a layer's sections have in the reference writer: `GRID`, `TILE`, `FEAT`, `PROP`,
    /// `LABL`, `NAME`, and `G`, `T`, `F`, `P`, `L` or `N` followed by three decimal digits.
    static func isLayerTag(_ tag: UInt32) -> Bool {
        let standard = LayerSectionTags.standard(layer: 0)
        if [standard.grid, standard.tiles, standard.features, standard.properties, standard.labels, standard.names].contains(tag) { return true }
        let letter = UInt8(truncatingIfNeeded: tag)
        guard [UInt8(ascii: "G"), UInt8(ascii: "T"), UInt8(ascii: "F"), UInt8(ascii: "P"), UInt8(ascii: "L"), UInt8(ascii: "N")].contains(letter) else { return false }
        for shift: UInt32 in [8, 16, 24] {
            let digit = UInt8(truncatingIfNeeded: tag >> shift)
            if digit < UInt8(ascii: "0") || digit > UInt8(ascii: "9") { return false }
        }
        return true
    }

    private static func isValidUTF8(_ bytes: [UInt8]) -> Bool {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }
}
