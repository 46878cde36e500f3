/// Resident memory of this process, from Linux's `/proc/self`. Every value is nil where `/proc` is missing.
enum ProcessMemory {
    /// The process's resident set size in KiB (`VmRSS`).
    static func residentKiB() -> Int? {
        var result: Int?
        SystemCalls.forEachLine(ofFile: "/proc/self/status") { line in
            guard line.hasPrefix("VmRSS:") else { return true }
            result = kibibytes(in: line)
            return false
        }
        return result
    }

    /// The process's peak resident set size so far in KiB (`VmHWM`).
    static func peakKiB() -> Int? {
        var result: Int?
        SystemCalls.forEachLine(ofFile: "/proc/self/status") { line in
            guard line.hasPrefix("VmHWM:") else { return true }
            result = kibibytes(in: line)
            return false
        }
        return result
    }

    /// Resident KiB of the mapping that starts at `address` (`Rss` in `/proc/self/smaps`): the
    /// pages of a mapped map file that this process has touched. Nil when no mapping starts
    /// there (a map held in ordinary memory) or `/proc` is missing.
    static func residentKiB(ofMappingAt address: UnsafeRawPointer) -> Int? {
        let start = String(UInt(bitPattern: address), radix: 16)
        var inMapping = false
        var result: Int?
        SystemCalls.forEachLine(ofFile: "/proc/self/smaps") { line in
            if let dash = line.firstIndex(of: "-"), line[..<dash].allSatisfy(\.isHexDigit) {
                inMapping = line[..<dash].drop(while: { $0 == "0" }) == start[...]
            } else if inMapping, line.hasPrefix("Rss:") {
                result = kibibytes(in: line)
                return false
            }
            return true
        }
        return result
    }

    /// The number in a `Name:   123 kB` line.
    private static func kibibytes(in line: String) -> Int? {
        Int(line.split(separator: " ").dropFirst().first ?? "")
    }
}
