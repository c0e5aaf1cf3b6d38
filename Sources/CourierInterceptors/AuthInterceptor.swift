import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An interceptor that adds `Authorization: Bearer <token>` and, on a 401, refreshes the
/// token once for all concurrent requests and replays them.
///
/// A request rejected again after the refresh is returned as it is (so the caller sees
/// the 401 as `.unacceptableStatus`); it is never refreshed in a loop. A request sent
/// without a token (the provider had none: logged out) is not refreshed either. A request
/// whose body cannot be replayed is not replayed. Requests that already carry an
/// `Authorization` header are left alone.
///
/// The token goes only where `scope` allows: by default the origin (scheme, host and port)
/// of the manager's `baseURL`, so an absolute URL that a server handed out (a file on a
/// CDN, a link in a page) is fetched without it.
///
/// Put it inside a `RetryPolicy` (after it in the interceptor list) so that a retried
/// request gets the current token.
public struct AuthInterceptor: Interceptor {
    /// Which requests get the token.
    public struct Scope: Sendable, Hashable {
        fileprivate enum Kind: Sendable, Hashable {
            case baseURL
            case origins(Set<String>)
            case anyOrigin
        }

        fileprivate let kind: Kind

        /// The origin of the manager's `baseURL` only (the default). With no base URL, no
        /// request gets the token.
        public static let baseURL = Scope(kind: .baseURL)
        /// Every request, wherever it goes. Opt in only when every URL the manager sends to
        /// is trusted with the token.
        public static let anyOrigin = Scope(kind: .anyOrigin)

        /// The origins of these URLs (scheme, host and port; paths are ignored).
        public static func origins(_ urls: [URL]) -> Scope {
            Scope(kind: .origins(Set(urls.compactMap(Scope.origin(of:)))))
        }

        fileprivate static func origin(of url: URL) -> String? {
            guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
            let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
            return "\(scheme)://\(host):\(port)"
        }

        fileprivate func allows(_ url: URL?, baseURL: URL?) -> Bool {
            guard let url else { return false }
            switch kind {
            case .anyOrigin: return true
            case .baseURL:
                guard let baseURL, let base = Scope.origin(of: baseURL) else { return false }
                return Scope.origin(of: url) == base
            case .origins(let origins):
                return Scope.origin(of: url).map(origins.contains) ?? false
            }
        }
    }

    private let refresher: TokenRefresher
    /// The scheme written before the token. Default `Bearer`.
    package let scheme: String
    /// Which requests get the token. Default `.baseURL`.
    package let scope: Scope

    /// Creates an auth interceptor.
    /// - Parameters:
    ///   - provider: supplies and refreshes tokens.
    ///   - scheme: the authorization scheme; default `Bearer`.
    ///   - scope: which requests get the token; default the origin of the manager's base URL.
    public init(provider: some TokenProvider, scheme: String = "Bearer", scope: Scope = .baseURL) {
        refresher = TokenRefresher(provider: provider)
        self.scheme = scheme
        self.scope = scope
    }

    /// Authorizes, sends, and on a 401 refreshes once and replays.
    /// - Throws: `.authenticationFailed` when no token can be had; `.unacceptableStatus`
    ///   (401) when the refresh fails; what `next` throws.
    public func intercept(
        _ request: TransportRequest, context: InterceptorContext,
        next: @Sendable (TransportRequest) async throws -> TransportResponse
    ) async throws -> TransportResponse {
        if request.headers.contains("Authorization")
            || !scope.allows(request.url, baseURL: context.baseURL)
        {
            return try await next(request)
        }
        let token: String?
        do {
            token = try await refresher.currentToken()
        } catch {
            throw CourierError(
                .authenticationFailed, "the token provider failed: \(error)", request: request,
                underlying: error)
        }
        let response = try await next(authorized(request, token: token))
        guard response.status == 401, let token, request.body.isReplayable else { return response }
        let fresh: String
        do {
            fresh = try await refresher.refresh(rejected: token)
        } catch {
            throw CourierError(
                .unacceptableStatus, "status 401 and the token refresh failed: \(error)",
                request: request, status: response.status, headers: response.headers,
                body: response.body.errorSnapshot(), underlying: error)
        }
        return try await next(authorized(request, token: fresh))
    }

    private func authorized(_ request: TransportRequest, token: String?) -> TransportRequest {
        guard let token else { return request }
        var request = request
        request.headers.replaceOrAdd(name: "Authorization", value: "\(scheme) \(token)")
        return request
    }
}
