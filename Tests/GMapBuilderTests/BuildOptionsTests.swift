import XCTest
import GMap
import GMapBuilder

/// `BuildOptions.validate()`: each tiling setting outside its range is a typed error that names the
/// setting, its value and the values accepted, with the sentence users read (byte for byte).
final class BuildOptionsTests: XCTestCase {
    /// What `validate()` throws for options changed by `change`.
    private func error(_ change: (inout BuildOptions) -> Void) -> BuildError? {
        var options = BuildOptions()
        change(&options)
        do {
            try options.validate()
            return nil
        } catch {
            return error as? BuildError
        }
    }

    func testDefaultOptionsAndEveryBoundAreAccepted() throws {
        try BuildOptions().validate()
        let accepted: [(String, (inout BuildOptions) -> Void)] = [
            ("split 2", { $0.splitFactor = 2 }), ("split 16", { $0.splitFactor = 16 }),
            ("depth 0", { $0.maximumDepth = 0 }), ("depth 12", { $0.maximumDepth = 12 }),
            ("edges 1", { $0.maximumEdgesPerTile = 1 }), ("edges Int.max", { $0.maximumEdgesPerTile = .max }),
            ("tile 1 unit", { $0.tileSize = 1 }), ("tile 20°", { $0.tileSize = 200_000_000 }),
            ("automatic tile", { $0.tileSize = nil }),
        ]
        for (name, change) in accepted {
            XCTAssertNil(error(change), name)
        }
    }

    func testSplitFactorOutOfRange() {
        for value in [1, 17, -3] {
            let thrown = error { $0.splitFactor = value }
            XCTAssertEqual(thrown?.reason, .outOfRange(setting: .splitFactor, value: Int64(value), range: 2...16))
            XCTAssertEqual(thrown?.description, "the split factor must be between 2 and 16 (it is \(value))")
        }
    }

    func testMaximumDepthOutOfRange() {
        for value in [-1, 13] {
            let thrown = error { $0.maximumDepth = value }
            XCTAssertEqual(thrown?.reason, .outOfRange(setting: .maximumDepth, value: Int64(value), range: 0...12))
            XCTAssertEqual(thrown?.description, "the maximum split depth must be between 0 and 12 (it is \(value))")
        }
    }

    func testMaximumEdgesPerTileOutOfRange() {
        for value in [0, -5] {
            let thrown = error { $0.maximumEdgesPerTile = value }
            XCTAssertEqual(thrown?.reason, .outOfRange(setting: .maximumEdgesPerTile, value: Int64(value), range: 1...Int64(Int.max)))
            XCTAssertEqual(thrown?.description, "the most edges per tile must be at least 1 (it is \(value))")
        }
    }

    func testTileSizeOutOfRange() throws {
        for value: Int64 in [0, -1, 200_000_001] {
            let thrown = error { $0.tileSize = value }
            XCTAssertEqual(thrown?.reason, .outOfRange(setting: .tileSize, value: value, range: 1...200_000_000))
            XCTAssertEqual(thrown?.description, "the tile size must be more than 0 and at most 20 degrees")
        }
        // The range is in the quantizer's units: 20° at 1,000 units a degree.
        let coarse = try XCTUnwrap(Quantizer(unitsPerDegree: 1_000))
        let thrown = error { $0.quantizer = coarse; $0.tileSize = 20_001 }
        XCTAssertEqual(thrown?.reason, .outOfRange(setting: .tileSize, value: 20_001, range: 1...20_000))
        XCTAssertNil(error { $0.quantizer = coarse; $0.tileSize = 20_000 })
    }

    /// The settings are checked in their declared order, so the first one out of range is named.
    func testTheFirstSettingOutOfRangeIsNamed() {
        let thrown = error { $0.splitFactor = 1; $0.maximumDepth = 13; $0.maximumEdgesPerTile = 0; $0.tileSize = 0 }
        XCTAssertEqual(thrown?.reason, .outOfRange(setting: .splitFactor, value: 1, range: 2...16))
        let later = error { $0.maximumEdgesPerTile = 0; $0.tileSize = 0 }
        XCTAssertEqual(later?.reason, .outOfRange(setting: .maximumEdgesPerTile, value: 0, range: 1...Int64(Int.max)))
    }

    /// Every setting `validate()` checks has a test above: a new one must be added here too.
    func testEverySettingIsTested() {
        XCTAssertEqual(BuildOptions.Setting.allCases, [.splitFactor, .maximumDepth, .maximumEdgesPerTile, .tileSize])
    }

    /// Errors made from a sentence alone carry no reason.
    func testOtherErrorsHaveNoReason() {
        XCTAssertNil(BuildError("no polygon in the input").reason)
    }
}
