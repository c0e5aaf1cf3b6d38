import Courier
import CourierContract
import CourierContractModel
import CourierTesting
import Foundation
import Testing

/// Schemas come from the models' `Codable` conformances, not from a second description.
struct SchemaDerivationTests {
    enum Mood: String, Codable, CaseIterable, Sendable { case calm, busy }

    struct Author: Codable, Sendable { var id: String }

    struct Note: Codable, Sendable, SchemaDescribing {
        var id: String
        var text: String
        var stars: Int
        var score: Double
        var done: Bool
        var created: Date
        var link: URL?
        var mood: Mood
        var author: Author
        var tags: [String]
        var extra: [String: Int]
        static let propertySchemas: [String: Schema] = ["text": .text(1, 500)]
    }

    @Test func aModelsSchemaFollowsItsCodableConformance() throws {
        guard case .model(let name, .object(let properties, let required)) = Schema.of(Note.self) else {
            Issue.record("not a named object: \(Schema.of(Note.self))")
            return
        }
        #expect(name == "SchemaDerivationTests.Note" || name == "Note")
        let byName = Dictionary(uniqueKeysWithValues: properties.map { ($0.name, $0.schema) })
        #expect(
            properties.map(\.name) == [
                "id", "text", "stars", "score", "done", "created", "link", "mood", "author", "tags", "extra",
            ])
        #expect(Set(required) == Set(properties.map(\.name)).subtracting(["link"]), "link is optional")
        #expect(byName["id"] == .anyString)
        #expect(byName["text"] == .text(1, 500), "SchemaDescribing refines a property")
        #expect(byName["stars"] == .integer())
        #expect(byName["score"] == .number())
        #expect(byName["done"] == .boolean)
        #expect(byName["created"] == .dateTime)
        #expect(byName["link"] == .uri)
        #expect(byName["mood"] == .enumeration(["calm", "busy"]))
        #expect(byName["tags"] == .array(.anyString))
        #expect(byName["extra"] == .map(.integer()))
        guard case .model(_, .object(let authorProperties, _)) = byName["author"] else {
            Issue.record("author is not a nested model")
            return
        }
        #expect(authorProperties.map(\.name) == ["id"])
    }

    struct Comment: Codable, Sendable {
        var replies: [Comment]
        var text: String
    }

    enum Status: String, Codable, Sendable { case open, closed }  // not CaseIterable

    struct Ticket: Codable, Sendable {
        var id: String
        var status: Status
    }

    /// A model inside itself is a `$ref` to the model being described, and the fields after it
    /// are still recorded; a model whose initializer fails part way is described that far, never
    /// as a `$ref` to nothing.
    @Test func recursiveAndPartlyDescribedModelsKeepTheirShape() throws {
        guard case .model(_, .object(let properties, _)) = Schema.of(Comment.self) else {
            Issue.record("not a named object: \(Schema.of(Comment.self))")
            return
        }
        #expect(properties.map(\.name) == ["replies", "text"])
        if case .array(.ref(let name)) = properties.first?.schema {
            #expect(name.hasSuffix("Comment"))
        } else {
            Issue.record("replies: \(String(describing: properties.first?.schema))")
        }
        guard case .model(_, .object(let ticket, _)) = Schema.of(Ticket.self) else {
            Issue.record("not a named object: \(Schema.of(Ticket.self))")
            return
        }
        #expect(ticket.map(\.name) == ["id", "status"])
        #expect(ticket.last?.schema == .anyString)
    }

    /// Two versions of one model, the second with a field added and nothing else changed: the
    /// field appears in the OpenAPI document of an API that returns it.
    struct Card: Codable, Sendable { var id: String }
    struct CardWithPin: Codable, Sendable {
        var id: String
        var pinned: Bool
    }

    enum CardsV1: API {
        static func card(id: String) -> Endpoint<Card> {
            endpoint(.get, "/cards/{id}", "A card") { Path("id", id) }
        }
        static var samples: [any EndpointDescribing] { [card(id: "c1")] }
    }

    enum Search: API {
        static func find(tags: [String], owner: String?) -> Endpoint<[Card]> {
            endpoint(.get, "/owners/{owner}/cards", "Cards with every tag") {
                Path("owner", owner)
                Query("tags", tags)
            }
        }
        static var samples: [any EndpointDescribing] { [find(tags: ["a"], owner: "o")] }
    }

    /// A list goes in the query as OpenAPI's default style writes it; a path parameter with no
    /// value fails the call instead of sending `{owner}` literally.
    @Test func listsGoInTheQueryAndAMissingPathValueFails() throws {
        let base = URL(string: "https://api.test")!
        let request = try Search.find(tags: ["red", "big one"], owner: "ann").makeRequest(baseURL: base)
        #expect(request.url.absoluteString == "https://api.test/owners/ann/cards?tags=red&tags=big%20one")
        let error = #expect(throws: CourierError.self) {
            try Search.find(tags: [], owner: nil).makeRequest(baseURL: base)
        }
        #expect(error?.code == .invalidURL)
        #expect(error?.message.contains("owner") == true, "\(String(describing: error))")
    }

    enum CardsV2: API {
        static func card(id: String) -> Endpoint<CardWithPin> {
            endpoint(.get, "/cards/{id}", "A card") { Path("id", id) }
        }
        static var samples: [any EndpointDescribing] { [card(id: "c1")] }
    }

    @Test func aFieldAddedToAModelAppearsInTheOpenAPIDocument() throws {
        func document(_ operations: [APIOperation]) throws -> String {
            String(decoding: try OpenAPIWriter.data(title: "Cards", operations: operations), as: UTF8.self)
        }
        let before = try document(CardsV1.operations)
        let after = try document(CardsV2.operations)
        #expect(!before.contains("\"pinned\""))
        #expect(after.contains("\"pinned\""))
        #expect(CardsV2.operations.first?.id == "cardsV2.card")
    }
}

/// StubTransport routes by the declarations too.
struct StubTransportDeclarationTests {
    @Test func aDeclaredOperationIsRoutedByItsTemplateAndExamplesAnswerTheRest() async throws {
        let stub = StubTransport()
        stub.on(SchemaDerivationTests.CardsV2.card(id: "").operation) { request in
            .json(#"{"id":"\#(request.url.lastPathComponent)","pinned":true}"#)
        }
        let manager = NetworkManager(transport: stub, baseURL: URL(string: "https://cards.test"))
        let card = try await manager.send(SchemaDerivationTests.CardsV2.card(id: "c42")).value
        #expect(card.id == "c42" && card.pinned)

        let examples = StubTransport()
        examples.serveExamples(of: SchemaDerivationTests.CardsV1.self)
        let example = try await NetworkManager(
            transport: examples, baseURL: URL(string: "https://cards.test")
        )
        .send(SchemaDerivationTests.CardsV1.card(id: "any")).value
        let expected = SchemaDerivationTests.CardsV1.card(id: "").operation.success.schema?.example()
        #expect(example.id == expected?["id"]?.stringValue, "the schema's own example, which it accepts")
    }
}
