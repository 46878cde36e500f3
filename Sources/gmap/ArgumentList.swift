/// A command's arguments split into flags, options with values, and positional arguments.
///
/// Options are `--name value` or `--name=value`; a lone `-` and negative numbers such as `-5.35`
/// are positional, so coordinates need no quoting.
struct ArgumentList {
    /// The arguments as given, in order (for messages that repeat the command).
    let arguments: [String]
    private(set) var positional: [String] = []
    private var values: [String: String] = [:]
    private var repeated: [String: [String]] = [:]
    private var flags: Set<String> = []

    /// Splits `arguments`, knowing which options take a value and which are flags.
    init(_ arguments: [String], options: Set<String>, flags knownFlags: Set<String>) throws {
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
            if knownFlags.contains(name) {
                guard inlineValue == nil else { throw CommandFailure(message: "\(name) takes no value") }
                flags.insert(name)
            } else if options.contains(name) {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else { throw CommandFailure(message: "\(name) needs a value") }
                    value = arguments[index]
                    index += 1
                }
                values[name] = value
                repeated[name, default: []].append(value)
            } else {
                throw CommandFailure(message: "unknown option '\(name)'")
            }
        }
    }

    /// Whether a flag was given.
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The value of an option, if given (the last one when given more than once).
    func value(_ option: String) -> String? { values[option] }

    /// Every value of an option given more than once, in order.
    func values(_ option: String) -> [String] { repeated[option] ?? [] }

    private static func looksNumeric(_ text: String) -> Bool {
        guard text.count >= 2 else { return false }
        let second = text[text.index(after: text.startIndex)]
        return second.isNumber || second == "."
    }
}
