import Foundation
import XCTest
import GMap
import GMapBuilder
import GMapCodecs
import GMapRender
import CGMap
import GMapTestSupport

/// `gmap build --osm` and `gmap where` on the Helsinki extract (../shared/data/osm; skipped when
/// absent): the build's summary, a point on Mannerheimintie from the command line and through the
/// C interface, and a replayed walk along it.
final class WhereDatasetTests: CommandLineTestCase {
    override class var needsExecutable: Bool { false }

    /// The bytes of the location map of `data`, built in this process.
    static func locationMap(_ data: OSMData) throws -> [UInt8] {
        try LocationMapBuilder.build(data).bytes
    }

    /// A point on Mannerheimintie: the middle of its longest segment, and that segment's direction.
    static func pointOnMannerheimintie(_ data: OSMData) throws -> (latitude: Double, longitude: Double, direction: Double) {
        var best: (length: Double, latitude: Double, longitude: Double, direction: Double)?
        for way in data.ways where way.tag("name") == "Mannerheimintie" && way.tag("highway") != nil {
            for piece in data.pieces(of: way) {
                for (a, b) in zip(piece, piece.dropFirst()) {
                    let length = Geodesic.distance(latitude: a.latitude, longitude: a.longitude, toLatitude: b.latitude, longitude: b.longitude)
                    guard length > (best?.length ?? 0) else { continue }
                    let direction = Compass.bearing(fromLatitude: a.latitude, longitude: a.longitude, toLatitude: b.latitude, longitude: b.longitude)
                    best = (length, (a.latitude + b.latitude) / 2, (a.longitude + b.longitude) / 2, direction)
                }
            }
        }
        let found = try XCTUnwrap(best, "the extract has a way named Mannerheimintie")
        return (found.latitude, found.longitude, found.direction)
    }

