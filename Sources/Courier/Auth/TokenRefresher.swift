/// Runs one token refresh at a time for any number of rejected requests.
///
/// Requests rejected with the same token share one refresh: the first starts it, the rest
/// await the same task (single flight). A request rejected with a token older than the
/// latest refreshed one gets the latest at once, without another refresh.
actor TokenRefresher {
    private let provider: any TokenProvider
    private var inFlight: (rejected: String?, task: Task<String, any Error>)?
    private var latest: String?

    init(provider: any TokenProvider) { self.provider = provider }

    /// The token to send: the one being refreshed when a refresh is in flight (so new
    /// requests do not go out with a token known to be rejected), else the provider's.
    func currentToken() async throws -> String? {
        if let inFlight, let token = try? await inFlight.task.value { return token }
        return try await provider.currentToken()
    }

    /// A fresh token to replace `rejected`.
    func refresh(rejected: String?) async throws -> String {
        if let inFlight { return try await inFlight.task.value }
        if let latest, latest != rejected { return latest }
        let provider = self.provider
        let task = Task { try await provider.refreshToken() }
        inFlight = (rejected, task)
        // Another caller may enter while this one awaits; it finds `inFlight` and waits too.
        let result = await task.result
        inFlight = nil
        if case .success(let token) = result { latest = token }
        return try result.get()
    }
}
