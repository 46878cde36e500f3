import GMap

extension GeoJSONExport {
    /// Writes a layer of lines as LineString (one line) or MultiLineString features, or a layer of
    /// points as Point (one point) or MultiPoint features, read back by ``RecoveredOpenGeometry``:
    /// each line as built (``LineChainer``), each point once, in the order the tiles hold them.
    /// `report` holds the checksum problems found so far.
    func writeOpen(_ map: GMap, report start: ExportReport, to output: ([UInt8]) throws -> Void) throws -> ExportReport {
        var report = start
        let recovered = RecoveredOpenGeometry(map: map)
        if recovered.unreadableTiles > 0 {
            report.problems.append("\(recovered.unreadableTiles) tile directory entries cannot be read")
        }
        if recovered.corruptRecords > 0 {
            report.problems.append("\(recovered.corruptRecords) tile records end in damage")
        }
        try checkDamage(report)
        let degrees = DegreeText(quantizer: map.quantizer)
        let lines = map.geometryKind == .lines
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.chunkSize + (1 << 16))
        bytes.append(contentsOf: "{\"type\":\"FeatureCollection\",\"features\":[\n".utf8)
        for index in 0..<map.featureCount {
            guard let feature = map.feature(at: index) else { continue }
            if index > 0 { bytes.append(contentsOf: ",\n".utf8) }
            appendFeatureHead(feature, to: &bytes, report: &report)
            if lines {
                let polylines = index < recovered.segments.count ? LineChainer(recovered.segments[index]).lines : []
                report.edgeCount += index < recovered.segments.count ? recovered.segments[index].segments.count : 0
                Self.appendGeometry(single: "LineString", multiple: "MultiLineString", parts: polylines, degrees: degrees, to: &bytes)
                report.lineCount += polylines.count
                report.vertexCount += polylines.reduce(0) { $0 + $1.count }
            } else {
                let points = index < recovered.points.count ? recovered.points[index] : []
                Self.appendGeometry(single: "Point", multiple: "MultiPoint", parts: points.map { [$0] }, degrees: degrees, to: &bytes)
                report.pointCount += points.count
                report.vertexCount += points.count
            }
            bytes.append(UInt8(ascii: "}"))
            report.featureCount += 1
            if bytes.count >= Self.chunkSize { try flush(&bytes, into: output, report: &report) }
        }
        bytes.append(contentsOf: "\n]}\n".utf8)
        try flush(&bytes, into: output, report: &report)
        return report
    }

    /// `{"type":SINGLE,"coordinates":…}` for one part, `{"type":MULTIPLE,"coordinates":[…]}` for
    /// several (or none). A part of one vertex is a position (points), of more a list of them (lines).
    private static func appendGeometry(single: String, multiple: String, parts: [[GridVertex]], degrees: DegreeText, to bytes: inout [UInt8]) {
        let one = parts.count == 1
        bytes.append(contentsOf: "{\"type\":\"\(one ? single : multiple)\",\"coordinates\":".utf8)
        if !one { bytes.append(UInt8(ascii: "[")) }
        for (position, part) in parts.enumerated() {
            if position > 0 { bytes.append(UInt8(ascii: ",")) }
            let isPoint = single == "Point"
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