    func testBuildAndWhereOnMannerheimintie() throws {
        try Self.requireExecutable()
        let pbf = try TestSupport.osmExtract("Helsinki.osm.pbf")
        let map = temporary.appendingPathComponent("helsinki.gmap").path
        let build = try CommandLineTestCase.runGMap(["build", "--osm", pbf.path, "-o", map])
        XCTAssertEqual(build.status, 0, build.stderr)
        let summary = build.stderr
        XCTAssertTrue(summary.contains("  read Helsinki.osm.pbf: 24260 nodes, 5130 ways, 620 relations in "), summary)
        XCTAssertTrue(summary.contains("  ways with absent nodes: 421 (4525 references), kept in their present pieces"), summary)
        XCTAssertTrue(summary.contains("  © OpenStreetMap contributors, ODbL 1.0\n"), summary)
        let info = try CommandLineTestCase.runGMap(["info", map])
        XCTAssertTrue(info.stdout.contains("Helsinki.osm.pbf") && info.stdout.contains("© OpenStreetMap contributors, ODbL 1.0"), info.stdout)

        let data = try OSMPBFReader.read(path: pbf.path)
        let point = try Self.pointOnMannerheimintie(data)
        let (latitude, longitude) = (String(point.latitude), String(point.longitude))
        var result = try CommandLineTestCase.runGMap(["where", map, latitude, longitude, "--course", String(point.direction)])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("You are heading \(Compass.direction(point.direction)) along Mannerheimintie.\n"), result.stdout)
        // Facing the other way: still along it.
        result = try CommandLineTestCase.runGMap(["where", map, latitude, longitude, "--heading", String(point.direction + 180)])
        XCTAssertTrue(result.stdout.hasPrefix("You are facing \(Compass.direction(point.direction + 180)) along Mannerheimintie.\n"), result.stdout)
        result = try CommandLineTestCase.runGMap(["where", map, latitude, longitude, "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix(#"{"kind":"along_road","road":{"name":"Mannerheimintie","#), result.stdout)
        // The command says what the library says.
        let source = try MapLocationSource(map: try GMap(contentsOf: map))
        var context = LocationContext(source: source)
        let fix = LocationFix(latitude: point.latitude, longitude: point.longitude, time: 0, course: point.direction)
        let sense = try XCTUnwrap(context.update(fix))
        result = try CommandLineTestCase.runGMap(["where", map, latitude, longitude, "--course", String(point.direction)])
        XCTAssertEqual(result.stdout, sense.callouts(direction: fix.direction).map { $0 + "\n" }.joined())

        // A walk of 60 s along the segment and back, 1 fix/s, with its course: --throttled gives a
        // sense every 15 s or 10 m; the default, only when something changes (the first fix, the
        // turn back with its new intersection ahead).
        var track = "# a walk on Mannerheimintie\n"
        for second in 0...60 {
            let metres = 1.4 * Double(second) - (second > 30 ? 2.8 * Double(second - 30) : 0)
            let (lat, lon) = Self.offset(point.latitude, point.longitude, metres: metres, bearing: point.direction)
            track += "\(second),\(lat),\(lon),\(second > 30 ? point.direction + 180 : point.direction)\n"
        }
        result = try CommandLineTestCase.runGMap(["where", map, "--replay", "-", "--throttled"], input: track)
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n")
        XCTAssertGreaterThanOrEqual(lines.count, 5, result.stdout)
        XCTAssertLessThan(lines.count, 61, "throttled")
        XCTAssertTrue(lines.allSatisfy { $0.contains("along Mannerheimintie.") }, result.stdout)
        let changes = try CommandLineTestCase.runGMap(["where", map, "--replay", "-"], input: track)
        let changed = changes.stdout.split(separator: "\n")
        XCTAssertTrue(changed.first?.hasPrefix("0 ") ?? false, changes.stdout)
        XCTAssertLessThan(changed.count, lines.count, "on change: fewer than throttled\n\(changes.stdout)")
        XCTAssertTrue(changed.allSatisfy { $0.contains("along Mannerheimintie.") }, changes.stdout)
        let every = try CommandLineTestCase.runGMap(["where", map, "--replay", "-", "--every"], input: track)
        XCTAssertEqual(every.stdout.split(separator: "\n").count, 61)
    }

    /// `--languages` and `--language`: Swedish names where the map keeps them, OSM's name where
    /// not (with a note on stderr), and the words English; `--profile` and `--languages` checked.
    func testNamesInAnotherLanguage() throws {
        try Self.requireExecutable()
        let pbf = try TestSupport.osmExtract("Helsinki.osm.pbf")
        let plain = path("plain.gmap"), swedish = path("sv.gmap")
        XCTAssertEqual(try CommandLineTestCase.runGMap(["build", "--osm", pbf.path, "-o", plain, "-q"]).status, 0)
        XCTAssertEqual(try CommandLineTestCase.runGMap(["build", "--osm", pbf.path, "-o", swedish, "-q", "--languages", "sv"]).status, 0)
        let data = try OSMPBFReader.read(path: pbf.path)
        let point = try Self.pointOnMannerheimintie(data)
        let arguments = [String(point.latitude), String(point.longitude), "--course", String(point.direction), "--language", "sv"]
        let local = try CommandLineTestCase.runGMap(["where", swedish] + arguments)
        XCTAssertEqual(local.status, 0, local.stderr)
        XCTAssertEqual(local.stderr, "")
        XCTAssertTrue(local.stdout.contains("along Mannerheimvägen."), local.stdout)
        let fallback = try CommandLineTestCase.runGMap(["where", plain] + arguments)
        XCTAssertEqual(fallback.status, 0)
        XCTAssertTrue(fallback.stdout.contains("along Mannerheimintie."), fallback.stdout)
        XCTAssertEqual(fallback.stderr, "gmap where: \(plain) has no names in 'sv'; the names are OSM's own (build the map with --languages sv)\n")
        // The map with Swedish names is the plain one plus name:sv properties: larger, same answers otherwise.
        let plainBytes = try Data(contentsOf: URL(fileURLWithPath: plain)).count, swedishBytes = try Data(contentsOf: URL(fileURLWithPath: swedish)).count
        XCTAssertGreaterThan(swedishBytes, plainBytes)
        print("Helsinki location map: \(plainBytes) bytes, \(swedishBytes) with --languages sv")
        let source = try MapLocationSource(map: try GMap(contentsOf: swedish))
        XCTAssertEqual(source.localizedName("Mannerheimintie", language: "sv"), "Mannerheimvägen")
        XCTAssertNil(source.localizedName("Mannerheimintie", language: "en"))
        XCTAssertTrue(source.hasNames(in: "sv"))
        XCTAssertFalse(source.hasNames(in: "de"))
        try assertFails(["where", plain, "60.17", "24.94", "--language", "Swedish"],
                        stderr: "gmap: --language 'Swedish' is not a language code (two or three lower-case letters, such as sv or en)\n")
        try assertFails(["build", "--osm", pbf.path, "-o", path("x.gmap"), "--languages", "sv,EN"],
                        stderr: "gmap: --languages: 'EN' is not a language code (two or three lower-case letters, such as sv or en, optionally -Script: zh-Hans); or give all or none\n")
        try assertFails(["build", "--osm", pbf.path, "-o", path("x.gmap"), "--profile", "car"],
                        stderr: "gmap: --profile 'car' is not a profile; the profiles are pedestrian and all\n")
        try assertFails(["build", "Fixtures/spec-example.geojson", "-o", path("x.gmap"), "--profile", "all"],
                        stderr: "gmap: --profile only applies with --osm FILE.osm.pbf (which roads a location map keeps)\n")
        let info = try CommandLineTestCase.runGMap(["info", swedish]).stdout
        XCTAssertTrue(info.contains("languages") && info.contains("sv"), info)
        XCTAssertTrue(info.contains("profile pedestrian"), info)
    }

    /// `gmap bench --osm`: the build timed with its peak memory, then `where` over walks along the
    /// map's streets, in the JSON report; most walked fixes are along a road, and the map stays small.
    func testBenchBuildsAndTimesWhere() throws {
        try Self.requireExecutable()
        let pbf = try TestSupport.osmExtract("Helsinki.osm.pbf")
        let result = try CommandLineTestCase.runGMap(["bench", "--osm", pbf.path, "--points", "2000", "--runs", "2", "--walks", "20", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], result.stdout)
        let build = try XCTUnwrap(report["build"] as? [String: Any], result.stdout)
        XCTAssertEqual(build["builds"] as? Int, 2)
        XCTAssertGreaterThan(try XCTUnwrap(build["ms_median"] as? Double), 0)
        let bytes = try XCTUnwrap(build["bytes"] as? Int)
        XCTAssertEqual(report["bytes"] as? Int, bytes, "the bench measures the map it built")
        XCTAssertLessThanOrEqual(bytes, 400_000)
        XCTAssertGreaterThan(try XCTUnwrap(build["peak_rss_kb"] as? Int), 0)
        let walked = try XCTUnwrap(report["where"] as? [String: Any], result.stdout)
        XCTAssertEqual(walked["fixes"] as? Int, 20 * 60)
        let p50 = try XCTUnwrap(walked["update_us_p50"] as? Double), p99 = try XCTUnwrap(walked["update_us_p99"] as? Double)
        XCTAssertTrue(p50 > 0 && p50 <= p99, "p50 \(p50) µs, p99 \(p99) µs")
        // Inside an area comes first, so a street through a park or square counts as inside.
        let along = try XCTUnwrap(walked["along"] as? Int), inside = try XCTUnwrap(walked["inside"] as? Int)
        XCTAssertGreaterThan(along + inside, 20 * 60 * 3 / 4, "walks along the streets are mostly along a road or inside an area: \(walked)")
        XCTAssertGreaterThan(along, 20 * 60 / 2, "\(walked)")
        if let resident = walked["rss_after_walks_kb"] as? Int { XCTAssertLessThanOrEqual(resident, 1024) }
        // A map without roads has no where section; a map and --osm together are refused.
        let polygons = try CommandLineTestCase.runGMap(["bench", "--osm", pbf.path, "extra.gmap"])
        XCTAssertEqual(polygons.status, 2)
        XCTAssertTrue(polygons.stderr.contains("one map too many"), polygons.stderr)
    }

    func testCInterfaceSaysWhatTheLibrarySays() throws {
        let pbf = try TestSupport.osmExtract("Helsinki.osm.pbf")
        let data = try OSMPBFReader.read(path: pbf.path)
        let bytes = try Self.locationMap(data)
        let point = try Self.pointOnMannerheimintie(data)
        try bytes.withUnsafeBytes { buffer in
            var handle: OpaquePointer?
            XCTAssertEqual(gmap_open_buffer(buffer.baseAddress, buffer.count, &handle), 0)
            defer { gmap_close(handle) }
            let source = try MapLocationSource(map: try GMap(bytes: bytes))
            for heading in [Double.nan, point.direction, point.direction + 540] {
                var context = LocationContext(source: source)
                let fix = LocationFix(latitude: point.latitude, longitude: point.longitude, time: 0, heading: heading)
                let expected = try XCTUnwrap(context.update(fix)).callouts(direction: fix.direction).joined(separator: "\n")
                var text = [CChar](repeating: 0, count: 1024)
                var length = -1
                XCTAssertEqual(gmap_where(handle, point.latitude, point.longitude, heading, &text, text.count, &length), 0)
                XCTAssertEqual(length, expected.utf8.count)
                XCTAssertEqual(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), expected)
                XCTAssertTrue(expected.contains("along Mannerheimintie."), expected)
            }
        }
    }

    /// The point `metres` from a point along `bearing` (a flat approximation, fine for a few hundred metres).
    static func offset(_ latitude: Double, _ longitude: Double, metres: Double, bearing: Double) -> (Double, Double) {
        let radians = bearing * .pi / 180, metresPerDegree = 111_320.0
        return (latitude + metres * cos(radians) / metresPerDegree,
                longitude + metres * sin(radians) / (metresPerDegree * cos(latitude * .pi / 180)))
    }
}
