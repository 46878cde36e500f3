import GMap
import GMapRender
import GMapBuilder

/// The format versions the tool writes and reads, as `gmap --version` says them.
enum FormatVersionText {
    /// "3.0–3.6": from 3.0 to the newest minor version, each by what the map holds (Spec/FORMAT.md, section 3).
    static let threeRange = "\(FormatMinorVersion.polygons.text)–\(FormatMinorVersion.newest.text)"
    /// The same, as `gmap --version` says what it writes.
    static let written = threeRange
    /// `--format`'s values: "3|3.0–3.6|2.1|2.0".
    static let formatValues = "3|\(threeRange)|2.1|2.0"
    /// One line a minor version of format 3 for `gmap build --help`: "  3.5  banded polygons: …".
    static let minorVersionLines = FormatMinorVersion.allCases.map { "  \($0.text)  \($0.addition)" }.joined(separator: "\n")
    /// "writes format 3.0–3.6 (2.0 and 2.1 with --format); reads 1.x to 3.x".
    static let summary = "writes format \(written) (2.0 and 2.1 with --format); reads \(FormatLayout.oldestReadableMajorVersion).x to \(FormatLayout.majorVersion).x"
}

/// The overview `gmap help` prints: each command's synopsis, taken from its own help
/// (``Command/help``, whose first lines are the synopsis), and its ``Command/summary``.
enum HelpText {
    static let version = "1.1.0"

    /// The USAGE part: every command's synopsis lines, indented, then its summary.
    static let usage: String = {
        var lines: [String] = []
        for command in CommandTable.commands {
            let synopsis = command.help.split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty }
            lines += synopsis.map { "  " + $0 }
            lines.append(String(repeating: " ", count: 8) + command.summary)
        }
        lines.append("  gmap help [COMMAND]")
        return lines.joined(separator: "\n")
    }()

    static let overview = """
    gmap \(version): fast offline reverse geocoding. Which polygon contains this point?

    USAGE
    \(usage)

    Without MAP, query, place, find, info and render use the world map that ships with gmap
    (layers countries, marine, timezones and towns; query answers from countries), or the file
    named by $GMAP_MAP. place, query --all and find answer from several maps with --map FILE
    (repeatable) or a $GMAP_MAP list (a.gmap:b.gmap), the shipped map joining unless --no-world.

    EXAMPLES
      gmap query 36.14 -5.35                      prints GI
      gmap place 30 -40 --json                    North Atlantic Ocean, Etc/GMT+3
      gmap build countries.geojson -o world.gmap --id iso_a2 --keep name,iso_a3
      gmap query world.gmap 52.52 13.405 --json
      gmap build -o layers.gmap --layer country=countries.geojson:iso_a2 \\
          --layer state=admin1.geojson:iso_3166_2 --layer timezone=timezones.geojson:tzid
      gmap query layers.gmap 32.78 -96.80         country=US state=US-TX timezone=America/Chicago
      gmap find layers.gmap gibraltar
      gmap export world.gmap -o world.geojson      inspect or diff a map in any GIS tool
      cut -d, -f1,2 points.csv | gmap query world.gmap -
      gmap render world.gmap -o world.png --width 1200
      gmap build --osm Helsinki.osm.pbf -o helsinki.gmap
      gmap where helsinki.gmap 60.1690 24.9396 --course 330
      gmap place --map helsinki.gmap 60.1690 24.9396   street, postal code, suburb, country, zone
      gmap nearby helsinki.gmap 60.1690 24.9396 --heading 330 --ahead

    EXIT CODES
      0 success   1 the point is in no feature   2 bad usage or input (a message says what)

    """
}
