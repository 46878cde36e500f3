import GMap
import GMapRender
import GMapBuilder

/// The format versions the tool writes and reads, as `gmap --version` says them.
enum FormatVersionText {
    /// "3.0–3.2": 3.0, 3.1 with a layer of lines or points, 3.2 with a feature's overlapping parts.
    static let written = "\(FormatLayout.majorVersion).\(FormatLayout.minorVersion)–\(FormatLayout.majorVersion).\(FormatLayout.minorVersionWithPartGroups)"
    /// "writes format 3.0–3.2 (2.0 and 2.1 with --format); reads 1.x to 3.x".
    static let summary = "writes format \(written) (2.0 and 2.1 with --format); reads \(FormatLayout.oldestReadableMajorVersion).x to \(FormatLayout.majorVersion).x"
}

/// The overview `gmap help` prints (each command's own help is its ``Command/help``). Keep it true to the code.
enum HelpText {
    static let version = "1.1.0"

    static let overview = """
    gmap \(version): fast offline reverse geocoding. Which polygon contains this point?

    USAGE
      gmap query [MAP] LATITUDE LONGITUDE [--all | --nearest DIST] [--json]
                                                 or "LAT,LON" in one argument; latitude first
      gmap query [MAP] - [--all | --nearest DIST] [--json]
                                                 read "lat lon" or "lat,lon" lines from stdin
      gmap place [MAP] LATITUDE LONGITUDE [--json]
                                                 the whole placemark: country, ocean or sea,
                                                 time zone, nearest town, …
      gmap build INPUT -o OUTPUT.gmap [--id PROP] [--keep a,b] [options]
                                                 INPUT: .geojson[.gz], .ndjson, .shp, .zip
      gmap build --layer NAME=INPUT[:IDPROP] ... -o OUTPUT.gmap [options]
                                                 several layers in one map
      gmap build --osm FILE.osm.pbf -o OUTPUT.gmap [--paths] [--profile P] [--languages LIST] [--max-nodes N]
                                                 roads, places and areas for gmap where
      gmap where MAP LATITUDE LONGITUDE [--heading DEG | --course DEG] [--language LL] [--json]
                                                 where the point is, in words: the road
                                                 along, the intersection ahead, places
      gmap where MAP --replay FILE|- [--every | --throttled] [--json]
                                                 the same for a track of time,lat,lon lines
      gmap nearby MAP LATITUDE LONGITUDE [--heading DEG] [--ahead] [--within DIST]
                  [--category C] [--limit N] [--json]
                                                 the named places around, or ahead, nearest first
      gmap find [MAP] TEXT [--layer NAME] [--exact] [--json]
                                                 features by id or name
      gmap export MAP -o OUT.geojson [--layer NAME]
                                                 the map's features back as GeoJSON
      gmap info [MAP]
      gmap verify MAP [--known FILE]
      gmap render [MAP] -o OUT.png [--width N] [--bbox W,S,E,N] [--tiles] [--points FILE]
                                                 draw the map as a PNG, as it answers
      gmap bench [MAP] [--points N] [--runs R] [--points-file FILE] [--json]
      gmap help [COMMAND]

    Without MAP, query, place, find, info and render use the world map that ships with gmap
    (layers countries, marine, timezones and towns; query answers from countries), or the file
    named by $GMAP_MAP.

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
      gmap nearby helsinki.gmap 60.1690 24.9396 --heading 330 --ahead

    EXIT CODES
      0 success   1 the point is in no feature   2 bad usage or input (a message says what)

    """
}
