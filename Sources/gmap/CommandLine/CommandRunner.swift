/// Exit codes of every command.
enum ExitCode {
    /// Success.
    static let success: Int32 = 0
    /// The point is in no feature (query), or the map failed a check.
    static let notFound: Int32 = 1
    /// Bad usage or bad input: a message says what was wrong.
    static let usage: Int32 = 2
}

/// An error that ends a command with a message on standard error and an exit code.
struct CommandFailure: Error {
    var message: String
    var code: Int32 = ExitCode.usage
}

/// One command of the tool: its name, the options it takes, its help text and what it does.
/// ``CommandTable`` lists them; ``CommandRunner`` splits the arguments by `options` (plus
/// `--help` and `-h`, which print `help`) and calls `run`.
public protocol Command: Sendable {
    /// The name typed after `gmap`.
    static var name: String { get }
    /// Every option it takes (``CommandOption``), in the order of its help's OPTIONS section:
    /// the arguments are split by them, and that section is written from them.
    static var options: [CommandOption] { get }
    /// One line on what it does, for the overview `gmap help` prints.
    static var summary: String { get }
    /// What `gmap help NAME` and `gmap NAME --help` print: its synopsis lines (up to the first
    /// blank line, which the overview repeats), then the details.
    static var help: String { get }
    /// Runs the command on its parsed arguments; the exit code.
    static func run(_ list: ArgumentList) throws -> Int32
}

extension Command {
    /// `arguments` split as the command reads them: by its options, `--help` and `-h`.
    public static func parse(_ arguments: [String]) throws -> ArgumentList {
        try ArgumentList(arguments, options: options + [CommandOption.helpFlag])
    }
}

/// Every command, in the order the tool lists them.
public enum CommandTable {
    public static let commands: [any Command.Type] = [
        QueryCommand.self, PlaceCommand.self, WhereCommand.self, NearbyCommand.self, FindCommand.self, GeocodeCommand.self, BuildCommand.self, ExportCommand.self,
        InfoCommand.self, VerifyCommand.self, RenderCommand.self, BenchCommand.self,
    ]

    /// The command called `name`, if any.
    static func command(named name: String) -> (any Command.Type)? {
        commands.first { $0.name == name }
    }

    /// The names of the commands, in the tool's order (the tests read this list).
    public static let names = commands.map { $0.name }

    /// "query, where, …, bench and help": the commands as unknown-command messages list them.
    static let list = names.joined(separator: ", ") + " and help"

    /// The failure for a command that is not in the table.
    static func unknown(_ name: String) -> CommandFailure {
        CommandFailure(message: "unknown command '\(name)'; the commands are \(list) (see 'gmap help')")
    }
}

/// Picks the subcommand from ``CommandTable`` and runs it.
enum CommandRunner {
    static func run(_ arguments: [String]) -> Int32 {
        guard let first = arguments.first else {
            StandardError.write(HelpText.overview)
            return ExitCode.usage
        }
        let rest = Array(arguments.dropFirst())
        do {
            switch first {
            case "help", "--help", "-h":
                // `gmap help help` and `gmap help --help` ask what help does: the overview says it.
                guard let topic = rest.first, !["help", "--help", "-h"].contains(topic) else {
                    StandardOutput.shared.write(HelpText.overview)
                    return ExitCode.success
                }
                guard let command = CommandTable.command(named: topic) else { throw CommandTable.unknown(topic) }
                StandardOutput.shared.write(command.help)
                return ExitCode.success
            case "--version", "version":
                StandardOutput.shared.write("gmap \(HelpText.version) (\(FormatVersionText.summary))\n")
                return ExitCode.success
            default:
                guard let command = CommandTable.command(named: first) else { throw CommandTable.unknown(first) }
                let list = try command.parse(rest)
                if list.has(.helpFlag) {
                    StandardOutput.shared.write(command.help)
                    return ExitCode.success
                }
                return try command.run(list)
            }
        } catch let failure as CommandFailure {
            StandardOutput.shared.flush()
            StandardError.write("gmap: \(failure.message)\n")
            return failure.code
        } catch {
            StandardOutput.shared.flush()
            StandardError.write("gmap: \(error)\n")
            return ExitCode.usage
        }
    }
}
