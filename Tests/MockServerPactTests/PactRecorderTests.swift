import Courier
import CourierContract
import CourierPact
import CourierPrimitives
import CourierTesting
import Foundation
import MockServerPact
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct PactRecorderTests {
    let handler = ContractHandler(NotesAPI.self)

    func manager(_ server: MockServer) async throws -> NetworkManager {
        NetworkManager(transport: try await TransportUnderTest.curl.make(), baseURL: server.baseURL)
    }

    @Test func aConsumerTestWritesItsInteractionsWithRulesFromTheSchemas() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("NotesApp-NotesAPI.json")
        try await withPactMockServer(
            consumer: "NotesApp", provider: "NotesAPI", operations: NotesAPI.operations, pactFile: file,
            handlers: [handler]
        ) { server, pact in
            let manager = try await manager(server)
            _ = try await manager.send(NotesAPI.list(tag: "work"))
            pact.given("a note exists", params: ["id": .string("n1")])
            _ = try await manager.send(NotesAPI.note(id: "n1"))
            pact.clearStates()
            _ = try await manager.send(NotesAPI.create(NewNote(text: "Buy milk")))
            #expect(pact.count == 3)
        }
        let pact = try Pact(contentsOf: file)
        #expect(pact.consumer == "NotesApp")
        #expect(pact.provider == "NotesAPI")
        #expect(
            pact.interactions.map(\.description) == [
                "GET /notes?tag=work (notes.list)", "GET /notes/n1 (notes.note)",
                "POST /notes (notes.create)",
            ])
        let list = pact.interactions[0]
        #expect(list.request.query.first?.values == ["work"])
        #expect(list.response.matchingRules[.body]["$"] == RuleList([.typeBounded(min: 0, max: nil)]))
        let one = pact.interactions[1]
        #expect(one.providerStates == [ProviderState("a note exists", params: ["id": .string("n1")])])
        #expect(one.request.matchingRules[.path]["$"] == RuleList([.regex("/notes/(?:[A-Za-z0-9-]{1,64})")]))
        let rules = one.response.matchingRules[.body]
        #expect(rules["$.id"] == RuleList([.regex("[A-Za-z0-9-]{1,64}"), .type]))
        #expect(rules["$.text"] == RuleList([.regex("[\\s\\S]{1,500}"), .type]))
        #expect(rules["$.tags"] == RuleList([.typeBounded(min: 0, max: nil)]))
        #expect(
            rules["$.created"]?.matchers.first.map { if case .regex = $0 { true } else { false } } == true)
        #expect(one.response.headers["Content-Type"] == ["application/json"])
        // What the transport adds on its own (User-Agent, Host) is not part of the contract.
        #expect(one.request.headers["User-Agent"] == nil)
        #expect(one.request.headers["Host"] == nil)
        let create = pact.interactions[2]
        #expect(create.providerStates.isEmpty)
        #expect(create.request.body?.content == .json(.object(["text": .string("Buy milk")])))
        #expect(
            create.request.matchingRules[.body]["$.text"] == RuleList([.regex("[\\s\\S]{1,500}"), .type]))
        #expect(create.response.status == 201)
        // The recorded responses satisfy their own rules.
        for interaction in pact.interactions {
            let response = interaction.response
            #expect(
                response.mismatches(
                    status: response.status, headers: response.headers, body: response.body?.data ?? Data())
                    == [])
        }
    }

    @Test func headersNameTheStateAndTheDescriptionAndAreNotRecorded() async throws {
        let recorder = PactRecorder(consumer: "C", provider: "P", operations: NotesAPI.operations)
        var configuration = MockServerConfiguration()
        configuration.exchangeObserver = recorder.observer
        try await withMockServer(configuration: configuration, handlers: [handler]) { server in
            var request = URLRequest(url: server.baseURL.appendingPathComponent("notes/n2"))
            request.setValue(
                #"{"name": "a note exists", "params": {"id": "n2"}}"#,
                forHTTPHeaderField: PactRecorder.stateHeader)
            request.setValue("one note", forHTTPHeaderField: PactRecorder.descriptionHeader)
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            _ = try await manager(server).sendRaw(request)
        }
        let interaction = try #require(recorder.pact.interactions.first)
        #expect(interaction.description == "one note")
        #expect(interaction.providerStates == [ProviderState("a note exists", params: ["id": .string("n2")])])
        #expect(interaction.request.headers[PactRecorder.stateHeader] == nil)
        #expect(interaction.request.headers["Accept"] == ["application/json"])
    }

    /// The mock's refusal of a declared error status whose body the declaration leaves open (no
    /// error schema) is the mock's own wording: a pact recorded from it holds the status and the
    /// content type, not a body a real provider would have to repeat word for word.
    @Test func anErrorBodyTheDeclarationLeavesOpenIsNotPinned() async throws {
        let recorder = PactRecorder(consumer: "C", provider: "P", operations: NotesAPI.operations)
        var configuration = MockServerConfiguration()
        configuration.exchangeObserver = recorder.observer
        try await withMockServer(configuration: configuration, handlers: [handler]) { server in
            var request = URLRequest(url: server.baseURL.appendingPathComponent("notes"))
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(#"{"text": ""}"#.utf8)
            // A 400 fails the manager's validation; the exchange is recorded all the same.
            _ = try? await manager(server).sendRaw(request)
        }
        let interaction = try #require(recorder.pact.interactions.first)
        #expect(interaction.response.status == 400)
        #expect(interaction.response.body == nil, "\(String(describing: interaction.response.body))")
        #expect(interaction.response.matchingRules[.header]["Content-Type"] != nil)
    }

    @Test func runsMergeAndAFailingTestWritesNothing() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("pact.json")
        for tag in ["a", "b", "a"] {
            try await withPactMockServer(
                consumer: "C", provider: "P", operations: NotesAPI.operations, pactFile: file,
                handlers: [handler]
            ) { server, _ in
                _ = try await manager(server).send(NotesAPI.list(tag: tag))
            }
        }
        #expect(try Pact(contentsOf: file).interactions.count == 2)
        struct Failed: Error {}
        await #expect(throws: Failed.self) {
            try await withPactMockServer(
                consumer: "C", provider: "P", operations: NotesAPI.operations, pactFile: file,
                handlers: [handler]
            ) { server, _ in
                _ = try await manager(server).send(NotesAPI.list(tag: "c"))
                throw Failed()
            }
        }
        #expect(try Pact(contentsOf: file).interactions.count == 2)
    }
}
