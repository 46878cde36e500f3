import Foundation
import GMap
import GMapBuilder
import XCTest
import GMapTestSupport

/// Layers of named compact points (format 3.6, Spec/FORMAT.md 5.13): every name of a town finds
/// it, other names match whole or by their start, the lexicon is checked whole by the verifier,
/// and a damaged one never crashes a search.
final class LexiconTests: XCTestCase {
    /// Towns with names drawn from a few syllables (so that many share keys and starts), a third of
    /// them with up to four other names, some in other scripts and some repeating another town's.
    static func towns(count: Int, seed: UInt64) -> [SourcePointFeature] {
        var random = SplitMix64(seed: seed)
        let syllables = ["ka", "lo", "mi", "nen", "ta", "ri", "vo", "su", "pe", "hu", "ber", "lin", "сан", "ко", "東", "京"]
        func word() -> String { (0..<(1 + random.below(3))).map { _ in syllables[random.below(syllables.count)] }.joined() }
        func name() -> String {
            let text = (0..<(1 + random.below(2))).map { _ in word() }.joined(separator: random.below(4) == 0 ? "-" : " ")
            return text.prefix(1).uppercased() + text.dropFirst()
        }
        var towns: [SourcePointFeature] = []
        for index in 0..<count {
            let others = random.below(3) == 0 ? (0..<(1 + random.below(4))).map { _ in random.below(5) == 0 ? name().uppercased() : name() } : []
            // Points on a grid of 1e-5°, which the map stores exactly.
            func coordinate() -> Double { Double(Int(((random.unit() * 2 - 1) * 30 * 1e5).rounded())) / 1e5 }
            towns.append(SourcePointFeature(id: name(), properties: [SourceFeature.KeptProperty(key: "population", value: String(index * 37 % 9_000), kind: .number)],
                                            points: [(longitude: coordinate(), latitude: coordinate())], otherNames: others))
        }
        return towns
    }

    static func build(_ towns: [SourcePointFeature], configure: (inout PointLayerBuilder) -> Void = { _ in }) throws -> (map: GMap, bytes: [UInt8]) {
        var options = BuildOptions()
        options.keptProperties = nil
        var layer = try PointLayerBuilder(options: options)
        layer.compact = true
        configure(&layer)
        for town in towns { try layer.add(town) }
        var builder = LayeredMapBuilder()
        try builder.addLayer(named: "towns", layer)
        let bytes = try builder.finish().bytes
        return (try GMap(bytes: bytes), bytes)
    }

    /// Every other name finds its town exactly, and every id still does; the map is 3.6, sound,
    /// and `forEachOtherName` lists each kept other name once.
    func testEveryNameFindsItsTown() throws {
        let towns = Self.towns(count: 3_000, seed: 35)
        let (map, _) = try Self.build(towns)
        XCTAssertEqual(map.formatVersion.minor, 6)
        XCTAssertNotNil(map.lexiconKeyCount)
        XCTAssertEqual(MapVerifier(map: map).problems.map(\.description), [])
        var byPlace: [String: Int] = [:]
        func place(_ latitude: Double, _ longitude: Double) -> String { "\(Int((latitude * 1e5).rounded())),\(Int((longitude * 1e5).rounded()))" }
        for feature in map.features { byPlace[place(feature.labelPoint?.latitude ?? 0, feature.labelPoint?.longitude ?? 0)] = feature.index }
        var checked = 0, listed = 0
        for town in towns {
            guard let point = town.points.first, let index = byPlace[place(point.latitude, point.longitude)] else {
                XCTFail("\(town.id) not in the map"); continue
            }
            let idMatches = map.findMatches(town.id, matching: .exact)
            XCTAssertTrue(idMatches.contains { $0.feature.index == index && $0.otherName == nil }, "\(town.id) by its id")
            let idKeys = NameFolding.wholeKeys(id: town.id, names: [])
            for other in town.otherNames where !NameFolding.normalized(other).isEmpty && !idKeys.contains(NameFolding.normalized(other)) {
                let found = map.findMatches(other, matching: .exact)
                guard let hit = found.first(where: { $0.feature.index == index }) else {
                    XCTFail("\(town.id): its other name \(other) does not find it"); continue
                }
                // The spelling is one of the spellings of that key (the writer keeps one per key).
                XCTAssertEqual(NameFolding.normalized(hit.otherName ?? town.id), NameFolding.normalized(other), "\(town.id) by \(other)")
                checked += 1
            }
        }
        map.forEachOtherName { _, _ in
            listed += 1
            return true
        }
        XCTAssertGreaterThan(checked, 1_000)
        XCTAssertLessThanOrEqual(listed, checked, "each kept other name once")
        print("lexicon: \(map.lexiconKeyCount ?? 0) keys, \(checked) other names each found their town, \(listed) listed")
    }

