import GMap

/// Writes grid coordinates as decimal degrees: the shortest text that quantizes back to the same
/// unit, with no binary noise.
///
/// When the units per degree are a power of ten (1e-7°, 1e-6°, … 1°) that is the exact value,
/// `units / U` with trailing zeros dropped: `-5.3583868`, `36.11`, `180`. Otherwise (a precision
/// such as 1/3600°) it is the decimal with the fewest digits, rounded from the exact value, that
/// ``Quantizer/units(_:)`` turns back into the same unit.
struct DegreeText: Sendable {
    private let quantizer: Quantizer
    /// The number of decimals when units per degree is 10^decimals, else nil.
    private let decimals: Int?

    init(quantizer: Quantizer) {
        self.quantizer = quantizer
        var power: Int64 = 1, count = 0
        while power < quantizer.unitsPerDegree {
            power *= 10
            count += 1
        }
        decimals = power == quantizer.unitsPerDegree ? count : nil
    }

    /// Appends the degrees of `units` to `bytes`.
    func append(_ units: Int64, to bytes: inout [UInt8]) {
        if let decimals {
            Self.appendDecimal(units, scale: decimals, to: &bytes)
        } else {
            appendShortest(units, to: &bytes)
        }
    }

    /// The text of `units` as a String (for tests and messages).
    func text(_ units: Int64) -> String {
        var bytes: [UInt8] = []
        append(units, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `value / 10^scale` exactly, without trailing zeros after the point.
    private static func appendDecimal(_ value: Int64, scale: Int, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        let magnitude = value.magnitude
        var divisor: UInt64 = 1
        for _ in 0..<scale { divisor *= 10 }
        appendDigits(magnitude / divisor, width: 1, to: &bytes)
        var fraction = magnitude % divisor
        guard fraction != 0 else { return }
        var digits = scale
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        bytes.append(UInt8(ascii: "."))
        appendDigits(fraction, width: digits, to: &bytes)
    }

    /// Appends the decimal digits of `value`, with leading zeros to at least `width` digits.
    private static func appendDigits(_ value: UInt64, width: Int, to bytes: inout [UInt8]) {
        var count = 1, rest = value
        while rest >= 10 {
            rest /= 10
            count += 1
        }
        count = max(count, width)
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: count))
        rest = value
        var position = start + count - 1
        while rest > 0 {
            bytes[position] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
            position -= 1
        }
    }

    /// The fewest decimals (up to 12) whose rounding of `units / U` quantizes back to `units`.
    private func appendShortest(_ units: Int64, to bytes: inout [UInt8]) {
        let perDegree = quantizer.unitsPerDegree
        var scale: Int64 = 1
        for digits in 0...12 {
            // units · 10^digits / U, rounded half away from zero; |units| ≤ 180·U keeps it in range.
            let numerator = units.magnitude * UInt64(scale), denominator = UInt64(perDegree)
            var rounded = numerator / denominator
            if (numerator % denominator) * 2 >= denominator { rounded += 1 }
            let signed = units < 0 ? -Int64(rounded) : Int64(rounded)
            var candidate: [UInt8] = []
            Self.appendDecimal(signed, scale: digits, to: &candidate)
            if let degrees = Double(String(decoding: candidate, as: UTF8.self)), quantizer.units(degrees) == units {
                bytes.append(contentsOf: candidate)
                return
            }
            guard scale <= Int64.max / 10 / (180 * perDegree) else { break }
            scale *= 10
        }
        // Not reached for valid coordinates (U ≤ 10^7 needs at most 8 decimals); exact binary value as a last resort.
        bytes.append(contentsOf: "\(quantizer.degrees(units))".utf8)
    }
}
