// An Embedded Swift program that answers points with the GMap core, to show that the core built in
// Embedded mode answers exactly as the normal build does (Scripts/embedded/build.sh compares them).
//
//   gmap-embedded-host [--property KEY] [--stack] MAP < points
//
// The map is read into memory by the platform and opened with GMap(unsafeBuffer:), the path a
// device without a file system takes. Each input line is `latitude,longitude`; each output line
// holds the ids of every feature containing the point, smallest area first, separated by spaces
// (as `gmap query MAP - --all` prints them), then with --property a tab and KEY's value for the
// first. With --stack it answers nothing and instead prints how many bytes of stack the lookups
// of all the points used at most (on a stack painted with a pattern).
import GMap

/// Writes text to standard output.
func write(_ text: StaticString) {
    host_write(text.utf8Start, text.utf8CodeUnitCount)
}

/// Writes bytes to standard output.
func write(_ bytes: UnsafeRawBufferPointer) {
    if let start = bytes.baseAddress { host_write(start, bytes.count) }
}

/// Writes a non-negative number in decimal.
func write(_ number: Int) {
    var digits: [UInt8] = []
    var rest = number
    repeat {
        digits.append(UInt8(truncatingIfNeeded: 48 + rest % 10))
        rest /= 10
    } while rest > 0
    digits.reverse()
    digits.withUnsafeBytes { write($0) }
}

/// The bytes of a NUL-terminated C string, without the NUL.
func bytes(of string: UnsafePointer<CChar>) -> UnsafeRawBufferPointer {
    var count = 0
    while string[count] != 0 { count += 1 }
    return UnsafeRawBufferPointer(start: string, count: count)
}

/// The options of one run.
struct Options {
    var mapPath: UnsafePointer<CChar>?
    var propertyKey: UnsafeRawBufferPointer?
    var measureStack = false

    /// Options from `argv`, or nil for bad usage.
    init?(argc: Int32, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) {
        var index = 1
        while index < Int(argc) {
            guard let argument = argv[index] else { return nil }
            let text = bytes(of: argument)
            if text.elementsEqual("--stack".utf8) {
                measureStack = true
            } else if text.elementsEqual("--property".utf8), index + 1 < Int(argc), let key = argv[index + 1] {
                propertyKey = bytes(of: key)
                index += 1
            } else if mapPath == nil {
                mapPath = UnsafePointer(argument)
            } else {
                return nil
            }
            index += 1
        }
        guard mapPath != nil else { return nil }
    }
}

/// Parses `latitude,longitude` from a line.
func parsePoint(_ line: UnsafePointer<CChar>) -> (latitude: Double, longitude: Double)? {
    var position = 0
    var latitude = 0.0, longitude = 0.0
    guard host_parse_double(line, &position, &latitude) != 0, host_parse_double(line, &position, &longitude) != 0 else { return nil }
    return (latitude, longitude)
}

/// Prints the answer for one point; false when `lookup` and `lookupAll` disagree.
func answer(_ map: GMap, _ point: (latitude: Double, longitude: Double), propertyKey: UnsafeRawBufferPointer?) -> Bool {
    let all = map.lookupAll(latitude: point.latitude, longitude: point.longitude)
    let first = map.lookup(latitude: point.latitude, longitude: point.longitude)
    guard first == all.first else { return false }
    for (position, feature) in all.enumerated() {
        if position > 0 { write(" ") }
        write(feature.idBytes)
    }
    if let propertyKey, let first {
        write("\t")
        if let value = first.propertyValueBytes(forKey: propertyKey) { write(value) }
    }
    write("\n")
    return true
}

/// What the stack measurement runs: every point through `lookup` and the id's bytes.
final class StackProbe {
    let map: GMap
    let latitudes: [Double]
    let longitudes: [Double]
    /// False for the baseline: the same call, with no lookup.
    var looksUp = true
    var idBytes = 0

    init(map: GMap, latitudes: [Double], longitudes: [Double]) {
        self.map = map
        self.latitudes = latitudes
        self.longitudes = longitudes
    }

    func run() {
        guard looksUp else { return }
        for index in latitudes.indices {
            if let feature = map.lookup(latitude: latitudes[index], longitude: longitudes[index]) {
                idBytes &+= feature.idBytes.count
            }
        }
    }
}

/// Called by the platform's `main`.
@_cdecl("gmap_host_main")
func hostMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    guard let options = Options(argc: argc, argv: argv), let path = options.mapPath else {
        host_error("usage: gmap-embedded-host [--property KEY] [--stack] MAP < points\n")
        return 2
    }
    var length = 0
    guard let bytes = host_read_file(path, &length) else {
        host_error("gmap-embedded-host: cannot read the map file\n")
        return 2
    }
    let map: GMap
    do {
        map = try GMap(unsafeBuffer: UnsafeRawBufferPointer(start: bytes, count: length))
    } catch {
        host_error("gmap-embedded-host: the map cannot be opened\n")
        return 2
    }

    var line = [CChar](repeating: 0, count: 256)
    var latitudes: [Double] = [], longitudes: [Double] = []
    while true {
        let count = line.withUnsafeMutableBufferPointer { host_read_line($0.baseAddress, $0.count) }
        guard count >= 0 else { break }
        // swift-format-ignore: NeverForceUnwrap
        let point = line.withUnsafeBufferPointer { parsePoint($0.baseAddress!) }
        if options.measureStack {
            if let point {
                latitudes.append(point.latitude)
                longitudes.append(point.longitude)
            }
        } else if let point {
            guard answer(map, point, propertyKey: options.propertyKey) else {
                host_error("gmap-embedded-host: lookup and lookupAll disagree\n")
                return 2
            }
        } else {
            write("\n")
        }
    }

    if options.measureStack {
        let probe = StackProbe(map: map, latitudes: latitudes, longitudes: longitudes)
        func measure() -> Int {
            host_measure_stack(65536, { context in
                // swift-format-ignore: NeverForceUnwrap
                Unmanaged<StackProbe>.fromOpaque(context!).takeUnretainedValue().run()
            }, Unmanaged.passUnretained(probe).toOpaque())
        }
        let used = measure()
        probe.looksUp = false
        let baseline = measure()
        write("stack: ")
        write(used)
        write(" bytes at most over ")
        write(latitudes.count)
        write(" lookups, ")
        write(baseline)
        write(" bytes for the same call without them: a lookup (and its id) takes at most ")
        write(used - baseline)
        write(" bytes\n")
    }
    return 0
}
