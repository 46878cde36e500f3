import Foundation
import XCTest
import GMap
import GMapBuilder
import GMapTestSupport

/// A running reader keeps working when its map is rebuilt and renamed over.
final class ReplacementTests: XCTestCase {
    func testOpenMapSurvivesAtomicReplacement() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gmap-replace-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("world.gmap").path
        let first = try TestSupport.build([SourceFeature(id: "OLD", polygons: [[[(0, 0), (10, 0), (10, 10), (0, 10)]]])]).bytes
        let second = try TestSupport.build([SourceFeature(id: "NEW", polygons: [[[(20, 20), (30, 20), (30, 30), (20, 30)]]])]).bytes
        try AtomicFile.write(first, to: path)
        let running = try GMap(contentsOf: path)
        XCTAssertEqual(running.lookup(latitude: 5, longitude: 5)?.id, "OLD")
        for round in 0..<20 {
            try AtomicFile.write(round % 2 == 0 ? second : first, to: path)
            // The running reader still sees the bytes it mapped: the old inode lives on.
            XCTAssertEqual(running.lookup(latitude: 5, longitude: 5)?.id, "OLD")
            XCTAssertNil(running.lookup(latitude: 25, longitude: 25))
        }
        let reopened = try GMap(contentsOf: path)
        XCTAssertEqual(reopened.lookup(latitude: 5, longitude: 5)?.id, "OLD")
        try AtomicFile.write(second, to: path)
        XCTAssertEqual(try GMap(contentsOf: path).lookup(latitude: 25, longitude: 25)?.id, "NEW")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["world.gmap"])
    }
}
