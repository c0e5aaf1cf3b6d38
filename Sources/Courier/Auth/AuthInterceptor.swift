import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An interceptor that adds `Authorization: Bearer <token>` and, on a 401, refreshes the
/// token once for all concurrent requests and replays them.
///
/// A request rejected again after the refresh is returned as it is (so the caller sees
/// the 401 as `.unacceptableStatus`); it is never refreshed in a loop. A request whose
/// body cannot be replayed is not replayed. Requests that already carry an
/// `Authorization` header are left alone.
///
/// Put it inside a `RetryPolicy` (after it in the interceptor list) so that a retried
/// request gets the current token.
public struct AuthInterceptor: Interceptor {
    private let refresher: TokenRefresher
    /// The scheme written before the token. Default `Bearer`.
    public let scheme: String

    /// Creates an auth interceptor.
    /// - Parameters:
    ///   - provider: supplies and refreshes tokens.
    ///   - scheme: the authorization scheme; default `Bearer`.
    public init(provider: some TokenProvider, scheme: String = "Bearer") {
        refresher = TokenRefresher(provider: provider)
        self.scheme = scheme
    }

    /// Authorizes, sends, and on a 401 refreshes once and replays.
    /// - Throws: `.authenticationFailed` when no token can be had; `.unacceptableStatus`
    ///   (401) when the refresh fails; what `next` throws.
    public func intercept(
        _ request: TransportRequest, context: InterceptorContext,
        next: @Sendable (TransportRequest) async throws -> TransportResponse
    ) async throws -> TransportResponse {
        if request.urlRequest.value(forHTTPHeaderField: "Authorization") != nil {
            return try await next(request)
        }
        let token: String?
        do {
            token = try await refresher.currentToken()
        } catch {
            throw CourierError(
                .authenticationFailed, "the token provider failed: \(error)", request: request.urlRequest,
                underlying: error)
        }
        let response = try await next(authorized(request, token: token))
        guard response.status == 401, request.body.isReplayable else { return response }
        let fresh: String
        do {
            fresh = try await refresher.refresh(rejected: token)
        } catch {
            throw CourierError(
                .unacceptableStatus, "status 401 and the token refresh failed: \(error)",
                request: request.urlRequest, status: response.status, headers: response.headers,
                body: response.body.errorSnapshot(), underlying: error)
        }
        return try await next(authorized(request, token: fresh))
    }

    private func authorized(_ request: TransportRequest, token: String?) -> TransportRequest {
        guard let token else { return request }
        var request = request
        request.urlRequest.setValue("\(scheme) \(token)", forHTTPHeaderField: "Authorization")
        return request
    }
}
