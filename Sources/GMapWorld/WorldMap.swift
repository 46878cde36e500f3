import Foundation
import GMap

/// The world map that ships with gmap: countries, seas, time zones and towns in one
/// file of four layers, carried as a resource of this library.
///
/// ```swift
/// import GMap
/// import GMapWorld
///
/// let world = try WorldMap.open()             // open once, keep the map: lookups are then free
/// print(world.lookup(latitude: 36.14, longitude: -5.35)?.id ?? "-")   // "GI"
/// ```
///
/// Without its resource bundle, ``open()`` throws ``WorldMapError/notFound(searched:)``: Docs/Library.md#the-world-map-as-a-resource.
public enum WorldMap {
    /// The map's file name, in the resource bundle.
    public static let fileName = "world.gmap"
    /// The resource bundle's name without its extension (`.resources` on Linux and Windows,
    /// `.bundle` on Apple platforms): SwiftPM's `PACKAGE_TARGET`.
    public static let bundleName = "gmap_GMapWorld"

    /// Opens the shipped map by memory-mapping it, as `GMap(contentsOf:)` does; a `GMap` is an
    /// immutable value, so open it once and share it.
    public static func open() throws(WorldMapError) -> GMap {
        try open(searching: WorldMapSearch.directories())
    }

    /// The shipped map's path, for code that opens it itself (the C interface's `gmap_open_path`)
    /// or copies it.
    public static func path() throws(WorldMapError) -> String {
        try path(searching: WorldMapSearch.directories())
    }

    /// ``open()``, looking for the bundle (or `world.gmap` itself) in `directories` only.
    @_spi(Testing)
    public static func open(searching directories: [String]) throws(WorldMapError) -> GMap {
        let found = try path(searching: directories)
        do {
            return try GMap(contentsOf: found)
        } catch {
            throw .cannotOpen(path: found, error: error)
        }
    }

    /// ``path()``, looking for the bundle (or `world.gmap` itself) in `directories` only.
    @_spi(Testing)
    public static func path(searching directories: [String]) throws(WorldMapError) -> String {
        guard let found = WorldMapSearch.firstFile(in: directories) else { throw .notFound(searched: directories) }
        return found
    }
}
