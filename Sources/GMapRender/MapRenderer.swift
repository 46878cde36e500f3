import GMap
import GMapCodecs

/// A point to mark on a rendered map.
public struct RenderPoint: Sendable, Equatable {
    /// Latitude in degrees.
    public var latitude: Double
    /// Longitude in degrees.
    public var longitude: Double

    /// A point from its coordinates.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// A rendered map and what went into it.
public struct RenderedMap: Sendable {
    /// The picture.
    public var raster: Raster
    /// Features that answer at some pixel centre (or overlap one).
    public var featuresDrawn: Int
    /// Feature colours used.
    public var colourCount: Int
    /// Pixel centres inside two features or more.
    public var overlapPixels: Int
    /// Points marked, and points left out because they lie outside the window.
    public var pointsDrawn: Int, pointsOutside: Int
    /// Leaf tiles walked (with tiles shown), and directory entries that could not be read.
    public var leafTiles: Int, unreadableTileEntries: Int
    /// Layers of lines and points: segments drawn (once for each tile holding them) and points drawn.
    public var segmentsDrawn = 0, mapPointsDrawn = 0
}

/// Draws a map as the map itself answers: each pixel is coloured by the lookup of its centre.
///
/// - Features: each feature that answers somewhere gets a colour that its neighbours in the
///   picture do not have (``FeatureColouring``); borders are one pixel wide, on the side of the
///   larger feature; where a pixel centre lies in two features, diagonal stripes show the second.
/// - Tiles (``Options/showsTiles``): each pixel is tinted by the kind of leaf tile its centre falls
///   in, with tile outlines and a legend (Docs/CLI.md#gmap-render-map--o-outpng-options).
/// - Layers of lines and points (format 3.1), the map's own when it is one, and
///   ``Options/overlays``: streets as lines (main roads wider, by their `class` property), points
///   as dots, and, with ``Options/labels``, names where they fit (``OpenLayerPainter``).
/// - Points: a cross at each point (red when no feature contains it) labelled with the id of
///   the feature a lookup of the point gives, or "-".
public enum MapRenderer {
    /// The most pixels a picture may have (e.g. 4096 × 4096, or 5792 × 2896 for the world).
    public static let maximumPixels = 16_777_216
    /// The longer side of a picture when no width is given.
    public static let defaultLongerSide = 2048

    /// What to draw.
    public struct Options: Sendable {
        /// Whether to tint tiles by kind and draw their outlines and a legend.
        public var showsTiles: Bool
        /// Points to mark and label with their answers.
        public var points: [RenderPoint]
        /// The colours.
        public var style: MapStyle
        /// Threads for the lookups (1: this thread only).
        public var threads: Int
        /// Layers of lines or points (format 3.1) drawn over the map; layers of polygons here are ignored.
        public var overlays: [GMap]
        /// Whether to name the features of layers of lines and points (off: lines and dots only).
        public var labels: Bool

        /// Options from their parts.
        public init(showsTiles: Bool = false, points: [RenderPoint] = [], style: MapStyle = .standard, threads: Int = 1,
                    overlays: [GMap] = [], labels: Bool = false) {
            self.overlays = overlays
            self.labels = labels
            self.showsTiles = showsTiles
            self.points = points
            self.style = style
            self.threads = max(1, threads)
        }
    }

