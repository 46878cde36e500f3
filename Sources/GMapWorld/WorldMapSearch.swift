import Foundation

/// Where the resource bundle may be: the directories to look in, and the files to look for there.
enum WorldMapSearch {
    /// The files looked for in each directory, in order: SwiftPM's bundle on Linux and Windows, on
    /// Apple platforms (flat, as in an iOS app, or with `Contents/Resources`, as in a macOS app),
    /// and the map itself beside the executable.
    static var relativePaths: [String] {
        let name = WorldMap.bundleName, file = WorldMap.fileName
        return ["\(name).resources/\(file)", "\(name).bundle/\(file)", "\(name).bundle/Contents/Resources/\(file)", file]
    }

    /// The directories looked in, in order, without repeats: the main bundle's (an app's, or the
    /// executable's directory), its resources', this library's bundle's, and the directory of the
    /// executable as invoked, symbolic links resolved (a link on `PATH` to a build product).
    static func directories() -> [String] {
        let library = Bundle(for: BundleMarker.self)
        let invoked = CommandLine.arguments.first.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().deletingLastPathComponent() }
        let candidates = [Bundle.main.bundleURL, Bundle.main.resourceURL, Bundle.main.executableURL?.deletingLastPathComponent(),
                          library.bundleURL, library.resourceURL, invoked]
        var seen: [String] = []
        for url in candidates {
            guard let path = url?.standardizedFileURL.path, !seen.contains(path) else { continue }
            seen.append(path)
        }
        return seen
    }

    /// The first of ``relativePaths`` that is a regular file, in the first directory that has one.
    static func firstFile(in directories: [String]) -> String? {
        for directory in directories {
            for relative in relativePaths {
                let path = URL(fileURLWithPath: directory).appendingPathComponent(relative).path
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue { return path }
            }
        }
        return nil
    }
}

/// A class of this library, for `Bundle(for:)`: the bundle the library was loaded from (a framework's).
private final class BundleMarker {}
