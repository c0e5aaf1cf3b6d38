import Courier

/// An interceptor that only adapts the request before it is sent, such as adding a header.
///
/// ```swift
/// let adapter = RequestAdapter { request in request.headers["X-Client"] = "ios" }
/// ```
public struct RequestAdapter: Interceptor {
    private let adapt: @Sendable (inout TransportRequest) async throws -> Void

    /// Creates an adapter.
    /// - Parameter adapt: changes the request; may throw to refuse it.
    public init(_ adapt: @escaping @Sendable (inout TransportRequest) async throws -> Void) {
        self.adapt = adapt
    }

    /// Adapts the request, then sends it.
    /// - Throws: what `adapt` or `next` throws.
    public func intercept(
        _ request: TransportRequest, context: InterceptorContext,
        next: @Sendable (TransportRequest) async throws -> TransportResponse
    ) async throws -> TransportResponse {
        var request = request
        try await adapt(&request)
        return try await next(request)
    }
}
