/// The commands `gmap help` lists, read from its output, which the tool builds from its
/// `CommandTable` (each command's synopsis lines, in the table's order, then `gmap help [COMMAND]`).
struct HelpOverview {
    /// The overview as the tool printed it.
    let text: String

    /// The overview `text` as printed by `gmap help`.
    init(_ text: String) {
        self.text = text
    }

    /// The lines of the USAGE section: from the line after `USAGE` to the first blank line.
    var usageLines: [Substring] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let heading = lines.firstIndex(of: "USAGE") else { return [] }
        return Array(lines[(heading + 1)...].prefix { !$0.isEmpty })
    }

    /// The commands the USAGE section names (the word after `gmap` on each synopsis line, which
    /// is indented two spaces; summaries are indented eight), once each, in the order listed,
    /// without `help` itself.
    var commands: [String] {
        var names: [String] = []
        for line in usageLines where line.hasPrefix("  gmap ") {
            guard let name = line.dropFirst("  gmap ".count).split(separator: " ").first.map(String.init) else { continue }
            if name != "help", !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// The unknown-command message for `name` that lists `commands` (the tool adds `help` last).
    static func unknownCommandMessage(_ name: String, commands: [String]) -> String {
        "gmap: unknown command '\(name)'; the commands are \(commands.joined(separator: ", ")) and help (see 'gmap help')\n"
    }
}
