import Courier

/// Supplies bearer tokens to `AuthInterceptor`.
///
/// Implement it over your token store: `currentToken()` returns what you have (or `nil`
/// to send the request without `Authorization`), and `refreshToken()` gets a new one,
/// for instance with a refresh token. `AuthInterceptor` makes sure `refreshToken()` runs
/// once for any number of requests rejected with the same token.
public protocol TokenProvider: Sendable {
    /// The token to send now, or `nil` for none.
    /// - Throws: any error; the request fails with `.authenticationFailed`.
    func currentToken() async throws -> String?

    /// Gets a fresh token after the server rejected the current one with 401.
    /// - Throws: any error; the rejected request fails with `.unacceptableStatus` 401
    ///   carrying this error as its cause.
    func refreshToken() async throws -> String
}

extension CourierError.Code {
    /// The token provider could not supply a token for the request (an invalid-request code).
    public static let authenticationFailed = CourierError.Code("authenticationFailed", .invalidRequest)
}
