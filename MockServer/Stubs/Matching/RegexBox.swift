import CourierPrimitives
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

    /// How much CPU time one match may take: a pattern such as `(a|aa)+c` backtracks exponentially
    /// on a long run of "a", and a request must not be able to hold a server thread for minutes.
    /// The budget grows with the text, so that a linear match over a large body (ICU does about
    /// 60 MiB a second with `.*x.*`) always has room: 250 ms plus 100 ms per MiB.
    static func matchTimeLimit(forUTF16Count count: Int) -> Duration {
        .milliseconds(250) + .microseconds(100_000 * count / (1 << 20))
    }

    /// What one match found.
    enum Outcome: Equatable {
        case match
        case noMatch
        /// The match ran past its time limit and was stopped: neither a match nor a mismatch.
        case gaveUp
    }

    /// Whether the expression matches all of `text`; false when the match gave up.
    func wholeMatch(_ text: String, limit: Duration? = nil) -> Bool {
        outcome(text, limit: limit) == .match
    }

    /// Whether the expression does not match `text`; false when the match gave up, so that a
    /// `doesNotMatch` pattern is not satisfied by a match that never finished.
    func wholeMismatch(_ text: String, limit: Duration? = nil) -> Bool {
        outcome(text, limit: limit) == .noMatch
    }

    /// Matches `text`, stopping after `limit`: with `.reportProgress`, ICU calls back every
    /// few thousand steps of a long match, and the callback may stop it.
    ///
    /// ICU may also end a runaway match by itself when its backtracking stack is full (with
    /// Foundation on Linux, `(a+)+b` on forty "a"s ends so after about a second). It reports
    /// that as no match, which cannot be told from a real one: the limit here comes first for
    /// such patterns, and bounds the ones that do not fill the stack.
    func outcome(_ text: String, limit: Duration? = nil) -> Outcome {
        let range = NSRange(text.startIndex..<text.endIndex, in: text)
        // CPU time of this thread, not the wall clock: a loaded machine must not cut a match short.
        let deadline = threadCPUTime() + (limit ?? Self.matchTimeLimit(forUTF16Count: range.length))
        var found = false
        var stopped = false
        regex.enumerateMatches(in: text, options: [.reportProgress], range: range) { result, _, stop in
            if result != nil {
                found = true
                stop.pointee = true
            } else if threadCPUTime() >= deadline {
                stopped = true
                stop.pointee = true
            }
        }
        return found ? .match : stopped ? .gaveUp : .noMatch
    }
}
