import Courier
import CourierContract
import CourierContractModel
import Endpoints
import Foundation
import MockServer

extension SocialBackend {
    /// The user id behind the request's bearer token.
    /// - Throws: `ContractViolation` with status 401 when the token is missing, unknown or expired.
    func authenticate(_ request: SocialRequest) throws -> String {
        guard let authorization = request.header("Authorization") else {
            throw ContractViolation(
                status: 401, parameter: "Authorization", reason: "a bearer token is required")
        }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw ContractViolation(
                status: 401, parameter: "Authorization", reason: "must be \"Bearer <token>\"")
        }
        let token = String(parts[1]).trimmingCharacters(in: .whitespaces)
        let record = state.withLock { $0.tokens[token] }
        guard let record else {
            throw ContractViolation(status: 401, parameter: "Authorization", reason: "the token is not valid")
        }
        guard record.expiresAt > Date() else {
            throw ContractViolation(status: 401, parameter: "Authorization", reason: "the token has expired")
        }
        return record.userId
    }

    func login(_ credentials: Credentials, origin: String) throws -> SocialResponse {
        let session = try state.withLock { state -> AuthSession in
            guard let id = state.emailIndex[credentials.email.lowercased()],
                let record = state.users[id], record.password == credentials.password
            else { throw SocialFailure.status(401, "unauthorized", "wrong email or password") }
            return issueSession(for: record.id, in: &state, origin: origin)
        }
        var response = SocialResponse.json(session)
        response.headers.append(
            ("Set-Cookie", Self.sessionCookie(session.user.id) + "; Path=/; HttpOnly; Max-Age=3600"))
        return response
    }

    /// The cookie a login sets, which `GET /me` recognises (`X-Session-Cookie: recognised`),
    /// so a client can show that its cookie jar works.
    static func sessionCookie(_ userId: String) -> String { "courier_session=\(userId)" }

    func signup(_ form: SignupForm, origin: String) throws -> SocialResponse {
        let session = try state.withLock { state -> AuthSession in
            let email = form.email.lowercased()
            guard state.emailIndex[email] == nil else {
                throw SocialFailure.status(409, "conflict", "\(form.email) is already registered")
            }
            let id = String(format: "u-%06d", state.nextNumber())
            let name = form.name ?? String(form.email.prefix { $0 != "@" })
            state.users[id] = SocialState.UserRecord(
                id: id, name: name.isEmpty ? "user" : name, email: form.email, password: form.password,
                createdAt: Date())
            state.userOrder.append(id)
            state.emailIndex[email] = id
            return issueSession(for: id, in: &state, origin: origin)
        }
        return .json(session, status: 201)
    }

    func refresh(_ form: RefreshForm, origin: String) throws -> SocialResponse {
        let session = try state.withLock { state -> AuthSession in
            guard let userId = state.refreshTokens[form.refreshToken], state.users[userId] != nil else {
                throw SocialFailure.status(401, "unauthorized", "the refresh token is not valid")
            }
            return issueSession(for: userId, in: &state, origin: origin, refreshToken: form.refreshToken)
        }
        return .json(session)
    }

    func currentUser(_ userId: String, origin: String, cookie: String?) throws -> SocialResponse {
        guard let user = state.withLock({ $0.user(userId, origin: origin) }) else {
            throw SocialFailure.status(401, "unauthorized", "the token's user no longer exists")
        }
        var response = SocialResponse.json(user)
        let sent = (cookie ?? "").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        if sent.contains(Self.sessionCookie(userId)) {
            response.headers.append(("X-Session-Cookie", "recognised"))
        }
        return response
    }

    /// A new token (and a refresh token unless one is reused) for `userId`.
    func issueSession(
        for userId: String, in state: inout SocialState, origin: String, refreshToken: String? = nil
    ) -> AuthSession {
        let token = "tok-" + UUID().uuidString.lowercased()
        let expiresAt = Date(timeIntervalSinceNow: tokenLifetime)
        // Expired tokens are dropped now and then (each time the table has doubled), so a long
        // run of logins and refreshes does not grow it without bound.
        if state.tokens.count >= state.tokenPurgeAt {
            let now = Date()
            state.tokens = state.tokens.filter { $0.value.expiresAt > now }
            state.tokenPurgeAt = max(1024, state.tokens.count * 2)
        }
        state.tokens[token] = SocialState.TokenRecord(userId: userId, expiresAt: expiresAt)
        let refresh = refreshToken ?? "ref-" + UUID().uuidString.lowercased()
        state.refreshTokens[refresh] = userId
        // allowed: the caller checked the user exists under the same lock
        let user = state.user(userId, origin: origin)!
        return AuthSession(token: token, refreshToken: refresh, expiresAt: expiresAt, user: user)
    }
}
