import GMapCodecs
/// Checks a shapefile's `.prj` (OGC WKT) says its coordinates are longitude and latitude.
enum ProjectionCheck {
    /// Throws when the WKT `text` is clearly not a geographic coordinate system: a projected (`PROJCS`,
    /// `PROJCRS`) or geocentric (`GEOCCS`) one. Geographic systems (`GEOGCS`, `GEOGCRS`, `GEODCRS`) and text it
    /// does not recognise pass; the coordinates' ranges are checked anyway as the shapes are read.
    static func check(_ text: String, file: String) throws(ShapefileError) {
        let keyword = text.trimmingASCIISpaces().uppercased().prefix { $0.isLetter || $0 == "_" }
        let name = text.split(separator: "\"", maxSplits: 2, omittingEmptySubsequences: false).dropFirst().first.map { " \"\(InputExcerpt.text($0))\"" } ?? ""
        switch keyword {
        case "PROJCS", "PROJCRS", "PROJECTEDCRS":
            throw ShapefileError(.notGeographic, file: file, message: "the coordinates are projected (\(keyword)\(name)), not longitude/latitude; reproject the shapefile to WGS 84 first (for example with ogr2ogr -t_srs EPSG:4326)")
        case "GEOCCS":
            throw ShapefileError(.notGeographic, file: file, message: "the coordinates are geocentric (\(keyword)\(name)), not longitude/latitude; reproject the shapefile to WGS 84 first (for example with ogr2ogr -t_srs EPSG:4326)")
        default:
            return
        }
    }
}
