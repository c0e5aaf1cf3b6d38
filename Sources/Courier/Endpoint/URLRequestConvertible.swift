import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A value that can become a `URLRequest`.
///
/// Unlike the seed's version, which returned `nil` on failure, `asURLRequest()` throws a
/// `CourierError` saying what was wrong.
public protocol URLRequestConvertible: Sendable {
    /// Builds the request.
    /// - Throws: `CourierError` with an invalid-request code.
    func asURLRequest() throws -> URLRequest
}

extension URLRequestConvertible {
    /// The request with a body that may stream (multipart file parts): an endpoint's own
    /// building, the request itself, or `asURLRequest()` wrapped.
    package func transportRequest() throws -> TransportRequest {
        if let request = self as? TransportRequest { return request }
        if let endpoint = self as? EndpointRequest { return try endpoint.makeRequest() }
        if let configurable = self as? any APIConfigurable {
            return try configurable.makeRequest(baseURL: configurable.baseURL)
        }
        return TransportRequest(urlRequest: try asURLRequest())
    }
}

extension URLRequest: URLRequestConvertible {
    /// Returns the request itself.
    public func asURLRequest() throws -> URLRequest { self }
}

extension TransportRequest: URLRequestConvertible {
    /// Returns the head with an in-memory body in `httpBody`.
    public func asURLRequest() throws -> URLRequest { flattenedURLRequest }
}
