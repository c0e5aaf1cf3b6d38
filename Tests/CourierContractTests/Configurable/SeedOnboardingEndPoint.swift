// The classic enum as a user pastes it from the networking module Courier reads as it is: only the
// imports are added. It must compile, and send what it declares.
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

/// The same form with `GET`, whose parameters go in the query.
enum SeedSearchEndPoint: APIConfigurable {
    case search(query: String, page: Int, tags: [String])

    var type: RequestType { .GET }
    var path: String { "/search" }
    var parameters: [String: Any] {
        switch self {
        case .search(let query, let page, let tags): ["q": query, "page": page, "tags": tags]
        }
    }
}
