// Builds small seed maps for the reader fuzzer: every GeoJSON file given, with a few option sets
// chosen so that the maps are small (coarse top-level tiles) and some tiles are split.
//
//     seed-maker OUTPUT_DIRECTORY FILE.geojson...
//
// Compiled (without sanitizers) with every file of Sources/GMapBuilder, against the GMap module.
import Foundation
import GMap

let variants: [(suffix: String, unitsPerDegree: Int64, tileDegrees: Int64, maximumEdges: Int, split: Int, depth: Int)] = [
    ("", 10_000_000, 10, 48, 4, 6),
    ("-split", 10_000_000, 4, 2, 3, 4),
    ("-coarse", 1_000, 5, 4, 2, 6),
]

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    print("usage: seed-maker OUTPUT_DIRECTORY FILE.geojson...")
    exit(2)
}
let directory = arguments[1]
var failures = 0
for path in arguments.dropFirst(2) {
    let name = String(path.split(separator: "/").last ?? "input").replacingOccurrences(of: ".geojson", with: "")
    for variant in variants {
        var options = BuildOptions()
        options.quantizer = Quantizer(unitsPerDegree: variant.unitsPerDegree)!
        options.tileSize = variant.tileDegrees * variant.unitsPerDegree
        options.maximumEdgesPerTile = variant.maximumEdges
        options.splitFactor = variant.split
        options.maximumDepth = variant.depth
        options.keptProperties = nil
        do {
            var builder = try MapBuilder(options: options)
            builder.addMetadata(key: "source", value: name)
            try GeoJSONImport.read(path: path, into: &builder)
            let (bytes, _) = try builder.finish()
            try AtomicFile.write(bytes, to: "\(directory)/\(name)\(variant.suffix).gmap")
        } catch {
            print("seed-maker: \(path)\(variant.suffix): \(error)")
            failures += 1
        }
    }
}
exit(failures == 0 ? 0 : 1)
