import GMapCodecs

/// A search text as messages quote it: at most ``maximumBytes`` bytes, escaped, in single quotes
/// (a 130 KB search text is not echoed whole).
enum SearchText {
    /// The most bytes of a search text a message quotes: room for a full postal address.
    static let maximumBytes = 120

    /// `'Fabianinkatu 17'`, or the first ``maximumBytes`` bytes and `…`.
    static func quoted(_ text: String) -> String { InputExcerpt.quoted(text, limit: maximumBytes) }
}
