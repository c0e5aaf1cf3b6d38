import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where a response came from.
public enum ResponseSource: String, Sendable, Hashable, Codable {
    /// Sent by the server now.
    case network
    /// Served by an `HTTPCache` without asking the server.
    case cache
    /// Served by an `HTTPCache` after the server answered `304 Not Modified`.
    case revalidated
}

/// A decoded response: the value, and everything about how it arrived.
public struct Response<Value: Sendable>: Sendable {
    /// The decoded value.
    public var value: Value
    /// The status code.
    public var status: Int
    /// The response header fields.
    public var headers: HTTPHeaders
    /// The raw body, in memory or in a file.
    public var body: ResponseBody
    /// The request as it was finally sent, after interceptors adapted it.
    public var request: TransportRequest
    /// The URL that answered, after redirects.
    public var url: URL?
    /// Where the time went, for the last attempt.
    public var timings: Timings
    /// The HTTP version used.
    public var httpVersion: String?
    /// How many attempts it took, 1 when there was no retry.
    public var attempts: Int
    /// Whether it came from the network, a cache, or a cache after revalidation.
    public var source: ResponseSource

    /// Creates a response.
    public init(
        value: Value, status: Int, headers: HTTPHeaders, body: ResponseBody,
        request: TransportRequest, url: URL? = nil, timings: Timings = Timings(),
        httpVersion: String? = nil, attempts: Int = 1, source: ResponseSource = .network
    ) {
        self.value = value
        self.status = status
        self.headers = headers
        self.body = body
        self.request = request
        self.url = url
        self.timings = timings
        self.httpVersion = httpVersion
        self.attempts = attempts
        self.source = source
    }

    /// The same response with its value transformed.
    /// - Throws: whatever `transform` throws.
    public func map<T: Sendable>(_ transform: (Value) throws -> T) rethrows -> Response<T> {
        with(try transform(value), body: body)
    }

    /// The same response with `value`, and `body` as its body.
    package func with<T: Sendable>(_ value: T, body: ResponseBody) -> Response<T> {
        Response<T>(
            value: value, status: status, headers: headers, body: body, request: request, url: url,
            timings: timings, httpVersion: httpVersion, attempts: attempts, source: source)
    }
}
