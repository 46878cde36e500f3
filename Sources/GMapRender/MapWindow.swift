import GMap
import GMapCodecs

/// The part of the world a picture shows, in an equirectangular projection: longitude maps
/// linearly to columns (west to east) and latitude to rows (north at the top).
public struct MapWindow: Sendable, Equatable {
    /// The window's edges in degrees.
    public let west: Double, south: Double, east: Double, north: Double
    /// The picture's size in pixels.
    public let width: Int, height: Int

    /// A window of `width` pixels whose height follows the aspect ratio of the degrees shown
    /// (at least 1 pixel); refuses an empty or inverted window, one outside the world, and
    /// pictures of more than `maximumPixels`.
    public init(west: Double, south: Double, east: Double, north: Double, width: Int, maximumPixels: Int) throws(RenderError) {
        func fail(_ reason: String) -> RenderError { .invalidWindow(west: west, south: south, east: east, north: north, reason: reason) }
        guard [west, south, east, north].allSatisfy(\.isFinite) else { throw fail("the edges must be numbers") }
        guard west >= -180, east <= 180 else { throw fail("longitudes must lie in [-180, 180]") }
        guard south >= -90, north <= 90 else { throw fail("latitudes must lie in [-90, 90]") }
        guard west < east else { throw fail("west must be less than east") }
        guard south < north else { throw fail("south must be less than north") }
        guard width > 0 else { throw .invalidWidth(width) }
        let exactHeight = (Double(width) * (north - south) / (east - west)).rounded()
        guard exactHeight.isFinite, exactHeight <= Double(maximumPixels) else {
            throw .tooManyPixels(width: width, height: exactHeight.isFinite && exactHeight < 1e15 ? Int(exactHeight) : maximumPixels + 1,
                                 limit: maximumPixels)
        }
        let height = max(1, Int(exactHeight))
        guard width <= maximumPixels / height else {
            throw .tooManyPixels(width: width, height: height, limit: maximumPixels)
        }
        self.west = west
        self.south = south
        self.east = east
        self.north = north
        self.width = width
        self.height = height
    }

    /// The width that makes the longer side of the picture `pixels` long, for a window of these degrees.
    public static func width(longerSide pixels: Int, west: Double, south: Double, east: Double, north: Double) -> Int {
        let aspect = (east - west) / max(north - south, 1e-12)
        return aspect >= 1 ? pixels : max(1, Int((Double(pixels) * aspect).rounded()))
    }

    /// The map's extent in degrees: its grid's tiles, clipped to the world.
    public static func extent(of map: GMap) -> (west: Double, south: Double, east: Double, north: Double) {
        let grid = map.grid, quantizer = map.quantizer
        return (max(-180, quantizer.degrees(grid.originX)), max(-90, quantizer.degrees(grid.originY)),
                min(180, quantizer.degrees(grid.originX + grid.columns * grid.tileWidth)),
                min(90, quantizer.degrees(grid.originY + grid.rows * grid.tileHeight)))
    }

    /// The longitude of the centre of `column`.
    public func longitude(ofColumn column: Int) -> Double {
        west + (Double(column) + 0.5) * (east - west) / Double(width)
    }

    /// The latitude of the centre of `row`.
    public func latitude(ofRow row: Int) -> Double {
        north - (Double(row) + 0.5) * (north - south) / Double(height)
    }

    /// The pixel holding a point, or nil when the point lies outside the window.
    public func pixel(latitude: Double, longitude: Double) -> (x: Int, y: Int)? {
        guard longitude >= west, longitude <= east, latitude >= south, latitude <= north else { return nil }
        let x = Int(((longitude - west) / (east - west) * Double(width)).rounded(.down))
        let y = Int(((north - latitude) / (north - south) * Double(height)).rounded(.down))
        return (min(x, width - 1), min(y, height - 1))
    }

    /// How many pixels one grid unit spans across and down.
    func pixelsPerUnit(_ quantizer: Quantizer) -> (x: Double, y: Double) {
        (Double(width) / ((east - west) * Double(quantizer.unitsPerDegree)),
         Double(height) / ((north - south) * Double(quantizer.unitsPerDegree)))
    }
}
