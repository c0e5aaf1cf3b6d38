import Courier

/// Signing up, logging in, refreshing the session and the current user (seed 003).
public enum OnboardingEndPoint: ContractEndpoint {
    /// Log in with email and password; returns `AuthSession`.
    case login(email: String, password: String)
    /// Create an account; returns `AuthSession`.
    case signup(name: String?, email: String, password: String)
    /// Exchange a refresh token for a new `AuthSession`.
    case refresh(refreshToken: String)
    /// The signed-in user; returns `User`. Needs a token.
    case me

    public var operationID: String {
        switch self {
        case .login: "onboarding.login"
        case .signup: "onboarding.signup"
        case .refresh: "onboarding.refresh"
        case .me: "onboarding.me"
        }
    }

    public var method: HTTPMethod {
        switch self {
        case .login, .signup, .refresh: .post
        case .me: .get
        }
    }

    public var path: String {
        switch self {
        case .login: "/auth/login"
        case .signup: "/auth/signup"
        case .refresh: "/auth/refresh"
        case .me: "/me"
        }
    }

    public var parameters: any ParameterConvertible {
        switch self {
        case .login(let email, let password):
            JSONBody(Credentials(email: email, password: password))
        case .signup(let name, let email, let password):
            JSONBody(SignupForm(name: name, email: email, password: password))
        case .refresh(let refreshToken):
            JSONBody(RefreshForm(refreshToken: refreshToken))
        case .me:
            NoParameters()
        }
    }

    public static var samples: [OnboardingEndPoint] {
        [
            .login(email: "ada@example.com", password: "secret1"),
            .signup(name: "Ada", email: "ada@example.com", password: "secret1"),
            .refresh(refreshToken: "r-sample"),
            .me,
        ]
    }
}
