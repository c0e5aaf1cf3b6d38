import CourierContract
import CourierContractModel
import CourierPact
import Foundation
import MockServer

/// Starts a mock server that records the consumer's exchanges as a pact, runs `body`, and when
/// `body` returns merges the interactions into `pactFile` (not when it throws: a failing consumer
/// test publishes no contract). The server always stops.
///
/// ```swift
/// import Courier
/// import MockServerContract
///
/// let pactFile = URL(fileURLWithPath: "pacts/NotesApp-NotesAPI.json")
/// try await withPactMockServer(
///     consumer: "NotesApp", provider: "NotesAPI", operations: NotesAPI.operations, pactFile: pactFile,
///     handlers: [ContractHandler(NotesAPI.self)]
/// ) { server, pact in
///     pact.given("a note exists", params: ["id": .string("n1")])
///     let manager = NetworkManager(transport: transport, baseURL: server.baseURL)
///     _ = try await manager.send(NotesAPI.note(id: "n1"))
/// }
/// ```
///
/// - Parameters:
///   - consumer: the consumer's name.
///   - provider: the provider's name.
///   - operations: the declared operations, whose schemas give the matching rules.
///   - pactFile: the pact file to merge into.
///   - configuration: the server's configuration (its `exchangeObserver` is the recorder's).
///   - handlers: the server's handlers (a `ContractHandler`, say).
///   - body: the consumer's test, given the server and the recorder.
/// - Returns: what `body` returns.
/// - Throws: `MockServerError` when the server cannot start, what `body` throws, or `PactError`
///   when the file cannot be written.
public func withPactMockServer<T: Sendable>(
    consumer: String, provider: String, operations: [APIOperation], pactFile: URL,
    configuration: MockServerConfiguration = .init(), handlers: [any HTTPHandler] = [],
    _ body: (MockServer, PactRecorder) async throws -> T
) async throws -> T {
    let recorder = PactRecorder(consumer: consumer, provider: provider, operations: operations)
    var configuration = configuration
    configuration.exchangeObserver = recorder.observer
    let result = try await withMockServer(configuration: configuration, handlers: handlers) { server in
        try await body(server, recorder)
    }
    try recorder.write(to: pactFile)
    return result
}
