/// Parses coordinates typed by people or read from batch files, strictly: decimal numbers only,
/// latitude in [-90, 90], longitude in [-180, 180]. Every failure says what was wrong.
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

    /// Parses a latitude and a longitude given as two arguments.
    static func coordinate(latitude: Substring, longitude: Substring) -> Result<Coordinate, CommandFailure> {
        guard let lat = number(latitude) else { return .failure(CommandFailure(message: "latitude '\(latitude)' is not a number")) }
        guard let lon = number(longitude) else { return .failure(CommandFailure(message: "longitude '\(longitude)' is not a number")) }
        guard lat >= -90, lat <= 90 else { return .failure(CommandFailure(message: "latitude \(latitude) is outside [-90, 90]")) }
        guard lon >= -180, lon <= 180 else { return .failure(CommandFailure(message: "longitude \(longitude) is outside [-180, 180]")) }
        return .success(Coordinate(latitude: lat, longitude: lon))
    }

    /// Parses one batch line: "lat lon", "lat,lon" or "lat, lon" (spaces or tabs; latitude first).
    static func line(_ line: Substring) -> Result<Coordinate, CommandFailure> {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        let parts = trimmed.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" || $0 == "\r" })
        let commas = trimmed.filter { $0 == "," }.count
        guard parts.count == 2, commas <= 1 else {
            return .failure(CommandFailure(message: "expected 'latitude longitude' or 'latitude,longitude', got '\(line.prefix(80))'"))
        }
        return coordinate(latitude: parts[0], longitude: parts[1])
    }
}
