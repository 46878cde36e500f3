import Foundation
import GMap
@_spi(Testing) import GMapWorld
import XCTest
import GMapTestSupport

/// The shipped world map opened through the library product GMapWorld, as an app depending on it
/// opens it: found in the resource bundle beside the test executable, the repository's file byte
/// for byte; and the error, saying where it looked, when the bundle is not there.
final class WorldMapTests: XCTestCase {
    func testOpensTheShippedMapAndAnswersGibraltar() throws {
        let world = try WorldMap.open()
        XCTAssertEqual(world.lookup(latitude: 36.14, longitude: -5.35)?.id, "GI")
        XCTAssertEqual(world.lookup(latitude: 36.14, longitude: -5.35)?.property("name"), "Gibraltar")
        XCTAssertEqual(world.layerNames, ["countries", "marine", "timezones", "towns", "states"])
        XCTAssertEqual(world.placemark(latitude: 52.52, longitude: 13.405).timeZone, "Europe/Berlin")
    }

    func testThePathIsTheBundledCopyOfTheRepositorysFile() throws {
        let path = try WorldMap.path()
        XCTAssertTrue(path.hasSuffix("/\(WorldMap.bundleName).resources/world.gmap") || path.hasSuffix("/\(WorldMap.bundleName).bundle/world.gmap")
                      || path.hasSuffix("/\(WorldMap.bundleName).bundle/Contents/Resources/world.gmap"), path)
        XCTAssertEqual(FileManager.default.contents(atPath: path), FileManager.default.contents(atPath: TestSupport.shippedMap))
    }

    func testWithoutTheBundleItSaysWhereItLookedAndWhatToDo() throws {
        let empty = try TemporaryDirectory()
        XCTAssertThrowsError(try WorldMap.open(searching: [empty.path, "/nonexistent"])) { error in
            XCTAssertEqual(error as? WorldMapError, .notFound(searched: [empty.path, "/nonexistent"]))
            XCTAssertEqual("\(error)", "the shipped world map was not found: looked for gmap_GMapWorld.resources/world.gmap "
                + "(or gmap_GMapWorld.bundle, or world.gmap itself) in \(empty.path), /nonexistent; copy that folder beside the "
                + "executable (a static executable does not carry it), or open a map file with GMap(contentsOf:)")
        }
        // A directory named like the map is not the map.
        try FileManager.default.createDirectory(atPath: empty.path + "/world.gmap", withIntermediateDirectories: false)
        XCTAssertThrowsError(try WorldMap.path(searching: [empty.path]))
    }

    func testFindsTheBundleInEachLayoutAndTheMapItselfFirstDirectoryFirst() throws {
        let shipped = try XCTUnwrap(FileManager.default.contents(atPath: TestSupport.shippedMap))
        for relative in ["gmap_GMapWorld.resources/world.gmap", "gmap_GMapWorld.bundle/world.gmap",
                         "gmap_GMapWorld.bundle/Contents/Resources/world.gmap", "world.gmap"] {
            let directory = try TemporaryDirectory(), other = try TemporaryDirectory()
            let path = directory.path + "/" + relative
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: shipped))
            XCTAssertEqual(try WorldMap.path(searching: [other.path, directory.path]), path)
            XCTAssertEqual(try WorldMap.open(searching: [directory.path]).lookup(latitude: 36.14, longitude: -5.35)?.id, "GI", relative)
        }
    }

    func testAFileThatIsNotAMapIsNamedWithWhy() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/gmap_GMapWorld.resources/world.gmap"
        try FileManager.default.createDirectory(atPath: directory.path + "/gmap_GMapWorld.resources", withIntermediateDirectories: false)
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(repeating: 0, count: 200)))
        XCTAssertThrowsError(try WorldMap.open(searching: [directory.path])) { error in
            XCTAssertEqual(error as? WorldMapError, .cannotOpen(path: path, error: .notAGMap))
            XCTAssertEqual("\(error)", "the shipped world map at \(path) did not open: not a gmap file (the first 8 bytes are not the gmap magic)")
        }
    }
}

/// A directory of its own under the temporary directory, removed when the value is released.
private final class TemporaryDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("gmap-world-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
