import GMapCodecs

/// Parses coordinates typed by people or read from batch files, strictly: latitude in [-90, 90],
/// longitude in [-180, 180]. Every failure says what was wrong.
///
/// Query arguments and batch lines (``typed(latitude:longitude:)``, ``line(_:)``) take decimal
/// degrees or degrees-minutes-seconds (`36°8'24"N`, `5°21′W`, `36.14N`); ``coordinate(latitude:longitude:)``
/// (files of known locations and points) takes decimal degrees only.
enum CoordinateParser {
    /// A latitude and longitude in degrees.
    struct Coordinate: Equatable {
        var latitude: Double
        var longitude: Double
    }

    /// Parses one number: optional sign, digits with an optional fraction, an optional exponent.
    /// Rejects `nan`, `inf`, hexadecimal and anything else `Double` would accept beyond plain decimals.
    static func number(_ text: Substring) -> Double? {
        var sawDigit = false
        var index = text.startIndex
        if index < text.endIndex, text[index] == "-" || text[index] == "+" { index = text.index(after: index) }
        while index < text.endIndex, text[index].isASCII, text[index].isNumber { sawDigit = true; index = text.index(after: index) }
        if index < text.endIndex, text[index] == "." {
            index = text.index(after: index)
            while index < text.endIndex, text[index].isASCII, text[index].isNumber { sawDigit = true; index = text.index(after: index) }
        }
        guard sawDigit else { return nil }
        if index < text.endIndex, text[index] == "e" || text[index] == "E" {
            index = text.index(after: index)
            if index < text.endIndex, text[index] == "-" || text[index] == "+" { index = text.index(after: index) }
            var exponentDigit = false
            while index < text.endIndex, text[index].isASCII, text[index].isNumber { exponentDigit = true; index = text.index(after: index) }
            guard exponentDigit else { return nil }
        }
        guard index == text.endIndex, let value = Double(String(text)), value.isFinite else { return nil }
        return value
    }

    /// Parses a latitude and a longitude given as two fields of a file: decimal degrees only, and no
    /// swapped-coordinates hint (a file's columns are not typed one by one).
    static func coordinate(latitude: Substring, longitude: Substring) -> Result<Coordinate, CommandFailure> {
        guard let lat = number(latitude) else { return .failure(CommandFailure(message: decimalOnly("latitude", latitude))) }
        guard let lon = number(longitude) else { return .failure(CommandFailure(message: decimalOnly("longitude", longitude))) }
        return ranged(latitude: lat, longitude: lon, typed: (latitude, longitude), swappable: false)
    }

    /// Parses a latitude and a longitude typed by a person: decimal degrees or degrees-minutes-seconds
    /// with an optional hemisphere letter (N, S, E, W) before or after. When both carry letters, a
    /// longitude first (`5°21'W 36°8'N`) is taken as meant.
    static func typed(latitude: Substring, longitude: Substring) -> Result<Coordinate, CommandFailure> {
        if let lat = number(latitude), let lon = number(longitude) {
            return ranged(latitude: lat, longitude: lon, typed: (latitude, longitude), swappable: true)
        }
        let first: Angle, second: Angle
        switch angle(latitude) {
        case .success(let value): first = value
        case .failure(let problem): return .failure(CommandFailure(message: problem.message(role: "latitude", text: latitude)))
        }
        switch angle(longitude) {
        case .success(let value): second = value
        case .failure(let problem): return .failure(CommandFailure(message: problem.message(role: "longitude", text: longitude)))
        }
        switch (first.isLatitude, second.isLatitude) {
        case (true, true), (false, false):
            let kind = first.isLatitude == true ? "latitudes (N or S)" : "longitudes (E or W)"
            return .failure(CommandFailure(message: "\(quoted(latitude)) and \(quoted(longitude)) are both \(kind); give a latitude (N or S) and a longitude (E or W)"))
        case (false, true):
            return ranged(latitude: second.degrees, longitude: first.degrees, typed: (longitude, latitude), swappable: false)
        case (false, nil):
            // swift-format-ignore: NeverForceUnwrap
            return .failure(CommandFailure(message: "latitude \(quoted(latitude)) is a longitude (\(first.hemisphere!))\(swapHint(latitude: latitude, longitude: longitude))"))
        case (nil, true):
            // swift-format-ignore: NeverForceUnwrap
            return .failure(CommandFailure(message: "longitude \(quoted(longitude)) is a latitude (\(second.hemisphere!))\(swapHint(latitude: latitude, longitude: longitude))"))
        default:
            return ranged(latitude: first.degrees, longitude: second.degrees, typed: (latitude, longitude),
                          swappable: first.hemisphere == nil && second.hemisphere == nil)
        }
    }