    /// Other names match whole or by their start, never by their words; ids by all three.
    func testOtherNamesMatchWholeOrByPrefix() throws {
        let towns = [
            SourcePointFeature(id: "Old Town", points: [(0.2, 0.3)], otherNames: ["Vieille Ville"]),
            SourcePointFeature(id: "Newport", points: [(0.6, 0.7)], otherNames: ["Port Neuf", "NP", "Niuport", "Newport"]),
        ]
        let (map, _) = try Self.build(towns)
        func found(_ text: String) -> [String] {
            map.findMatches(text).map { "\($0.feature.id) \($0.match)" + ($0.otherName.map { " (\($0))" } ?? "") }
        }
        XCTAssertEqual(found("port neuf"), ["Newport exact (Port Neuf)"])
        XCTAssertEqual(found("port"), ["Newport prefix (Port Neuf)"])
        XCTAssertEqual(found("vieille"), ["Old Town prefix (Vieille Ville)"])
        XCTAssertEqual(found("ville"), [], "other names have no word keys")
        XCTAssertEqual(found("town"), ["Old Town words"])
        XCTAssertEqual(found("NP"), ["Newport exact (NP)"])
        XCTAssertEqual(found("newport"), ["Newport exact"], "an other name that is the id's own key is not kept")
        XCTAssertEqual(found("new"), ["Newport prefix"])
        // Geocoding says which name matched; a typo of an other name finds it too.
        XCTAssertEqual(map.geocode("Vieille Ville").first?.matchedName, "Vieille Ville")
        XCTAssertEqual(map.geocode("Vieile Ville").first.map { "\($0.name) \($0.match)" }, "Old Town typo")
    }

    /// A layer of points with other names that is not written as compact points is refused, as is
    /// --format 3.4, rather than lose them; without other names compact points stay 3.4, byte for byte.
    func testOtherNamesAreNeverDropped() throws {
        let town = SourcePointFeature(id: "Old Town", points: [(0.2, 0.3)], otherNames: ["Vieille Ville"])
        XCTAssertThrowsError(try Self.build([town]) { $0.compact = false }) { error in
            XCTAssertTrue("\(error)".contains("only a layer of compact points keeps"), "\(error)")
        }
        var options = BuildOptions()
        options.writesLexicons = false
        var layer = try PointLayerBuilder(options: options)
        layer.compact = true
        try layer.add(town)
        var builder = LayeredMapBuilder()
        try builder.addLayer(named: "towns", layer)
        XCTAssertThrowsError(try builder.finish()) { error in
            XCTAssertTrue("\(error)".contains("format 3.6"), "\(error)")
        }
        let plain = try Self.build([SourcePointFeature(id: "Old Town", points: [(0.2, 0.3)])]).map
        XCTAssertEqual(plain.formatVersion.minor, 4)
        XCTAssertNil(plain.lexiconKeyCount)
    }

    /// Every single-bit flip of the lexicon, its CRC made good again (as a careful attacker or a
    /// buggy tool would): no search crashes, and a mutant the verifier passes finds every id by
    /// its whole keys and their starts as the original does. What the file holds nowhere else
    /// cannot be checked: an other name's key (a changed letter that keeps the keys in order),
    /// which feature it names, and the case of its spelling (display forms 1 to 3); those flips
    /// are counted, not failed (Spec/FORMAT.md 13.3).
    func testEveryBitFlipIsCaughtOrHarmless() throws {
        let towns = Self.towns(count: 60, seed: 36)
        let (map, bytes) = try Self.build(towns)
        let section = try XCTUnwrap(map.sections.first { $0.tag == "NAME" })
        let texts = Set(towns.map(\.id)).sorted()
        func answers(_ map: GMap) -> [String] {
            texts.flatMap { text -> [String] in
                let key = NameFolding.normalized(text)
                return [map.findMatches(text, matching: .exact), map.findMatches(String(text.prefix(2)), matching: .prefix)].map { found in
                    found.filter { $0.otherName == nil }.map { "\($0.feature.index)" }.sorted().joined(separator: ",") + " for " + String(decoding: key, as: UTF8.self)
                }
            }
        }
        let expected = answers(map)
        let others = towns.flatMap(\.otherNames)
        func otherAnswers(_ map: GMap) -> [String] {
            others.map { text in map.findMatches(text, matching: .exact).map { "\($0.feature.index) \($0.otherName ?? "")" }.joined(separator: ",") }
        }
        let expectedOthers = otherAnswers(map)
        var caught = 0, harmless = 0, otherNames = 0, changed: [String] = []
        // Every bit with GMAP_LONG_TESTS=1, every third by default, every sixtieth under a sanitizer
        // (a debug build: every twentieth took 164 s under ASan).
        let stride = TestSupport.underSanitizer ? 60 : TestSupport.longTests ? 1 : 3
        for bit in Swift.stride(from: 0, to: Int(section.length) * 8, by: stride) {
            var mutant = bytes
            mutant[Int(section.offset) + bit / 8] ^= UInt8(1 << (bit % 8))
            mutant = FormatThreeTests.resealed(mutant)
            guard let damaged = try? GMap(bytes: mutant) else { caught += 1; continue }
            let sound = MapVerifier(map: damaged).isSound
            let found = answers(damaged)
            _ = damaged.typos(of: "kalo")
            _ = damaged.geocode("Kalo Mi, Tami")
            if !sound {
                caught += 1
            } else if found == expected {
                if otherAnswers(damaged) == expectedOthers { harmless += 1 } else { otherNames += 1 }
            } else {
                changed.append("bit \(bit) (byte \(bit / 8))")
            }
        }
        print("lexicon bit flips: \(caught) caught, \(harmless) passed the verifier and changed no answer, \(otherNames) passed and changed only an other name's answer (its key, feature or spelling), \(changed.count) passed and changed an id's")
        XCTAssertEqual(changed, [])
    }
}
