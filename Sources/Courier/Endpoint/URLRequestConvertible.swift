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

/// A request that builds Courier's own `TransportRequest` itself, rather than a `URLRequest`:
/// its path resolved against the manager's base URL, a body that streams from a file, and
/// its own choice of validation and decoder.
///
/// `APIConfigurable` enums and declared endpoint calls (both in `CourierContract`) reach
/// `NetworkManager` this way; a request type of your own can too.
public protocol TransportRequestConvertible: URLRequestConvertible {
    /// Builds the request, resolving a relative path against `baseURL`.
    /// - Parameter baseURL: the manager's base URL; `nil` leaves a relative path relative.
    /// - Throws: `CourierError` with an invalid-request code.
    func makeRequest(baseURL: URL?) throws -> TransportRequest
    /// Which responses count as success for this request; `nil` uses the manager's.
    var validation: Validation? { get }
    /// The decoder for this request's response body; `nil` uses the manager's.
    var decoder: (any ResponseBodyDecoder)? { get }
}

extension TransportRequestConvertible {
    public var validation: Validation? { nil }
    public var decoder: (any ResponseBodyDecoder)? { nil }

    /// The request built without a base URL, with an in-memory body in `httpBody` (a file
    /// or stream body is not copied).
    public func asURLRequest() throws -> URLRequest { try makeRequest(baseURL: nil).flattenedURLRequest }
}

extension URLRequest: URLRequestConvertible {
    /// Returns the request itself.
    public func asURLRequest() throws -> URLRequest { self }
}

extension TransportRequest: URLRequestConvertible {
    /// Returns the head with an in-memory body in `httpBody`.
    public func asURLRequest() throws -> URLRequest { flattenedURLRequest }
}
