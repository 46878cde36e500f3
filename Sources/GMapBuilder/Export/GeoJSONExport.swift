import GMap

/// What an export wrote, and what it found wrong.
public struct ExportReport: Sendable, Equatable {
    /// Features written (every feature of the layer, in the map's order: smallest area first).
    public var featureCount = 0
    /// Polygons written (an outer ring with its holes).
    public var polygonCount = 0
    /// Rings written.
    public var ringCount = 0
    /// Positions written, each ring's closing one included (in a layer of lines, each line's; in a
    /// layer of points, each point).
    public var vertexCount = 0
    /// Lines written (a layer of lines: each LineString, or each line of a MultiLineString).
    public var lineCount = 0
    /// Points written (a layer of points).
    public var pointCount = 0
    /// Edges read back from the tiles, each once.
    public var edgeCount = 0
    /// Bytes written.
    public var byteCount = 0
    /// Features given an `id` property so that `gmap build` picks their id without `--id`.
    public var idPropertiesAdded = 0
    /// Ids of features that keep an `id` property with another value, so that a rebuild without
    /// `--id` would pick that value instead (the Feature's `"id"` member still holds the id).
    public var idsNotReproducible: [String] = []
    /// Property values whose stored text was not valid JSON of their kind, written as strings.
    public var valuesWrittenAsStrings = 0
    /// Rings of two edges (along one segment and back) left out: they change no answer.
    public var droppedRings = 0
    /// What is wrong with the map: damaged sections, unreadable tiles, rings that do not close.
    /// Empty for a sound map.
    public var problems: [String] = []

    /// An empty report.
    public init() {}
}

extension ExportReport {
    /// Notes the damage a walk of the leaf tiles found: directory entries that could not be read,
    /// and records that end in damage.
    mutating func noteUnreadable(tiles: Int, records: Int) {
        if tiles > 0 { problems.append("\(tiles) tile directory entries cannot be read") }
        if records > 0 { problems.append("\(records) tile records end in damage") }
    }
}

/// Why an export failed: the map is damaged (the problems say where), or the output failed.
public struct ExportError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The sentence shown to the user.
    public var description: String
    /// Each problem found in the map, when the map is damaged.
    public var problems: [String]

    /// An error with a message and the problems behind it.
    public init(_ description: String, problems: [String] = []) {
        self.description = description
        self.problems = problems
    }
}

/// Writes a map layer's features back as a GeoJSON FeatureCollection.
///
/// The map stores no rings, only each feature's edges in the tiles they touch; the export reads
/// every edge once (``RecoveredEdges``), chains them into rings (``RingChainer``), and groups the
/// rings into polygons with outer rings counter-clockwise and holes clockwise
/// (``PolygonAssembler``). Coordinates are the quantized ones, written exactly (``DegreeText``).
/// Each feature carries its id as the Feature's `"id"` member, its kept properties in their JSON
/// kinds, and an `id` property holding the id where `gmap build` would otherwise pick another
/// value. Building the output again at the same precision gives a map with the same features,
/// answering every point the same. One feature per line, in chunks of about a megabyte. The
/// feature order on a rebuild (where a feature's rings overlap) and memory:
/// Docs/Internals.md#export-feature-order-on-a-rebuild.
public struct GeoJSONExport: Sendable {
    /// Whether to write what can be read from a damaged map instead of failing.
    public var allowsDamage: Bool

    /// An export; with `allowsDamage`, a damaged map is written as far as it can be read, its
    /// problems listed in the report.
    public init(allowsDamage: Bool = false) {
        self.allowsDamage = allowsDamage
    }

    /// How many bytes are gathered before they are handed to the output.
    static let chunkSize = 1 << 20

    /// Writes every feature of `map` (one layer) as GeoJSON, handing the text to `output` in chunks.
    ///
    /// Throws ``ExportError`` when the map is damaged (unless ``allowsDamage``), and whatever
    /// `output` throws.
    public func write(_ map: GMap, to output: ([UInt8]) throws -> Void) throws -> ExportReport {
        var report = ExportReport()
        for section in map.sectionsFailingChecksum {
            report.problems.append("section \(section.tag) (\(section.length) bytes at byte \(section.offset)) does not match its CRC-32")
        }
        // Each kind as its builder writes it (a layer of a kind this reader does not know as
        // polygons: none of its records gives an edge, and each counts as damage).
        return try (map.geometryKind ?? .polygons).builder.write(map, by: self, report: report, to: output)
    }

    /// Writes a layer of polygons (``write(_:to:)``), continuing `report`: each feature's edges
    /// read back once (``RecoveredEdges``), chained into rings (``RingChainer``), grouped into
    /// polygons (``PolygonAssembler``).
    func writePolygons(_ map: GMap, report start: ExportReport, to output: ([UInt8]) throws -> Void) throws -> ExportReport {
        var report = start
        var collected = RecoveredEdges(map: map)
        report.noteUnreadable(tiles: collected.unreadableTiles, records: collected.corruptRecords)
        if collected.endsOutOfRange > 0 {
            report.problems.append("\(collected.endsOutOfRange) edge ends lie outside the coordinate range")
        }
        let degrees = DegreeText(quantizer: map.quantizer)
        var openChains = 0, unpairedEnds = 0
        try writeCollection(map, report: &report, to: output, feature: { index, feature, bytes, report in
            // Each parity group on its own (3.2): its polygons do not overlap, other groups' may.
            var polygons: [[ExportRing]] = []
            for (edges, unpaired) in collected.takeEdgesByPart(ofFeature: index) {
                unpairedEnds += unpaired
                report.edgeCount += edges.count
                let chainer = RingChainer(edges: edges)
                openChains += chainer.openChains
                report.droppedRings += chainer.droppedRings
                polygons += PolygonAssembler(rings: chainer.rings).polygons
            }
            appendFeature(feature, polygons: polygons, degrees: degrees, to: &bytes, report: &report)
        }, finish: { report in
            if unpairedEnds > 0 {
                report.problems.append("\(unpairedEnds) edges were found in the tile of one of their vertices only (the other tile lost them)")
            }
            if openChains > 0 {
                report.problems.append("\(openChains) rings do not close (edges are missing); each was closed straight back to its start")
            }
        })
        return report
    }

