import Foundation
import Testing

@testable import MockServer

/// A `matches` pattern that backtracks exponentially must not hold a server thread: the match
/// gives up after its time limit, and counts as neither a match nor a mismatch.
struct RegexTimeLimitTests {
    /// `(a+)+b` on forty "a"s tries about 2^40 ways to split them before it fails.
    static let catastrophic = "(a+)+b"
    static let text = String(repeating: "a", count: 40)

    @Test(.timeLimit(.minutes(1))) func aRunawayMatchGivesUp() throws {
        let regex = try RegexBox(Self.catastrophic)
        #expect(regex.outcome(Self.text, limit: .milliseconds(200)) == .gaveUp)
        #expect(regex.outcome("aaab") == .match)
        #expect(regex.outcome("aaac") == .noMatch)
    }

    @Test(.timeLimit(.minutes(1))) func aRunawayMatchSatisfiesNeitherMatchesNorDoesNotMatch() throws {
        let regex = try RegexBox(Self.catastrophic)
        #expect(!regex.wholeMatch(Self.text, limit: .milliseconds(100)))
        #expect(!regex.wholeMismatch(Self.text, limit: .milliseconds(100)))
        #expect(regex.wholeMismatch("aaac"))
    }
}
