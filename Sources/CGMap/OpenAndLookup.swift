// swift-format-ignore-file: AlwaysUseLowerCamelCase
import GMap

// The C interface declared in include/gmap.h: opening, closing and lookups.

/// `gmap_status_message`: a static sentence for a status code.
@_cdecl("gmap_status_message")
public func gmap_status_message(_ status: Int32) -> UnsafePointer<CChar> {
    UnsafeRawPointer(Status.message(status).utf8Start).assumingMemoryBound(to: CChar.self)
}

/// `gmap_open_path`: maps a file read-only. Without a C library the answer is `GMAP_ERROR_UNAVAILABLE`.
@_cdecl("gmap_open_path")
public func gmap_open_path(_ path: UnsafePointer<CChar>?, _ handle: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    guard let handle else { return Status.argument }
    handle.pointee = nil
    guard let path else { return Status.argument }
    #if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
    do {
        handle.pointee = MapHandle.retained(try GMap(contentsOf: String(cString: path)))
        return Status.ok
    } catch {
        if case let .cannotOpen(_, _, code) = error { SystemCalls.setLastError(code) }
        return Status.of(error)
    }
    #else
    return Status.unavailable
    #endif
}

/// `gmap_open_buffer`: opens a map in the caller's memory without copying it.
@_cdecl("gmap_open_buffer")
public func gmap_open_buffer(_ bytes: UnsafeRawPointer?, _ length: Int, _ handle: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    guard let handle else { return Status.argument }
    handle.pointee = nil
    guard length >= 0 else { return Status.tooLarge }
    do {
        handle.pointee = MapHandle.retained(try GMap(unsafeBuffer: UnsafeRawBufferPointer(start: bytes, count: bytes == nil ? 0 : length)))
        return Status.ok
    } catch {
        return Status.of(error)
    }
}

/// `gmap_close`: releases the handle (NULL is allowed).
@_cdecl("gmap_close")
public func gmap_close(_ handle: OpaquePointer?) {
    MapHandle.release(handle)
}

/// `gmap_feature_count`: the number of features, 0 for NULL.
@_cdecl("gmap_feature_count")
public func gmap_feature_count(_ handle: OpaquePointer?) -> UInt32 {
    guard let map = MapHandle.map(handle) else { return 0 }
    return UInt32(truncatingIfNeeded: map.featureCount)
}

/// `gmap_lookup`: the smallest feature containing the point. Allocates nothing.
@_cdecl("gmap_lookup")
public func gmap_lookup(_ handle: OpaquePointer?, _ latitude: Double, _ longitude: Double, _ feature: UnsafeMutablePointer<UInt32>?) -> Int32 {
    guard let map = MapHandle.map(handle), let feature,
          let point = map.quantizer.queryPoint(latitude: latitude, longitude: longitude) else { return Status.argument }
    var found = -1
    map.visitFeatures(containing: point) { index in
        found = index
        return false
    }
    guard found >= 0 else { return Status.notFound }
    feature.pointee = UInt32(truncatingIfNeeded: found)
    return Status.ok
}

/// `gmap_lookup_all`: every feature containing the point, smallest area first, into the caller's array. Allocates nothing.
@_cdecl("gmap_lookup_all")
public func gmap_lookup_all(
    _ handle: OpaquePointer?, _ latitude: Double, _ longitude: Double,
    _ features: UnsafeMutablePointer<UInt32>?, _ capacity: Int, _ count: UnsafeMutablePointer<Int>?
) -> Int32 {
    guard let map = MapHandle.map(handle), let count, capacity >= 0, features != nil || capacity == 0,
          let point = map.quantizer.queryPoint(latitude: latitude, longitude: longitude) else { return Status.argument }
    var found = 0
    map.visitFeatures(containing: point) { index in
        if found < capacity, let features { features[found] = UInt32(truncatingIfNeeded: index) }
        found += 1
        return true
    }
    count.pointee = found
    return found > 0 ? Status.ok : Status.notFound
}
