import Courier
import CourierContract
import CourierContractModel
import CourierPact
import CourierPrimitives
import Foundation
import MockServer

/// Records a consumer's exchanges with the mock server as a pact: each request, the response it
/// got and the provider state it was made in, with matching rules derived from the declared
/// operation's schemas (types and formats, not the example values).
///
/// Give its ``observer`` to the server's configuration, or use
/// `withPactMockServer(consumer:provider:operations:pactFile:handlers:_:)`, which writes the file
/// when the scope ends.
///
/// A request names its provider state with the `X-Pact-Provider-State` header (a state name, or
/// `{"name": …, "params": {…}}`, one field per state) and its description with `X-Pact-Description`;
/// otherwise the state set with ``given(_:params:)`` applies, and the description is the request
/// line and the operation (`GET /notes/n-1 (notes.get)`). These headers are not recorded.
public final class PactRecorder: Sendable {
    /// The header naming a provider state for one request.
    public static let stateHeader = "X-Pact-Provider-State"
    /// The header naming one request's interaction.
    public static let descriptionHeader = "X-Pact-Description"

    /// The consumer's name.
    public let consumer: String
    /// The provider's name.
    public let provider: String
    /// The operations whose schemas give the matching rules.
    public let operations: [APIOperation]
    private let state = Locked<(given: [ProviderState], interactions: [PactInteraction])>(([], []))
    /// Finds the declared operation of an exchange; built once.
    private let router: PathRouter<APIOperation>

    /// Creates a recorder.
    /// - Parameters:
    ///   - consumer: the consumer's name.
    ///   - provider: the provider's name.
    ///   - operations: the declared operations (matching rules come from their schemas; an exchange
    ///     with no declared operation is recorded with its exact values; the body of a declared
    ///     error status with no schema is not recorded, since the mock's wording is not the contract).
    public init(consumer: String, provider: String, operations: [APIOperation] = []) {
        self.consumer = consumer
        self.provider = provider
        self.operations = operations
        router = PathRouter(operations.map { (method: $0.method.rawValue, template: $0.path, value: $0) })
    }

    /// Makes the interactions recorded from now on need `name` (replacing earlier states).
    public func given(_ name: String, params: [String: JSONValue] = [:]) {
        state.withLock { $0.given = [ProviderState(name, params: params)] }
    }

    /// Makes the interactions recorded from now on need no provider state.
    public func clearStates() {
        state.withLock { $0.given = [] }
    }

    /// What the server calls with each exchange.
    public var observer: @Sendable (ServerRequest, ServerResponse) -> Void {
        { [self] request, response in record(request, response) }
    }

    /// The pact of what was recorded so far; a request made twice is one interaction, the last.
    public var pact: Pact {
        let interactions = state.withLock { $0.interactions }
        return Pact(consumer: consumer, provider: provider).merging(
            Pact(consumer: consumer, provider: provider, interactions: interactions))
    }

    /// How many exchanges were recorded.
    public var count: Int { state.withLock { $0.interactions.count } }

    /// Merges what was recorded into the pact file at `url` (see `PactFile.merge(_:into:)`).
    /// - Throws: `PactError` when the file holds another pair's pact or cannot be written.
    public func write(to url: URL) throws(PactError) {
        try PactFile.merge(pact, into: url)
    }

    /// Records one exchange.
    public func record(_ request: ServerRequest, _ response: ServerResponse) {
        var states = request.headers.values(for: Self.stateHeader).map(Self.providerState)
        let description = request.headers[Self.descriptionHeader]
        if states.isEmpty { states = state.withLock { $0.given } }
        let interaction = makeInteraction(request, response, states: states, description: description)
        state.withLock { $0.interactions.append(interaction) }
    }

    static func providerState(_ text: String) -> ProviderState {
        if let json = try? JSONValue.parseStrictly(Data(text.utf8)), let name = json["name"]?.stringValue {
            if case .object(let params)? = json["params"] { return ProviderState(name, params: params) }
            return ProviderState(name)
        }
        return ProviderState(text)
    }

    private func makeInteraction(
        _ request: ServerRequest, _ response: ServerResponse, states: [ProviderState], description: String?
    ) -> PactInteraction {
        let operation: APIOperation? =
            if case .route(let operation, _) = router.match(method: request.method, path: request.path) {
                operation
            } else {
                nil
            }
        let recordedRequest = PactRequestRecording(request: request, operation: operation).request
        let recordedResponse = PactResponseRecording(response: response, operation: operation).response
        let target = request.query.isEmpty ? request.decodedPath : request.target
        let name = description ?? "\(request.method) \(target)" + (operation.map { " (\($0.id))" } ?? "")
        return PactInteraction(
            description: name, providerStates: states, request: recordedRequest, response: recordedResponse)
    }
}
