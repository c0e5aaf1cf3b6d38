import CourierContract
import CourierContractModel
import CourierPrimitives
import Foundation
import Testing

@testable import CourierPact

@Suite struct DerivedRulesTests {
    static let note = Schema.model(
        "Note",
        .object(
            [
                .init("id", .identifier), .init("title", .text(1, 100)), .init("tags", .array(.anyString)),
                .init("created", .dateTime), .init("views", .integer()), .init("score", .number()),
                .init("pinned", .boolean), .init("state", .enumeration(["draft", "published"])),
                .init("link", .uri), .init("owner", .object([.init("email", .email)], required: ["email"])),
                .init("extra", .map(.integer())), .init("archivedAt", .dateTime),
            ], required: ["id", "title"]))

    static let example: JSONValue = .object([
        "id": .string("n-1"), "title": .string("Buy milk"), "tags": .array([.string("home")]),
        "created": .string("2026-01-01T10:00:00Z"), "views": .int(3), "score": .double(1.5),
        "pinned": .bool(false),
        "state": .string("draft"), "link": .string("https://example.com/n-1"),
        "owner": .object(["email": .string("a@example.com")]), "extra": .object(["a": .int(1)]),
        "archivedAt": .null,
    ])

    @Test func rulesComeFromTheSchemaNotTheExampleValues() {
        let rules = MatchingRules.bodyRules(for: Self.note, value: Self.example)
        #expect(rules["$"] == RuleList([.type]))
        #expect(rules["$.id"] == RuleList([.regex("[A-Za-z0-9-]{1,64}"), .type]))
        #expect(rules["$.title"] == RuleList([.regex("[\\s\\S]{1,100}"), .type]))
        #expect(rules["$.tags"] == RuleList([.typeBounded(min: 0, max: nil)]))
        #expect(rules["$.tags[*]"] == RuleList([.type]))
        #expect(rules["$.views"] == RuleList([.integer]))
        #expect(rules["$.score"] == RuleList([.number]))
        #expect(rules["$.pinned"] == RuleList([.boolean]))
        #expect(rules["$.state"] == RuleList([.regex("draft|published"), .type]))
        #expect(
            rules["$.owner.email"]?.matchers.first.map { if case .regex = $0 { true } else { false } } == true
        )
        #expect(rules["$.extra"] == RuleList([.values]))
        #expect(rules["$.extra.*"] == RuleList([.integer]))
        #expect(rules["$.archivedAt"]?.combine == .or)
        guard case .regex(let dateTime)? = rules["$.created"]?.matchers.first else {
            Issue.record("date-time has no regex")
            return
        }
        #expect(MatchingRule.matches("2027-02-03T04:05:06.789+01:00", dateTime))
        #expect(!MatchingRule.matches("2027-02-03", dateTime))
    }

    @Test func theDerivedRulesAcceptOtherValidValuesAndRefuseDrift() {
        let response = PactResponse(
            status: 200, body: .json(Self.example),
            matchingRules: MatchingRules([.body: MatchingRules.bodyRules(for: Self.note, value: Self.example)]
            ))
        let other: JSONValue = .object([
            "id": .string("zz-9"), "title": .string("Other"), "tags": .array([]),
            "created": .string("2030-12-31T23:59:59Z"), "views": .int(0), "score": .int(2),
            "pinned": .bool(true),
            "state": .string("published"), "link": .string("http://x.test/"),
            "owner": .object(["email": .string("b@example.org")]),
            "extra": .object(["b": .int(5), "c": .int(6)]),
            "archivedAt": .string("2031-01-01T00:00:00Z"),
        ])
        let headers = PactHeaders([("Content-Type", ["application/json"])])
        #expect(response.mismatches(status: 200, headers: headers, body: other.serialized()) == [])
        let drifted: JSONValue = .object([
            "id": .string("bad id!"), "tags": .string("home"), "created": .string("soon"),
            "views": .double(1.5),
            "score": .string("high"), "pinned": .string("no"), "state": .string("deleted"),
            "link": .string("not a uri"),
            "owner": .object([:]), "extra": .object(["a": .string("one")]), "archivedAt": .int(1),
        ])
        let paths = Set(
            response.mismatches(status: 200, headers: headers, body: drifted.serialized()).map(\.path))
        #expect(
            paths == [
                "$.id", "$.title", "$.tags", "$.created", "$.views", "$.score", "$.pinned", "$.state",
                "$.link",
                "$.owner.email", "$.extra.a", "$.archivedAt",
            ])
    }

    /// Pact has no length matcher: a declared length of a string without a format or pattern is a
    /// regex of any characters, as many as declared.
    @Test func aStringsDeclaredLengthIsARegex() {
        let schema = Schema.object([.init("title", .text(1, 100))], required: ["title"])
        let value: JSONValue = .object(["title": .string("Buy milk")])
        let response = PactResponse(
            status: 200, body: .json(value),
            matchingRules: MatchingRules([.body: MatchingRules.bodyRules(for: schema, value: value)]))
        let headers = PactHeaders([("Content-Type", ["application/json"])])
        for accepted in ["x", "line one\nline two", String(repeating: "é", count: 100)] {
            let body = JSONValue.object(["title": .string(accepted)]).serialized()
            #expect(response.mismatches(status: 200, headers: headers, body: body) == [], "\(accepted)")
        }
        // A number passes a regex matched against its text in Pact's verifiers: the type matcher
        // beside the regex refuses it.
        let refused: [JSONValue] = [.string(""), .string(String(repeating: "a", count: 101)), .int(42)]
        for value in refused {
            let body = JSONValue.object(["title": value]).serialized()
            #expect(
                response.mismatches(status: 200, headers: headers, body: body).map(\.path) == ["$.title"],
                "\(value)")
        }
    }

    @Test func aRecordedValueThatBreaksItsFormatGetsATypeMatcher() {
        let rules = MatchingRules.bodyRules(
            for: .object([.init("at", .dateTime)], required: []), value: .object(["at": .string("later")]))
        #expect(rules["$.at"] == RuleList([.type]))
    }
}
