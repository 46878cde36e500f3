/// The options that several commands take, declared once; a command whose help lists one in its
/// OPTIONS section gives it its own help lines there (``CommandOption/documented(_:)``).
/// `--map` and `--no-world` are ``StackedMaps``'.
extension CommandOption {
    /// `--help` or `-h`: every command prints its help instead of running.
    static let helpFlag = flag("--help", short: "-h")

    /// `--json`: JSON instead of text.
    static let json = flag("--json")

    /// `-o FILE`, `--output FILE`: the file a command writes.
    static let output = value("--output", "FILE", short: "-o")

    /// `-q`, `--quiet`: no summary on standard error.
    static let quiet = flag("--quiet", short: "-q", help: "print no summary")

    /// `--layer NAME`: one layer of a map of several layers.
    static let layer = value("--layer", "NAME")

    /// `--threads N`: how many threads answer the lines of standard input (by default the number of cores).
    static let threads = value("--threads", "N", rule: .wholeNumber(1...256, .beforeValue("takes a whole number from 1 to 256, got")))

    /// `--max-line SIZE`: the longest line read from an input of lines.
    static let maxLine = value("--max-line", "SIZE", rule: .size(default: LineReader.defaultMaximumBytes))
}
