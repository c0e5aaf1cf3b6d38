import CourierPrimitives
import Foundation

extension SocialBackend {
    /// The path Pact verifiers post provider states to, when the backend serves them.
    public static let providerStatesPath = "/_pact/provider-states"

    /// Sets the backend up for one provider state a pact names, as a verifier posts it:
    /// `{"action": "setup", "params": {…}, "state": "…"}`. Known states:
    ///
    /// - `sample data exists` (param `count`, default 3): the seeded users, posts and tweets, made once;
    /// - `a user is signed in` (params `token`, and `email`, default `user1@example.com`): the sample
    ///   data, and `token` a valid bearer token of that user.
    ///
    /// A teardown, or the empty state Pact's verifier posts for an interaction without one, is
    /// accepted and changes nothing; an unknown state is a 400 naming the known ones.
    func setProviderState(_ request: SocialRequest) -> SocialResponse {
        guard request.method == "POST" else {
            return .error(405, "method_not_allowed", "POST a provider state here")
        }
        guard let body = try? JSONValue.parseStrictly(request.body), let name = body["state"]?.stringValue
        else {
            return .error(400, "bad_request", "the body must be JSON with a 'state'", parameter: "state")
        }
        if body["action"]?.stringValue == "teardown" { return .json(["state": name]) }
        let params = body["params"] ?? .object([:])
        do {
            switch name {
            case "":
                break  // Pact's verifier posts an empty state for an interaction that needs none
            case "sample data exists":
                try seedOnce(count: params["count"]?.intValue ?? 3)
            case "a user is signed in":
                guard let token = params["token"]?.stringValue, !token.isEmpty else {
                    return .error(
                        400, "bad_request", "'a user is signed in' needs a 'token' param", parameter: "token")
                }
                try seedOnce(count: 3)
                let email = params["email"]?.stringValue ?? "user1@example.com"
                let installed = state.withLock { state -> Bool in
                    guard let userId = state.emailIndex[email] else { return false }
                    state.tokens[token] = SocialState.TokenRecord(
                        userId: userId, expiresAt: Date().addingTimeInterval(tokenLifetime))
                    return true
                }
                guard installed else {
                    return .error(400, "bad_request", "no user \(email)", parameter: "email")
                }
            default:
                return .error(
                    400, "unknown_state",
                    "unknown provider state '\(name)'; known: 'sample data exists', 'a user is signed in'")
            }
        } catch {
            return .error(500, "internal", "cannot set up '\(name)': \(error)")
        }
        return .json(["state": name])
    }

    /// Seeds `count` posts and tweets unless there are posts already.
    private func seedOnce(count: Int) throws {
        guard state.withLock({ $0.posts.isEmpty }) else { return }
        try seedData(count: count)
    }
}
