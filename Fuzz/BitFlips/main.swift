// Every single-bit flip of a map, resealed: which ones change an answer and pass `verify`?
//
//   bitflips MAP [--every N] [--sections TAG,TAG] [--show N]
//
// Each bit of the header, the section table and every section is flipped in turn; every CRC-32
// is then recomputed (as a careful attacker or a buggy tool would), the copy opened and verified
// (`MapVerifier`). A copy that opens and verifies sound is asked the questions of `Answers` (every
// command's reads: features, properties, boxes, label points, containment, nearest lines and
// points, placemarks, name and address geocoding); when one answer differs from the original's,
// the flip is "missed". Prints, per section, the flips refused on open, found by verify, harmless
// (sound and the same answers) and missed, then the first missed flips with the first changed
// answer. Compiled and run by Fuzz/bitflips.sh.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GMapChecksum

@main
struct BitFlips {
    static func main() throws {
        var arguments = Array(CommandLine.arguments.dropFirst())
        var every = 1, show = 20
        var only: Set<String>?
        func value(_ flag: String) -> String? {
            guard let at = arguments.firstIndex(of: flag), at + 1 < arguments.count else { return nil }
            defer { arguments.removeSubrange(at...(at + 1)) }
            return arguments[at + 1]
        }
        if let text = value("--every"), let n = Int(text), n > 0 { every = n }
        if let text = value("--show"), let n = Int(text), n >= 0 { show = n }
        if let text = value("--sections") { only = Set(text.split(separator: ",").map(String.init)) }
        guard arguments.count == 1 else {
            print("usage: bitflips MAP [--every N] [--sections TAG,TAG] [--show N]")
            exit(2)
        }
        let original = try readFile(arguments[0])
        let map = try GMap(bytes: original)
        guard MapVerifier(map: map).isSound else {
            print("\(arguments[0]): not sound to begin with")
            exit(2)
        }
        let probes = Probes(map)
        let before = Answers(map, probes).lines
        // The regions flipped: the header with the section table, then each section.
        let tableEnd = Int(readU32(original, FormatLayout.Header.headerLength)) + map.sections.count * FormatLayout.sectionEntryLength
        var regions: [(tag: String, range: Range<Int>)] = [("header", 0..<tableEnd)]
        for section in map.sections { regions.append((section.tag, Int(section.offset)..<Int(section.offset + section.length))) }
        print("\(arguments[0]): \(original.count) bytes, \(probes.points.count) probe points, \(before.count) answers; every \(every) bit")
        print("section        bits   refused  verify-found   harmless    MISSED")
        var totals = [0, 0, 0, 0, 0]
        var missed: [String] = []
        var classes: [String: Int] = [:]
        for region in regions where only?.contains(region.tag) ?? true {
            var counts = [0, 0, 0, 0, 0]
            var bit = 0
            for byte in region.range {
                for shift in 0..<8 {
                    defer { bit += 1 }
                    guard bit % every == 0 else { continue }
                    counts[0] += 1
                    var bytes = original
                    bytes[byte] ^= UInt8(1) << UInt8(shift)
                    let sealed = Resealing.resealed(bytes)
                    guard let copy = try? GMap(bytes: sealed) else { counts[1] += 1; continue }
                    guard MapVerifier(map: copy, limit: 1).isSound else { counts[2] += 1; continue }
                    let answers = Answers(copy, probes, reference: before)
                    if !answers.differs { counts[3] += 1; continue }
                    let after = answers.lines
                    counts[4] += 1
                    let index = (0..<min(before.count, after.count)).first { before[$0] != after[$0] } ?? min(before.count, after.count)
                    let was = index < before.count ? before[index] : "(none)", now = index < after.count ? after[index] : "(none)"
                    classes[region.tag + " " + Answers.changedPart(was, now), default: 0] += 1
                    if missed.count < show {
                        missed.append("\(region.tag) +\(byte - region.range.lowerBound) bit \(shift): \(cut(was)) → \(cut(now))")
                    }
                }
            }
            for k in 0..<5 { totals[k] += counts[k] }
            print(row(region.tag, counts))
        }
        print(row("all", totals))
        for (name, count) in classes.sorted(by: { $0.key < $1.key }) { print("missed by what changed: \(name): \(count)") }
        for line in missed { print("missed: " + line) }
        if totals[4] > 0 { exit(1) }
    }

    static func row(_ name: String, _ counts: [Int]) -> String {
        func pad(_ text: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - text.count)) + text }
        return name + String(repeating: " ", count: max(0, 10 - name.count)) + pad("\(counts[0])", 9) + pad("\(counts[1])", 10)
            + pad("\(counts[2])", 14) + pad("\(counts[3])", 11) + pad("\(counts[4])", 10)
    }

    static func cut(_ text: String) -> String { text.count <= 160 ? text : String(text.prefix(160)) + "…" }

    static func readU32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[at + $1]) << (8 * UInt32($1)) }
    }


    static func readFile(_ path: String) throws -> [UInt8] {
        guard let file = fopen(path, "rb") else { print("cannot open \(path)"); exit(2) }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return bytes
    }
}

/// The points asked: a grid over each layer's extent, and every feature's label point and box corners.
struct Probes {
    var points: [(latitude: Double, longitude: Double)] = []
    /// The nearest-feature search radius, in metres: a fifth of the smallest tile's side, 30 … 2,000 m.
    var radius = 100.0

