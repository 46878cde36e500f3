import GMap

/// `gmap bench` on a map with a layer of towns (the shipped map): forward geocoding timed one query
/// at a time, through the library (``GMap/geocode(_:near:limit:)``, limit 10): names the map has
/// whole (ids and other names of random towns), the same names with one edit (typos: nothing
/// matches whole, so the walk over the sorted names runs), and town-state-country texts.
enum GeocodeBench {
    /// One kind of query: how many, how many found their town first, and the times.
    struct Line {
        var name: String
        var queries = 0, found = 0
        var p50 = 0.0, p99 = 0.0, mean = 0.0
    }

    /// What was measured.
    struct Report {
        var lines: [Line] = []
    }

    /// Queries of each kind.
    static let queryCount = 2_000

    /// A whole number in 0..<bound.
    static func below(_ random: inout SplitMix64, _ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }

    /// Measures the map's town layer; nil when it has none (a layer of points named as towns).
    static func measure(map: GMap, seed: UInt64, runs: Int) -> Report? {
        guard let towns = map.layers.first(where: { ["towns", "town", "cities", "localities"].contains($0.layerName) && $0.geometryKind == .points }),
              towns.featureCount > 0 else { return nil }
        var random = SplitMix64(state: seed ^ 0x6E0C_0DE)
        var whole: [(text: String, town: Int)] = []
        var otherNames: [(text: String, town: Int)] = []
        towns.forEachOtherName { feature, name in
            otherNames.append((name, feature.index))
            return true
        }
        while whole.count < queryCount {
            if !otherNames.isEmpty, below(&random, 3) == 0 {
                whole.append(otherNames[below(&random, otherNames.count)])
            } else {
                let town = below(&random, towns.featureCount)
                whole.append(((towns.feature(at: town) ?? towns.features[0]).id, town))
            }
        }
        // One edit inside the name (not its first letter), for names of four letters or more:
        // a deletion, a doubled letter, a changed letter or two swapped.
        var typos: [(text: String, town: Int)] = []
        var attempts = 0
        while typos.count < queryCount, attempts < 50 * queryCount {
            attempts += 1
            let (text, town) = whole[below(&random, whole.count)]
            var letters = Array(text.unicodeScalars)
            guard letters.count >= 5 else { continue }
            let at = 1 + below(&random, letters.count - 2)
            switch below(&random, 4) {
            case 0: letters.remove(at: at)
            case 1: letters.insert(letters[at], at: at)
            case 2: letters[at] = letters[at] == "e" ? "a" : "e"
            default: letters.swapAt(at, at + 1)
            }
            var typo = ""
            typo.unicodeScalars.append(contentsOf: letters)
            guard towns.findMatches(typo, matching: .exact, limit: 1).isEmpty else { continue }
            typos.append((typo, town))
        }
        // Town, state code or name, country code: "Springfield, IL, US".
        var qualified: [(text: String, town: Int)] = []
        attempts = 0
        while qualified.count < queryCount, attempts < 50 * queryCount {
            attempts += 1
            let town = below(&random, towns.featureCount), feature = (towns.feature(at: town) ?? towns.features[0])
            guard let country = feature.property("country_code"), let state = feature.property("admin1") ?? feature.property("admin1_code") else { continue }
            qualified.append(("\(feature.id), \(state), \(country)", town))
        }
        var report = Report()
        for (name, queries) in [("whole name", whole), ("typo", typos), ("town, state, country", qualified)] where !queries.isEmpty {
            var line = Line(name: name, queries: queries.count)
            for query in queries where map.geocode(query.text, limit: 1).first.map({ $0.feature.layerName == towns.layerName && $0.feature.index == query.town }) ?? false {
                line.found += 1
            }
            var times: [Double] = []
            for _ in 0..<max(1, min(runs, 3)) { times += Stopwatch.timeEach(queries) { map.geocode($0.text) } }
            line.p50 = Stopwatch.percentile(times, 0.5) * 1e6
            line.p99 = Stopwatch.percentile(times, 0.99) * 1e6
            line.mean = times.reduce(0, +) / Double(max(times.count, 1)) * 1e6
            report.lines.append(line)
        }
        return report
    }
}
