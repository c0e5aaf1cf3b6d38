import Courier
import CourierContract
import CourierContractModel
import CourierPrimitives
import Foundation
import Testing

/// What a declaration says is what its OpenAPI document says: the response's media type, the
/// security schemes, the error responses' media type, and only the statuses it lists when it asks
/// for no refusal statuses of its own.
struct DeclaredDocumentTests {
    struct Problem: Codable, Sendable {
        var title: String?
    }

    enum MuseumAPI: API {
        static var errorSchema: Schema? { .of(Problem.self) }
        static var errorContentType: String { "application/problem+json" }
        static var declaresRefusals: Bool { false }

        static func hours() -> Endpoint<String> {
            endpoint(.get, "/hours", "Opening hours", contentType: "text/plain") {}
        }

        static func code(id: String) -> Endpoint<Data> {
            endpoint(
                .get, "/codes/{id}", "A ticket's code", security: [.basic, .apiKey("X-API-Key")],
                contentType: "application/octet-stream", errors: [401, 404]
            ) {
                Path("id", id)
            }
        }

        static var samples: [any EndpointDescribing] { [hours(), code(id: "t1")] }
    }

    static var document: JSONValue { OpenAPIWriter.make(title: "Museum", operations: MuseumAPI.operations) }

    @Test func theResponsesMediaTypeIsTheDeclaredOne() {
        let hours = Self.document["paths"]?["/hours"]?["get"]?["responses"]?["200"]?["content"]
        #expect(hours?.objectKeys == ["text/plain"])
        #expect(hours?["text/plain"]?["schema"]?["type"] == .string("string"))
        let code = Self.document["paths"]?["/codes/{id}"]?["get"]?["responses"]?["200"]?["content"]
        #expect(code?.objectKeys == ["application/octet-stream"])
        #expect(code?["application/octet-stream"]?["schema"]?["format"] == .string("binary"))
    }

    @Test func onlyTheListedStatusesWithTheErrorMediaType() {
        let responses = Self.document["paths"]?["/codes/{id}"]?["get"]?["responses"]
        #expect(responses?.objectKeys == ["200", "401", "404"])
        #expect(responses?["404"]?["content"]?.objectKeys == ["application/problem+json"])
        #expect(Self.document["paths"]?["/hours"]?["get"]?["responses"]?.objectKeys == ["200"])
    }

    @Test func securitySchemesAreAlternatives() {
        let security = Self.document["paths"]?["/codes/{id}"]?["get"]?["security"]
        #expect(security == .array([.object(["basic": .array([])]), .object(["apiKey": .array([])])]))
        let schemes = Self.document["components"]?["securitySchemes"]
        #expect(schemes?["basic"] == .object(["type": .string("http"), "scheme": .string("basic")]))
        #expect(
            schemes?["apiKey"]
                == .object(["type": .string("apiKey"), "in": .string("header"), "name": .string("X-API-Key")])
        )
        #expect(MuseumAPI.code(id: "t").operation.requiresAuth)
        #expect(!MuseumAPI.hours().operation.requiresAuth)
    }

    @Test func aResponseOfTheDeclaredMediaTypeIsNoViolation() {
        let operation = MuseumAPI.hours().operation
        #expect(
            operation.responseViolations(status: 200, contentType: "text/plain", body: Data("9 to 5".utf8))
                .isEmpty)
        #expect(
            operation.responseViolations(status: 200, contentType: "application/json", body: Data("1".utf8))
                .map(\.rule) == ["content-type"])
    }
}

extension JSONValue {
    /// An object's keys in order; none for another value.
    fileprivate var objectKeys: [String] {
        if case .object(let members) = self { return members.keys.sorted() }
        return []
    }
}
