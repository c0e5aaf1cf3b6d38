import Courier
import Foundation

/// Accounts and users, onboarding included: signing up and in
/// stores the session in the client, so later calls are authorized.
public struct UserRequest: Sendable {
    /// The client calls go through.
    public let client: SocialClient

    /// Creates the service.
    public init(client: SocialClient) { self.client = client }

    /// Creates an account and signs in.
    /// - Throws: `SocialError` (`server` with status 409 when the email is taken).
    @discardableResult
    public func signup(name: String?, email: String, password: String) async throws(SocialError)
        -> AuthSession
    {
        let session = try await client.call(
            OnboardingEndPoint.signup(name: name, email: email, password: password))
        await client.session.update(session)
        return session
    }

    /// Signs in.
    /// - Throws: `SocialError` (`unauthorized` for wrong credentials).
    @discardableResult
    public func login(email: String, password: String) async throws(SocialError) -> AuthSession {
        let session = try await client.call(
            OnboardingEndPoint.login(email: email, password: password))
        await client.session.update(session)
        return session
    }

    /// Signs in, delivering the session to `success` or the error to `failure`.
    @discardableResult
    public func login(
        email: String, password: String, success: @escaping @Sendable (AuthSession) -> Void,
        failure: @escaping @Sendable (SocialError) -> Void
    ) -> Task<Void, Never> {
        client.deliver(
            { try await login(email: email, password: password) }, success: success, failure: failure)
    }

    /// Forgets the session.
    public func logout() async { await client.session.update(nil) }

    /// The signed-in user.
    /// - Throws: `SocialError` (`unauthorized` when signed out).
    public func currentUser() async throws(SocialError) -> User {
        try await client.call(OnboardingEndPoint.me)
    }

    /// One user.
    /// - Throws: `SocialError` (`notFound` for an unknown id).
    public func user(id: String) async throws(SocialError) -> User {
        try await client.call(TweetsEndPoint.user(id: id))
    }

    /// One user, delivered to `success` or `failure`.
    @discardableResult
    public func user(
        id: String, success: @escaping @Sendable (User) -> Void,
        failure: @escaping @Sendable (SocialError) -> Void
    ) -> Task<Void, Never> {
        client.deliver({ try await user(id: id) }, success: success, failure: failure)
    }

    /// Uploads the signed-in user's profile image (JPEG or PNG file) and returns the user.
    /// - Throws: `SocialError` (`storage` when the upload fails).
    public func uploadProfileImage(file: URL) async throws(SocialError) -> User {
        try await client.call(UploadEndPoint.profileImage(file: file), storage: true)
    }
}
