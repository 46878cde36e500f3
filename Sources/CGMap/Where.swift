// swift-format-ignore-file: AlwaysUseLowerCamelCase
import GMap

// The C interface declared in include/gmap.h: location sense for one fix (gmap where).

/// `gmap_where`: the callouts for one fix (stateless: a fresh location context each call), one
/// sentence per line, NUL-terminated in the caller's buffer. `heading` is a compass heading in
/// degrees, NaN for none; other values are taken modulo 360.
@_cdecl("gmap_where")
public func gmap_where(
    _ handle: OpaquePointer?, _ latitude: Double, _ longitude: Double, _ heading: Double,
    _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int, _ length: UnsafeMutablePointer<Int>?
) -> Int32 {
    guard let map = MapHandle.map(handle), capacity >= 0, buffer != nil || capacity == 0,
          latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else { return Status.argument }
    guard let source = try? MapLocationSource(map: map) else { return Status.noRoadLayer }
    let fix = LocationFix(latitude: latitude, longitude: longitude, time: 0, heading: heading.isNaN ? nil : heading)
    var context = LocationContext(source: source)
    guard let sense = context.update(fix) else { return Status.argument }
    let text = sense.callouts(direction: fix.direction).joined(separator: "\n")
    var utf8 = Array(text.utf8)
    let status = utf8.withUnsafeMutableBytes { CText.copy(UnsafeRawBufferPointer($0), into: buffer, capacity: capacity, length: length) }
    guard status == Status.ok else { return status }
    return sense == .unknown ? Status.notFound : Status.ok
}
