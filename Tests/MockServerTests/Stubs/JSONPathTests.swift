import CourierPrimitives
import Foundation
import TestSupport
import Testing

@testable import MockServer

struct JSONPathTests {
    static let document = try! JSONValue.parse(
        Data(
            #"""
            {"store": {"book": [
                {"category": "reference", "author": "Rees", "title": "Sayings", "price": 8.95},
                {"category": "fiction", "author": "Waugh", "title": "Sword", "price": 12.99},
                {"category": "fiction", "author": "Tolkien", "title": "Rings", "isbn": "0-395", "price": 22.99}
              ],
              "bicycle": {"color": "red", "price": 19.95}},
             "empty": [], "nothing": null, "tags": ["a", "b"]}
            """#.utf8))

    struct Case: Sendable, CustomTestStringConvertible {
        var path: String
        var values: [String]
        var matches: Bool
        var testDescription: String { path }
    }

    static let cases: [Case] = [
        Case(path: "$.store.bicycle.color", values: ["red"], matches: true),
        Case(path: "$['store']['bicycle']['price']", values: ["19.95"], matches: true),
        Case(path: "$.store.book[0].author", values: ["Rees"], matches: true),
        Case(path: "$.store.book[-1].title", values: ["Rings"], matches: true),
        Case(path: "$.store.book[*].author", values: ["Rees", "Waugh", "Tolkien"], matches: true),
        Case(path: "$.store.book[0,2].title", values: ["Sayings", "Rings"], matches: true),
        Case(path: "$.store.book[1:].title", values: ["Sword", "Rings"], matches: true),
        Case(path: "$..author", values: ["Rees", "Waugh", "Tolkien"], matches: true),
        Case(path: "$.store.book[?(@.isbn)].title", values: ["Rings"], matches: true),
        Case(path: "$.store.book[?(@.price < 10)].title", values: ["Sayings"], matches: true),
        Case(
            path: "$.store.book[?(@.category == 'fiction' && @.price > 20)].author", values: ["Tolkien"],
            matches: true),
        Case(path: "$.store.book[?(@.author =~ /W.*/)].title", values: ["Sword"], matches: true),
        Case(path: "$.store.book[?(!(@.category == 'fiction'))].title", values: ["Sayings"], matches: true),
        Case(path: "$.tags.length()", values: ["2"], matches: true),
        Case(path: "$.store.book[?(@.price > 100)]", values: [], matches: false),
        Case(path: "$.empty", values: ["[]"], matches: false),
        Case(path: "$.nothing", values: ["null"], matches: false),
        Case(path: "$.missing.deeper", values: [], matches: false),
    ]

    @Test(arguments: cases)
    func evaluates(_ example: Case) throws {
        let path = try JSONPath(example.path)
        #expect(path.evaluate(Self.document).map(\.matchText) == example.values)
        #expect(path.matches(Self.document) == example.matches)
    }

    @Test(arguments: ["$.a[", "$.a[?(@.b == )]", "$.a[x]", "$.a[?(@.b =~ /(/)]"])
    func rejectsBrokenExpressions(_ expression: String) {
        #expect(throws: JSONPath.SyntaxError.self) { try JSONPath(expression) }
    }

    /// Each `!`, `(` or nested filter is a parser frame: a hundred thousand of them overflowed the stack of the
    /// thread loading the mapping. Past 64 levels the expression is refused; 64 still parse.
    @Test func deeplyNestedFiltersAreRefusedNotAStackOverflow() throws {
        for prefix in ["!", "(", "@.a[?("] {
            let deep = "$[?(" + String(repeating: prefix, count: 100_000) + "@.a)]"
            #expect(throws: JSONPath.SyntaxError.self) { try JSONPath(deep) }
        }
        let nested = "$.a[?(" + String(repeating: "!", count: 63) + "@.b)]"
        #expect(throws: Never.self) { try JSONPath(nested) }
        let admitted = try JSONPath(
            "$[?(" + String(repeating: "(", count: 60) + "@.b"
                + String(repeating: ")", count: 60) + ")]")
        #expect(admitted.evaluate(.array([.object(["b": .int(1)])])).count == 1)
    }

    /// `$..id` over nested objects returns each subtree again: 300 levels around a 1 MiB string are
    /// about 300 MiB of result text. A sub-matcher gets no match and a template an error, instead of
    /// the server writing all of it out.
    @Test func overlappingResultsAreBoundedBeforeTheyAreWritten() async throws {
        var document: JSONValue = .object(["id": .string(String(repeating: "x", count: 1 << 20))])
        for _ in 0..<300 { document = .object(["id": document]) }
        let results = try JSONPath("$..id").evaluate(document)
        #expect(results.count == 301)
        #expect(JSONValue.serializedSize(of: results, exceeds: 64 << 20))
        #expect(!JSONValue.serializedSize(of: Array(results.suffix(2)), exceeds: 64 << 20))

        let body = String(decoding: document.serialized(), as: UTF8.self)
        try await withMockServer { server throws in
            try server.addStubs(
                json: Data(
                    #"{"request": {"urlPath": "/ids", "bodyPatterns": [{"matchesJsonPath": {"expression": "$..id", "contains": "x"}}]}, "response": {"body": "matched"}}"#
                        .utf8))
            // Parsing 300 levels and sizing `$..id` over 1 MiB takes seconds under a sanitizer.
            #expect(try perform(server, "POST", "/ids", body: body, timeout: 120).status == 404)
            #expect(try perform(server, "POST", "/ids", body: #"{"id": "x"}"#).text == "matched")
        }
        let template = try Template("{{jsonPath doc '$..id'}}")
        let error = #expect(throws: Template.Failure.self) {
            try template.render(.map(["doc": .json(document)]))
        }
        #expect(
            error?.message.contains("jsonPath: the results exceed") == true, "\(String(describing: error))")
    }
}
