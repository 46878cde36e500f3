// libFuzzer target: arbitrary bytes as the CLI's coordinate arguments and batch lines.
//
// Compiled together with Sources/gmap/IO/CoordinateParser.swift only. `CommandFailure` lives in
// Sources/gmap/CommandLine/CommandRunner.swift, which needs the whole command-line tool, so the shim below
// stands in for it with the same shape.
//
// Input: the bytes, decoded as UTF-8 (invalid sequences repaired), are one batch line for
// `CoordinateParser.line`; split in two at a point chosen by the first byte, they are the
// latitude and longitude arguments for `CoordinateParser.coordinate`. A success must be finite,
// in range, and survive printing and parsing again; a failure must carry a message.

/// Stand-in for the CLI's `CommandFailure` (Sources/gmap/CommandLine/CommandRunner.swift).
struct CommandFailure: Error {
    var message: String
    var code: Int32 = 2
}

@inline(never)
func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("invariant violated: \(message())") }
}

func checkValid(_ coordinate: CoordinateParser.Coordinate, from input: String) {
    let (lat, lon) = (coordinate.latitude, coordinate.longitude)
    check(lat.isFinite && lon.isFinite, "non-finite coordinate from \(input.debugDescription)")
    check(lat >= -90 && lat <= 90, "latitude \(lat) out of range from \(input.debugDescription)")
    check(lon >= -180 && lon <= 180, "longitude \(lon) out of range from \(input.debugDescription)")
    // Printing the answer and parsing it again gives the same numbers, in every accepted form.
    for line in ["\(lat) \(lon)", "\(lat),\(lon)", "\t\(lat), \(lon)\r"] {
        guard case .success(let again) = CoordinateParser.line(Substring(line)) else {
            check(false, "\(line.debugDescription) (printed from \(input.debugDescription)) does not parse")
            return
        }
        check(again == coordinate || (again.latitude == lat && again.longitude == lon),
              "\(line.debugDescription) parses to \(again), not \(coordinate)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let text = String(decoding: bytes, as: UTF8.self)

    switch CoordinateParser.line(Substring(text)) {
    case .success(let coordinate):
        checkValid(coordinate, from: text)
    case .failure(let failure):
        check(!failure.message.isEmpty, "a failure without a message")
    }

    // Numbers on their own: an accepted number is finite.
    if let value = CoordinateParser.number(Substring(text)) {
        check(value.isFinite, "number(\(text.debugDescription)) = \(value)")
    }

    guard size >= 1 else { return 0 }
    let rest = UnsafeBufferPointer(rebasing: bytes[1...])
    let cut = rest.isEmpty ? 0 : Int(data[0]) % (rest.count + 1)
    let latitude = String(decoding: UnsafeBufferPointer(rebasing: rest[..<cut]), as: UTF8.self)
    let longitude = String(decoding: UnsafeBufferPointer(rebasing: rest[cut...]), as: UTF8.self)
    switch CoordinateParser.coordinate(latitude: Substring(latitude), longitude: Substring(longitude)) {
    case .success(let coordinate):
        checkValid(coordinate, from: latitude + " | " + longitude)
        check(CoordinateParser.number(Substring(latitude)) == coordinate.latitude, "latitude differs from number()")
        check(CoordinateParser.number(Substring(longitude)) == coordinate.longitude, "longitude differs from number()")
    case .failure(let failure):
        check(!failure.message.isEmpty, "a failure without a message")
    }
    return 0
}