    /// Parses one batch line or query argument: "lat lon", "lat,lon" or "lat, lon" (spaces or tabs;
    /// latitude first), each as ``typed(latitude:longitude:)`` reads it.
    static func line(_ line: Substring) -> Result<Coordinate, CommandFailure> {
        guard let (latitude, longitude) = split(line) else {
            if let hint = decimalCommaHint([line]) { return .failure(CommandFailure(message: hint)) }
            return .failure(CommandFailure(message: "expected 'latitude longitude' or 'latitude,longitude', got \(quoted(line))"))
        }
        return typed(latitude: latitude, longitude: longitude)
    }

    /// A hint for coordinates written with decimal commas (`36,14 -5,35`, in one text or two): two
    /// numbers, each digits, one comma and digits; nil for anything else.
    static func decimalCommaHint(_ texts: [Substring]) -> String? {
        var words: [Substring] = []
        for text in texts { words += text.split(whereSeparator: { $0 == " " || $0 == "\t" }) }
        func isCommaNumber(_ word: Substring) -> Bool {
            let body = word.first == "-" || word.first == "+" ? word.dropFirst() : word
            let parts = body.split(separator: ",", omittingEmptySubsequences: false)
            return parts.count == 2 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0 >= "0" && $0 <= "9" } }
        }
        guard words.count == 2, words.allSatisfy(isCommaNumber) else { return nil }
        let typed = words.joined(separator: " ")
        let pointed = words.map { String($0.map { $0 == "," ? "." : $0 }) }.joined(separator: " ")
        return "\(quoted(Substring(typed))) has decimal commas: use a decimal point (\(InputExcerpt.text(pointed))); a comma may only separate the latitude from the longitude"
    }

    /// The latitude and longitude of a line: the two sides of its one comma, or its two words; nil
    /// for anything else. A side of a comma may hold spaces only in degrees-minutes-seconds (`36° 8' N`).
    static func split(_ line: Substring) -> (latitude: Substring, longitude: Substring)? {
        let trimmed = trim(line)
        var commas = 0
        for character in trimmed where character == "," { commas += 1 }
        switch commas {
        case 0:
            let parts = trimmed.split(whereSeparator: isSpace)
            return parts.count == 2 ? (parts[0], parts[1]) : nil
        case 1:
            // swift-format-ignore: NeverForceUnwrap
            let comma = trimmed.firstIndex(of: ",")!
            let parts = [trim(trimmed[..<comma]), trim(trimmed[trimmed.index(after: comma)...])]
            for part in parts where part.isEmpty || (part.contains(where: isSpace) && !hasMarks(part)) { return nil }
            return (parts[0], parts[1])
        default:
            return nil
        }
    }

    /// Whether `text` reads as one latitude or longitude (decimal or degrees-minutes-seconds), in range or not.
    static func isAngle(_ text: Substring) -> Bool {
        if case .success = angle(text) { return true }
        return false
    }

    /// "; latitude comes first: did you mean LON LAT?", the two as typed.
    static func swapHint(latitude: Substring, longitude: Substring) -> String {
        "; latitude comes first: did you mean \(InputExcerpt.text(longitude)) \(InputExcerpt.text(latitude))?"
    }

    /// Whether the swapped pair would be a valid coordinate (for the hint after a miss): both typed
    /// without hemisphere letters, the longitude within [-90, 90].
    static func swapIsPlausible(_ coordinate: Coordinate, typed: (Substring, Substring)) -> Bool {
        abs(coordinate.longitude) <= 90 && coordinate.latitude != coordinate.longitude
            && hemisphere(of: typed.0) == nil && hemisphere(of: typed.1) == nil
    }

    // MARK: - Range

    private static func ranged(latitude lat: Double, longitude lon: Double, typed: (Substring, Substring), swappable: Bool) -> Result<Coordinate, CommandFailure> {
        guard lat >= -90, lat <= 90 else {
            let hint = swappable && abs(lon) <= 90 && abs(lat) <= 180 ? swapHint(latitude: typed.0, longitude: typed.1) : ""
            return .failure(CommandFailure(message: "latitude \(InputExcerpt.text(typed.0)) is outside [-90, 90]\(hint)"))
        }
        guard lon >= -180, lon <= 180 else { return .failure(CommandFailure(message: "longitude \(InputExcerpt.text(typed.1)) is outside [-180, 180]")) }
        return .success(Coordinate(latitude: lat, longitude: lon))
    }

    /// Typed or read text in single quotes for a message: at most ``InputExcerpt/maximumBytes`` bytes of it, escaped.
    static func quoted(_ text: Substring) -> String {
        InputExcerpt.quoted(text)
    }

    private static func decimalOnly(_ role: String, _ text: Substring) -> String {
        hasMarks(text)
            ? "\(role) \(quoted(text)): degrees-minutes-seconds are not supported here; give decimal degrees like 36.1333 -5.35"
            : "\(role) \(quoted(text)) is not a number"
    }

    // MARK: - Degrees, minutes, seconds

    /// One typed latitude or longitude: its value in degrees (south and west negative) and its letter.
    struct Angle {
        var degrees: Double
        var hemisphere: Character?
        /// true for N or S, false for E or W, nil without a letter.
        var isLatitude: Bool? { hemisphere.map { $0 == "N" || $0 == "S" } }
    }

    /// Why text is not an angle.
    enum AngleProblem: Error {
        case notANumber
        case malformed
        case sixty
        case signAndLetter

        func message(role: String, text: Substring) -> String {
            switch self {
            case .notANumber: return "\(role) \(quoted(text)) is not a number"
            case .malformed: return "\(role) \(quoted(text)) is not decimal degrees (36.1333) or degrees-minutes-seconds (36°8'N, 36°8'24\"N)"
            case .sixty: return "\(role) \(quoted(text)): minutes and seconds must be below 60"
            case .signAndLetter: return "\(role) \(quoted(text)) has both a sign and a hemisphere letter; give one"
            }
        }
    }

    private static let degreeMarks: Set<Character> = ["°", "º"]
    private static let minuteMarks: Set<Character> = ["'", "′", "’"]
    private static let secondMarks: Set<Character> = ["\"", "″", "”"]

    /// Parses decimal degrees, `36.14N`, `N36.14`, `36°`, `36°8'`, `36°8'24"N`, `36° 8′ 24.5″ N`,
    /// `-5°21'` (two apostrophes for seconds too). Only the last part may have a fraction; minutes and
    /// seconds are below 60; a sign and a letter are not both allowed.
    static func angle(_ text: Substring) -> Result<Angle, AngleProblem> {
        if let value = number(text) { return .success(Angle(degrees: value, hemisphere: nil)) }
        let result = dms(Array(trim(text)))
        if case .failure = result, !hasMarks(text, letters: false) { return .failure(.notANumber) }
        return result
    }

    private static func dms(_ characters: [Character]) -> Result<Angle, AngleProblem> {
        var characters = ArraySlice(characters)
        var hemisphere: Character?
        if let first = characters.first, isHemisphere(first) {
            hemisphere = first
            characters = characters.dropFirst().drop(while: isSpace)
        }
        if let last = characters.last, isHemisphere(last) {
            guard hemisphere == nil else { return .failure(.malformed) }
            hemisphere = last
            characters = characters.dropLast()
            while let end = characters.last, isSpace(end) { characters = characters.dropLast() }
        }
        var negative = false
        if let sign = characters.first, sign == "-" || sign == "+" {
            guard hemisphere == nil else { return .failure(.signAndLetter) }
            negative = sign == "-"
            characters = characters.dropFirst()
        }
        // Parts: a plain decimal number, then its mark (none only for a lone number with a letter).
        var parts: [(value: Double, whole: Bool, unit: Int?)] = []
        while !characters.isEmpty {
            characters = characters.drop(while: isSpace)
            var digits = "", sawDigit = false, whole = true
            while let c = characters.first, c.isASCII, c.isNumber || (c == "." && whole) {
                if c == "." { whole = false } else { sawDigit = true }
                digits.append(c)
                characters = characters.dropFirst()
            }
            guard sawDigit, digits.count <= 30, let value = Double(digits) else { return .failure(.malformed) }
            characters = characters.drop(while: isSpace)
            var unit: Int?
            if let mark = characters.first {
                if degreeMarks.contains(mark) {
                    unit = 0
                } else if secondMarks.contains(mark) {
                    unit = 2
                } else if minuteMarks.contains(mark) {
                    unit = 1
                    if characters.count > 1, minuteMarks.contains(characters[characters.index(after: characters.startIndex)]) {
                        unit = 2
                        characters = characters.dropFirst()
                    }
                } else {
                    return .failure(.malformed)
                }
                characters = characters.dropFirst()
            }
            parts.append((value, whole, unit))
        }
        guard !parts.isEmpty else { return .failure(.malformed) }
        if parts.count == 1, parts[0].unit == nil {
            guard hemisphere != nil else { return .failure(.malformed) }
        } else {
            for (position, part) in parts.enumerated() {
                guard part.unit == position else { return .failure(.malformed) }  // degrees, then minutes, then seconds
                guard part.whole || position == parts.count - 1 else { return .failure(.malformed) }
                if position > 0, part.value >= 60 { return .failure(.sixty) }
            }
        }
        var degrees = parts[0].value
        if parts.count > 1 { degrees += parts[1].value / 60 }
        if parts.count > 2 { degrees += parts[2].value / 3600 }
        guard degrees.isFinite else { return .failure(.malformed) }
        if negative || hemisphere == "S" || hemisphere == "W" { degrees = -degrees }
        return .success(Angle(degrees: degrees, hemisphere: hemisphere))
    }

    /// The hemisphere letter at either end of `text`, if any.
    private static func hemisphere(of text: Substring) -> Character? {
        let trimmed = trim(text)
        if let first = trimmed.first, isHemisphere(first) { return first }
        if let last = trimmed.last, isHemisphere(last) { return last }
        return nil
    }

    /// Whether `text` holds a degree, minute or second mark (or, with `letters`, a hemisphere letter at an end).
    private static func hasMarks(_ text: Substring, letters: Bool = true) -> Bool {
        text.contains { degreeMarks.contains($0) || minuteMarks.contains($0) || secondMarks.contains($0) }
            || (letters && hemisphere(of: text) != nil && text.contains { $0.isASCII && $0.isNumber })
    }

    private static func isHemisphere(_ character: Character) -> Bool {
        character == "N" || character == "S" || character == "E" || character == "W"
    }

    private static func isSpace(_ character: Character) -> Bool {
        character == " " || character == "\t" || character == "\r"
    }

    private static func trim(_ text: Substring) -> Substring {
        var start = text.startIndex, end = text.endIndex
        while start < end, isSpace(text[start]) { start = text.index(after: start) }
        while end > start, isSpace(text[text.index(before: end)]) { end = text.index(before: end) }
        return text[start..<end]
    }
}
