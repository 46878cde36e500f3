import GMap
import GMapBuilder

/// The format version as text.
enum FormatVersionText {
    static let current = "\(FormatLayout.majorVersion).\(FormatLayout.minorVersion)"
}

/// Everything `gmap help` prints. Keep it true to the code.
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
      gmap build --osm FILE.osm.pbf -o OUTPUT.gmap [--paths]
                                                 roads, places and areas for gmap where
      gmap where MAP LATITUDE LONGITUDE [--heading DEG | --course DEG] [--json]
                                                 where the point is, in words: the road
                                                 along, the intersection ahead, places
      gmap where MAP --replay FILE|- [--every] [--json]
                                                 the same for a track of time,lat,lon lines
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

    EXIT CODES
      0 success   1 the point is in no feature   2 bad usage or input (a message says what)

    """

    /// What `gmap help TOPIC` knows: every command, and help itself (the overview).
    static let topics: Set<String> = ["query", "place", "where", "build", "info", "find", "bench", "verify", "export", "render", "help"]

    static func help(for command: String?) -> String {
        switch command {
        case "query": return query
        case "place": return place
        case "build": return build
        case "where": return whereHelp
        case "info": return info
        case "find": return find
        case "bench": return bench
        case "verify": return verify
        case "export": return export
        case "render": return render
        default: return overview
        }
    }

    static let place = """
    gmap place [MAP] LATITUDE LONGITUDE [--json]

    Prints the whole placemark of the point: every field that the map's layers fill, one
    "field  value" line each, with CLPlacemark's field names; fields the map cannot fill are left
    out (a map without a layer a field needs simply leaves that field out). The coordinates are
    read exactly as by gmap query (the same forms, messages and exit codes); the map comes first.

    On the shipped world map (without MAP):
      isoCountryCode, country   the country (Natural Earth 1:10m, layer countries)
      timeZone                  the IANA time zone, Etc/GMT±N at sea (layer timezones, 1 km)
      ocean                     at sea, the ocean or sea (Natural Earth marine polygons, layer marine)
      inlandWater               a lake, lagoon or river of that layer (the Caspian Sea, ...)
      locality                  the nearest town within 50 km, in the point's own country when it
                                is in one (GeoNames, layer towns), and localityDistance in metres
    It has no states, streets or postal codes: administrativeArea, thoroughfare and postalCode
    need a map with such layers (gmap build --layer state=..., gmap build --osm).

    Layers are found by name (country/countries, state/region/province/admin1,
    timezone/timezones/tz, marine/ocean/seas, towns/cities/localities, and a location map's
    roads, addresses, postcodes, areas and places): see Placemark in the README.

    OPTIONS
      --json    print the placemark as JSON: isoCountryCode, country, administrativeArea,
                administrativeAreaCode and timeZone (null when unknown), the other fields only
                when known (localityDistance in metres, to 0.1 m), and "layers": every layer's
                features containing the point, smallest first

    A point that no layer answers prints nothing (null with --json), says so on stderr and exits
    1. Bad coordinates, a missing map or a damaged one exit 2.

    EXAMPLES
      gmap place 36.14 -5.35                      Gibraltar, Europe/Gibraltar, locality Gibraltar
      gmap place 30 -40                           North Atlantic Ocean, Etc/GMT+3
      gmap place 48.57 7.81 --json                Kehl, not Strasbourg across the Rhine

    """

    static let query = """
    gmap query [MAP] LATITUDE LONGITUDE [--all | --nearest DIST] [--json] [--layer NAME]
    gmap query [MAP] "LATITUDE,LONGITUDE" [--all | --nearest DIST] [--json] [--layer NAME]
    gmap query [MAP] - [--all | --nearest DIST] [--json] [--layer NAME]

    Prints the id of the feature that contains the point: latitude first, in decimal degrees
    (latitude in [-90, 90], longitude in [-180, 180]). Where features overlap, the one with the
    smallest area answers. A point on a border shared by two features belongs to exactly one.
    Longitude 180 is answered as -180 (the same meridian); latitude 90 as the point 1e-7° south.
    The map comes first, before the coordinates.

    The point can also be one argument, "36.14,-5.35" or "36.14, -5.35" (as in a batch line).
    Either number can be degrees-minutes-seconds with ° ' " (or ′ ″, or '' for seconds) and an
    optional N, S, E or W before or after: 36°8'24"N, 36°8′N, 5°21'W, 36.14N, -5°21'. Only the
    last part may have a fraction; minutes and seconds are below 60; S and W are negative. With
    a letter on both, either order is read. Quote ' and " for the shell:
    gmap query "36°8'N" "5°21'W".

    A latitude outside [-90, 90] whose swap is a valid point, and a point in no feature whose
    swap is in one, add to the message: latitude comes first: did you mean LON LAT?

    OPTIONS
      --all     print every feature that contains the point, smallest area first, space-separated
      --json    print {"id": …, "properties": {…}} with the properties kept in the map
                (with --all, an array of them)
      --nearest DIST
                when no feature contains the point, answer the feature whose boundary is
                nearest within DIST (500m, 2.5km, 10km; a plain number is metres; at most
                100km): prints "ID nearby METRES m" (whole metres; an inside answer is
                just the ID). Distances are geodesic on WGS 84, accurate to 0.5 %. With
                --json, adds "match":"inside"|"nearby" and "distance_m" (0 when inside).
                Only the tiles within DIST of the point are read. Not with --all.

    With "-" instead of coordinates, reads lines of "lat lon" or "lat,lon" from standard input
    (the numbers read as above) and prints one line per input line: the answer, or an empty line
    (null with --json) when no feature contains the point. Unreadable lines print an empty line
    and a message on stderr, and the exit code is then 2.

    A map of several layers (gmap build --layer) answers in every layer: "layer=id" pairs in the
    map's layer order, separated by spaces, with nothing after "=" for a layer with no answer
    (with --all, a layer's answers are joined by commas, smallest first). --json then prints the
    placemark: {"isoCountryCode", "country", "administrativeArea", "administrativeAreaCode",
    "timeZone", "layers": {NAME: [every feature containing the point, smallest first]}}; the
    fields come from the layers named country, state (or region, province, admin1) and timezone;
    "ocean", "inlandWater", "locality" and "localityDistance" (metres) follow when known (layers
    marine and towns). The shipped map, used without MAP, answers from its first layer,
    countries, as a map of one layer does (gmap place gives its whole placemark); given as a
    file (gmap query world.gmap ...), it answers in every layer.

    --layer NAME answers from that layer alone, as a map of one layer (gmap query world.gmap
    36.14 -5.35 --layer countries prints GI).

    A single point in no feature prints nothing on stdout (null or [] with --json), says so on
    stderr and exits 1. Bad coordinates, a missing map or a damaged one exit 2.

    EXAMPLES
      gmap query world.gmap 36.14 -5.35                 GI
      gmap query world.gmap "36.14, -5.35"              GI
      gmap query world.gmap "36°8'N" "5°21'W"           GI
      gmap query world.gmap 36.14 -5.35 --json          {"id":"GI","properties":{"name":"Gibraltar"}}
      gmap query world.gmap 36.0 -5.2 --nearest 20km    ES nearby 12336 m
      printf '52.52,13.405\\n48.86 2.35\\n' | gmap query world.gmap -

    """

    static let build = """
    gmap build INPUT -o OUTPUT.gmap [options]

    Builds a map from the Polygon and MultiPolygon features of INPUT, which is one of:
      x.geojson           a GeoJSON FeatureCollection
      x.ndjson, x.geojsonl, x.geojsons, x.jsonl
                          one Feature per line (newline-delimited GeoJSON), or RFC 8142 text
                          sequences (each Feature after an RS byte); also detected in any file
                          whose first object is a Feature followed by another object
      x.geojson.gz        either of the above, gzip-compressed (multi-member files too)
      x.shp               an ESRI shapefile (Polygon, PolygonZ, PolygonM) with its x.dbf beside it,
                          and x.cpg (code page) and x.prj (must be longitude/latitude) if present;
                          the .dbf fields are the properties, under their names as written
      x.zip               a ZIP archive holding one shapefile (or one GeoJSON file), as Natural
                          Earth distributes them
    The content decides (gzip, ZIP and shapefile magic bytes), then the name. "-" reads standard
    input (GeoJSON, plain or gzip-compressed). GeoJSON is read as a stream, so hundreds of MB are
    fine; a shapefile or ZIP archive is read into memory. Other geometry types, null shapes and
    deleted .dbf records are skipped and counted. GeoJSON of LineString/MultiLineString features
    only builds a layer of lines, of Point/MultiPoint only a layer of points (format 3.1, answered
    by nearestLines/nearestPoints); input with polygons builds its polygons (see --geometry).
    Broken input stops the build with a message naming the file, the feature or record, and the
    line, byte or field. The output is written to a temporary file and renamed into place, so an
    existing map survives a failed build. The same input and options give the same bytes.

    OPTIONS
      -o, --output FILE   the map to write (required; its directory must exist: checked first)
      --id PROP           the property whose value is each feature's id. Default: the first of
                          \(BuildOptions.automaticIdProperties.joined(separator: ", ")) that the feature has,
                          else the Feature's "id" member, else its index. When every feature
                          falls back to its index, a warning lists the properties there are.
                          With --id, a feature without PROP (or with null) is an error that
                          lists that feature's properties.
      --keep LIST         comma-separated properties to keep for --json output (default: name;
                          "all" keeps every property, "none" keeps none)
      --precision DEG     coordinate quantum in degrees, 1/N for whole N (default 1e-7, about
                          1.1 cm; the largest position error is half a quantum diagonally)
      --simplify DIST     simplify borders so no removed vertex is farther than DIST from the
                          border that replaces it (100m, 1km, 2.5km; a bare number is metres).
                          Each border shared by features is simplified once, between the
                          points where borders meet, so neighbours still meet exactly: no gaps,
                          no double answers along a land border. Rings keep three or more
                          vertices (no island disappears). The summary, the map's metadata and
                          'gmap info' give the largest error measured. With --layer,
                          --simplify LAYER=DIST (repeatable) simplifies that layer only, and
                          replaces a plain --simplify DIST for it.
      --meta KEY=VALUE    record a fact in the map's metadata (repeatable; gmap info shows it
                          under "build"), such as its sources' licences and attribution
      --geometry KIND     which features to build: polygons, lines or points; auto (default):
                          polygons when the input has any (its lines and points are skipped,
                          and the summary says how to build them), else its lines or its points
                          (an error when it has both). Applies to every --layer input.
      --coast-buffer      with --simplify: borders with features on one side only (coasts) move
                          outward only, so every point of the original land stays inside its
                          feature (answers can gain a strip of sea up to DIST wide, never lose a beach)
      --tile-size DEG     top-level tile size (default: automatic, 1° for a world map; the
                          smallest of 1/64°…16° giving at most 65,536 tiles)
      --max-edges N       split tiles with more than N distinct edges (default 64; a border
                          shared by two features counts once). Format 2.1 and 2.0 count each
                          feature's copy and default to 48.
      --split N           a split tile has N × N parts (default 2; 4 with --format 2.1/2.0)
      --max-depth N       split at most N times, 0 to 12 (default 12; 6 with --format 2.1/2.0)
      --layer NAME=INPUT[:IDPROP]
                          one layer of a map of several layers (repeat it; up to 10). The
                          id property follows the last colon; without it, --id or the default
                          applies. With --layer, give no INPUT otherwise. Other options apply
                          to every layer. Name layers country, state and timezone for the
                          placemark fields of query --json.
      --format 3|2.1|2.0  the format to write. 3 (the default): each border stored once per
                          tile, split tiles as directory nodes; a 3.x reader also reads 1.x
                          and 2.x files, but a 2.x reader refuses it as a newer version.
                          2.1: for those older readers (layers, label points, name index).
                          2.0: a plain format 2.0 file: one layer, no label points, no name
                          index. In format 3 at most 64 features may overlap in one leaf
                          tile; more stop the build with a message suggesting --format 2.1.
      --top FORM          how format 3 stores each layer's top-level directory: entries (one
                          4-byte entry per tile, the fastest lookups), packed (2 bits per tile
                          plus a bit-packed payload per non-empty tile, a smaller file) or auto
                          (default: packed when the entries would be more than 20 % of the
                          layer's GRID and TILE bytes, so small or sparse maps shrink and big
                          detailed ones keep the faster form). The summary says which was
                          written. Format 2 always writes entries.
      -q, --quiet         print no summary

    gmap build --osm FILE.osm.pbf -o OUTPUT.gmap [--paths] [-q]

    Builds a location map, for gmap where, from an OpenStreetMap extract (PBF: zlib or raw
    blobs, dense or plain nodes, ways, multipolygon relations). Its layers: roads (lines: one
    feature per street, the named highway ways of one name and class joined at their shared
    ends; name, class, ref), areas (named buildings, parks, squares, land use), places and
    addresses (points), and intersections (points: every node shared by two or more roads, with
    the streets that meet and whether it is a main one). Ways cut at the extract's edge keep
    their present pieces; multipolygon relations with missing members are skipped; both are
    counted in the summary. The map records the source file's name and the attribution
    "\(OSMBuild.attribution)" (gmap info shows them): keep it with anything you
    make from the map. A file that cannot be read stops the build with a message naming the
    file, the blob and the byte (exit 2). The polygon options above (--id, --keep, --precision,
    --simplify, --layer, --format, --top, tiling) do not apply.
      --osm FILE          the .osm.pbf extract to read ("-" for standard input)
      --paths             keep footways, cycleways, paths and steps as roads too (default:
                          streets only)

    EXAMPLES
      gmap build countries.geojson -o world.gmap --id iso_a2 --keep name,iso_a3
      gmap build ne_10m_admin_0_countries.zip -o deu.gmap --id ISO_A2_EH --keep NAME,ISO_A3
      gmap build timezones.geojson.gz -o tz.gmap --id tzid
      gmap build countries.geojson -o watch.gmap --simplify 1km --coast-buffer --precision 1e-5
      gmap build -o layers.gmap --layer country=countries.geojson:iso_a2 \\
          --layer state=admin1.geojson:iso_3166_2 --layer timezone=timezones.geojson.gz:tzid
      gmap build --osm Helsinki.osm.pbf -o helsinki.gmap

    """

    static let whereHelp = """
    gmap where MAP LATITUDE LONGITUDE [--heading DEG | --course DEG] [--json]
    gmap where MAP "LATITUDE,LONGITUDE" [--heading DEG | --course DEG] [--json]
    gmap where MAP --replay FILE|- [--every] [--json]

    Says where the point is, in words a pedestrian can use, from a map built with
    gmap build --osm (its roads, intersections, places and areas layers):
      You are heading north along Mannerheimintie.     the road less than 20 m away
      Intersection with Kaivokatu is 120 m north.      the main intersection ahead on that road,
                                                       within 500 m and 45° of the direction
      Stockmann is 25 m east.                          the nearest named place within 200 m
      You are inside Kaisaniemen puisto.               off the roads: the smallest named area
      Mannerheimintie is 35 m away.                    off the roads, outside areas: the nearest
      Nothing known nearby.                            nothing within 200 m (exit 1)
    Distances are whole metres, directions the eight compass sectors. The coordinates are read
    as gmap query reads them (latitude first, decimal or degrees-minutes-seconds).

    OPTIONS
      --heading DEG   where the user faces (a compass), degrees clockwise from north: the
                      callout says "facing"; any value is taken modulo 360; nan means none
      --course DEG    where the user moves (GPS course over ground): the callout says
                      "heading". Without either, there is no intersection ahead.
      --json          print {"kind": "along_road"|"inside"|"other"|"unknown", "road": {"name",
                      "class", "distance_m", "direction"}, "intersection_ahead": {"streets",
                      "distance_m", "bearing", "main"}, "nearest_place": {"name", "category",
                      "distance_m", "bearing"}, "area": {…}, "callouts": […]} (null for what
                      there is not)
      --replay FILE   read a track from FILE ("-": standard input), lines time,lat,lon[,heading]
                      (time in seconds, decimal degrees, heading as --heading; blank lines and
                      lines starting with # are skipped), feed each fix to one location context
                      (which keeps the road steady near junctions), and print "TIME CALLOUTS"
                      for each sense it gives (with --json, one object per line, with "time").
                      A sense is given when 15 s have passed or the user has moved 10 m since
                      the last one. A line that cannot be read is named with its number on
                      stderr and skipped; the exit code is then 2.
      --every         with --replay: a sense for every fix (no throttle)

    Exit codes: 0 something was said, 1 nothing known nearby (one point), 2 bad usage or input,
    or a map without a road layer ("gmap where: MAP has no road layer (build it with --osm)").

    EXAMPLES
      gmap build --osm Helsinki.osm.pbf -o helsinki.gmap
      gmap where helsinki.gmap 60.1690 24.9396 --course 330
      gmap where helsinki.gmap 60.1690 24.9396 --json
      printf '0,60.1690,24.9385,0\\n20,60.1700,24.9385,0\\n' | gmap where helsinki.gmap --replay -

    """

    static let find = """
    gmap find [MAP] TEXT [--layer NAME] [--exact] [--limit N] [--json]

    Finds features whose id or kept name property (name, admin, name_*, formal_*, *_name, and
    name:xx, *_name:xx, in any case) matches TEXT, ignoring case, accents (Latin, Greek and
    Cyrillic letters), punctuation and spacing: "sao tome" finds "São Tomé", and "cote d ivoire"
    and "COTE-D'IVOIRE" find "Côte d'Ivoire". Exact matches come first, then names that start with
    TEXT, then names with a word starting with each word of TEXT, in any order ("ivoire",
    "d ivo"); within each, every layer in the map's order, smallest area first. Several words are
    one TEXT. Alternative names are found when the build kept them ("ivory coast" with
    --keep name,admin on Natural Earth). The map's name index makes this a binary search (maps of
    format 2.1 and 3; older maps are scanned; a map built before word matching finds names by
    their start only: rebuild it).

    Prints one line per feature: [layer TAB] id TAB name TAB bbox W,S,E,N TAB label LAT,LON.
    The label point lies inside the feature (not the centroid, which can lie outside a
    C-shaped country); maps before format 2.1 have none ("label -"). Exits 1 when nothing matches.

    OPTIONS
      --layer NAME   search only this layer (default: every layer, in the map's order)
      --exact        only exact matches: no prefixes, no word matches
      --limit N      print at most N features
      --json         print [{"layer", "id", "name", "bbox": [w,s,e,n], "label": [lat,lon],
                     "properties"}]

    EXAMPLES
      gmap find world.gmap gibraltar                   GI  Gibraltar  bbox …  label 36.13,-5.35
      gmap find world.gmap "united" --json
      gmap find world.gmap ivoire                      CI  Côte d'Ivoire  bbox …

    """

    static let export = """
    gmap export MAP -o OUT.geojson [--layer NAME] [--force] [-q]

    Writes the map's features back as a GeoJSON FeatureCollection, one feature per line, in the
    map's order (smallest area first), so that a map can be inspected in any GIS tool and diffed.
    The map keeps no rings, only each feature's edges in the tiles they touch: the export reads
    every edge once, chains the edges into rings (the source's rings where the tiles say how they
    continue), and groups the rings into polygons. A ring inside an odd number of the feature's
    other rings is a hole of the smallest ring around it; outer rings are written
    counter-clockwise and holes clockwise (RFC 7946). Coordinates are the quantized ones,
    written exactly (at 1e-7°: -5.3583868, 36.11, 180).

    Each Feature has its id as its "id" member and the kept properties with their JSON kinds. When
    gmap build's automatic id choice (\(BuildOptions.automaticIdProperties.joined(separator: ", ")),
    then the "id" member) would pick another value, an "id" property holding the id is added first,
    so "gmap build OUT.geojson --keep all" at the map's precision gives a map with the same
    features that answers every point the same, and exporting that map gives the same bytes
    again. (A feature whose own rings overlap, such as the same ring twice, can get another area
    and so another place among the features it overlaps; the export of the rebuilt map is then
    the fixed point.) Rings that run along one segment and back, which change no answer, are
    left out. The summary on stderr gives the build command.

    A map of several layers exports one layer (the first unless --layer says which); export each
    layer to its own file and build them again with --layer NAME=FILE. A layer of lines exports
    as LineString (MultiLineString) features, each line as built; a layer of points as Point
    (MultiPoint) features.

    The map's CRC-32s are checked first, and every tile is read: a damaged map stops the export
    with the problems found (exit 2) and leaves OUT as it was.

    OPTIONS
      -o, --output FILE   the GeoJSON file to write (required; - for standard output). It is
                          written to a temporary file and renamed into place.
      --layer NAME        the layer to export (default: the first)
      --force             export a damaged map as far as it can be read, with warnings
      -q, --quiet         print no summary

    EXAMPLES
      gmap export world.gmap -o world.geojson
      gmap export layers.gmap -o tz.geojson --layer timezone
      gmap export world.gmap -o - | head -c 300

    """

    static let verify = """
    gmap verify MAP [--known FILE] [--limit N]

    Checks the whole map: the CRC-32 of the header and of every section, that sections do not
    overlap, and every structure a lookup can reach: each tile directory entry, sub-directory and
    directory node (format 3: node pointers, node count, the packed directory's rank samples),
    each tile record decoded to its end (feature indexes, vertex counts, coordinates in range;
    format 3: slot masks, run order, corner padding),
    each feature, property and metadata record and its strings (in bounds, valid UTF-8). Prints
    "sound", or each problem with where it is (section, tile, byte offset), at most N (default 50).

    --known FILE also looks up each "latitude,longitude,expected_id" line of FILE ("#" starts a
    comment; "-" means no feature) and lists every point that answers differently. A line of six
    fields, "latitude,longitude,country,water,zone,town", checks the point's placemark instead:
    isoCountryCode, ocean (or inlandWater), timeZone and locality, "-" for none
    (Fixtures/known-places.csv, for the shipped map).

    Exit code 0 only for a sound file whose known locations all pass; 1 when the file is damaged
    or a known location fails; 2 for bad usage or a file that cannot be read.

    EXAMPLE
      gmap verify world.gmap --known Fixtures/known-countries.csv

    """

    static let bench = """
    gmap bench [MAP] [--points N] [--runs R] [--seed S] [--near METRES] [--json] [--save-points FILE]
    gmap bench [MAP] --points-file FILE [--answers OUT] [--runs R] [--json]

    Measures the map in this process, from repeated runs:
      open       median and p99 of at least 21 opens (each maps the file and checks its header)
      memory     resident KiB of the map's pages after opening and after one pass over the first
                 point set (from /proc/self/smaps; n/a elsewhere), and the process's RSS
      lookups    for each point set: the median and p99 over R runs (default 11) of the time
                 per lookup, lookups per second, single lookups timed one by one (p50, p99, clock
                 cost subtracted), and the edges stored in each point's tile (mean, p99): what a
                 lookup may test
      threads    lookups per second over the first set split across 1 thread and every core
      placemark  a map of several layers (the shipped one): whole placemarks (every layer, the
                 nearest town included), timed one by one on the first 20,000 points of the
                 first set (p50, p99, mean in µs, clock cost subtracted)

    The point sets, from seed S (default 42): "uniform", N points (default 1,000,000) uniform on
    the sphere; "on land", those of them inside some feature, repeated up to N; "near border",
    200,000 points (or N if fewer) within METRES (default 100) of a feature's boundary, coasts
    included, repeated up to N. Near-border points are found with lookups alone: a random
    100 km segment whose ends get different answers is halved until the change is within 1 cm,
    then the point is moved a random distance (uniform over the disc) in a random direction.

    With --points-file, times only the points in FILE (one "lat,lon" or "lat lon" per line; blank
    lines and lines starting with # are skipped), and --answers writes their answers to OUT, one
    id per line in input order, an empty line where no feature contains the point. --json prints
    one JSON object (keys: map, bytes, features, open_us, rss_open_kb, rss_after_kb,
    process_rss_open_kb, process_rss_after_kb, sets[name, points, found, runs, ns_median, ns_p99,
    single_ns_p50, single_ns_p99, edges_mean, edges_p99], threads[threads, lookups_per_second],
    and for a map of several layers placemark{points, with_locality, layers, us_p50, us_p99, us_mean}).

    --save-points FILE writes the point sets used, as "lat,lon" lines under a "# name: N points"
    line per set, so other tools can be timed on the very same points.

    EXAMPLES
      gmap bench world.gmap
      gmap bench world.gmap --points 200000 --runs 5 --json
      gmap bench tz.gmap --points-file points.csv --answers answers.txt

    """

    static let render = """
    gmap render [MAP] -o OUT.png [--width N] [--bbox W,S,E,N] [--tiles] [--points FILE]
                [--layer NAME] [--quiet]

    Draws the map as it answers: each pixel takes the colour of the feature that a lookup of the
    pixel's centre gives, in an equirectangular projection (longitude across, latitude up), over
    the map's extent or the --bbox window. Features that touch or overlap in the picture get
    different colours (a greedy colouring of the neighbours found in the pixels); where no feature
    answers, the background (pale blue-grey) shows. A pixel next to the sea or to a smaller
    feature is drawn darker: borders are one pixel wide, on the larger feature's side. Where a
    pixel's centre lies in two features, diagonal stripes show the second one's colour.

    The PNG is written by gmap itself (DEFLATE with LZ77 and Huffman codes; a palette image when
    the picture has at most 256 colours) to a temporary file renamed into place. A summary
    (size, pixels, time) goes to stderr.

    OPTIONS
      -o, --output FILE   the PNG to write (required)
      --width N           the picture's width in pixels; the height follows the window's shape
                          (default: 2048 pixels on the longer side; at most \(MapRenderer.maximumPixels) pixels in all)
      --bbox W,S,E,N      the window in degrees: west, south, east, north (default: the map's grid)
      --tiles             tint each leaf tile by kind and outline the tiles, with a legend:
                            empty    blue     no feature touches the tile
                            covered  green    one feature covers it
                            mixed    orange   a top-level tile record: features with their edges
                            split    magenta  a record in a part of a split tile, stronger with depth
                          outlines where tiles are at least 4 pixels wide: dark grey for top-level
                          tiles, dark magenta for the cuts of split tiles
      --points FILE       mark the points of FILE with a cross and the id a lookup gives ("-" and
                          a red cross when no feature contains the point). FILE has "lat,lon" or
                          "lat lon" lines; blank lines and lines starting with # are skipped; extra
                          columns are ignored; a first line of names is a header, and its
                          lat/latitude and lon/lng/longitude columns are read
      --layer NAME        draw this layer of a map of several layers (default: the first layer,
                          with every layer of lines and the first of points over it); repeat
                          it to draw several: the first of polygons is coloured, layers of
                          lines and points are drawn over it: streets as lines (main roads,
                          by their "class" property, wider and orange), points as dots, and
                          the ids of places and main roads where they fit
      -q, --quiet         print no summary

    EXAMPLES
      gmap render world.gmap -o world.png --width 1200
      gmap render world.gmap -o gibraltar.png --bbox -5.6,35.9,-5.1,36.3 --tiles --width 800
      gmap render tz.gmap -o europe.png --bbox -12,34,32,62 --points cities.csv

    """

    static let info = """
    gmap info [MAP]

    Prints the map's header, sections (offset, length, CRC-32), feature count, tile grid, tile
    kinds and the edges per tile (p50, p99, max) that bound a lookup's work, and how it was built.
    Both position errors are shown: the precision's (half a quantum diagonally, on the
    "precision" line) and, for a map built with --simplify, the largest distance measured
    between a removed vertex and the simplified border (the "simplified" line).

    """
}