    /// Writes the FeatureCollection of `map`'s features to `output` in chunks, for every kind:
    /// `feature` appends feature `index` (without a line break) and counts it in `report`. The
    /// damage found so far is checked first; `finish` adds what the features showed to be wrong,
    /// checked before the collection ends.
    func writeCollection(_ map: GMap, report: inout ExportReport, to output: ([UInt8]) throws -> Void,
                         feature: (_ index: Int, _ feature: Feature, _ bytes: inout [UInt8], _ report: inout ExportReport) -> Void,
                         finish: (_ report: inout ExportReport) -> Void = { _ in }) throws {
        try checkDamage(report)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.chunkSize + (1 << 16))
        bytes.append(contentsOf: "{\"type\":\"FeatureCollection\",\"features\":[\n".utf8)
        for index in 0..<map.featureCount {
            guard let found = map.feature(at: index) else { continue }
            if index > 0 { bytes.append(contentsOf: ",\n".utf8) }
            feature(index, found, &bytes, &report)
            if bytes.count >= Self.chunkSize { try flush(&bytes, into: output, report: &report) }
        }
        finish(&report)
        try checkDamage(report)
        bytes.append(contentsOf: "\n]}\n".utf8)
        try flush(&bytes, into: output, report: &report)
    }

    func checkDamage(_ report: ExportReport) throws {
        guard !allowsDamage, !report.problems.isEmpty else { return }
        throw ExportError("the map is damaged: " + report.problems.joined(separator: "; "), problems: report.problems)
    }

    func flush(_ bytes: inout [UInt8], into output: ([UInt8]) throws -> Void, report: inout ExportReport) throws {
        guard !bytes.isEmpty else { return }
        try output(bytes)
        report.byteCount += bytes.count
        bytes.removeAll(keepingCapacity: true)
    }

    /// `{"type":"Feature","id":…,"properties":{…},"geometry":{…}}` without a line break.
    private func appendFeature(_ feature: Feature, polygons: [[ExportRing]], degrees: DegreeText,
                               to bytes: inout [UInt8], report: inout ExportReport) {
        appendFeatureHead(feature, to: &bytes, report: &report)
        bytes.append(contentsOf: "{\"type\":".utf8)
        let single = polygons.count == 1
        bytes.append(contentsOf: "\"\(GeometryKind.polygons.geoJSONType(parts: polygons.count))\"".utf8)
        bytes.append(contentsOf: ",\"coordinates\":".utf8)
        if !single { bytes.append(UInt8(ascii: "[")) }
        for (polygonPosition, polygon) in polygons.enumerated() {
            if polygonPosition > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "["))
            for (ringPosition, ring) in polygon.enumerated() {
                if ringPosition > 0 { bytes.append(UInt8(ascii: ",")) }
                bytes.append(UInt8(ascii: "["))
                for vertex in 0..<ring.vertexCount {
                    if vertex > 0 { bytes.append(UInt8(ascii: ",")) }
                    bytes.append(UInt8(ascii: "["))
                    degrees.append(Int64(ring.xs[vertex]), to: &bytes)
                    bytes.append(UInt8(ascii: ","))
                    degrees.append(Int64(ring.ys[vertex]), to: &bytes)
                    bytes.append(UInt8(ascii: "]"))
                }
                bytes.append(UInt8(ascii: "]"))
                report.ringCount += 1
                report.vertexCount += ring.vertexCount
            }
            bytes.append(UInt8(ascii: "]"))
        }
        if !single { bytes.append(UInt8(ascii: "]")) }
        bytes.append(contentsOf: "}}".utf8)
        report.polygonCount += polygons.count
        report.featureCount += 1
    }

    /// `{"type":"Feature","id":…,"properties":{…},"geometry":`: the feature up to its geometry.
    func appendFeatureHead(_ feature: Feature, to bytes: inout [UInt8], report: inout ExportReport) {
        let id = feature.id
        var properties = feature.properties
        if (Self.automaticId(of: properties) ?? id) != id {
            if properties.contains(where: { $0.key == "id" }) {
                report.idsNotReproducible.append(id)
            } else {
                properties.insert(Property(key: "id", value: id, kind: .string), at: 0)
                report.idPropertiesAdded += 1
            }
        }
        bytes.append(contentsOf: "{\"type\":\"Feature\",\"id\":".utf8)
        JSONWriting.appendString(id, to: &bytes)
        bytes.append(contentsOf: ",\"properties\":{".utf8)
        for (position, property) in properties.enumerated() {
            if position > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONWriting.appendString(property.key, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            if !JSONWriting.appendValue(property, to: &bytes) { report.valuesWrittenAsStrings += 1 }
        }
        bytes.append(contentsOf: "},\"geometry\":".utf8)
    }

    /// The id `gmap build` would choose from these properties without `--id`, or nil when none of
    /// ``BuildOptions/automaticIdProperties`` is present (it then takes the Feature's `"id"` member).
    static func automaticId(of properties: [Property]) -> String? {
        for name in BuildOptions.automaticIdProperties {
            if let property = properties.first(where: { $0.key == name }), property.kind != .null {
                return property.value
            }
        }
        return nil
    }
}
