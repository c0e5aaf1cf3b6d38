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

    /// Builds the request with a body that may stream (multipart file parts).
    /// The default wraps `asURLRequest()`.
    /// - Throws: `CourierError` with an invalid-request code.
    func asHTTPRequest() throws -> HTTPRequest
}

extension URLRequestConvertible {
    public func asHTTPRequest() throws -> HTTPRequest {
        HTTPRequest(urlRequest: try asURLRequest())
    }
}

extension URLRequest: URLRequestConvertible {
    /// Returns the request itself.
    public func asURLRequest() throws -> URLRequest { self }
}

extension HTTPRequest: URLRequestConvertible {
    /// Returns the head with an in-memory body in `httpBody`.
    public func asURLRequest() throws -> URLRequest { flattenedURLRequest }
    /// Returns the request itself.
    public func asHTTPRequest() throws -> HTTPRequest { self }
}
