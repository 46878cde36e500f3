import GMap

extension LineLayerBuilder {
    /// Writes a layer of lines as LineString (one line) or MultiLineString features, read back by
    /// ``RecoveredOpenGeometry``: each line as built (``LineChainer``).
    static func write(_ map: GMap, by export: GeoJSONExport, report: ExportReport, to output: ([UInt8]) throws -> Void) throws -> ExportReport {
        try export.writeOpen(map, report: report, to: output) { index, recovered, degrees, bytes, report in
            let polylines = index < recovered.segments.count ? LineChainer(recovered.segments[index]).lines : []
            report.edgeCount += index < recovered.segments.count ? recovered.segments[index].segments.count : 0
            GeoJSONExport.appendGeometry(.lines, parts: polylines, degrees: degrees, to: &bytes)
            report.lineCount += polylines.count
            report.vertexCount += polylines.reduce(0) { $0 + $1.count }
        }
    }
}

extension PointLayerBuilder {
    /// Writes a layer of points as Point (one point) or MultiPoint features, read back by
    /// ``RecoveredOpenGeometry``: each point once, in the order the tiles hold them.
    static func write(_ map: GMap, by export: GeoJSONExport, report: ExportReport, to output: ([UInt8]) throws -> Void) throws -> ExportReport {
        try export.writeOpen(map, report: report, to: output) { index, recovered, degrees, bytes, report in
            let points = index < recovered.points.count ? recovered.points[index] : []
            GeoJSONExport.appendGeometry(.points, parts: points.map { [$0] }, degrees: degrees, to: &bytes)
            report.pointCount += points.count
            report.vertexCount += points.count
        }
    }
}

extension GeoJSONExport {
    /// Writes a layer of lines or points read back by ``RecoveredOpenGeometry``, continuing
    /// `report` (which holds the checksum problems found so far): each feature's head, then
    /// `geometry` appends the geometry of feature `index` (its coordinates written by `degrees`)
    /// and counts it.
    fileprivate func writeOpen(_ map: GMap, report start: ExportReport, to output: ([UInt8]) throws -> Void,
                               geometry: (_ index: Int, _ recovered: RecoveredOpenGeometry, _ degrees: DegreeText,
                                          _ bytes: inout [UInt8], _ report: inout ExportReport) -> Void) throws -> ExportReport {
        var report = start
        let recovered = RecoveredOpenGeometry(map: map)
        report.noteUnreadable(tiles: recovered.unreadableTiles, records: recovered.corruptRecords)
        let degrees = DegreeText(quantizer: map.quantizer)
        try writeCollection(map, report: &report, to: output, feature: { index, feature, bytes, report in
            appendFeatureHead(feature, to: &bytes, report: &report)
            geometry(index, recovered, degrees, &bytes, &report)
            bytes.append(UInt8(ascii: "}"))
            report.featureCount += 1
        })
        return report
    }

    /// `{"type":"LineString","coordinates":…}` for one part, `{"type":"MultiLineString","coordinates":[…]}`
    /// for several (or none), with the GeoJSON types of `kind`. A part of points is a position
    /// (one vertex), of lines a list of them.
    fileprivate static func appendGeometry(_ kind: GeometryKind, parts: [[GridVertex]], degrees: DegreeText, to bytes: inout [UInt8]) {
        let one = parts.count == 1
        bytes.append(contentsOf: "{\"type\":\"\(kind.geoJSONType(parts: parts.count))\",\"coordinates\":".utf8)
        if !one { bytes.append(UInt8(ascii: "[")) }
        for (position, part) in parts.enumerated() {
            if position > 0 { bytes.append(UInt8(ascii: ",")) }
            let isPoint = !kind.joinsVertices
            if !isPoint { bytes.append(UInt8(ascii: "[")) }
            for (vertexPosition, vertex) in part.enumerated() {
                if vertexPosition > 0 { bytes.append(UInt8(ascii: ",")) }
                bytes.append(UInt8(ascii: "["))
                degrees.append(vertex.x, to: &bytes)
                bytes.append(UInt8(ascii: ","))
                degrees.append(vertex.y, to: &bytes)
                bytes.append(UInt8(ascii: "]"))
            }
            if !isPoint { bytes.append(UInt8(ascii: "]")) }
        }
        if !one { bytes.append(UInt8(ascii: "]")) }
        bytes.append(UInt8(ascii: "}"))
    }
}
