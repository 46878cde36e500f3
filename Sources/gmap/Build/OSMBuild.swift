import Foundation
import GMap
import GMapBuilder
import GMapCodecs

/// `gmap build --osm FILE.osm.pbf -o MAP [--paths] [--max-nodes N]`: a location map (roads, areas, places,
/// addresses, intersections) from an OpenStreetMap extract, for `gmap where`.
enum OSMBuild {
    /// The attribution OpenStreetMap's licence asks for, recorded in every map built from its data.
    static let attribution = "© OpenStreetMap contributors, ODbL 1.0"

    /// The options of polygon builds, which a location map's fixed layers do not take.
    static let polygonOptions = [Option.id, Option.keep, Option.precision, Option.tileSize, Option.maxEdges, Option.split, Option.maxDepth,
                                 Option.layer, Option.format, Option.simplify, Option.top, Option.geometry, Option.coastBuffer]

    /// The options of `gmap build`, named here without `BuildCommand.`.
    private typealias Option = BuildCommand.Option

    /// Runs the build that `list` (with `--osm`) asks for.
    static func run(_ list: ArgumentList) throws -> Int32 {
        guard let input = list.value(Option.osm), !input.isEmpty else {
            throw CommandFailure(message: "--osm needs an OpenStreetMap PBF file: gmap build --osm FILE.osm.pbf -o MAP.gmap")
        }
        try checkArguments(list)
        guard let asked = list.value(.output) else {
            throw CommandFailure(message: "gmap build needs an output file: -o OUTPUT.gmap")
        }
        let output = try OutputFile.prepare(asked, inputs: [input])
        let limits = try self.limits(list)
        let started = Date()
        let includePaths = list.has(Option.paths)
        let profile = try roadProfile(list)
        let languages = try self.languages(list)
        let metadata = [
            (key: "generator", value: "gmap \(HelpText.version)"),
            (key: "source", value: input == "-" ? "standard input" : (input as NSString).lastPathComponent),
            (key: "attribution", value: attribution),
            (key: "roads", value: (includePaths ? "streets, footways, cycleways, paths and steps" : "streets") + ", profile \(profile.rawValue)"),
            (key: "languages", value: languages.map { $0.isEmpty ? "none" : $0.sorted().joined(separator: ",") } ?? "all"),
        ]
        let result: (bytes: [UInt8], summary: LocationMapSummary, counts: LocationInput.Counts)
        do {
            // Streamed: the file is never held whole, nor its elements (see LocationInput).
            result = try LocationMapBuilder.build(pbfPath: input, includePaths: includePaths, profile: profile, languages: languages,
                                                    limits: limits, metadata: metadata)
        } catch let error as OSMPBFError {
            throw CommandFailure(message: error.description)  // names the file, the blob and the byte
        } catch let error as FileReadError {
            throw CommandFailure(message: error.description)
        } catch let error as BuildError {
            throw CommandFailure(message: "\(input): \(error.description)")
        }
        try OutputFile.write(result.bytes, to: output)
        if !list.has(.quiet) {
            StandardError.write(summary(result.summary, counts: result.counts, input: input, output: output,
                                        seconds: Date().timeIntervalSince(started)))
        }
        return ExitCode.success
    }

    /// `--languages LIST|all|none`: the languages whose `name:LL` the map keeps (nil: all); none when absent.
    static func languages(_ list: ArgumentList) throws -> Set<String>? {
        guard let text = list.value(Option.languages) else { return [] }
        switch text.lowercased() {
        case "all": return nil
        case "none", "": return []
        default:
            let codes = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            for code in codes where !LocalNames.isLanguageKey("name:" + code) {
                throw CommandFailure(message: "--languages: '\(code)' is not a language code (two or three lower-case letters, such as sv or en, optionally -Script: zh-Hans); or give all or none")
            }
            return Set(codes)
        }
    }

    /// `--profile pedestrian|all`, pedestrian when absent.
    static func roadProfile(_ list: ArgumentList) throws -> RoadProfile {
        guard let text = list.value(Option.profile) else { return .pedestrian }
        guard let profile = RoadProfile(rawValue: text.lowercased()) else {
            throw CommandFailure(message: "--profile '\(text)' is not a profile; the profiles are \(RoadProfile.allCases.map(\.rawValue).joined(separator: " and "))")
        }
        return profile
    }

    /// The read's limits: `--max-nodes N` (a positive whole number), else the default.
    static func limits(_ list: ArgumentList) throws -> LocationInput.Limits {
        guard let count = try list.integer(Option.maxNodes) else { return LocationInput.Limits() }
        return LocationInput.Limits(maximumNodes: count)
    }

    /// Fails for arguments that `--osm` does not take: an INPUT, and the polygon builds' options.
    static func checkArguments(_ list: ArgumentList) throws {
        if let extra = list.positional.first {
            throw CommandFailure(message: "with --osm, the input is the PBF file; '\(extra)' is one input too many (gmap build --osm FILE.osm.pbf -o MAP.gmap)")
        }
        for option in polygonOptions where list.isGiven(option) {
            throw CommandFailure(message: "\(option.name) does not apply to --osm: a location map's layers, ids and settings are fixed (see 'gmap help build')")
        }
    }

    /// The summary printed on stderr: what was read, what each layer holds, the bytes, the time.
    static func summary(_ summary: LocationMapSummary, counts: LocationInput.Counts, input: String, output: String, seconds: Double) -> String {
        var lines: [String] = []
        lines.append("wrote \(output): \(summary.byteCount) bytes in \(String(format: "%.2f", seconds)) s")
        lines.append("  read \((input as NSString).lastPathComponent): \(counts.nodes) nodes, \(counts.ways) ways, \(counts.relations) relations in \(counts.blobs) blobs")
        lines.append("  roads \(summary.roads) (from \(summary.roadWays) ways), areas \(summary.areas), places \(summary.places), addresses \(summary.addresses)")
        lines.append("  intersections \(summary.intersections) (\(summary.mainIntersections) main), settlements \(summary.settlements)")
        lines.append("  ways with absent nodes: \(summary.waysWithAbsentNodes) (\(summary.absentNodeReferences) references), kept in their present pieces")
        lines.append("  incomplete relations skipped: \(summary.incompleteRelations)")
        if !summary.layerBytes.isEmpty {
            lines.append("  layer bytes: " + summary.layerBytes.map { "\($0.layer) \($0.bytes)" }.joined(separator: ", "))
        }
        lines.append("  \(attribution)")
        return lines.joined(separator: "\n") + "\n"
    }
}
