import CourierPrimitives
import Foundation
import MockServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A mock server that answers URLSession requests in process, without a socket: WireMock stubs, and
/// the handlers the socket server takes (a declared API's `ContractHandler`, an `OpenAPIHandler`).
///
/// Each mock is a scope of its own: it answers requests to its ``baseURL`` (a host no other mock has),
/// to hosts it claims with ``serve(host:)`` (refused while another live mock serves them), and
/// requests that carry its ``token`` in ``CourierURLProtocol/scopeHeader``. Parallel tests therefore
/// never see each other's stubs. Its journal and verification are the admin API's; a request no stub
/// or handler answers gets the 404 naming the closest stub, and is kept in ``unmatchedRequests``.
///
/// ```swift
/// try await withURLProtocolMock { mock in
///     try mock.addStubs(json: Data(#"{"request": {"url": "/ping"}, "response": {"body": "pong"}}"#.utf8))
///     let configuration = URLSessionConfiguration.ephemeral
///     mock.install(into: configuration)
///     let session = URLSession(configuration: configuration)
///     let (data, _) = try await session.data(from: mock.baseURL.appendingPathComponent("ping"))
///     assert(String(decoding: data, as: UTF8.self) == "pong")
/// }
/// ```
public final class URLProtocolMock: Sendable {
    /// The name of this scope, for ``CourierURLProtocol/scopeHeader``.
    public let token: String
    /// A base URL that only this mock answers, `http://<token>.urlprotocol.invalid`.
    public let baseURL: URL
    let server: MockServer
    /// The cassette that answers instead of the stubs, recording as its mode allows.
    public let cassette: Cassette?
    private let unmatched = Locked<[UnmatchedRequest]>([])

    /// Creates a mock and makes it live; ``close()`` ends it.
    /// - Parameters:
    ///   - configuration: the stub settings (a mappings folder, templating, the journal's size); its
    ///     socket settings are unused.
    ///   - handlers: handlers tried after the stubs, as the socket server tries them.
    ///   - cassette: a cassette that answers instead of the stubs and handlers: its recordings are
    ///     replayed, and a request it has none for goes to the network and is recorded when its mode
    ///     allows (else it fails naming the closest recording). Save it with ``Cassette/save()``.
    /// - Throws: ``MockServerError`` when the mappings folder holds an invalid mapping.
    public init(
        configuration: MockServerConfiguration = .init(), handlers: [any HTTPHandler] = [],
        cassette: Cassette? = nil
    ) throws {
        self.cassette = cassette
        token = UUID().uuidString.lowercased()
        let host = "\(token).urlprotocol.invalid"
        baseURL = URL(string: "http://\(host)")!  // allowed: a UUID and fixed text make a valid URL
        server = MockServer(configuration: configuration, handlers: handlers)
        try server.loadMappings()
        URLProtocolRegistry.shared.add(self)
        try URLProtocolRegistry.shared.claim(host, for: self)
    }

    /// Ends the scope: its requests go to the network again.
    public func close() {
        URLProtocolRegistry.shared.remove(self)
    }

    /// Adds stubs from WireMock mapping JSON (one mapping, or `{"mappings": [...]}`).
    /// - Parameter json: the mapping document.
    /// - Returns: the ids of the added stubs.
    /// - Throws: ``MockServerError`` naming the problem.
    @discardableResult
    public func addStubs(json: Data) throws -> [String] {
        try server.addStubs(json: json)
    }

    /// Adds a stub for each entry of a HAR 1.2 file (see `HAR`).
    /// - Parameter har: the HAR file.
    /// - Returns: the ids of the added stubs.
    /// - Throws: `HARError` or ``MockServerError`` naming the problem.
    @discardableResult
    public func addStubs(har: Data) throws -> [String] {
        try server.addStubs(har: har)
    }

    /// The requests received as a HAR 1.2 document, with the statuses they were answered with.
    public func journalAsHAR() -> Data {
        server.journalAsHAR()
    }

    /// Answers requests to `host` (any port, any scheme) from this mock, for code that calls a fixed
    /// host (`https://api.example.com`).
    /// - Parameter host: the host name.
    /// - Throws: ``URLProtocolMockError`` when another live mock serves the host.
    public func serve(host: String) throws(URLProtocolMockError) {
        try URLProtocolRegistry.shared.claim(host, for: self)
    }

    /// Puts ``CourierURLProtocol`` first in `configuration`'s protocol classes, so sessions made from
    /// it (a `URLSessionTransport` included) are answered by the live mocks.
    /// - Parameter configuration: the configuration to change.
    public func install(into configuration: URLSessionConfiguration) {
        let others = (configuration.protocolClasses ?? []).filter { $0 != CourierURLProtocol.self }
        configuration.protocolClasses = [CourierURLProtocol.self] + others
    }

    /// The requests no stub or handler answered, each with the 404 text naming the closest stub.
    public var unmatchedRequests: [UnmatchedRequest] {
        unmatched.withLock { $0 }
    }

    /// Answers a request through the mock server's chain, keeping it if nothing matched.
    func answer(_ request: ServerRequest) -> InProcessAnswer {
        let answer = server.answerInProcess(request)
        if !answer.matched {
            noteUnmatched(request, nearMisses: String(decoding: answer.body, as: UTF8.self))
        }
        return answer
    }

    /// Keeps a request nothing answered.
    func noteUnmatched(_ request: ServerRequest, nearMisses: String) {
        unmatched.withLock {
            $0.append(
                UnmatchedRequest(method: request.method, target: request.target, nearMisses: nearMisses))
        }
    }
}

/// A request a ``URLProtocolMock`` could not answer.
public struct UnmatchedRequest: Sendable, Hashable, CustomStringConvertible {
    /// The method.
    public var method: String
    /// The request-target (path and query).
    public var target: String
    /// The mock's 404 text: the closest stub and what differed.
    public var nearMisses: String

    /// `METHOD target`, then the near misses.
    public var description: String { "\(method) \(target)\n\(nearMisses)" }
}

/// Why a ``URLProtocolMock`` refused, or why a scope failed its checks.
public struct URLProtocolMockError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public var message: String
    /// The requests nothing answered, when that is the failure.
    public var unmatched: [UnmatchedRequest]

    /// Creates an error.
    /// - Parameters:
    ///   - message: what went wrong.
    ///   - unmatched: the unanswered requests.
    public init(_ message: String, unmatched: [UnmatchedRequest] = []) {
        self.message = message
        self.unmatched = unmatched
    }

    /// The message, then each unmatched request.
    public var description: String {
        ([message] + unmatched.map(\.description)).joined(separator: "\n")
    }
}
