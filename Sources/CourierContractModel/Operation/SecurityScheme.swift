import CourierPrimitives
import Foundation

/// A way an operation takes credentials, as an OpenAPI security scheme: a bearer token, HTTP basic
/// authentication, or an API key in a header, the query or a cookie. An open set: `named(_:)` gives a
/// scheme the name its document uses.
///
/// ```swift
/// import CourierContract
///
/// enum TicketsAPI: API {
///     static func code(id: String) -> Endpoint<Data> {
///         endpoint(
///             .get, "/codes/{id}", "A ticket's code", security: [.basic, .apiKey("X-API-Key")],
///             contentType: "application/octet-stream"
///         ) {
///             Path("id", id)
///         }
///     }
///     static var samples: [any EndpointDescribing] { [code(id: "t1")] }
/// }
/// ```
public struct SecurityScheme: Sendable, Hashable {
    /// Where an API key goes.
    public enum KeyLocation: String, Sendable, Hashable {
        case header
        case query
        case cookie
    }

    enum Kind: Sendable, Hashable {
        case http(scheme: String)
        case apiKey(name: String, location: KeyLocation)
    }

    /// The scheme's name in the document's `components/securitySchemes`.
    public var name: String
    let kind: Kind

    /// A bearer token in `Authorization`, named `bearer`.
    public static let bearer = SecurityScheme(name: "bearer", kind: .http(scheme: "bearer"))
    /// HTTP basic authentication, named `basic`.
    public static let basic = SecurityScheme(name: "basic", kind: .http(scheme: "basic"))

    /// An API key, named `apiKey`.
    /// - Parameters:
    ///   - field: the header, query parameter or cookie that carries the key.
    ///   - location: where it goes.
    /// - Returns: the scheme.
    public static func apiKey(_ field: String, in location: KeyLocation = .header) -> SecurityScheme {
        SecurityScheme(name: "apiKey", kind: .apiKey(name: field, location: location))
    }

    /// This scheme under another name, the one the API's document gives it.
    /// - Parameter name: the name in `components/securitySchemes`.
    /// - Returns: the scheme, renamed.
    public func named(_ name: String) -> SecurityScheme {
        SecurityScheme(name: name, kind: kind)
    }

    /// The `WWW-Authenticate` challenge of an HTTP scheme (`Bearer`, `Basic`); nil for an API key,
    /// which HTTP has no challenge for.
    package var challenge: String? {
        guard case .http(let scheme) = kind else { return nil }
        return scheme.prefix(1).uppercased() + scheme.dropFirst().lowercased()
    }

    /// The OpenAPI security scheme object.
    package var definition: JSONValue {
        switch kind {
        case .http(let scheme):
            .object(["type": .string("http"), "scheme": .string(scheme)])
        case .apiKey(let name, let location):
            .object(["type": .string("apiKey"), "in": .string(location.rawValue), "name": .string(name)])
        }
    }

    /// Whether a request's header fields and query carry credentials of this scheme (not whether they
    /// are valid: that is the provider's to say).
    /// - Parameters:
    ///   - header: a request's header field by name, case-insensitively.
    ///   - query: the request's first query item of a name.
    /// - Returns: whether the credentials are there.
    package func isPresent(header: (String) -> String?, query: (String) -> String?) -> Bool {
        switch kind {
        case .http(let scheme):
            guard let value = header("Authorization") else { return false }
            let parts = value.split(separator: " ", maxSplits: 1)
            return parts.count == 2 && parts[0].lowercased() == scheme.lowercased()
                && !parts[1].trimmingCharacters(in: .whitespaces).isEmpty
        case .apiKey(let name, .header):
            return header(name)?.isEmpty == false
        case .apiKey(let name, .query):
            return query(name)?.isEmpty == false
        case .apiKey(let name, .cookie):
            let cookies = header("Cookie") ?? ""
            return cookies.split(separator: ";").contains {
                $0.trimmingCharacters(in: .whitespaces).hasPrefix(name + "=")
            }
        }
    }
}
