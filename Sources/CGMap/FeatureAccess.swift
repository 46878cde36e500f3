// swift-format-ignore-file: AlwaysUseLowerCamelCase
import GMap

// The C interface declared in include/gmap.h: a feature's id and properties, in place or copied.

/// `gmap_feature_id`: the id's bytes in place in the map (not NUL-terminated).
@_cdecl("gmap_feature_id")
public func gmap_feature_id(
    _ handle: OpaquePointer?, _ index: UInt32, _ bytes: UnsafeMutablePointer<UnsafePointer<CChar>?>?, _ length: UnsafeMutablePointer<Int>?
) -> Int32 {
    guard let feature = MapHandle.feature(handle, index) else { return Status.argument }
    CText.expose(feature.idBytes, bytes, length)
    return Status.ok
}

/// `gmap_feature_id_copy`: the id, NUL-terminated, in the caller's buffer.
@_cdecl("gmap_feature_id_copy")
public func gmap_feature_id_copy(
    _ handle: OpaquePointer?, _ index: UInt32, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int, _ length: UnsafeMutablePointer<Int>?
) -> Int32 {
    guard let feature = MapHandle.feature(handle, index) else { return Status.argument }
    return CText.copy(feature.idBytes, into: buffer, capacity: capacity, length: length)
}

/// `gmap_feature_property_count`: how many properties the feature keeps.
@_cdecl("gmap_feature_property_count")
public func gmap_feature_property_count(_ handle: OpaquePointer?, _ index: UInt32) -> UInt32 {
    guard let feature = MapHandle.feature(handle, index) else { return 0 }
    return UInt32(truncatingIfNeeded: feature.propertyCount)
}

/// `gmap_feature_property_at`: the key and value of one property, in place in the map.
@_cdecl("gmap_feature_property_at")
public func gmap_feature_property_at(
    _ handle: OpaquePointer?, _ index: UInt32, _ position: UInt32,
    _ key: UnsafeMutablePointer<UnsafePointer<CChar>?>?, _ keyLength: UnsafeMutablePointer<Int>?,
    _ value: UnsafeMutablePointer<UnsafePointer<CChar>?>?, _ valueLength: UnsafeMutablePointer<Int>?
) -> Int32 {
    guard let feature = MapHandle.feature(handle, index), let position = Int(exactly: position),
          let property = feature.propertyBytes(at: position) else { return Status.argument }
    CText.expose(property.key, key, keyLength)
    CText.expose(property.value, value, valueLength)
    return Status.ok
}

/// The value of the property named by a C string, or a status saying why there is none.
private func propertyValue(_ handle: OpaquePointer?, _ index: UInt32, _ key: UnsafePointer<CChar>?) -> (UnsafeRawBufferPointer?, Int32) {
    guard let feature = MapHandle.feature(handle, index), let key else { return (nil, Status.argument) }
    guard let value = feature.propertyValueBytes(forKey: CText.bytes(of: key)) else { return (nil, Status.notFound) }
    return (value, Status.ok)
}

/// `gmap_feature_property`: the value of the property `key`, in place in the map.
@_cdecl("gmap_feature_property")
public func gmap_feature_property(
    _ handle: OpaquePointer?, _ index: UInt32, _ key: UnsafePointer<CChar>?,
    _ value: UnsafeMutablePointer<UnsafePointer<CChar>?>?, _ valueLength: UnsafeMutablePointer<Int>?
) -> Int32 {
    let (bytes, status) = propertyValue(handle, index, key)
    if let bytes { CText.expose(bytes, value, valueLength) }
    return status
}

/// `gmap_feature_property_copy`: the value of the property `key`, NUL-terminated, in the caller's buffer.
@_cdecl("gmap_feature_property_copy")
public func gmap_feature_property_copy(
    _ handle: OpaquePointer?, _ index: UInt32, _ key: UnsafePointer<CChar>?,
    _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int, _ length: UnsafeMutablePointer<Int>?
) -> Int32 {
    let (bytes, status) = propertyValue(handle, index, key)
    guard let bytes else { return status }
    return CText.copy(bytes, into: buffer, capacity: capacity, length: length)
}
