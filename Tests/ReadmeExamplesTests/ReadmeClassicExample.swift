import CourierContract
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The classic form: one case per call, and what it sends, as a `URLRequestConvertible`.
enum OnboardingEndPoint: APIConfigurable {
    case login(email: String, password: String)

    var headers: [String: String]? { ["Authorization": "<token>"] }
    var type: RequestType { .POST }
    var parameters: [String: Any] {
        switch self {
        case .login(let email, let password): ["Email": email, "Password": password]
        }
    }
    var path: String { "https://www.myserver.com/login" }
}

/// `POST https://www.myserver.com/login` with the header and the JSON body `{"Email":…,"Password":…}`.
func loginRequest() -> URLRequest? {
    OnboardingEndPoint.login(email: "ayush", password: "123456").asURLRequest()
}
