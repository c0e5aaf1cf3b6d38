import CourierPrimitives
import Foundation
import Testing

@testable import MockServer

/// A `matches` pattern that backtracks exponentially must not hold a server thread: the match
/// gives up after its time limit, and counts as neither a match nor a mismatch.
///
/// The matches run on a thread of their own (`offThePool`): each burns CPU for up to a second, and
/// on the cooperative pool that would hold up the suite's other tests.
struct RegexTimeLimitTests {
    /// `(a+)+b` on forty "a"s tries about 2^40 ways to split them before it fails.
    static let catastrophic = "(a+)+b"
    static let text = String(repeating: "a", count: 40)

    @Test(.timeLimit(.minutes(1))) func aRunawayMatchGivesUp() async throws {
        let regex = try RegexBox(Self.catastrophic)
        let outcomes = await offThePool {
            [
                regex.outcome(Self.text, limit: .milliseconds(200)), regex.outcome("aaab"),
                regex.outcome("aaac"),
            ]
        }
        #expect(outcomes == [.gaveUp, .match, .noMatch])
    }

    @Test(.timeLimit(.minutes(1))) func aRunawayMatchSatisfiesNeitherMatchesNorDoesNotMatch() async throws {
        let regex = try RegexBox(Self.catastrophic)
        let answers = await offThePool {
            [
                regex.wholeMatch(Self.text, limit: .milliseconds(100)),
                regex.wholeMismatch(Self.text, limit: .milliseconds(100)), regex.wholeMismatch("aaac"),
            ]
        }
        #expect(answers == [false, false, true])
    }

    /// The budget grows with the text, so that a linear match over a large body is not cut short
    /// (with a flat 500 ms of wall time, `doesNotMatch ".*absent.*"` failed on a 32 MiB body).
    @Test(.timeLimit(.minutes(1))) func theBudgetGrowsWithTheText() async throws {
        #expect(RegexBox.matchTimeLimit(forUTF16Count: 0) == .milliseconds(250))
        #expect(RegexBox.matchTimeLimit(forUTF16Count: 64 << 20) == .milliseconds(250 + 6_400))
        let body = String(repeating: "0123456789abcdef", count: 1 << 18)  // 4 MiB
        let answers = await offThePool {
            [try? RegexBox(".*absent.*").wholeMismatch(body), try? RegexBox(".*cdef").wholeMatch(body)]
        }
        #expect(answers == [true, true])
    }

    /// In a JSONPath filter a match that gave up is neither true nor false, also under `!`: the
    /// element is not selected either way.
    @Test(.timeLimit(.minutes(1))) func aNegatedJSONPathRegexThatGaveUpSelectsNothing() async throws {
        let document = try JSONValue.parse(Data(#"[{"x": "\#(Self.text)"}, {"x": "aaac"}]"#.utf8))
        let positive = try JSONPath("$[?(@.x =~ /\(Self.catastrophic)/)].x")
        let negated = try JSONPath("$[?(!(@.x =~ /\(Self.catastrophic)/))].x")
        let selected = await offThePool {
            [positive.evaluate(document).map(\.matchText), negated.evaluate(document).map(\.matchText)]
        }
        #expect(selected == [[], ["aaac"]])
    }

    /// Runs `body` on a new thread and returns its result.
    private func offThePool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }
}
