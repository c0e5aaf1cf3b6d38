import CourierPrimitives
import Foundation
import Testing

@testable import CourierPact

let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

@Suite struct PactReadingTests {
    @Test func readsAVersion3File() throws {
        let pact = try Pact(contentsOf: fixtures.appendingPathComponent("v3-notes.json"))
        #expect(pact.consumer == "NotesApp")
        #expect(pact.provider == "NotesAPI")
        #expect(pact.specificationVersion == "3.0.0")
        #expect(pact.interactions.count == 2)
        let first = pact.interactions[0]
        #expect(
            first.providerStates == [
                ProviderState("a note exists", params: ["id": .string("n-1"), "pinned": .bool(true)])
            ])
        #expect(first.request.method == "GET")
        #expect(first.request.query.map(\.name) == ["fields"])
        #expect(first.request.query.first?.values == ["title", "tags"])
        #expect(first.request.headers["accept"] == ["application/json"])
        #expect(first.request.matchingRules[.path]["$"] == RuleList([.regex("/notes/[a-z0-9-]+")]))
        #expect(
            first.response.body?.content
                == .json(
                    .object([
                        "id": .string("n-1"), "title": .string("Buy milk"), "tags": .array([.string("home")]),
                        "created": .string("2026-01-01T10:00:00Z"), "views": .int(3),
                    ])))
        let body = first.response.matchingRules[.body]
        #expect(body["$.tags"] == RuleList([.typeBounded(min: 1, max: nil)]))
        #expect(body["$.created"] == RuleList([.dateTime(format: "yyyy-MM-dd'T'HH:mm:ssXXX")]))
        #expect(body["$.views"] == RuleList([.integer]))
        #expect(
            first.response.matchingRules[.header]["Content-Type"] == RuleList([.regex("application/json.*")]))
        #expect(pact.interactions[1].response.status == 204)
        #expect(pact.interactions[1].response.body == nil)
    }

    @Test func readsAVersion2File() throws {
        let pact = try Pact(contentsOf: fixtures.appendingPathComponent("v2-notes.json"))
        #expect(pact.specificationVersion == "2.0.0")
        let interaction = try #require(pact.interactions.first)
        #expect(interaction.providerStates == [ProviderState("notes exist")])
        #expect(interaction.request.query.map(\.name) == ["q", "tag"])
        #expect(interaction.request.query.last?.values == ["home", "work"])
        let rules = interaction.response.matchingRules
        #expect(rules[.body]["$.items"] == RuleList([.typeBounded(min: 1, max: nil)]))
        #expect(rules[.body]["$.items[*].id"] == RuleList([.regex("n-\\d+")]))
        #expect(rules[.header]["Content-Type"] == RuleList([.regex("application/json.*")]))
    }

    @Test func aVersion4PactSurvivesWritingAndReading() throws {
        var rules = MatchingRules()
        rules[.body] = [
            "$.id": RuleList([.regex("n-\\d+")]), "$.tags": RuleList([.typeBounded(min: 0, max: 5)]),
            "$.meta": RuleList([.eachKey([.regex("[a-z]+")]), .eachValue([.type])]),
            "$.flag": RuleList([.null, .boolean], combine: .or),
        ]
        rules[.header] = ["Content-Type": RuleList([.regex("application/json.*")])]
        rules[.status] = ["$": RuleList([.statusCode(.success)])]
        rules[.path] = ["$": RuleList([.regex("/notes/.+")])]
        let interaction = PactInteraction(
            description: "a note",
            providerStates: [ProviderState("a note exists", params: ["id": .string("n-1")])],
            request: PactRequest(
                method: "POST", path: "/notes/n-1", query: [("q", ["a", "b"])],
                headers: PactHeaders([("Content-Type", ["application/json"])]),
                body: .json(.object(["t": .string("x")])),
                matchingRules: rules),
            response: PactResponse(
                status: 201, headers: PactHeaders([("Content-Type", ["application/json"])]),
                body: .json(.object(["id": .string("n-1")])), matchingRules: rules))
        let binary = PactInteraction(
            description: "a picture", request: PactRequest(method: "GET", path: "/p"),
            response: PactResponse(
                status: 200, body: PactBody(.bytes(Data([0, 255, 1])), contentType: "image/png")))
        let text = PactInteraction(
            description: "a text", request: PactRequest(method: "GET", path: "/t"),
            response: PactResponse(status: 200, body: PactBody(.text("hello"), contentType: "text/plain")))
        let pact = Pact(consumer: "App", provider: "API", interactions: [interaction, binary, text])
        let read = try Pact(data: pact.encoded())
        #expect(read.interactions == pact.interactions)
        #expect(read.specificationVersion == "4.0")
        #expect(read.json["interactions"] == pact.json["interactions"])
        // The same pact is written as the same bytes.
        #expect(read.encoded() == pact.encoded())
    }

    static let badDocuments: [(text: String, path: String, reason: String)] = [
        ("{\"consumer\": {\"name\": \"A\"}", "$", "malformed JSON"),
        ("[]", "$", "must be an object"),
        ("{\"provider\": {\"name\": \"B\"}}", "$.consumer", "is required"),
        (
            "{\"consumer\": {\"name\": 3}, \"provider\": {\"name\": \"B\"}}", "$.consumer.name",
            "must be a string"
        ),
        (
            "{\"consumer\": {\"name\": \"A\"}, \"provider\": {\"name\": \"B\"}, \"interactions\": [{\"description\": \"x\","
                + " \"request\": {\"path\": \"/\"}, \"response\": {}}]}",
            "$.interactions[0].request.method", "is required"
        ),
        (
            "{\"consumer\": {\"name\": \"A\"}, \"provider\": {\"name\": \"B\"}, \"interactions\": [{\"type\":"
                + " \"Asynchronous/Messages\", \"description\": \"x\"}]}",
            "$.interactions[0].type", "not supported"
        ),
        (
            "{\"consumer\": {\"name\": \"A\"}, \"provider\": {\"name\": \"B\"}, \"interactions\": [{\"description\": \"x\","
                + " \"request\": {\"method\": \"GET\"}, \"response\": {\"status\": \"two hundred\"}}]}",
            "$.interactions[0].response.status", "must be an integer"
        ),
        (
            "{\"consumer\": {\"name\": \"A\"}, \"provider\": {\"name\": \"B\"}, \"interactions\": [{\"description\": \"x\","
                + " \"request\": {\"method\": \"GET\"}, \"response\": {\"matchingRules\": {\"body\": {\"$.a\":"
                + " {\"matchers\": [{\"match\": \"telepathy\"}]}}}}}]}",
            "$.interactions[0].response.matchingRules.body['$.a'].matchers[0]", "unknown matcher 'telepathy'"
        ),
        (
            "{\"consumer\": {\"name\": \"A\"}, \"provider\": {\"name\": \"B\"}, \"interactions\": [{\"description\": \"x\","
                + " \"request\": {\"method\": \"GET\"}, \"response\": {\"body\": {\"content\": \"@@\", \"encoded\": \"base64\"}}}]}",
            "$.interactions[0].response.body.content", "is not base64"
        ),
    ]

    @Test(arguments: badDocuments)
    func aBadDocumentIsATypedErrorSayingWhere(_ document: (text: String, path: String, reason: String)) {
        #expect {
            try Pact(data: Data(document.text.utf8))
        } throws: { error in
            guard let error = error as? PactError else { return false }
            return error.path == document.path && error.reason.contains(document.reason)
        }
    }

    @Test func aMissingFileIsATypedError() {
        #expect(throws: PactError.self) {
            try Pact(contentsOf: URL(fileURLWithPath: "/nonexistent/pact.json"))
        }
    }
}
