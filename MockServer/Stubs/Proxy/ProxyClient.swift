import Foundation

/// Makes the outgoing request of a proxying stub (`proxyBaseUrl`) or of a recording.
///
/// The mock server's own ``URLSessionProxyClient`` is the default; a program that links another HTTP
/// client (the `courier` tool passes its libcurl transport) supplies it through
/// ``MockServerConfiguration/proxyClient``. The client must not follow redirects: the mock server
/// passes a 3xx back to its caller, as WireMock does.
public protocol ProxyClient: Sendable {
    /// Sends `request` and returns the upstream's answer, whatever its status.
    /// - Parameter request: the request to forward.
    /// - Returns: the upstream's status, headers and body.
    /// - Throws: the client's error when no response arrives (connection refused, TLS, timeout).
    func send(_ request: ProxyRequest) async throws -> ProxyResponse
}

/// A request the mock server forwards upstream.
public struct ProxyRequest: Sendable {
    /// The method, e.g. `GET`.
    public var method: String
    /// The upstream URL: the stub's base URL followed by the request's path and query.
    public var url: URL
    /// The header fields to send (hop-by-hop fields and `Host` already removed).
    public var headers: [(name: String, value: String)]
    /// The body (empty for none).
    public var body: Data
    /// The longest the exchange may take.
    public var timeout: Duration
    /// The largest response body to take: a client stops reading past it and fails with
    /// ``ProxyResponseTooLarge``.
    public var maxResponseBytes: Int64

    /// Creates a request.
    /// - Parameters:
    ///   - method: the method.
    ///   - url: the upstream URL.
    ///   - headers: the header fields.
    ///   - body: the body.
    ///   - timeout: the time limit.
    ///   - maxResponseBytes: the largest response body to take.
    public init(
        method: String, url: URL, headers: [(name: String, value: String)] = [], body: Data = Data(),
        timeout: Duration = .seconds(30), maxResponseBytes: Int64 = 64 << 20
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
    }
}

/// An upstream answer whose body is larger than the request's `maxResponseBytes`.
public struct ProxyResponseTooLarge: Error, Sendable, CustomStringConvertible {
    /// The budget it went past.
    public var limit: Int64

    /// Creates the error.
    /// - Parameter limit: the budget.
    public init(limit: Int64) {
        self.limit = limit
    }

    public var description: String { "the upstream's body is over \(limit) bytes" }
}

/// What the upstream answered.
public struct ProxyResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The header fields, in order.
    public var headers: [(name: String, value: String)]
    /// The body, decoded if the client undid a content coding (then without `Content-Encoding`).
    public var body: Data

    /// Creates a response.
    /// - Parameters:
    ///   - status: the status code.
    ///   - headers: the header fields.
    ///   - body: the body.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
