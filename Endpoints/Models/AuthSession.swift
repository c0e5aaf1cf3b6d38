import Foundation

/// What signing up, logging in or refreshing returns: tokens and the signed-in user.
public struct AuthSession: Codable, Sendable, Hashable {
    /// The bearer token to send as `Authorization: Bearer <token>`.
    public var token: String
    /// The token that `OnboardingEndPoint.refresh` exchanges for a new session.
    public var refreshToken: String
    /// When `token` stops being accepted.
    public var expiresAt: Date
    /// The signed-in user.
    public var user: User

    /// Creates a session.
    public init(token: String, refreshToken: String, expiresAt: Date, user: User) {
        self.token = token
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.user = user
    }
}

/// The body of `OnboardingEndPoint.login`.
public struct Credentials: Codable, Sendable, Hashable {
    /// The sign-in email address.
    public var email: String
    /// The password.
    public var password: String

    /// Creates credentials.
    public init(email: String, password: String) {
        self.email = email
        self.password = password
    }
}

/// The body of `OnboardingEndPoint.signup`.
public struct SignupForm: Codable, Sendable, Hashable {
    /// The display name; the server uses the email's local part when it is missing.
    public var name: String?
    /// The sign-in email address.
    public var email: String
    /// The password, at least 6 characters.
    public var password: String

    /// Creates a signup form.
    public init(name: String?, email: String, password: String) {
        self.name = name
        self.email = email
        self.password = password
    }
}

/// The body of `OnboardingEndPoint.refresh`.
public struct RefreshForm: Codable, Sendable, Hashable {
    /// The refresh token from an earlier session.
    public var refreshToken: String

    /// Creates a refresh form.
    public init(refreshToken: String) { self.refreshToken = refreshToken }
}
