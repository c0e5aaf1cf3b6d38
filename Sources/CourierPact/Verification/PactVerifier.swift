import Courier
import CourierPrimitives
import Foundation

/// Verifies a provider against a pact, as Pact's verifiers do: for each interaction it posts the
/// provider states to the provider-state URL, replays the request, and matches the response by
/// the interaction's rules, collecting every mismatch.
///
/// ```swift
/// let pact = try Pact(contentsOf: URL(fileURLWithPath: "pacts/NotesApp-NotesAPI.json"))
/// let verifier = PactVerifier(
///     transport: transport, baseURL: baseURL,
///     providerStatesURL: baseURL.appendingPathComponent("_pact/provider-states"))
/// let verification = await verifier.verify(pact)
/// let failures = verification.results.filter { !$0.passed }
/// ```
public struct PactVerifier: Sendable {
    /// The transport requests go through.
    public var transport: any Transport
    /// The provider's base URL; an interaction's path is appended to it.
    public var baseURL: URL
    /// Where provider states are posted (`{"action": "setup", "params": {…}, "state": "…"}`,
    /// one request per state); nil posts none.
    public var providerStatesURL: URL?
    /// Whether each state is also posted with `"action": "teardown"` after its interaction.
    public var teardownStates: Bool
    /// Header fields added to every replayed request (a token the pact cannot hold, say), replacing
    /// the interaction's own of the same name.
    public var extraHeaders: [(name: String, value: String)]
    /// The longest one request may take.
    public var timeout: Duration

    /// Creates a verifier.
    public init(
        transport: any Transport, baseURL: URL, providerStatesURL: URL? = nil, teardownStates: Bool = false,
        extraHeaders: [(name: String, value: String)] = [], timeout: Duration = .seconds(30)
    ) {
        self.transport = transport
        self.baseURL = baseURL
        self.providerStatesURL = providerStatesURL
        self.teardownStates = teardownStates
        self.extraHeaders = extraHeaders
        self.timeout = timeout
    }

    /// Replays every interaction of `pact` in order and reports each one's outcome.
    public func verify(_ pact: Pact) async -> PactVerification {
        var results: [PactVerification.Result] = []
        for interaction in pact.interactions {
            results.append(await verify(interaction))
        }
        return PactVerification(consumer: pact.consumer, provider: pact.provider, results: results)
    }

    /// Sets up the states, replays `interaction` and matches the response.
    public func verify(_ interaction: PactInteraction) async -> PactVerification.Result {
        var result = PactVerification.Result(interaction: interaction)
        for state in interaction.providerStates {
            if let failure = await changeState(state, action: "setup") {
                result.error = "provider state '\(state.name)' could not be set up: \(failure)"
                return result
            }
        }
        do {
            let response = try await transport.send(request(for: interaction.request))
            var headers = PactHeaders()
            for field in response.headers { headers.add(field.name, values: [field.value]) }
            result.status = response.status
            result.mismatches = interaction.response.mismatches(
                status: response.status, headers: headers, body: response.body.data)
        } catch {
            result.error = "the request failed: \(error)"
        }
        if teardownStates {
            for state in interaction.providerStates {
                if let failure = await changeState(state, action: "teardown"), result.error == nil {
                    result.error = "provider state '\(state.name)' could not be torn down: \(failure)"
                }
            }
        }
        return result
    }

    /// The transport request that replays `request` against the base URL.
    func request(for request: PactRequest) throws -> TransportRequest {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) ?? URLComponents()
        let base = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        components.path = base + (request.path.hasPrefix("/") ? request.path : "/" + request.path)
        if !request.query.isEmpty {
            components.queryItems = request.query.flatMap { name, values in
                values.map { URLQueryItem(name: name, value: $0) }
            }
            // `+` in a value is a space to many servers: send it encoded.
            components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(
                of: "+", with: "%2B")
        }
        guard let url = components.url else {
            throw PactError(path: request.path, reason: "does not make a URL with \(baseURL)")
        }
        var headers = HTTPHeaders()
        let replaced = Set(extraHeaders.map { $0.name.lowercased() })
        for (name, values) in request.headers where !replaced.contains(name.lowercased()) {
            for value in values { headers.add(name: name, value: value) }
        }
        for (name, value) in extraHeaders { headers.add(name: name, value: value) }
        if let body = request.body, headers["Content-Type"] == nil, let type = body.contentType {
            headers.add(name: "Content-Type", value: type)
        }
        return TransportRequest(
            method: HTTPMethod(rawValue: request.method), url: url, headers: headers,
            body: request.body.map { .data($0.data) } ?? .empty,
            options: TransferOptions(totalTimeout: timeout, maxRedirects: 0))
    }

    /// Posts one state change; the reason it failed, or nil.
    private func changeState(_ state: ProviderState, action: String) async -> String? {
        guard let providerStatesURL else { return nil }
        let body: JSONValue = .object([
            "action": .string(action), "params": .object(state.params), "state": .string(state.name),
        ])
        let request = TransportRequest(
            method: .post, url: providerStatesURL, headers: ["Content-Type": "application/json"],
            body: .data(body.serialized()), options: TransferOptions(totalTimeout: timeout, maxRedirects: 0))
        do {
            let response = try await transport.send(request)
            guard (200...299).contains(response.status) else {
                return "\(providerStatesURL) answered \(response.status)"
            }
            return nil
        } catch {
            return "\(error)"
        }
    }
}

/// The outcome of verifying a pact: one result per interaction.
public struct PactVerification: Sendable {
    /// One interaction's outcome.
    public struct Result: Sendable {
        /// The interaction.
        public var interaction: PactInteraction
        /// The status that came back, if a response did.
        public var status: Int?
        /// Every way the response differed.
        public var mismatches: [PactMismatch] = []
        /// Why the interaction could not be checked (a state that failed, a request that failed).
        public var error: String?

        /// Whether the interaction passed.
        public var passed: Bool { error == nil && mismatches.isEmpty }
    }

    /// The consumer's name.
    public var consumer: String
    /// The provider's name.
    public var provider: String
    /// The results, in the pact's order.
    public var results: [Result]

    /// Whether every interaction that is not pending passed.
    public var passed: Bool { results.allSatisfy { $0.passed || $0.interaction.pending } }

    /// A report a person can read: each interaction, then each mismatch with its path, what was
    /// expected and what arrived, and a summary line.
    public var report: String {
        var lines = ["Verifying a pact between \(consumer) and \(provider)"]
        for result in results {
            var title = "  \(result.interaction.description)"
            for (index, state) in result.interaction.providerStates.enumerated() {
                title += (index == 0 ? " given " : " and ") + state.name
            }
            lines.append(
                title
                    + (result.passed
                        ? ": OK" : result.interaction.pending ? ": FAILED (pending)" : ": FAILED"))
            if let error = result.error { lines.append("      \(error)") }
            for mismatch in result.mismatches {
                lines.append("      \(mismatch.kind.rawValue) \(mismatch.path): \(mismatch.mismatch)")
                lines.append("        expected: \(mismatch.expected)")
                lines.append("        actual:   \(mismatch.actual)")
            }
        }
        let failed = results.filter { !$0.passed }.count
        let mismatches = results.reduce(0) { $0 + $1.mismatches.count }
        lines.append(
            "\(results.count) interactions, \(failed) failed, \(mismatches) mismatches")
        return lines.joined(separator: "\n")
    }
}