    /// Renders `map` over `window`.
    public static func render(_ map: GMap, window: MapWindow, options: Options = Options()) -> RenderedMap {
        let style = options.style
        let answers = PixelAnswers(map: map, window: window, threads: options.threads)
        let colouring = FeatureColouring(answers: answers, featureCount: map.featureCount, paletteSize: style.featureColours.count)
        let colours = (0..<max(colouring.slotCount, 1)).map(style.featureColour)
        let width = window.width, height = window.height
        var raster = Raster(width: width, height: height, filledWith: style.background)
        var overlapPixels = 0
        for y in 0..<height {
            for x in 0..<width {
                let feature = answers.answer(x: x, y: y)
                let slot = colouring.slot(of: feature)
                guard slot >= 0 else { continue }
                var colour = colours[slot]
                let second = answers.overlap(x: x, y: y)
                if second >= 0 {
                    overlapPixels += 1
                    let secondSlot = colouring.slot(of: second)
                    if (x + y) % 4 == 0, secondSlot >= 0 { colour = colours[secondSlot].darkened(by: style.overlapDarkening) }
                }
                if isBorder(answers, x: x, y: y, feature: feature) { colour = colour.darkened(by: style.borderDarkening) }
                raster[x, y] = colour
            }
        }
        var leafTiles = 0, unreadable = 0
        if options.showsTiles {
            let tiles = LeafTileLayer(map: map, answers: answers, window: window)
            shadeTiles(tiles, style: style, into: &raster)
            leafTiles = tiles.leafTileCount
            unreadable = tiles.unreadableEntries
        }
        let legend = options.showsTiles ? MapLegend.frame(width: width, height: height) : nil
        var painter = OpenLayerPainter(window: window, style: style, labels: options.labels, reserved: legend.map { [$0] } ?? [])
        // A layer of polygons is drawn by its answers above; another is drawn as its features.
        painter.draw((map.geometryKind?.answersContainment == true ? [] : [map]) + options.overlays, into: &raster)
        var drawn = 0
        for point in options.points {
            guard let pixel = window.pixel(latitude: point.latitude, longitude: point.longitude) else { continue }
            drawn += 1
            let answer = map.lookup(latitude: point.latitude, longitude: point.longitude)
            PointMarker.draw(at: pixel, label: answer?.id ?? "-", found: answer != nil, style: style, avoiding: legend, into: &raster)
        }
        if options.showsTiles { MapLegend.draw(style: style, into: &raster) }
        let featuresDrawn = colouring.slots.reduce(0) { $0 + ($1 >= 0 ? 1 : 0) }
        return RenderedMap(raster: raster, featuresDrawn: featuresDrawn, colourCount: colouring.slotCount, overlapPixels: overlapPixels,
                           pointsDrawn: drawn, pointsOutside: options.points.count - drawn, leafTiles: leafTiles, unreadableTileEntries: unreadable,
                           segmentsDrawn: painter.segmentsDrawn, mapPointsDrawn: painter.pointsDrawn)
    }

    /// Whether a feature's pixel takes the border line: a neighbour answers the sea or a smaller feature.
    private static func isBorder(_ answers: PixelAnswers, x: Int, y: Int, feature: Int32) -> Bool {
        func differs(_ other: Int32) -> Bool { other != feature && other < feature }  // none (-1) is below every index
        if x > 0, differs(answers.answer(x: x - 1, y: y)) { return true }
        if x + 1 < answers.width, differs(answers.answer(x: x + 1, y: y)) { return true }
        if y > 0, differs(answers.answer(x: x, y: y - 1)) { return true }
        if y + 1 < answers.height, differs(answers.answer(x: x, y: y + 1)) { return true }
        return false
    }

    /// Tints each pixel by its tile's shade, then draws the outlines.
    private static func shadeTiles(_ tiles: LeafTileLayer, style: MapStyle, into raster: inout Raster) {
        var cache: [UInt64: RGBColour] = [:]
        for y in 0..<raster.height {
            for x in 0..<raster.width {
                let index = y * raster.width + x
                let shade = tiles.shade(at: index)
                guard shade != .outside else { continue }
                let base = raster[x, y]
                let key = UInt64(base.hex) << 8 | UInt64(shade.code)
                if let known = cache[key] {
                    raster[x, y] = known
                } else {
                    let tint = style.tint(shade)
                    let colour = base.blended(with: tint.colour, amount: tint.amount)
                    cache[key] = colour
                    raster[x, y] = colour
                }
            }
        }
        for line in tiles.lines {
            let colour = line.isSplit ? style.splitLine : style.tileLine
            for along in line.span {
                if line.isVertical { raster[line.position, along] = colour } else { raster[along, line.position] = colour }
            }
        }
    }
}
