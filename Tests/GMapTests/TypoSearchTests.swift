import Foundation
import GMap
import GMapBuilder
import XCTest
import GMapTestSupport

/// Typos (``TypoRule``): the walk over a layer's sorted names finds exactly the names a
/// brute-force edit distance over every name finds, on the shipped map's towns (its lexicon) and
/// countries (a name index), on a layer of named compact points made here, and on a location map's
/// streets.
final class TypoSearchTests: XCTestCase {
    /// A name's letters (scalars) for the brute force.
    struct Name {
        var feature: Int
        var letters: [UInt32]
        var counted: Int  // letters that are not spaces
    }

    /// The optimal string alignment distance of `a` and `b`, or any value above `bound` when it
    /// is above it: a plain dynamic programme over the whole table, stopped as soon as a row's
    /// least value passes the bound. Independent of the walk: no pruning by shared prefixes.
    static func distance(_ a: [UInt32], _ b: [UInt32], bound: Int) -> Int {
        if abs(a.count - b.count) > bound { return bound + 1 }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var before = [Int](repeating: 0, count: b.count + 1), previous = Array(0...b.count), current = before
        for i in 1...a.count {
            current[0] = i
            var least = i
            for j in 1...b.count {
                var best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { best = min(best, before[j - 2] + 1) }
                current[j] = best
                least = min(least, best)
            }
            if least > bound { return bound + 1 }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }

    static func letters(_ key: [UInt8]) -> [UInt32] { String(decoding: key, as: UTF8.self).unicodeScalars.map(\.value) }

    /// Every whole name of every feature of `layer`: its id's whole keys and its name properties'
    /// (5.10), and its other names' keys.
    static func names(of layer: GMap) -> [Name] {
        var names: [Name] = []
        func add(_ feature: Int, _ key: [UInt8]) {
            guard !key.isEmpty else { return }
            names.append(Name(feature: feature, letters: letters(key), counted: TypoRule.letters(of: key)))
        }
        for feature in layer.features {
            var texts: [String] = []
            if layer.compactPoints == nil {
                for property in feature.properties where property.kind == .string && NameFolding.isNameKey(property.key) { texts.append(property.value) }
            }
            for key in NameFolding.wholeKeys(id: feature.id, names: texts) { add(feature.index, key) }
        }
        layer.forEachOtherName { feature, name in
            add(feature.index, NameFolding.normalized(name))
            return true
        }
        return names
    }

    /// The features the brute force finds for `text`: a name within its allowed edits, not the key
    /// itself, with the same first letter, whose first five letters are within one edit of a start
    /// of the text.
    static func bruteForce(_ text: String, names: [Name]) -> Set<Int> {
        let key = NameFolding.normalized(text), query = letters(key)
        guard TypoRule.letters(of: key) >= TypoRule.minimumLetters else { return [] }
        var found = Set<Int>()
        for name in names where name.letters != query && name.letters.first == query.first {
            let allowed = TypoRule.allowedEdits(letters: name.counted)
            guard Self.distance(name.letters, query, bound: allowed) <= allowed else { continue }
            // The name's first five letters within one edit of some start of the query.
            let start = Array(name.letters.prefix(5))
            if (0...query.count).contains(where: { Self.distance(start, Array(query.prefix($0)), bound: 1) <= 1 }) { found.insert(name.feature) }
        }
        return found
    }

    /// Queries: names of the layer with one or two random edits (insertions, deletions,
    /// substitutions, transpositions), names as they are, and random strings.
    static func queries(_ names: [Name], count: Int, seed: UInt64) -> [String] {
        var random = SplitMix64(seed: seed)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz éöäу東".unicodeScalars)
        var queries: [String] = []
        while queries.count < count {
            var letters = names[random.below(names.count)].letters.compactMap(Unicode.Scalar.init)
            let edits = random.below(4)
            for _ in 0..<edits where !letters.isEmpty {
                let at = random.below(letters.count)
                switch random.below(4) {
                case 0: letters.remove(at: at)
                case 1: letters.insert(alphabet[random.below(alphabet.count)], at: at)
                case 2: letters[at] = alphabet[random.below(alphabet.count)]
                default: if at + 1 < letters.count { letters.swapAt(at, at + 1) }
                }
            }
            if random.below(10) == 0 { letters = (0..<(3 + random.below(8))).map { _ in alphabet[random.below(26)] } }
            var text = ""
            text.unicodeScalars.append(contentsOf: letters)
            queries.append(text)
        }
        return queries
    }

    /// The walk and the brute force on `queries` over `layer`: no difference in the sets.
    func assertAgrees(_ layer: GMap, queries: [String], names: [Name], file: StaticString = #filePath, line: UInt = #line) {
        var differences: [String] = [], found = 0
        for text in queries {
            let walked = Set(layer.typos(of: text, layer: layer.layerName).map(\.feature.index))
            let brute = Self.bruteForce(text, names: names)
            found += brute.count
            if walked != brute {
                differences.append("'\(text)': walk \(walked.subtracting(brute).sorted()) more, \(brute.subtracting(walked).sorted()) fewer")
            }
        }
        print("typos of \(layer.layerName): \(queries.count) queries, \(found) features found, \(differences.count) differences")
        XCTAssertEqual(differences.prefix(10).map { $0 }, [], "\(differences.count) of \(queries.count) queries differ", file: file, line: line)
    }

    func testTheWalkAgreesWithTheBruteForceOnTheShippedMap() throws {
        let world = try GMap(contentsOf: TestSupport.shippedMap)
        let towns = try XCTUnwrap(world.layer(named: "towns")), countries = try XCTUnwrap(world.layer(named: "countries"))
        let townNames = Self.names(of: towns)
        XCTAssertGreaterThan(townNames.count, 300_000)
        let count = TestSupport.underSanitizer ? 20 : TestSupport.count("GMAP_TYPO_QUERIES", quick: 2_000, long: 10_000)
        assertAgrees(towns, queries: Self.queries(townNames, count: count, seed: 2026), names: townNames)
        let countryNames = Self.names(of: countries)
        assertAgrees(countries, queries: Self.queries(countryNames, count: TestSupport.underSanitizer ? 50 : 500, seed: 2027), names: countryNames)
    }

    func testTheWalkAgreesWithTheBruteForceOnNamedCompactPoints() throws {
        let (map, _) = try LexiconTests.build(LexiconTests.towns(count: 4_000, seed: 37))
        let names = Self.names(of: map)
        assertAgrees(map, queries: Self.queries(names, count: TestSupport.underSanitizer ? 100 : 1_000, seed: 38), names: names)
    }

    /// The rule itself: one edit for names under 8 letters, two from 8; nothing for a word of
    /// fewer than 4 letters; transpositions count as one; the first letter kept; one edit at most
    /// in the first five letters.
    func testTheRule() throws {
        XCTAssertEqual(TypoRule.distance(Array("london".utf8), Array("londn".utf8)), 1)
        XCTAssertEqual(TypoRule.distance(Array("paris".utf8), Array("pairs".utf8)), 1, "a transposition is one edit")
        XCTAssertEqual(TypoRule.distance(Array("aleksanterinkatu".utf8), Array("alexanderinkatu".utf8)), 3)
        XCTAssertEqual(TypoRule.allowedEdits(letters: 7), 1)
        XCTAssertEqual(TypoRule.allowedEdits(letters: 8), 2)
        let (map, _) = try LexiconTests.build([
            SourcePointFeature(id: "London", points: [(0, 51)]), SourcePointFeature(id: "Barcelona", points: [(2, 41)]),
            SourcePointFeature(id: "Rome", points: [(12, 41)], otherNames: ["Roma"]),
        ])
        XCTAssertEqual(map.typos(of: "Londn").map(\.feature.id), ["London"])
        XCTAssertEqual(map.typos(of: "Barcelna").map { "\($0.feature.id) \($0.edits)" }, ["Barcelona 1"])
        XCTAssertEqual(map.typos(of: "Barzelonna").map { "\($0.feature.id) \($0.edits)" }, ["Barcelona 2"], "two edits in 9 letters")
        XCTAssertEqual(map.typos(of: "Lndn").map(\.feature.id), [], "two edits in 6 letters")
        XCTAssertEqual(map.typos(of: "Rom").count, 0, "three letters: never corrected")
        XCTAssertEqual(map.typos(of: "Rpma").map { "\($0.feature.id) \($0.otherName ?? "")" }, ["Rome Roma"])
        XCTAssertEqual(map.typos(of: "London").count, 0, "the name itself is not a typo")
        XCTAssertEqual(map.typos(of: "Kondon").count, 0, "a typo keeps the first letter")
        XCTAssertEqual(map.typos(of: "Bracelona").map(\.feature.id), ["Barcelona"], "the second and third letters swapped")
        XCTAssertEqual(map.typos(of: "Brcalona").map(\.feature.id), [], "two edits in the first five letters")
        XCTAssertEqual(map.typos(of: "Barcelna").map(\.feature.id), ["Barcelona"])
        XCTAssertTrue(TypoRule.accepts(Array("barcelona".utf8), asTypoOf: Array("barcalonna".utf8)))
        XCTAssertFalse(TypoRule.accepts(Array("barcelona".utf8), asTypoOf: Array("bsrcrlona".utf8)), "two edits in the first five letters")
        XCTAssertFalse(TypoRule.accepts(Array("barcelona".utf8), asTypoOf: Array("varcelona".utf8)))
        XCTAssertFalse(TypoRule.accepts(Array("london".utf8), asTypoOf: Array("london".utf8)), "the name itself")
    }
}
