import CourierPrimitives
import Foundation
import Testing

@testable import CourierPact

@Suite struct ResponseMatchingTests {
    let expected: PactResponse = {
        var rules = MatchingRules()
        rules[.body] = [
            "$.id": RuleList([.regex("n-\\d+")]),
            "$.title": RuleList([.type]),
            "$.tags": RuleList([.typeBounded(min: 0, max: nil)]),
            "$.tags[*]": RuleList([.type]),
            "$.created": RuleList([.dateTime(format: "yyyy-MM-dd'T'HH:mm:ssXXX")]),
            "$.views": RuleList([.integer]),
            "$.state": RuleList([.regex("draft|published")]),
        ]
        return PactResponse(
            status: 200, headers: PactHeaders([("Content-Type", ["application/json"])]),
            body: .json(
                .object([
                    "id": .string("n-1"), "title": .string("Buy milk"), "tags": .array([.string("home")]),
                    "created": .string("2026-01-01T10:00:00Z"), "views": .int(3), "state": .string("draft"),
                    "owner": .object(["name": .string("Ada")]),
                ])),
            matchingRules: rules)
    }()

    func json(_ text: String) -> Data { Data(text.utf8) }

    let jsonHeaders = PactHeaders([("Content-Type", ["application/json; charset=utf-8"])])

    @Test func aResponseThatFollowsTheRulesHasNoMismatch() {
        let body = json(
            #"{"id":"n-77","title":"Other","tags":["a","b","c"],"created":"2027-05-06T07:08:09+02:00","views":10,"state":"published","owner":{"name":"Ada"},"extra":true}"#
        )
        #expect(expected.mismatches(status: 200, headers: jsonHeaders, body: body) == [])
    }

    @Test func everyMismatchIsReportedWithItsPath() {
        let body = json(
            #"{"id":"x-1","tags":"home","created":"yesterday","views":"3","state":"archived","owner":{"name":"Bob"}}"#
        )
        let found = expected.mismatches(
            status: 201, headers: PactHeaders([("Content-Type", ["text/plain"])]), body: body)
        #expect(found.map(\.kind).contains(.status))
        #expect(found.contains { $0.kind == .bodyType })
        // With a JSON content type the body's values are compared, each one reported.
        let values = expected.mismatches(status: 200, headers: jsonHeaders, body: body)
        #expect(
            Set(values.map(\.path)) == [
                "$.id", "$.title", "$.tags", "$.created", "$.views", "$.state", "$.owner.name",
            ])
        #expect(values.allSatisfy { $0.kind == .body })
        let title = values.first { $0.path == "$.title" }
        #expect(title?.expected == "\"Buy milk\"")
        #expect(title?.mismatch.contains("missing") == true)
        let owner = values.first { $0.path == "$.owner.name" }
        #expect(owner?.actual == "\"Bob\"")
    }

    @Test func arraysWithoutRulesCompareLengthAndItems() {
        let response = PactResponse(status: 200, body: .json(.array([.int(1), .int(2)])))
        let found = response.mismatches(status: 200, headers: jsonHeaders, body: json("[1,3,4]"))
        #expect(found.map(\.path) == ["$", "$[1]"])
    }

    @Test func headersAreComparedAndMissingOnesReported() {
        let response = PactResponse(
            status: 200,
            headers: PactHeaders([
                ("Content-Type", ["application/json"]), ("Cache-Control", ["private, max-age=60"]),
                ("X-Id", ["1"]),
            ]))
        let found = response.mismatches(
            status: 200,
            headers: PactHeaders([
                ("content-type", ["application/json;charset=utf-8"]),
                ("Cache-Control", ["private,max-age=60"]),
            ]),
            body: Data())
        #expect(found.map(\.path) == ["X-Id"])
        #expect(found.first?.kind == .header)
        let wrong = response.mismatches(
            status: 200,
            headers: PactHeaders([
                ("Content-Type", ["text/html"]), ("Cache-Control", ["no-store"]), ("X-Id", ["1"]),
            ]),
            body: Data())
        #expect(wrong.map(\.path) == ["Content-Type", "Cache-Control"])
    }

    @Test func aStatusRuleAllowsAClass() {
        let response = PactResponse(
            status: 200, matchingRules: MatchingRules([.status: ["$": RuleList([.statusCode(.success)])]]))
        #expect(response.mismatches(status: 204, headers: PactHeaders(), body: Data()) == [])
        #expect(
            response.mismatches(status: 500, headers: PactHeaders(), body: Data()).map(\.kind) == [.status])
    }

    @Test func anEmptyOrUnparsableBodyIsAMismatch() {
        let response = PactResponse(status: 200, body: .json(.object(["a": .int(1)])))
        #expect(response.mismatches(status: 200, headers: jsonHeaders, body: Data()).map(\.path) == ["$"])
        #expect(
            response.mismatches(status: 200, headers: jsonHeaders, body: json("{nope")).map(\.path) == ["$"])
    }

    @Test func textBodiesCompareAsText() {
        let response = PactResponse(status: 200, body: PactBody(.text("pong"), contentType: "text/plain"))
        #expect(response.mismatches(status: 200, headers: PactHeaders(), body: json("pong")) == [])
        #expect(response.mismatches(status: 200, headers: PactHeaders(), body: json("ping")).count == 1)
    }
}
