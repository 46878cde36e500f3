/// Layers (since format 2.1): one file can hold several feature sets, each with its own grid.
///
/// A `GMap` reads one layer. The map opened from a file reads the first layer, so code written for
/// single-layer maps keeps working; ``layer(named:)`` gives a `GMap` reading another layer of the
/// same bytes, with every lookup and feature API. A file without a layer table (format 1.x and 2.0)
/// is one layer with an empty name.
extension GMap {
    /// The storage that owns the bytes: this map's, or for a layer the first layer's.
    var rootStorage: MapStorage { storage.owner ?? storage }

    /// The names of the file's layers, in file order: `[""]` for a file without a layer table.
    public var layerNames: [String] { layout.layerNames }

    /// The name of the layer this map reads ("" for a file without a layer table).
    public var layerName: String {
        let names = layout.layerNames, index = layout.layerIndex
        return index < names.count ? names[index] : ""
    }

    /// The position of the layer this map reads in ``layerNames``.
    public var layerIndex: Int { layout.layerIndex }

    /// What this layer's features are: polygons, lines or points (nil for a kind this reader does
    /// not know, which only a later layer can have: it answers nothing). Read once, on open.
    public var geometryKind: GeometryKind? { layout.kind }

    /// Whether this layer is of banded polygons (format 3.5, `GRID` byte 26 = 4): every run of its
    /// records carries a band byte after its vertex count (``RunBand``).
    public var storesRunBands: Bool { layout.runBands }

    /// The map reading the layer at `index` of ``layerNames``, or nil when out of range.
    public func layer(at index: Int) -> GMap? {
        let root = rootStorage
        if index == 0 { return GMap(storage: root) }
        guard index > 0, index <= root.layout.otherLayers.count else { return nil }
        if index == layout.layerIndex { return self }
        return GMap(storage: root.layer(root.layout.otherLayers[index - 1]))
    }

    /// The map reading the layer named `name`, or nil when the file has no such layer.
    public func layer(named name: String) -> GMap? {
        guard let index = layout.layerNames.firstIndex(of: name) else { return nil }
        return layer(at: index)
    }

    /// Every layer of the file, in file order (one for a file without a layer table).
    public var layers: [GMap] {
        (0..<layout.layerNames.count).compactMap { layer(at: $0) }
    }

    /// Every layer of the file as ``layers`` gives them, but reading the bytes through views that do
    /// not keep them alive (``MapStorage/view(_:)``): for what the map keeps in its own storage.
    var unretainedLayers: [GMap] {
        let root = rootStorage
        return [GMap(storage: root.view(root.layout))] + root.layout.otherLayers.map { GMap(storage: root.view($0)) }
    }
}

extension Feature {
    /// The name of the layer the feature belongs to ("" for a file without a layer table).
    public var layerName: String { map.layerName }

    /// A point inside the feature, in degrees, for a label or a marker: not the centroid, which can
    /// lie outside (a C-shaped country, an archipelago). Nil for files without label points (before
    /// format 2.1) and for a feature with no area.
    ///
    /// The point is stored in whole units, inside the feature (`gmap verify` checks it there).
    /// `lookupAll(latitude:longitude:)` at these degrees includes the feature unless the stored
    /// point lies exactly on the feature's west or south boundary: the degrees come back within
    /// 2^-24 unit of it, and the reference writer picks points in the middle of the feature's
    /// widest spans, away from its boundary.
    public var labelPoint: (latitude: Double, longitude: Double)? {
        let layout = map.layout
        if layout.compactPoints != nil {
            // A compact point is its own label point.
            return map.compactRecord(index).map { (map.quantizer.degrees($0.y), map.quantizer.degrees($0.x)) }
        }
        guard index < layout.labels.count else { return nil }
        let record = layout.labels.offset + index * layout.labels.recordLength
        let file = map.span, field = FormatLayout.LabelRecord.self
        guard let x = file.getInt32(at: record + field.x), let y = file.getInt32(at: record + field.y),
              x != FormatLayout.LabelRecord.none || y != FormatLayout.LabelRecord.none else { return nil }
        let q = map.quantizer
        return (q.degrees(Int64(y)), q.degrees(Int64(x)))
    }
}
