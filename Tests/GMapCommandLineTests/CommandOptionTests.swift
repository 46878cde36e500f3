import Foundation
import XCTest
import GMapTestSupport
import gmap

/// Every command's declared options (``CommandOption``) against its help and its parser, read
/// in-process from the tool's ``CommandTable``: an option that is parsed but that the help never
/// names, or one that the help shows but the parser refuses, fails here. The help's OPTIONS
/// section is written from the declarations, so these catch what the text around it says.
final class CommandOptionTests: CommandLineTestCase {
    override class var needsExecutable: Bool { false }

    /// Each declared option, by each of its names, is named in its command's help.
    func testEveryDeclaredOptionIsInItsCommandsHelp() {
        for command in CommandTable.commands {
            let named = Set(OptionNames.all(in: command.help))
            for name in command.options.flatMap(\.names) {
                XCTAssertTrue(named.contains(name), "gmap \(command.name) parses \(name), which gmap help \(command.name) never names")
            }
        }
    }

    /// Each option a command's help shows as the command's own (in its synopsis, at the start of an
    /// OPTIONS line, in a line that starts with `gmap COMMAND`) is one the command parses.
    func testEveryOptionTheHelpShowsIsParsed() {
        for command in CommandTable.commands {
            let declared = Set(command.options.flatMap(\.names))
            for name in OptionNames.shown(in: command.help, of: command.name) {
                XCTAssertTrue(declared.contains(name), "gmap help \(command.name) shows \(name), which gmap \(command.name) does not parse")
            }
        }
    }

    /// The parser of each command takes exactly its declared names: each of them (with a value
    /// when it takes one, which it then gives back), and no name that only other commands declare.
    func testEachCommandParsesExactlyItsDeclaredNames() throws {
        let everyName = Set(CommandTable.commands.flatMap { $0.options.flatMap(\.names) } + ["--no-such-option"])
        for command in CommandTable.commands {
            for option in command.options {
                for name in option.names {
                    let list = try command.parse(option.takesValue ? [name, "x"] : [name])
                    XCTAssertTrue(option.takesValue ? list.value(option) == "x" : list.has(option), "gmap \(command.name) \(name)")
                    XCTAssertEqual(list.positional, [], "gmap \(command.name) \(name)")
                }
            }
            for name in everyName.subtracting(command.options.flatMap(\.names)).sorted() {
                XCTAssertThrowsError(try command.parse([name, "x"]), "gmap \(command.name) takes \(name), which it does not declare")
            }
        }
    }

    /// The overview `gmap help` prints lists the commands of the table, in its order (the names
    /// the unknown-command message lists).
    func testTheOverviewListsTheCommandTable() throws {
        let overview = try run(["help"])
        XCTAssertEqual(overview.status, 0, overview.stderr)
        XCTAssertEqual(HelpOverview(overview.stdout).commands, CommandTable.names)
    }
}

/// The names of options (`--json`, `-o`) in a help text: a `-` or `--` and a letter that do not
/// continue a word (`UTF-16`, `-5.35` and a lone `-` are none), then letters, digits and `-`.
enum OptionNames {
    /// Every option name in `text`, in order.
    static func all(in text: some StringProtocol) -> [String] {
        let characters = Array(text)
        var names: [String] = []
        var index = 0
        while index < characters.count {
            let start = index
            index += 1
            guard characters[start] == "-", start == 0 || !isNamePart(characters[start - 1]) else { continue }
            var letter = start + 1
            if letter < characters.count, characters[letter] == "-" { letter += 1 }
            guard letter < characters.count, characters[letter].isLetter else { continue }
            var end = letter
            while end < characters.count, isNamePart(characters[end]) { end += 1 }
            while characters[end - 1] == "-" { end -= 1 }
            names.append(String(characters[start..<end]))
            index = end
        }
        return names
    }

    /// The option names a command's help shows as the command's own, once each: every one in its synopsis
    /// (the lines before the first blank one) and in each line that starts with `gmap COMMAND`
    /// (other synopses, the examples) up to a pipe into another program (`| head -c 300`), and the
    /// names that start an OPTIONS line (`  -o, --output FILE`).
    static func shown(in help: String, of command: String) -> [String] {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        let synopsis = lines.prefix { !$0.isEmpty }
        let usages = lines.filter { $0.drop { $0 == " " }.hasPrefix("gmap \(command) ") }
        let optionLines = lines.filter { $0.hasPrefix("  -") }.map { line in
            line.dropFirst(2).split(separator: " ").prefix { $0.hasPrefix("-") }.joined(separator: " ")
        }
        let names = (synopsis + usages).flatMap { all(in: beforePipe($0)) } + optionLines.flatMap { all(in: $0) }
        return names.enumerated().filter { names.firstIndex(of: $0.element) == $0.offset }.map(\.element)
    }

    /// `line` up to a pipe into another program: ` | ` and a letter (` | -` and ` | [` are
    /// alternatives of a synopsis, `[--all | --nearest DIST]`).
    private static func beforePipe(_ line: Substring) -> Substring {
        var rest = line[...]
        while let pipe = rest.range(of: " | ") {
            if let next = rest[pipe.upperBound...].first, next.isLetter { return line[..<pipe.lowerBound] }
            rest = rest[pipe.upperBound...]
        }
        return line
    }

    /// Whether `character` can be part of a name, or of a word a `-` would continue.
    private static func isNamePart(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "-" || character == "_"
    }
}
