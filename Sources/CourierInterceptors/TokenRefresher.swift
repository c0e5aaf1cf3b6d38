import Courier

/// Runs one token refresh at a time for any number of rejected requests.
///
/// Requests rejected with the same token share one refresh: the first starts it, the rest
/// await the same task (single flight). A refreshed token is reused only for a request that
/// was rejected with exactly the token it replaced, and is forgotten as soon as the provider
/// hands out a token that is neither (a login, a logout, another user), so one user's token
/// is never replayed for another, nor after a logout.
actor TokenRefresher {
    private let provider: any TokenProvider
    private var inFlight: (rejected: String, task: Task<String, any Error>)?
    /// The last refresh: which token it replaced, and with what.
    private var refreshed: (old: String, new: String)?

    init(provider: any TokenProvider) { self.provider = provider }

    /// The token to send: the provider's, or the one replacing it while a refresh of that
    /// very token is in flight (so new requests do not go out with a token known to be
    /// rejected).
    func currentToken() async throws -> String? {
        let token = try await provider.currentToken()
        if let refreshed, token != refreshed.old, token != refreshed.new { self.refreshed = nil }
        if let token, let inFlight, inFlight.rejected == token, let fresh = try? await inFlight.task.value {
            return fresh
        }
        return token
    }

    /// A fresh token to replace `rejected`.
    func refresh(rejected: String) async throws -> String {
        if let inFlight, inFlight.rejected == rejected { return try await inFlight.task.value }
        if let refreshed, refreshed.old == rejected { return refreshed.new }
        let provider = self.provider
        let task = Task { try await provider.refreshToken() }
        inFlight = (rejected, task)
        // Another caller may enter while this one awaits; it finds `inFlight` and waits too.
        let result = await task.result
        if inFlight?.rejected == rejected { inFlight = nil }
        if case .success(let token) = result { refreshed = (rejected, token) }
        return try result.get()
    }
}
