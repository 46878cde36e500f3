import GMapBuilder

extension BuildCommand {
    /// Its options, in the order of its help: those of a build from INPUT or `--layer`, then those
    /// of a build from an OpenStreetMap extract.
    static let options = polygonOptions + osmOptions

    /// The options of a build from INPUT or `--layer`, as its OPTIONS section lists them.
    static let polygonOptions: [CommandOption] = [
        .output.documented("the map to write (required; its directory must exist: checked first)"),
        Option.id, Option.keep, Option.precision, Option.simplify, Option.compactPoints, Option.otherNames, Option.meta, Option.geometry,
        Option.coastBuffer, Option.tileSize, Option.maxEdges, Option.split, Option.maxDepth, Option.layer, Option.format, Option.top,
        Option.maxString, Option.maxNumber, Option.maxProperties, .quiet,
    ]

    /// The options of `gmap build --osm`, as its part of the help lists them.
    static let osmOptions = [Option.osm, Option.paths, Option.profile, Option.languages, Option.maxNodes]

    /// The options only build takes.
    enum Option {
        /// `--id PROP`: the property that holds each feature's id.
        static let id = CommandOption.value("--id", "PROP", help: """
            the property whose value is each feature's id. Default: the first of
            \(BuildOptions.automaticIdProperties.joined(separator: ", ")) that the feature has,
            else the Feature's "id" member, else its index. When every feature
            falls back to its index, a warning lists the properties there are.
            With --id, a feature without PROP (or with null) is an error that
            lists that feature's properties.
            """)
        /// `--keep LIST`: the properties kept.
        static let keep = CommandOption.value("--keep", "LIST", help: """
            comma-separated properties to keep for --json output (default: name;
            "all" keeps every property, "none" keeps none)
            """)
        /// `--precision DEG`: the coordinate quantum.
        static let precision = CommandOption.value("--precision", "DEG", help: """
            coordinate quantum in degrees, 1/N for whole N (default 1e-7, about
            1.1 cm; the largest position error is half a quantum diagonally)
            """)
        /// `--simplify DIST` or `--simplify LAYER=DIST` (repeatable): how far borders may move.
        static let simplify = CommandOption.value("--simplify", "DIST", repeatable: true, help: """
            simplify borders so no removed vertex is farther than DIST from the
            border that replaces it (100m, 1km, 2.5km; a bare number is metres).
            Each border shared by features is simplified once, between the
            points where borders meet, so neighbours still meet exactly: no gaps,
            no double answers along a land border. Rings keep three or more
            vertices (no island disappears). The summary, the map's metadata and
            'gmap info' give the largest error measured. With --layer,
            --simplify LAYER=DIST (repeatable) simplifies that layer only, and
            replaces a plain --simplify DIST for it.
            """)
        /// `--compact-points LIST`: the layers of points written as compact points.
        static let compactPoints = CommandOption.value("--compact-points", "LIST", help: """
            write these layers of points (comma-separated --layer names, or all)
            as compact points (format 3.4): a point table of a few bytes per
            feature instead of about 100 (a record of the point, the id and the
            kept properties, values repeated often kept once), and a name index
            of the ids only. Each feature must have exactly one point and one
            value per property; its id is its only name (find and geocode).
            """)
        /// `--other-names PROP`: the property listing each feature's other names.
        static let otherNames = CommandOption.value("--other-names", "PROP", help: """
            the property that lists each feature's other names (a JSON array of
            strings: other languages, old names, abbreviations). A layer of
            --compact-points keeps them in a lexicon (format 3.6) with every
            key of its names, so that find and geocode find a feature by any
            of them ("Peking", "Nueva York", "NYC") and say which one matched;
            other layers refuse features that have some. The property is not
            kept as a value.
            """)
        /// `--meta KEY=VALUE` (repeatable): a fact recorded in the map.
        static let meta = CommandOption.value("--meta", "KEY=VALUE", repeatable: true, help: """
            record a fact in the map's metadata (repeatable; gmap info shows it
            under "build"), such as its sources' licences and attribution
            """)
        /// `--geometry KIND`: which features are built.
        static let geometry = CommandOption.value("--geometry", "KIND", help: """
            which features to build: polygons, lines or points; auto (default):
            polygons when the input has any (its lines and points are skipped,
            and the summary says how to build them), else its lines or its points
            (an error when it has both). Applies to every --layer input.
            """)
        /// `--coast-buffer`: coasts simplified outward only.
        static let coastBuffer = CommandOption.flag("--coast-buffer", help: """
            with --simplify: borders with features on one side only (coasts) move
            outward only, so every point of the original land stays inside its
            feature (answers can gain a strip of sea up to DIST wide, never lose a beach)
            """)
        /// `--tile-size DEG`: the top-level tile size.
        static let tileSize = CommandOption.value("--tile-size", "DEG", help: """
            top-level tile size (default: automatic, 1° for a world map; the
            smallest of 1/64°…16° giving at most 65,536 tiles)
            """)
        /// `--max-edges N`: the most edges of a tile that is not split.
        static let maxEdges = CommandOption.value("--max-edges", "N", rule: .wholeNumber(from: 1...100_000), help: """
            split tiles with more than N distinct edges (default 64; a border
            shared by two features counts once). Format 2.1 and 2.0 count each
            feature's copy and default to 48.
            """)
        /// `--split N`: a split tile's parts across.
        static let split = CommandOption.value("--split", "N", rule: .wholeNumber(from: BuildOptions.splitFactorRange),
                                               help: "a split tile has N × N parts (default 2; 4 with --format 2.1/2.0)")
        /// `--max-depth N`: how many times a tile may be split.
        static let maxDepth = CommandOption.value("--max-depth", "N", rule: .wholeNumber(from: BuildOptions.maximumDepthRange),
                                                  help: "split at most N times, 0 to 12 (default 12; 6 with --format 2.1/2.0)")
        /// `--layer NAME=INPUT[:IDPROP]` (repeatable): one layer of a map of several layers.
        static let layer = CommandOption.value("--layer", "NAME=INPUT[:IDPROP]", repeatable: true, help: """
            one layer of a map of several layers (repeat it; up to 10). The
            id property follows the last colon; without it, --id or the default
            applies. With --layer, give no INPUT otherwise. Other options apply
            to every layer. Name layers country, state and timezone for the
            placemark fields of query --json.
            """)
        /// `--format 3|3.0–3.6|2.1|2.0`: the format written (the 3.x values from ``FormatMinorVersion``).
        static let format = CommandOption.value("--format", FormatVersionText.formatValues, help: """
            the format to write. 3 (the default): each border stored once per
            tile, split tiles as directory nodes; a 3.x reader also reads 1.x
            and 2.x files, but a 2.x reader refuses it as a newer version. The
            file says the least minor version that holds what it has:
            \(FormatVersionText.minorVersionLines)
            3.N: for readers of 3.0 to 3.N: nothing newer is written (below
            3.5, polygons without bands), and a map that needs it is refused.
            2.1: for 2.x readers (layers, label points, name index).
            2.0: a plain format 2.0 file: one layer, no label points, no name
            index. In format 3 at most 64 features may overlap in one leaf
            tile; more stop the build with a message suggesting --format 2.1.
            A feature whose polygons overlap answers their union in format 3
            (written as 3.2, listed in the summary); format 2 keeps the
            even-odd rule over all its rings (the overlaps are outside) and
            warns.
            """)
        /// `--top FORM`: how format 3 stores a layer's top-level directory.
        static let top = CommandOption.value("--top", "FORM", rule: .choices(["entries", "packed", "auto"], default: "auto"), help: """
            how format 3 stores each layer's top-level directory: entries (one
            4-byte entry per tile, the fastest lookups), packed (2 bits per tile
            plus a bit-packed payload per non-empty tile, a smaller file) or auto
            (default: packed when the entries would be more than 20 % of the
            layer's GRID and TILE bytes, so small or sparse maps shrink and big
            detailed ones keep the faster form). The summary says which was
            written. Format 2 always writes entries.
            """)
        /// `--max-string SIZE`: the longest JSON string read.
        static let maxString = CommandOption.value("--max-string", "SIZE", rule: .size(default: InputLimits().stringBytes), help: """
            the longest JSON string read (a property value, a name, an id;
            default 64M). SIZE is bytes, or with K, M or G (KiB, MiB, GiB).
            """)
        /// `--max-number SIZE`: the longest number read.
        static let maxNumber = CommandOption.value("--max-number", "SIZE", rule: .size(default: InputLimits().numberBytes),
                                                   help: "the longest number written in the input (default 1K)")
        /// `--max-properties SIZE`: the most bytes of one feature's properties.
        static let maxProperties = CommandOption.value("--max-properties", "SIZE", rule: .size(default: InputLimits().propertyBytes), help: """
            the most bytes of one feature's properties: names and values, plus
            32 bytes a member (default 256M)
            Input over a limit stops the build at once with a message naming
            the limit, so a damaged file or a gzip or ZIP bomb cannot take all
            memory; the defaults are far above real data.
            """)

