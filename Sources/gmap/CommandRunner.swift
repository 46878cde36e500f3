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

/// Picks the subcommand and runs it.
enum CommandRunner {
    /// The commands, as unknown-command messages list them.
    static let commandList = "query, place, where, find, build, export, info, verify, render, bench and help"

    static func run(_ arguments: [String]) -> Int32 {
        guard let first = arguments.first else {
            StandardError.write(HelpText.overview)
            return ExitCode.usage
        }
        let rest = Array(arguments.dropFirst())
        do {
            switch first {
            case "query": return try QueryCommand.run(rest)
            case "place": return try PlaceCommand.run(rest)
            case "build": return try BuildCommand.run(rest)
            case "where": return try WhereCommand.run(rest)
            case "info": return try InfoCommand.run(rest)
            case "find": return try FindCommand.run(rest)
            case "bench": return try BenchCommand.run(rest)
            case "verify": return try VerifyCommand.run(rest)
            case "export": return try ExportCommand.run(rest)
            case "render": return try RenderCommand.run(rest)
            case "help", "--help", "-h":
                if let topic = rest.first, !HelpText.topics.contains(topic) {
                    throw CommandFailure(message: "unknown command '\(topic)'; the commands are \(commandList) (see 'gmap help')")
                }
                StandardOutput.shared.write(HelpText.help(for: rest.first))
                return ExitCode.success
            case "--version", "version":
                StandardOutput.shared.write("gmap \(HelpText.version) (format \(FormatVersionText.current))\n")
                return ExitCode.success
            default:
                throw CommandFailure(message: "unknown command '\(first)'; the commands are \(commandList) (see 'gmap help')")
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
