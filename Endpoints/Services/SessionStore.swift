import Courier
import CourierInterceptors
import Foundation

/// Holds the signed-in session and hands its token to `AuthInterceptor`, refreshing it
/// with the refresh token when the server answers 401.
public actor SessionStore: TokenProvider {
    /// The current session, if signed in.
    public private(set) var session: AuthSession?
    private let refresher: @Sendable (String) async throws -> AuthSession

    /// Creates a store.
    /// - Parameter refresh: exchanges a refresh token for a new session.
    public init(refresh: @escaping @Sendable (String) async throws -> AuthSession) {
        self.refresher = refresh
    }

    /// Replaces the session (`nil` signs out).
    public func update(_ session: AuthSession?) { self.session = session }

    /// The current token, or `nil` when signed out.
    public func currentToken() async throws -> String? { session?.token }

    /// Gets a new token with the refresh token.
    /// - Throws: `SocialError.Category.unauthorized` when signed out, also when the session was
    ///   signed out or replaced while the refresh was under way; what the refresh throws.
    public func refreshToken() async throws -> String {
        guard let refreshToken = session?.refreshToken else {
            throw SocialError(.unauthorized, "not signed in")
        }
        let fresh = try await refresher(refreshToken)
        // The store may have changed while the refresh was out (the actor is reentrant): a sign-out
        // or another account must not be replaced by the refreshed old session.
        guard session?.refreshToken == refreshToken else {
            throw SocialError(.unauthorized, "the session changed while its token was being refreshed")
        }
        session = fresh
        return fresh.token
    }
}
