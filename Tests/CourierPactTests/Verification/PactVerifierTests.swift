import Courier
import CourierContract
import CourierContractModel
import CourierPrimitives
import CourierTesting
import Foundation
import MockServerPact
import TestSupport
import Testing

@testable import CourierPact

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct PactVerifierTests {
    /// The consumer's pact, recorded against the faithful provider: four interactions, one of them
    /// without a token (it must get 401), one in a provider state.
    static func recordPact() async throws -> Pact {
        let recorder = PactRecorder(
            consumer: "NotesApp", provider: "NotesAPI", operations: NotesAPI.operations)
        var configuration = MockServerConfiguration()
        configuration.exchangeObserver = recorder.observer
        try await withMockServer(configuration: configuration, handlers: [notesProvider(drift: nil)]) {
            server in
            let transport = try await TransportUnderTest.curl.make()
            let manager = NetworkManager(
                transport: transport, baseURL: server.baseURL,
                defaultHeaders: ["Authorization": "Bearer t0ken"])
            _ = try await manager.send(NotesAPI.list)
            recorder.given("a note exists", params: ["id": .string("n1")])
            _ = try await manager.send(NotesAPI.note(id: "n1"))
            recorder.clearStates()
            _ = try await manager.send(NotesAPI.create(NewNote(text: "Buy milk")))
            let anonymous = NetworkManager(transport: transport, baseURL: server.baseURL)
            var request = URLRequest(url: server.baseURL.appendingPathComponent("notes/n1"))
            request.setValue("no token", forHTTPHeaderField: PactRecorder.descriptionHeader)
            // The 401 is the answer the consumer expects; the manager reports it as an error.
            await #expect(throws: CourierError.self) { try await anonymous.sendRaw(request) }
        }
        return recorder.pact
    }

    func verify(_ pact: Pact, against drift: Drift?) async throws -> (PactVerification, [JSONValue]) {
        let states = Locked<[JSONValue]>([])
        let stateHandler = ClosureHandler { request in
            guard request.path == "/_pact/provider-states" else { return nil }
            if let body = try? JSONValue.parse(request.body) { states.withLock { $0.append(body) } }
            return ServerResponse(status: 200)
        }
        let verification = try await withMockServer(handlers: [stateHandler, notesProvider(drift: drift)]) {
            server in
            let verifier = PactVerifier(
                transport: try await TransportUnderTest.curl.make(), baseURL: server.baseURL,
                providerStatesURL: server.baseURL.appendingPathComponent("_pact/provider-states"))
            return await verifier.verify(pact)
        }
        return (verification, states.withLock { $0 })
    }

    @Test func theFaithfulProviderPassesAndStatesArePostedAsPactsVerifiersDo() async throws {
        let pact = try await Self.recordPact()
        #expect(pact.interactions.count == 4)
        let (verification, states) = try await verify(pact, against: nil)
        #expect(verification.passed, "\(verification.report)")
        #expect(verification.results.allSatisfy { $0.mismatches.isEmpty && $0.error == nil })
        #expect(
            states == [
                .object([
                    "action": .string("setup"), "params": .object(["id": .string("n1")]),
                    "state": .string("a note exists"),
                ])
            ])
    }

    @Test(arguments: Drift.allCases)
    func eachDriftIsReported(_ drift: Drift) async throws {
        let pact = try await Self.recordPact()
        let (verification, _) = try await verify(pact, against: drift)
        #expect(!verification.passed)
        let mismatches = verification.results.flatMap(\.mismatches)
        #expect(
            mismatches.contains { $0.kind.rawValue == drift.expected.kind && $0.path == drift.expected.path },
            "\(drift): \(verification.report)")
        #expect(verification.report.contains("FAILED"))
    }

    @Test func aStateThatFailsIsAnErrorAndTheRequestIsNotSent() async throws {
        let pact = try await Self.recordPact()
        let verification = try await withMockServer(handlers: [notesProvider(drift: nil)]) { server in
            let verifier = PactVerifier(
                transport: try await TransportUnderTest.curl.make(), baseURL: server.baseURL,
                providerStatesURL: server.baseURL.appendingPathComponent("no-such-state-endpoint"))
            return await verifier.verify(pact)
        }
        let failed = verification.results.filter { !$0.passed }
        #expect(failed.count == 1)
        #expect(failed.first?.error?.contains("a note exists") == true)
        #expect(failed.first?.status == nil)
    }
}
