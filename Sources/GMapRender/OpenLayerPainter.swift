import GMap
import GMapCodecs

/// How wide a street is drawn, from its `class` property (OpenStreetMap's `highway` values, as a
/// location map stores them): main roads wider, and drawn over the others.
enum LineClass: Int, Comparable {
    /// Any other class, or none.
    case minor = 0
    /// `tertiary`, `secondary` and their links.
    case middle = 1
    /// `primary`, `trunk`, `motorway` and their links.
    case main = 2

    /// The class of a `class` property's value.
    init(_ value: String?) {
        var name = value ?? ""
        if name.hasSuffix("_link") { name.removeLast(5) }
        switch name {
        case "motorway", "trunk", "primary": self = .main
        case "secondary", "tertiary": self = .middle
        default: self = .minor
        }
    }

    /// The line's width in pixels.
    var width: Int { rawValue + 1 }

    /// Orders by rank.
    static func < (lhs: LineClass, rhs: LineClass) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Draws layers of lines and points (format 3.1) over a picture: each line feature's segments
/// as read from the tiles, wider and in the main-road colour by ``LineClass``; each point as a
/// dot (3 × 3 pixels with a halo, or 1 pixel where the layer's points are dense in the picture);
/// and, when asked for, names: the ids of point features (in layers with label points, largest
/// `population` first) and of main and middle roads (at their label points), where the text fits
/// without covering another label or a reserved rectangle (the legend).
struct OpenLayerPainter {
    /// A layer whose points in the picture have fewer than this many pixels each gets 1-pixel dots.
    static let pixelsPerLargeDot = 400

    let window: MapWindow
    let style: MapStyle
    /// Whether to draw names.
    let labels: Bool
    /// Rectangles no label may cover: the reserved ones, then the labels placed.
    private var labelBoxes: [PixelBox]
    /// Segments and points drawn.
    private(set) var segmentsDrawn = 0, pointsDrawn = 0

    /// A painter for `window`, drawing in `style`, with names when `labels` is true, kept out of `reserved`.
    init(window: MapWindow, style: MapStyle, labels: Bool, reserved: [PixelBox] = []) {
        self.window = window
        self.style = style
        self.labels = labels
        labelBoxes = reserved
    }

    /// Draws `layers` (those of lines first, then those of points, each in the order given) and,
    /// with ``labels``, their names.
    mutating func draw(_ layers: [GMap], into raster: inout Raster) {
        var lines: [GMap] = [], points: [GMap] = []
        for layer in layers {
            switch layer.geometryKind {
            case .lines?: lines.append(layer)
            case .points?: points.append(layer)
            // Polygons are drawn by their answers (``MapRenderer``); a kind this reader does not know is not read.
            case .polygons?, nil: continue
            }
        }
        var lineClasses: [[LineClass]] = []
        for layer in lines {
            let classes = (0..<layer.featureCount).map { LineClass(layer.feature(at: $0)?.property("class")) }
            lineClasses.append(classes)
            // Narrow lines first, so that main roads cross over them.
            for rank in [LineClass.minor, .middle, .main] where classes.contains(rank) {
                drawSegments(of: layer, classes: classes, rank: rank, into: &raster)
            }
        }
        for layer in points { drawPoints(of: layer, into: &raster) }
        guard labels else { return }
        for layer in points { labelPoints(of: layer, into: &raster) }
        for (layer, classes) in zip(lines, lineClasses) { labelLines(of: layer, classes: classes, into: &raster) }
    }

    /// The pixel position (not rounded) of a grid point.
    private func position(_ x: Int64, _ y: Int64, _ quantizer: Quantizer) -> (x: Double, y: Double) {
        let longitude = quantizer.degrees(x), latitude = quantizer.degrees(y)
        return ((longitude - window.west) / (window.east - window.west) * Double(window.width),
                (window.north - latitude) / (window.north - window.south) * Double(window.height))
    }

    /// Whether a leaf tile's extent meets the window.
    private func meets(_ tile: LeafTile, _ quantizer: Quantizer) -> Bool {
        let bounds = tile.bounds
        return quantizer.degrees(bounds.west) <= window.east && quantizer.degrees(bounds.east) >= window.west
            && quantizer.degrees(bounds.south) <= window.north && quantizer.degrees(bounds.north) >= window.south
    }

    private mutating func drawSegments(of layer: GMap, classes: [LineClass], rank: LineClass, into raster: inout Raster) {
        let quantizer = layer.quantizer
        let colour = rank == .minor ? style.minorLine : style.mainLine
        layer.forEachLeafTile { tile in
            guard tile.kind == .record, meets(tile, quantizer) else { return }
            layer.forEachSegment(in: tile) { segment in
                guard segment.featureIndex < classes.count, classes[segment.featureIndex] == rank else { return }
                let a = position(segment.startX, segment.startY, quantizer), b = position(segment.endX, segment.endY, quantizer)
                if LinePainter.draw(from: a, to: b, width: rank.width, colour: colour, into: &raster) { segmentsDrawn += 1 }
            }
        }
    }