    init(_ map: GMap) {
        var side = Double.infinity
        for layer in map.layers {
            let grid = layer.grid, q = layer.quantizer
            let west = q.degrees(grid.originX), south = q.degrees(grid.originY)
            let width = q.degrees(grid.tileWidth) * Double(grid.columns), height = q.degrees(grid.tileHeight) * Double(grid.rows)
            side = min(side, q.degrees(grid.tileHeight) * 111_000)
            let n = layer.geometryKind == .polygons ? 24 : 12
            for i in 0..<n {
                for j in 0..<n {
                    points.append((south + height * (Double(j) + 0.37) / Double(n), west + width * (Double(i) + 0.61) / Double(n)))
                }
            }
            _ = layer.forEachLeafTile { tile in
                let b = tile.bounds
                points.append((q.degrees(b.south + (b.north - b.south) * 3 / 7), min(179.99, q.degrees(b.west + (b.east - b.west) * 4 / 9))))
            }
            for index in 0..<min(layer.featureCount, 100) {
                guard let feature = layer.feature(at: index) else { continue }
                if let label = feature.labelPoint { points.append(label) }
                let box = feature.boundingBox
                points.append((box.south + (box.north - box.south) * 0.3, box.west + (box.east - box.west) * 0.7))
            }
        }
        points = points.filter { abs($0.latitude) <= 90 && abs($0.longitude) <= 180 }
        radius = max(30, min(2000, side / 5))
    }
}

/// What the commands print, as lines of text.
struct Answers {
    var lines: [String] = []
    /// The original's answers: asking stops at the first line that differs from them.
    private let reference: [String]?
    /// Whether a line differed from the reference (or there were more or fewer lines).
    private(set) var differs = false

    private mutating func add(_ line: String) {
        if let reference {
            if lines.count >= reference.count || reference[lines.count] != line { differs = true }
        }
        lines.append(line)
    }

    /// What differs between two answer lines: their kind, and for a feature line, the part.
    static func changedPart(_ was: String, _ now: String) -> String {
        let kind = was.split(separator: " ").first.map(String.init) ?? "?"
        guard kind == "feature", now.hasPrefix("feature ") else { return kind }
        func parts(_ line: String) -> [String: String] {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            var result: [String: String] = [:]
            for (index, name) in ["head", "id", "properties", "box", "label", "area"].enumerated() where index < fields.count {
                result[name] = fields[index]
            }
            return result
        }
        let a = parts(was), b = parts(now)
        return "feature " + ["id", "properties", "box", "label", "area"].filter { a[$0] != b[$0] }.joined(separator: "+")
    }

    init(_ map: GMap, _ probes: Probes, reference: [String]? = nil) {
        self.reference = reference
        ask(map, probes)
        if let reference, lines.count != reference.count { differs = true }
    }

    private mutating func ask(_ map: GMap, _ probes: Probes) {
        func round(_ value: Double) -> String { value.isFinite ? String(Int64((value * 1e6).rounded())) : "\(value)" }
        var names: [String] = []
        for (number, layer) in map.layers.enumerated() {
            add("layer \(number) \(layer.layerName) \(layer.geometryKind.map { "\($0)" } ?? "?") \(layer.featureCount)")
            for index in 0..<min(layer.featureCount, 300) {
                if differs { return }
                guard let feature = layer.feature(at: index) else { add("feature \(index) unreadable"); continue }
                let box = feature.boundingBox
                let label = feature.labelPoint.map { round($0.latitude) + "," + round($0.longitude) } ?? "-"
                let properties = feature.properties.map { "\($0.key)=\($0.value)" }.joined(separator: ";")
                add("feature \(number)/\(index)\t\(feature.id)\t[\(properties)]\tbox \(round(box.west)) \(round(box.south)) \(round(box.east)) \(round(box.north))\tlabel \(label)\tarea \(feature.area)")
                if index < 60, !feature.id.isEmpty { names.append(feature.id) }
            }
            for point in probes.points {
                if differs { return }
                switch layer.geometryKind {
                case .polygons?:
                    add("in \(number) " + layer.lookupAll(latitude: point.latitude, longitude: point.longitude).map { "\($0.index)" }.joined(separator: ","))
                case .lines?:
                    add("near \(number) " + layer.nearestLines(latitude: point.latitude, longitude: point.longitude, within: probes.radius, limit: 3)
                        .map { "\($0.feature.index)@\(round($0.distance / 1e6))" }.joined(separator: ","))
                case .points?:
                    add("near \(number) " + layer.nearestPoints(latitude: point.latitude, longitude: point.longitude, within: probes.radius, limit: 3)
                        .map { "\($0.feature.index)@\(round($0.distance / 1e6))" }.joined(separator: ","))
                case nil: break
                }
            }
        }
        for point in probes.points.prefix(200) {
            if differs { return }
            add("placemark \(map.placemark(latitude: point.latitude, longitude: point.longitude))")
        }
        if let addresses = map.layer(named: "addresses") {
            for index in 0..<min(addresses.featureCount, 60) {
                guard let feature = addresses.feature(at: index) else { continue }
                names.append(feature.id + " " + (feature.property(FormatLayout.AddressIndexRecord.houseNumberKey) ?? ""))
            }
        }
        for name in Set(names).sorted() {
            if differs { return }
            for match in map.geocode(name, limit: 3) {
                let box = match.boundingBox
                add("geocode \(name): \(match.kind) \(match.name) \(round(match.latitude)),\(round(match.longitude)) box \(round(box.west)) \(round(box.south)) \(round(box.east)) \(round(box.north)) \(match.thoroughfare ?? "") \(match.subThoroughfare ?? "") \(match.postalCode ?? "")")
            }
        }
    }
}
