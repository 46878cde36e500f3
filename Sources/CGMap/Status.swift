import GMap

/// The status codes of `gmap.h`: 0 success, 1 "nothing there", negative an error.
enum Status {
    /// `GMAP_OK`.
    static let ok: Int32 = 0
    /// `GMAP_NOT_FOUND`: no feature contains the point, or the feature has no such property.
    static let notFound: Int32 = 1
    /// `GMAP_ERROR_ARGUMENT`: a NULL pointer, a feature index out of range, or invalid coordinates.
    static let argument: Int32 = -1
    /// `GMAP_ERROR_CANNOT_OPEN`: open, stat or mmap failed.
    static let cannotOpen: Int32 = -2
    /// `GMAP_ERROR_NOT_A_GMAP`.
    static let notAGMap: Int32 = -3
    /// `GMAP_ERROR_TRUNCATED`.
    static let truncated: Int32 = -4
    /// `GMAP_ERROR_UNSUPPORTED_VERSION`.
    static let unsupportedVersion: Int32 = -5
    /// `GMAP_ERROR_MALFORMED`.
    static let malformed: Int32 = -6
    /// `GMAP_ERROR_TOO_LARGE`: more than this platform can address.
    static let tooLarge: Int32 = -7
    /// `GMAP_ERROR_UNAVAILABLE`: opening a path in a build without a C library.
    static let unavailable: Int32 = -8
    /// `GMAP_ERROR_BUFFER_TOO_SMALL`.
    static let bufferTooSmall: Int32 = -9
    /// `GMAP_ERROR_NO_ROAD_LAYER`: `gmap_where` on a map without a `roads` layer of lines.
    static let noRoadLayer: Int32 = -10

    /// The code for an error from opening a map.
    static func of(_ error: GMapError) -> Int32 {
        switch error {
        case .cannotOpen, .notAFile: return cannotOpen
        case .notAGMap: return notAGMap
        case .truncated: return truncated
        case .unsupportedVersion: return unsupportedVersion
        case .malformed: return malformed
        case .tooLarge: return tooLarge
        // A first layer of lines or points: this reader reads polygons, like a newer version.
        case .unsupportedGeometry: return unsupportedVersion
        }
    }

    /// A static sentence for a code, NUL-terminated (the literals carry their own `\0`).
    static func message(_ status: Int32) -> StaticString {
        switch status {
        case ok: return "success\0"
        case notFound: return "not found\0"
        case argument: return "invalid argument (a NULL pointer, a feature index out of range, or invalid coordinates)\0"
        case cannotOpen: return "cannot open the map file (see errno)\0"
        case notAGMap: return "not a gmap file\0"
        case truncated: return "truncated gmap file\0"
        case unsupportedVersion: return "the gmap format version is newer than this reader\0"
        case malformed: return "corrupt gmap file\0"
        case tooLarge: return "the map is too large for this platform\0"
        case unavailable: return "opening a file is not available in this build (no C library): open a buffer\0"
        case bufferTooSmall: return "the buffer is too small\0"
        case noRoadLayer: return "the map has no road layer (build it with gmap build --osm)\0"
        default: return "unknown status\0"
        }
    }
}
