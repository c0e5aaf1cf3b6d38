import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A value that can become a `URLRequest`.
///
/// `asURLRequest()` throws a `CourierError` saying what was wrong rather than returning `nil`.
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
        if let managed = self as? any ManagedRequest { return try managed.makeRequest(baseURL: nil) }
        if let configurable = self as? any APIConfigurable {
            return try configurable.makeRequest(baseURL: configurable.baseURL)
        }
        return TransportRequest(urlRequest: try asURLRequest())
    }
}

/// A request that builds itself against the manager's base URL and may bring its own
/// validation and decoder: how a declared endpoint call (in `CourierContract`) reaches the
/// manager's pipeline without the core knowing its type.
package protocol ManagedRequest: URLRequestConvertible {
    /// Builds the request, resolving a relative path against `baseURL`.
    /// - Throws: `CourierError` with an invalid-request code.
    func makeRequest(baseURL: URL?) throws -> TransportRequest
    /// Which responses count as success; `nil` uses the manager's.
    var validation: Validation? { get }
    /// The decoder for the response body; `nil` uses the manager's.
    var decoder: (any ResponseBodyDecoder)? { get }
}

extension URLRequest: URLRequestConvertible {
    /// Returns the request itself.
    public func asURLRequest() throws -> URLRequest { self }
}

extension TransportRequest: URLRequestConvertible {
    /// Returns the head with an in-memory body in `httpBody`.
    public func asURLRequest() throws -> URLRequest { flattenedURLRequest }
}
