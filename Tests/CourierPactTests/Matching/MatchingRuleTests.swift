import CourierPrimitives
import Testing

@testable import CourierPact

@Suite struct MatchingRuleTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var rule: MatchingRule
        var expected: JSONValue
        var passes: [JSONValue]
        var fails: [JSONValue]
        var testDescription: String { "\(rule)" }
    }

    static let cases: [Case] = [
        Case(
            rule: .equality, expected: .string("a"), passes: [.string("a")], fails: [.string("b"), .int(1)]),
        Case(rule: .equality, expected: .int(2), passes: [.int(2), .double(2)], fails: [.int(3)]),
        Case(
            rule: .regex("n-\\d+"), expected: .string("n-1"), passes: [.string("n-42")],
            fails: [.string("x-1"), .string("n-1x"), .null]),
        Case(rule: .regex("a|ab"), expected: .string("a"), passes: [.string("ab")], fails: [.string("abc")]),
        Case(
            rule: .type, expected: .string("a"), passes: [.string("zzz")],
            fails: [.int(1), .null, .array([])]),
        Case(rule: .type, expected: .int(1), passes: [.int(9), .double(1.5)], fails: [.string("1")]),
        Case(
            rule: .typeBounded(min: 1, max: 2), expected: .array([.int(1)]),
            passes: [.array([.int(5)]), .array([.int(1), .int(2)])],
            fails: [.array([]), .array([.int(1), .int(2), .int(3)]), .object([:])]),
        Case(
            rule: .include("milk"), expected: .string("milk"), passes: [.string("buy milk now")],
            fails: [.string("bread")]),
        Case(
            rule: .integer, expected: .int(1), passes: [.int(-7)],
            fails: [.double(1.5), .string("12"), .bool(true)]),
        Case(
            rule: .decimal, expected: .double(1.5), passes: [.double(0.25)], fails: [.int(1), .string("a")]),
        Case(
            rule: .number, expected: .int(1), passes: [.int(1), .double(2.5)], fails: [.string("n"), .null]),
        Case(
            rule: .boolean, expected: .bool(true), passes: [.bool(false)],
            fails: [.int(1), .string("true"), .string("false")]),
        Case(rule: .null, expected: .null, passes: [.null], fails: [.string(""), .int(0)]),
        Case(
            rule: .date(format: "yyyy-MM-dd"), expected: .string("2026-01-01"),
            passes: [.string("2026-12-31")],
            fails: [.string("2026-13-01"), .string("01/01/2026"), .int(20260101)]),
        Case(
            rule: .time(format: "HH:mm:ss"), expected: .string("10:00:00"), passes: [.string("23:59:59")],
            fails: [.string("24:00:00")]),
        Case(
            rule: .dateTime(format: "yyyy-MM-dd'T'HH:mm:ss[.SSS]XXX"),
            expected: .string("2026-01-01T10:00:00Z"),
            passes: [.string("2026-01-01T10:00:00Z"), .string("2026-01-01T10:00:00.123+02:00")],
            fails: [.string("2026-01-01 10:00:00"), .string("2026-01-01T10:00:00")]),
        Case(rule: .values, expected: .object([:]), passes: [.object(["a": .int(1)])], fails: [.array([])]),
        Case(
            rule: .notEmpty, expected: .string("a"), passes: [.string("b"), .array([.int(1)])],
            fails: [.string(""), .array([]), .null]),
        Case(
            rule: .eachKey([.regex("[a-z]+")]), expected: .object([:]), passes: [.object(["ab": .int(1)])],
            fails: [.object(["A1": .int(1)]), .string("x")]),
        Case(
            rule: .eachValue([.type]), expected: .array([.string("a")]),
            passes: [.array([.string("b"), .string("c")])], fails: [.array([.string("b"), .int(1)])]),
        Case(
            rule: .statusCode(.success), expected: .int(200), passes: [.int(201), .int(204)],
            fails: [.int(301), .int(404)]),
        Case(
            rule: .statusCode(.codes([200, 202])), expected: .int(200), passes: [.int(202)],
            fails: [.int(201)]),
        Case(
            rule: .unsupported(.object(["match": .string("semver")])), expected: .string("1.0.0"), passes: [],
            fails: [.string("1.0.0")]),
    ]

    @Test(arguments: cases)
    func eachMatcherPassesAndFails(_ testCase: Case) {
        for value in testCase.passes {
            #expect(
                testCase.rule.failure(of: value, expected: testCase.expected) == nil, "\(value) should pass")
        }
        for value in testCase.fails {
            #expect(
                testCase.rule.failure(of: value, expected: testCase.expected) != nil, "\(value) should fail")
        }
    }

    @Test func textOfANumberIsANumberOnlyWhereValuesAreText() {
        #expect(MatchingRule.integer.failure(of: .string("12"), expected: .int(1), fromText: true) == nil)
        #expect(
            MatchingRule.boolean.failure(of: .string("true"), expected: .bool(true), fromText: true) == nil)
        #expect(
            MatchingRule.boolean.failure(of: .string("false"), expected: .bool(true), fromText: true) == nil)
        #expect(
            MatchingRule.boolean.failure(of: .string("yes"), expected: .bool(true), fromText: true) != nil)
        #expect(MatchingRule.number.failure(of: .string("x"), expected: .int(1), fromText: true) != nil)
    }

    @Test func orNeedsOneAndNeedsAll() {
        let either = RuleList([.null, .integer], combine: .or)
        #expect(either.failure(of: .null, expected: .null) == nil)
        #expect(either.failure(of: .int(1), expected: .null) == nil)
        #expect(either.failure(of: .string("a"), expected: .null) != nil)
        let both = RuleList([.type, .regex("a+")])
        #expect(both.failure(of: .string("aa"), expected: .string("a")) == nil)
        #expect(both.failure(of: .string("b"), expected: .string("a")) != nil)
    }

    @Test func pathsMatchByWeight() throws {
        let rules = MatchingRules([
            .body: [
                "$.items": RuleList([.typeBounded(min: 0, max: nil)]),
                "$.items[*].id": RuleList([.regex("n-\\d+")]),
                "$['odd key']": RuleList([.integer]),
                "$.items[0].id": RuleList([.equality]),
            ]
        ])
        #expect(
            rules.best(for: [.field("items"), .index(3), .field("id")], in: .body)
                == RuleList([.regex("n-\\d+")]))
        #expect(
            rules.best(for: [.field("items"), .index(0), .field("id")], in: .body) == RuleList([.equality]))
        // A rule cascades to the children of its path.
        #expect(
            rules.best(for: [.field("items"), .index(1), .field("title")], in: .body)
                == RuleList([.typeBounded(min: 0, max: nil)]))
        #expect(rules.best(for: [.field("odd key")], in: .body) == RuleList([.integer]))
        #expect(rules.best(for: [.field("other")], in: .body) == nil)
        #expect(PactPath("$.a[") == nil)
    }
}
