import GMapBuilder

/// A command's arguments split by its declared options (``CommandOption``) into flags, options
/// with values, and positional arguments.
///
/// Options are `--name value` or `--name=value`; a lone `-` and negative numbers such as `-5.35`
/// are positional, so coordinates need no quoting. An option's short name (`-o`) and its long
/// one (`--output`) are the same option.
public struct ArgumentList {
    /// The arguments as given, in order (for messages that repeat the command).
    public let arguments: [String]
    /// The arguments that are neither options nor their values, in order.
    public private(set) var positional: [String] = []
    /// Every value given to each option, in order, by the option's name.
    private var values: [String: [String]] = [:]
    /// The names of the flags given.
    private var flags: Set<String> = []

    /// Splits `arguments` by the `options` declared: a name that none of them has is refused, as is
    /// a value given to a flag or an option left without one.
    public init(_ arguments: [String], options: [CommandOption]) throws {
        var declared: [String: CommandOption] = [:]
        for option in options {
            for name in option.names { declared[name] = option }
        }
        self.arguments = arguments
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                positional.append(contentsOf: arguments[index...])
                break
            }
            guard argument.hasPrefix("-"), argument != "-", !Self.looksNumeric(argument) else {
                positional.append(argument)
                continue
            }
            var name = argument, inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let option = declared[name] else { throw CommandFailure(message: "unknown option '\(name)'") }
            if !option.takesValue {
                guard inlineValue == nil else { throw CommandFailure(message: "\(name) takes no value") }
                flags.insert(option.name)
            } else {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else { throw CommandFailure(message: "\(name) needs a value") }
                    value = arguments[index]
                    index += 1
                }
                values[option.name, default: []].append(value)
            }
        }
    }

    /// Whether a flag was given.
    public func has(_ flag: CommandOption) -> Bool { flags.contains(flag.name) }

    /// The value of an option, if given (the last one when given more than once).
    public func value(_ option: CommandOption) -> String? { values[option.name]?.last }

    /// Whether an option was given: a flag, or an option with a value.
    func isGiven(_ option: CommandOption) -> Bool {
        option.takesValue ? values[option.name] != nil : has(option)
    }

    /// Every value of a repeatable option, in order.
    func values(_ option: CommandOption) -> [String] {
        precondition(option.isRepeatable, "\(option.name) is not declared repeatable")
        return values[option.name] ?? []
    }

    private static func looksNumeric(_ text: String) -> Bool {
        guard text.count >= 2 else { return false }
        let second = text[text.index(after: text.startIndex)]
        return second.isNumber || second == "."
    }
}

/// The values of options read by their rules (``ValueRule``): each accessor takes an option
/// declared with its kind of rule, and a value that breaks the rule fails with the message the
/// rule gives, naming the option.
extension ArgumentList {
    /// The whole number an option gives, nil when it is not given.
    func integer(_ option: CommandOption) throws -> Int? {
        guard case .wholeNumber(let range, let complaint, let allowsUnderscores) = option.rule else { Self.misdeclared(option, "a whole number") }
        guard let text = value(option) else { return nil }
        guard let number = Int(allowsUnderscores ? text.replacingOccurrences(of: "_", with: "") : text), range.contains(number) else {
            throw CommandFailure(message: complaint.message(option: option.name, value: text))
        }
        return number
    }

    /// The bytes a size option gives (`64M`, `2G`, `1048576`; see ``InputLimits/parseSize(_:)``),
    /// its default when it is not given; a size that is not one fails saying how to write it.
    func bytes(_ option: CommandOption) throws -> Int {
        guard case .size(let defaultBytes) = option.rule else { Self.misdeclared(option, "a size") }
        guard let text = value(option) else { return defaultBytes }
        guard let bytes = InputLimits.parseSize(text) else {
            throw CommandFailure(message: "\(option.name) \(InputExcerpt.quoted(text)) must be a size above 0 in bytes, or with K, M or G (KiB, MiB, GiB), such as 64M (default \(InputLimits.size(defaultBytes)))")
        }
        return bytes
    }

    /// The metres a distance option gives (``NearbyOption/metres(_:option:maximum:)``), nil when it
    /// is not given.
    func metres(_ option: CommandOption) throws -> Double? {
        guard case .distance(let maximum) = option.rule else { Self.misdeclared(option, "a distance") }
        return try value(option).map { try NearbyOption.metres($0, option: option.name, maximum: maximum) }
    }

    /// The direction an option gives in 0 ..< 360 (``DirectionOption/degrees(_:option:)``), nil when
    /// it is not given or is `nan`.
    func degrees(_ option: CommandOption) throws -> Double? {
        guard case .direction = option.rule else { Self.misdeclared(option, "a direction") }
        return try value(option).flatMap { try DirectionOption.degrees($0, option: option.name) }
    }

    /// The word an option of choices gives, its default when it is not given; any other word fails,
    /// listing the choices.
    func choice(_ option: CommandOption) throws -> String {
        guard case .choices(let words, let defaultWord) = option.rule else { Self.misdeclared(option, "choices") }
        guard let text = value(option) else { return defaultWord }
        guard words.contains(text) else {
            let listed = words.map { $0 == defaultWord ? "\($0) (the default)" : $0 }
            let choices = listed.count > 1 ? listed.dropLast().joined(separator: ", ") + " or " + (listed.last ?? "") : listed.joined()
            throw CommandFailure(message: "\(option.name) \(InputExcerpt.quoted(text)) must be \(choices)")
        }
        return text
    }

    /// Stops on an accessor asked for a value its option's rule does not give: a mistake in the
    /// tool, not in its input.
    private static func misdeclared(_ option: CommandOption, _ kind: String) -> Never {
        preconditionFailure("\(option.name) is not declared as \(kind)")
    }
}
