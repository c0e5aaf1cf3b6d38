import Foundation

/// A compiled regular expression that must match a whole value, as WireMock's `matches` does.
// unchecked Sendable: NSRegularExpression is immutable and documented thread-safe.
struct RegexBox: @unchecked Sendable {
    let pattern: String
    private let regex: NSRegularExpression

    /// Compiles `pattern`.
    /// - Throws: `JSONPath.SyntaxError` naming the pattern when it is not a valid regular expression.
    init(_ pattern: String, caseInsensitive: Bool = false) throws {
        self.pattern = pattern
        do {
            regex = try NSRegularExpression(
                pattern: "\\A(?:" + pattern + ")\\z",
                options: caseInsensitive
                    ? [.caseInsensitive, .dotMatchesLineSeparators] : [.dotMatchesLineSeparators])
        } catch {
            throw JSONPath.SyntaxError(description: "invalid regular expression '\(pattern)'")
        }
    }

    /// Whether the expression matches all of `text`.
    func wholeMatch(_ text: String) -> Bool {
        regex.firstMatch(in: text, options: [], range: NSRange(text.startIndex..<text.endIndex, in: text))
            != nil
    }
}
