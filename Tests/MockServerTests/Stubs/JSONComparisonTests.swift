import CourierPrimitives
import Foundation
import Testing

@testable import MockServer

/// `equalToJson` with `ignoreArrayOrder` pairs each expected item with an actual one of its own.
@Suite struct JSONComparisonTests {
    private func matches(_ expected: String, _ actual: String, extra: Bool = false) throws -> Bool {
        JSONComparison.matches(
            expected: try JSONValue.parse(Data(expected.utf8)),
            actual: try JSONValue.parse(Data(actual.utf8)),
            ignoreArrayOrder: true, ignoreExtraElements: extra)
    }

    @Test func itemsArePairedWhateverTheirOrder() throws {
        #expect(try matches("[1, 2, 3]", "[3, 1, 2]"))
        #expect(try !matches("[1, 1, 2]", "[1, 2, 2]"))
        // The first expected item could take either actual one; only one choice leaves a partner
        // for the second: a greedy pairing fails here.
        #expect(try matches(#"[{"a": 1}, {"a": 1, "b": 2}]"#, #"[{"a": 1, "b": 2}, {"a": 1}]"#, extra: true))
        #expect(try matches(#"["${json-unit.any-number}", 5]"#, "[5, 7]"))
        #expect(try !matches("[1, 2]", "[1, 2, 3]"))
        #expect(try matches("[1, 2]", "[3, 2, 1]", extra: true))
        #expect(try matches("[]", "[]"))
    }

    /// Equal items against all but one of them: every assignment was tried (14! steps), now it
    /// is a matching in polynomial time.
    @Test(.timeLimit(.minutes(1))) func manyEqualItemsAreNotFactorial() throws {
        let expected = "[" + Array(repeating: "0", count: 40).joined(separator: ", ") + "]"
        let actual = "[" + (Array(repeating: "0", count: 39) + ["1"]).joined(separator: ", ") + "]"
        #expect(try !matches(expected, actual))
        #expect(try matches(expected, expected))
    }

    @Test func theMatchingFindsAugmentingPaths() {
        #expect(JSONComparison.everyItemHasItsOwn([[0, 1], [0]], among: 2))
        #expect(JSONComparison.everyItemHasItsOwn([[0, 1, 2], [0, 1], [0]], among: 3))
        #expect(!JSONComparison.everyItemHasItsOwn([[0], [0]], among: 2))
        #expect(!JSONComparison.everyItemHasItsOwn([[0, 1], [0, 1], [0, 1]], among: 3))
        #expect(JSONComparison.everyItemHasItsOwn([], among: 0))
    }
}
