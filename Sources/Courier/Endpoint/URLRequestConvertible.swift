import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A value that can become a request: a `URLRequest`, or (in `CourierContract`) an
/// `APIConfigurable` enum.
///
/// `NetworkManager` sends what `makeRequest(baseURL:)` builds, and building throws a
/// `CourierError` saying what was wrong rather than returning `nil`. A request may choose its
/// own validation and decoder; by default it takes the manager's.
public protocol URLRequestConvertible: Sendable {
    /// Builds the request that `NetworkManager` sends, resolving a relative path against `baseURL`.
    /// - Parameter baseURL: the manager's base URL; `nil` leaves a relative path relative.
    /// - Throws: `CourierError` with an invalid-request code.
    func makeRequest(baseURL: URL?) throws -> TransportRequest
    /// Which responses count as success for this request; `nil` (the default) uses the manager's.
    var validation: Validation? { get }
    /// The decoder for this request's response body; `nil` (the default) uses the manager's.
    var decoder: (any ResponseBodyDecoder)? { get }
}

extension URLRequestConvertible {
    public var validation: Validation? { nil }
    public var decoder: (any ResponseBodyDecoder)? { nil }

    /// The request built without a base URL, as a Foundation `URLRequest`, with an in-memory
    /// body in `httpBody` (a file or stream body is not copied).
    /// - Throws: `CourierError` with an invalid-request code.
    public func asURLRequest() throws -> URLRequest { try makeRequest(baseURL: nil).flattenedURLRequest }
}

/// A request that builds itself and chooses its own validation and decoder without being a
/// `URLRequestConvertible`: how a declared endpoint, whose `send` decodes its own response
/// type, reaches `NetworkManager`.
package protocol TransportRequestConvertible: Sendable {
    /// Builds the request, resolving a relative path against `baseURL`.
    /// - Throws: `CourierError` with an invalid-request code.
    func makeRequest(baseURL: URL?) throws -> TransportRequest
    /// Which responses count as success for this request; `nil` uses the manager's.
    var validation: Validation? { get }
    /// The decoder for this request's response body; `nil` uses the manager's.
    var decoder: (any ResponseBodyDecoder)? { get }
}

extension URLRequest: URLRequestConvertible {
    /// The request's method, URL, headers, timeout and body, with a relative URL resolved
    /// against `baseURL`.
    /// - Throws: `CourierError` `.invalidURL` for a relative URL that cannot be resolved.
    public func makeRequest(baseURL: URL?) throws -> TransportRequest {
        var request = TransportRequest(urlRequest: self)
        if request.url.scheme == nil {
            request.url = try URL.joining(path: request.url.absoluteString, base: baseURL)
        }
        return request
    }

    /// Returns the request itself.
    public func asURLRequest() -> URLRequest { self }
}
