import GMap

/// Lays out sections, the section table and the header into the bytes of a `.gmap` file.
struct MapWriter {
    private var sections: [(tag: UInt32, bytes: [UInt8])] = []

    /// Adds a section; sections are written in the order added.
    mutating func add(_ tag: SectionTag, _ bytes: [UInt8]) {
        sections.append((tag.rawValue, bytes))
    }

    /// Adds a section with any tag (a layer's `G001`, …).
    mutating func add(tag: UInt32, _ bytes: [UInt8]) {
        sections.append((tag, bytes))
    }

    /// The whole file, with the format version `majorVersion.minorVersion`.
    func bytes(quantizer: Quantizer, majorVersion: UInt16 = FormatLayout.majorVersion, minorVersion: UInt16 = FormatLayout.minorVersion) -> [UInt8] {
        var copy = self
        return copy.takeBytes(quantizer: quantizer, majorVersion: majorVersion, minorVersion: minorVersion)
    }

    /// The whole file, as ``bytes(quantizer:majorVersion:minorVersion:)``, each section freed once
    /// it is copied into the file (the writer is left empty): a large map is then held about once
    /// at the end of a build, not twice.
    mutating func takeBytes(quantizer: Quantizer, majorVersion: UInt16 = FormatLayout.majorVersion,
                            minorVersion: UInt16 = FormatLayout.minorVersion) -> [UInt8] {
        let tableLength = sections.count * FormatLayout.sectionEntryLength
        var offset = align(FormatLayout.headerLength + tableLength)
        var table: [UInt8] = []
        var layout: [(offset: Int, count: Int)] = []
        for section in sections {
            table.appendLittleEndian(section.tag)
            table.appendLittleEndian(UInt32(0))
            table.appendLittleEndian(UInt64(offset))
            table.appendLittleEndian(UInt64(section.bytes.count))
            table.appendLittleEndian(CRC32.checksum(section.bytes))
            table.appendLittleEndian(UInt32(0))
            layout.append((offset, section.bytes.count))
            offset = align(offset + section.bytes.count)
        }
        let fileLength = layout.last.map { $0.offset + $0.count } ?? FormatLayout.headerLength + tableLength

        var header = FormatLayout.magic
        header.appendLittleEndian(majorVersion)
        header.appendLittleEndian(minorVersion)
        header.appendLittleEndian(UInt32(FormatLayout.headerLength))
        header.appendLittleEndian(UInt32(sections.count))
        header.appendLittleEndian(UInt32(quantizer.unitsPerDegree))
        header.appendLittleEndian(UInt64(fileLength))
        header.appendLittleEndian(UInt32(0)) // flags
        var crc = CRC32()
        crc.update(header)
        crc.update(table)
        header.appendLittleEndian(crc.value)
        header.append(contentsOf: repeatElement(0, count: FormatLayout.headerLength - header.count))

        var file = header + table
        file.reserveCapacity(fileLength)
        for (index, section) in layout.enumerated() {
            file.append(contentsOf: repeatElement(0, count: section.offset - file.count))
            file.append(contentsOf: sections[index].bytes)
            if sections[index].bytes.count > 1 << 20 {
                sections[index].bytes = []
                MemoryRelease.trim()
            }
        }
        sections = []
        return file
    }

    private func align(_ value: Int) -> Int {
        let a = FormatLayout.sectionAlignment
        return (value + a - 1) / a * a
    }
}

/// A string pool that stores each distinct string once.
struct StringPool {
    private(set) var bytes: [UInt8] = []
    private var offsets: [String: UInt32] = [:]

    /// The offset and length of `text` in the pool, adding it if new.
    mutating func intern(_ text: String) throws -> (offset: UInt32, length: UInt32) {
        let utf8 = Array(text.utf8)
        if let offset = offsets[text] { return (offset, UInt32(utf8.count)) }
        guard bytes.count + utf8.count <= Int(UInt32.max) else { throw BuildError("the string pool exceeds 4 GiB") }
        let offset = UInt32(bytes.count)
        bytes.append(contentsOf: utf8)
        offsets[text] = offset
        return (offset, UInt32(utf8.count))
    }
}

extension Array where Element == UInt8 {
    /// Appends an integer's bytes, least significant first.
    mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        var little = value.littleEndian
        Swift.withUnsafeBytes(of: &little) { append(contentsOf: $0) }
    }
}
