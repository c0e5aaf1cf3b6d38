import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A complete request: the head as a `URLRequest`, plus a body that may stream from
/// disk and where the response body should go.
///
/// `URLRequest.httpBody` holds bytes in memory only, so a multipart upload of a 1 GiB
/// video cannot live in it; `HTTPRequest` carries such bodies beside the head.
public struct HTTPRequest: Sendable {
    /// Method, URL, headers and timeout. Its `httpBody` is not used; `body` is.
    public var urlRequest: URLRequest
    /// The body to send.
    public var body: RequestBody
    /// Where the response body should go.
    public var destination: ResponseDestination

    /// Creates a request.
    public init(
        urlRequest: URLRequest, body: RequestBody = .empty,
        destination: ResponseDestination = .memory
    ) {
        var head = urlRequest
        var body = body
        if let data = head.httpBody {
            if case .empty = body { body = .data(data) }
            // Only when set: every URLRequest setter copies Foundation's underlying request.
            head.httpBody = nil
        }
        self.urlRequest = head
        self.body = body
        self.destination = destination
    }

    /// The head with an in-memory body copied into `httpBody`, for code that needs a
    /// plain `URLRequest`. File and stream bodies are not copied.
    public var flattenedURLRequest: URLRequest {
        var request = urlRequest
        if case .data(let data) = body { request.httpBody = data }
        return request
    }
}
