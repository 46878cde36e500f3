import GMapCodecs

/// One option of a command, declared once: how it is typed, whether it takes a value, what that
/// value must be, and its lines in the command's help. ``ArgumentList`` splits the arguments by
/// these declarations, its typed accessors check a value by the option's ``rule`` (the message
/// naming the option), and ``OptionTable`` writes the OPTIONS section of a help from them.
public struct CommandOption: Sendable {
    /// The name typed and named in messages: `--limit`, `--output`.
    public let name: String
    /// A shorter name for the same option, if any: `-o` for `--output`.
    public let shortName: String?
    /// The word that stands for the value in the help (`N`, `FILE`, `NAME`); nil for a flag, which
    /// takes no value.
    public let placeholder: String?
    /// Whether every value given counts (`--map A --map B`); for the others the last one given is
    /// the value.
    public let isRepeatable: Bool
    /// What the value must be.
    let rule: ValueRule
    /// Its lines in the OPTIONS section of the help, the first beside its names; none when the
    /// text of the help around that section says what it does.
    public let help: [String]

    /// A flag: `--json`, or `-q, --quiet` with a short name.
    static func flag(_ name: String, short shortName: String? = nil, help: String = "") -> CommandOption {
        CommandOption(name: name, shortName: shortName, placeholder: nil, isRepeatable: false, rule: .text, help: lines(help))
    }

    /// An option that takes a value, shown in the help as `name placeholder`; `rule` is what the
    /// value must be (any text unless said).
    static func value(_ name: String, _ placeholder: String, short shortName: String? = nil, repeatable: Bool = false,
                      rule: ValueRule = .text, help: String = "") -> CommandOption {
        CommandOption(name: name, shortName: shortName, placeholder: placeholder, isRepeatable: repeatable, rule: rule, help: lines(help))
    }

    /// The same option with `help` as its lines in one command's OPTIONS section: for an option
    /// that several commands take, each saying what it does there.
    func documented(_ help: String) -> CommandOption {
        CommandOption(name: name, shortName: shortName, placeholder: placeholder, isRepeatable: isRepeatable, rule: rule,
                      help: Self.lines(help))
    }

    /// Every name that gives it: the long one, then the short one.
    public var names: [String] { [name] + (shortName.map { [$0] } ?? []) }

    /// Whether it takes a value (a flag does not).
    public var takesValue: Bool { placeholder != nil }

    /// How the OPTIONS section shows it: `--limit N`, `-o, --output FILE`, `--json`.
    var label: String {
        (shortName.map { $0 + ", " } ?? "") + name + (placeholder.map { " " + $0 } ?? "")
    }

    /// The lines of a help text written as one string (none for the empty string).
    private static func lines(_ text: String) -> [String] {
        text.isEmpty ? [] : text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
}

/// What the value of an option must be, which the typed accessors of ``ArgumentList`` check.
enum ValueRule: Sendable {
    /// Any text: the command reads it.
    case text
    /// A whole number in the range; `complaint` words the message for one that is not, and
    /// `allowsUnderscores` lets `_` group the digits (`500_000_000`).
    case wholeNumber(ClosedRange<Int>, Complaint, allowsUnderscores: Bool = false)
    /// A size in bytes, or with K, M or G (`64M`); `default` when the option is not given.
    case size(default: Int)
    /// A distance in metres, or with `m` or `km` (`500m`, `2.5km`), at most `maximum` metres.
    case distance(maximum: Double)
    /// Degrees clockwise from north, any value taken modulo 360; `nan` for none.
    case direction
    /// One of these words, `default` being the one taken when the option is not given.
    case choices([String], default: String)

    /// A whole number in `range`, the message saying "must be a whole number from A to B".
    static func wholeNumber(from range: ClosedRange<Int>) -> ValueRule {
        .wholeNumber(range, .afterValue("must be a whole number from \(range.lowerBound) to \(range.upperBound)"))
    }
}

/// How a message says that a value breaks its option's rule: the option first, then the value
/// quoted (``InputExcerpt``) and these words, or these words and then the value.
enum Complaint: Sendable {
    /// "--limit '0' must be a whole number above 0".
    case afterValue(String)
    /// "--threads takes a whole number from 1 to 256, got '0'".
    case beforeValue(String)

    /// The message for `value` given to `option`.
    func message(option: String, value: String) -> String {
        switch self {
        case .afterValue(let words): return "\(option) \(InputExcerpt.quoted(value)) \(words)"
        case .beforeValue(let words): return "\(option) \(words) \(InputExcerpt.quoted(value))"
        }
    }
}

/// The OPTIONS section of a help, written from the declarations: each option's names and
/// placeholder two spaces in, its help lines from `column` on. The first help line stands beside
/// the names when they leave a space before `column`; otherwise the names have a line of their own.
enum OptionTable {
    /// The section's lines for the `options` that have help lines, in their order, without a
    /// newline after the last.
    static func lines(_ options: [CommandOption], column: Int) -> String {
        var lines: [String] = []
        for option in options where !option.help.isEmpty {
            let names = "  " + option.label
            var help = option.help[...]
            if names.count < column, let first = help.popFirst() {
                lines.append(names + String(repeating: " ", count: column - names.count) + first)
            } else {
                lines.append(names)
            }
            lines += help.map { String(repeating: " ", count: column) + $0 }
        }
        return lines.joined(separator: "\n")
    }
}
