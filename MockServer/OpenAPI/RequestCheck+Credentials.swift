import CourierOpenAPI
import Foundation
import MockServer

extension RequestCheck {
    /// Whether the credentials `request` gives for `scheme` are the configured ones; true for a scheme
    /// with none configured, whose credentials need only the right form (`satisfied(_:_:)`).
    func configured(_ request: ServerRequest, _ scheme: JSONValue?) -> Bool {
        guard let scheme, !credentials.isEmpty else { return true }
        let authorization = request.headers["Authorization"]?.trimmingCharacters(in: .whitespaces) ?? ""
        func given(_ prefix: String) -> String {
            guard authorization.lowercased().hasPrefix(prefix + " ") else { return "" }
            return authorization.dropFirst(prefix.count + 1).trimmingCharacters(in: .whitespaces)
        }
        switch scheme["type"]?.stringValue {
        case "http" where scheme["scheme"]?.stringValue?.lowercased() == "basic":
            let pairs = credentials.compactMap { credential -> String? in
                guard case .basic(let user, let password) = credential else { return nil }
                return user + ":" + password
            }
            guard !pairs.isEmpty else { return true }
            guard let decoded = Data(base64Encoded: given("basic")) else { return false }
            return pairs.contains(String(decoding: decoded, as: UTF8.self))
        case "http" where scheme["scheme"]?.stringValue?.lowercased() == "bearer", "oauth2", "openIdConnect":
            let tokens = credentials.compactMap { credential -> String? in
                guard case .bearer(let token) = credential else { return nil }
                return token
            }
            return tokens.isEmpty || tokens.contains(given("bearer"))
        case "apiKey":
            guard let name = scheme["name"]?.stringValue else { return true }
            let location = scheme["in"]?.stringValue
            let values = credentials.compactMap { credential -> String? in
                guard case .apiKey(let key, let value) = credential,
                    location == "header" ? key.lowercased() == name.lowercased() : key == name
                else { return nil }
                return value
            }
            guard !values.isEmpty else { return true }
            let sent: [String] =
                switch location {
                case "header": request.headers.values(for: name)
                case "query": request.query.filter { $0.name == name }.map(\.value)
                case "cookie": request.cookies.filter { $0.name == name }.map(\.value)
                default: []
                }
            return !sent.isEmpty && sent.allSatisfy(values.contains)
        default:
            return true
        }
    }
}