        /// `--osm FILE.osm.pbf`: the OpenStreetMap extract a location map is built from.
        static let osm = CommandOption.value("--osm", "FILE", help: "the .osm.pbf extract to read (\"-\" for standard input)")
        /// `--paths`: footways, cycleways, paths and steps kept as roads.
        static let paths = CommandOption.flag("--paths", help: """
            keep footways, cycleways, paths and steps as roads too (default:
            streets only)
            """)
        /// `--profile P`: which roads.
        static let profile = CommandOption.value("--profile", "P", help: """
            which roads: pedestrian (default: a surface walker's network, without
            motorways, ways with foot=no or access=no|private and no foot
            permission, and ways under the surface: layer < 0, tunnel, indoor,
            level < 0) or all (every named street). Ways drawn as areas
            (area=yes, such as pedestrian squares) are areas in both, not roads.
            """)
        /// `--languages LIST`: the languages whose names are kept.
        static let languages = CommandOption.value("--languages", "LIST", help: """
            also keep the names in these languages (OSM's name:LL tags) of
            roads, places and areas, for gmap where --language: a comma-separated
            list of codes (sv,en), all, or none (default: none; the map stays
            smallest). A name equal to the name itself is not kept again.
            """)
        /// `--max-nodes N`: the most nodes an extract may have.
        static let maxNodes = CommandOption.value("--max-nodes", "N",
                                                  rule: .wholeNumber(1...Int.max, .beforeValue("needs a positive whole number of nodes, not"), allowsUnderscores: true),
                                                  help: """
            the most nodes the extract may have (default 500000000, 8 GB of
            node positions); raise it for a larger region where memory allows
            """)
    }
}
