import Courier
import CourierContract

/// Signing up, logging in, refreshing the session, and the signed-in user.
public enum OnboardingEndPoint: SocialAPIGroup {
    /// Log in with email and password.
    public static func login(email: String, password: String) -> Endpoint<AuthSession> {
        endpoint(.post, "/auth/login", "Log in with email and password", errors: [401]) {
            Body(Credentials(email: email, password: password))
        }
    }

    /// Create an account and sign in.
    public static func signup(name: String?, email: String, password: String) -> Endpoint<AuthSession> {
        endpoint(.post, "/auth/signup", "Create an account", status: 201, errors: [409]) {
            Body(SignupForm(name: name, email: email, password: password))
        }
    }

    /// Exchange a refresh token for a new session.
    public static func refresh(refreshToken: String) -> Endpoint<AuthSession> {
        endpoint(.post, "/auth/refresh", "Exchange a refresh token for a new session", errors: [401]) {
            Body(RefreshForm(refreshToken: refreshToken))
        }
    }

    /// The signed-in user.
    public static var me: Endpoint<User> {
        endpoint(.get, "/me", "The signed-in user", auth: true) {}
    }

    public static var samples: [any EndpointDescribing] {
        [
            // In the order a client calls them, so that they also work against a server with data.
            signup(name: "Ada", email: "ada@example.com", password: "secret1"),
            login(email: "ada@example.com", password: "secret1"),
            refresh(refreshToken: "r-sample"), me,
        ]
    }
}