    private mutating func drawPoints(of layer: GMap, into raster: inout Raster) {
        let quantizer = layer.quantizer
        var pixels: [(x: Int, y: Int)] = []
        layer.forEachLeafTile { tile in
            guard tile.kind == .record, meets(tile, quantizer) else { return }
            layer.forEachPoint(in: tile) { point in
                let p = position(point.x, point.y, quantizer)
                guard p.x >= 0, p.y >= 0, p.x < Double(raster.width), p.y < Double(raster.height) else { return }
                pixels.append((Int(p.x), Int(p.y)))
            }
        }
        if pixels.count * Self.pixelsPerLargeDot <= raster.width * raster.height {
            for (x, y) in pixels { raster.fill(x: x - 2, y: y - 2, width: 5, height: 5, with: style.halo) }
            for (x, y) in pixels { raster.fill(x: x - 1, y: y - 1, width: 3, height: 3, with: style.pointInk) }
        } else {
            for (x, y) in pixels { raster[x, y] = style.pointInk }
        }
        pointsDrawn += pixels.count
    }

    /// The ids of point features with label points, beside their points: those of a larger
    /// `population` property first, then those without one, in the layer's order.
    private mutating func labelPoints(of layer: GMap, into raster: inout Raster) {
        let features = layer.features
        let population = features.map { feature -> Double in
            guard let value = feature.property("population").flatMap(Double.init), value.isFinite else { return -1 }
            return value
        }
        let order = features.indices.sorted { (population[$0], -$0) > (population[$1], -$1) }
        for feature in order.map({ features[$0] }) {
            guard let point = feature.labelPoint, let pixel = window.pixel(latitude: point.latitude, longitude: point.longitude) else { continue }
            if !place(feature.id, x: pixel.x + 4, y: pixel.y - 4, into: &raster) {
                place(feature.id, x: pixel.x - 4 - BitmapFont.width(of: feature.id), y: pixel.y - 4, into: &raster)
            }
        }
    }

    /// The ids of main roads, then of middle ones, centred on their label points.
    private mutating func labelLines(of layer: GMap, classes: [LineClass], into raster: inout Raster) {
        for rank in [LineClass.main, .middle] {
            for (index, feature) in layer.features.enumerated() where index < classes.count && classes[index] == rank {
                guard let point = feature.labelPoint, let pixel = window.pixel(latitude: point.latitude, longitude: point.longitude) else { continue }
                place(feature.id, x: pixel.x - BitmapFont.width(of: feature.id) / 2, y: pixel.y - 4, into: &raster)
            }
        }
    }

    /// Draws `text` with its top left at (`x`, `y`) when it lies inside the picture and covers no
    /// other label and no reserved rectangle; false when it does not fit.
    @discardableResult
    private mutating func place(_ text: String, x: Int, y: Int, into raster: inout Raster) -> Bool {
        let box = PixelBox.text(text, x: x, y: y)
        guard !text.isEmpty, box.isInside(width: raster.width, height: raster.height),
              !labelBoxes.contains(where: box.intersects) else { return false }
        labelBoxes.append(box)
        BitmapFont.draw(text, x: x, y: y, colour: style.ink, halo: style.halo, into: &raster)
        return true
    }
}

/// Draws straight lines of a few pixels' width.
enum LinePainter {
    /// Draws the segment between two pixel positions (clipped to the picture) with square pens of
    /// `width` pixels; false when no part of it lies in the picture.
    @discardableResult
    static func draw(from a: (x: Double, y: Double), to b: (x: Double, y: Double), width: Int, colour: RGBColour, into raster: inout Raster) -> Bool {
        let margin = Double(width)
        guard let clipped = clip(a, b, xMax: Double(raster.width) + margin, yMax: Double(raster.height) + margin, min: -margin) else { return false }
        let dx = clipped.b.x - clipped.a.x, dy = clipped.b.y - clipped.a.y
        let steps = max(1, Int(max(abs(dx), abs(dy)).rounded(.up)))
        let offset = (width - 1) / 2
        for step in 0...steps {
            let t = Double(step) / Double(steps)
            let x = Int((clipped.a.x + dx * t).rounded(.down)), y = Int((clipped.a.y + dy * t).rounded(.down))
            raster.fill(x: x - offset, y: y - offset, width: width, height: width, with: colour)
        }
        return true
    }

    /// The part of segment a–b inside [min, xMax] × [min, yMax] (Liang–Barsky), or nil.
    static func clip(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double), xMax: Double, yMax: Double, min low: Double)
        -> (a: (x: Double, y: Double), b: (x: Double, y: Double))? {
        guard a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite else { return nil }
        var t0 = 0.0, t1 = 1.0
        let dx = b.x - a.x, dy = b.y - a.y
        for (p, q) in [(-dx, a.x - low), (dx, xMax - a.x), (-dy, a.y - low), (dy, yMax - a.y)] {
            if p == 0 {
                if q < 0 { return nil }
                continue
            }
            let r = q / p
            if p < 0 { t0 = max(t0, r) } else { t1 = min(t1, r) }
            if t0 > t1 { return nil }
        }
        return ((a.x + t0 * dx, a.y + t0 * dy), (a.x + t1 * dx, a.y + t1 * dy))
    }
}
