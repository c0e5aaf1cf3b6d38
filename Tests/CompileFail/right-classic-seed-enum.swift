// Must compile: the classic enum as users write it, pasted with only the imports added, and its last line.
import CourierContract
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

enum OnboardingEndPoint: APIConfigurable {
    case login(email: String, password: String)
    case signup(name: String?, email: String, password: String)

    var headers: [String: String]? {
        return ["Authorization": "<token>"]
    }
    var type: RequestType {
        return .POST
    }
    var parameters: [String: Any] {
        switch self {
        case .login(let email, let password):
            return ["Email": email, "Password": password]
        case .signup(let name, let email, let password):
            return ["Name": name ?? "", "Email": email, "Password": password]
        }
    }
    var path: String {
        switch self {
        case .login:
            return "https://www.myserver.com/login"
        case .signup:
            return "https://www.myserver.com/signup"
        }
    }
}

let request = OnboardingEndPoint.login(email: "ayush", password: "123456").asURLRequest()
